#pragma once
// The layer-by-timestep heatmap: one row per node (forward, loss, backward,
// with divider lines and names on the axis), one column per stage, one
// categorical colour per cell (cell_category.h) and a legend. Hover explains a
// cell in words; the wheel zooms, a drag pans, a double-click resets; a click
// selects a node and highlights its row and its dependencies. The same drawing
// code renders exports as vector rectangles (PDF/SVG) or pixels (PNG).
#include <QMargins>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>

class QLabel;

#include "cell_category.h"
#include "graph.h"
#include "schedule.h"

namespace poet::ui {

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setSchedule(const Graph& graph, const Schedule& schedule, const QString& title = {});
    void clear();
    bool hasSchedule() const { return grid_.size() > 0; }
    const CategoryGrid& grid() const { return grid_; }
    // Shown in place of the grid while there is no schedule; rich text, its
    // links emit placeholderLinkActivated.
    void setPlaceholderText(const QString& text);
    QString placeholderText() const;

    int selectedNode() const { return selected_; }
    void setSelectedNode(int node);      // -1: none
    void setCurrentOp(int stage, int node);  // teaching mode; (-1, -1): none
    void resetZoom();
    double zoom() const { return zoom_; }
    // The keyboard's cell cursor: {node, stage}, {-1, -1} before an arrow
    // key moved it; and what its cell holds, in words.
    std::pair<int, int> keyCell() const { return {keyNode_, keyStage_}; }
    QString keyCellText() const;

    // The stages in view, [first, last) in stage units (fractional when
    // panned), and a way to set them: the memory timeline below follows the
    // heatmap's zoom and drives it (StageAxisLink). Zoom stays uniform, so
    // the rows zoom with the stages.
    std::pair<double, double> stageWindow() const;
    void showStages(double first, double last);
    // Where the grid starts and ends, from the widget's left and right
    // edges, as the layout puts it alone; and the least room to keep there,
    // so that the grid's stages stand over the timeline's (exports ignore it).
    QMargins naturalStageMargins() const;
    void setStageMargins(const QMargins& margins);

    // Where a cell is drawn in widget coordinates (for tests and tooltips).
    QRectF cellRect(int node, int stage) const;
    // The cell under a widget point: {node, stage}, or {-1, -1}.
    std::pair<int, int> cellAt(QPointF pos) const;
    // What hovering a widget point shows: a cell's, a layer's or a legend
    // entry's words; empty elsewhere.
    QString toolTipAt(QPointF pos) const;

    // Draws the whole heatmap (title, axes, legend; no zoom, no hover) into
    // `target` on any painter: QImage, QPdfWriter, QSvgGenerator.
    void renderTo(QPainter& painter, const QRectF& target) const;
    QSizeF exportSize() const;  // a good page size in logical pixels, at most 7 in each way

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void nodeSelected(int node);
    void placeholderLinkActivated(const QString& link);
    // The zoom or the pan changed (by the user or by showStages/resetZoom).
    void stageWindowChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void focusInEvent(QFocusEvent* e) override;   // the key cell's square shows with the focus
    void focusOutEvent(QFocusEvent* e) override;

public:
    struct Layout {
        QRectF title, stageAxis, kindBand, labels, grid, legend;
        double col0 = 0, row0 = 0;   // first visible column/row (fractional)
        double cellW = 1, cellH = 1;
        int labelStep = 1, stageStep = 1;
        bool allCategories = true;  // in the legend; an export's names those it shows
    };

private:
    // forExport: titled, the legend only the categories drawn.
    Layout layoutFor(const QRectF& area, const QFont& font, bool forExport, double zoom, double col0, double row0,
                     const QMargins& stageMargins) const;
    void paintAll(QPainter& p, const Layout& L, const QFont& font, bool interactive) const;
    Layout currentLayout() const;
    void clampOffsets();
    void moveKeyCell(int nodes, int stages);
    void viewMoved();  // after a zoom or pan: repaint and tell the timeline

    Graph graph_;
    Schedule schedule_;
    CategoryGrid grid_;
    QString title_;
    QLabel* placeholder_;
    int selected_ = -1;
    int keyNode_ = -1, keyStage_ = -1;  // the keyboard's cell cursor
    int curStage_ = -1, curNode_ = -1;
    double zoom_ = 1.0;
    double col0_ = 0, row0_ = 0;
    QMargins stageMargins_;
    QPointF pressPos_;
    double pressCol0_ = 0, pressRow0_ = 0;
    bool dragging_ = false;
};

}  // namespace poet::ui
