#pragma once
// The memory timeline: RAM in use after every op of every stage (from the
// replay's ram_trace), the RAM budget, the plain pass's curve for comparison,
// and flash traffic (bytes paged in and out per stage) as bars on a second
// axis. x is the stage: op k of stage t sits at t + k/(t+1).
#include <QMargins>
#include <QWidget>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph.h"
#include "replay.h"
#include "schedule.h"

class QCustomPlot;
class QCPGraph;
class QCPBars;
class QCPItemStraightLine;
class QCPPainter;

namespace poet::ui {

struct TimelineSeries {
    std::vector<double> x, ram;          // step curve, one point per op (+ one closing point)
    std::vector<double> stageX;          // t + 0.5
    std::vector<double> pageInBytes, pageOutBytes;  // per stage
};
// Pure: builds the curves from a replay and a schedule.
TimelineSeries timelineSeries(const Graph& g, const Schedule& s, const ReplayReport& r);
double opPosition(int stage, int op);  // t + k/(t+1)

// The RAM axis's top: the schedule's peak (the plain pass's where there is
// no schedule), and the plain pass's peak and the budget each where it is at
// most kOnScale times that. Farther above, a value would squeeze the curve
// the view is about: linear on m4 under 3 GB drew 7.4 kB curves flat under
// an axis to 3000 MB, and resnet18_cifar on m4 at 16% kept its schedule in
// the bottom sixth under the plain pass's 2.45 MB, its flash bars over it.
// What is off the scale says so in its legend entry.
inline constexpr double kOnScale = 2.5;
double ramAxisTopBytes(double schedule_peak, double plain_peak, double budget);
// The unit of an axis of bytes up to `maxBytes`: 1e6 (MB), 1e3 (kB), or 1
// (B) under a kilobyte; and its name.
double axisUnitBytes(double maxBytes);
QString unitName(double unitBytes);

class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);

    // `plain` is the replay of the plain pass (may be invalid: then not drawn).
    void setData(const Graph& g, const Schedule& s, const ReplayReport& report, const ReplayReport& plain,
                 std::int64_t ramBudgetBytes);
    void setBudget(std::int64_t ramBudgetBytes);
    void clear();
    // Where there is no schedule (an infeasible budget): the plain pass and
    // the budget alone, so one sees how far below the plain pass's peak the
    // budget is. hasData() stays false: there is no schedule to export.
    void showPlainOnly(const Graph& g, const ReplayReport& plain, std::int64_t ramBudgetBytes);
    bool hasData() const { return hasData_; }
    void setCurrentOp(int stage, int op);  // (-1, -1): none

    // The stage axis in step with the heatmap above it (StageAxisLink):
    // the stages shown, and where the plot area starts and ends from the
    // widget's edges. naturalStageMargins() is what the axes need alone;
    // setStageMargins() asks for at least that much (exports ignore it).
    void showStages(double first, double last);
    QMargins naturalStageMargins();
    void setStageMargins(const QMargins& margins);

    QCustomPlot* plot() const { return plot_; }
    // The tooltip at a pixel of the plot: over the curves, the RAM in use
    // after that op (this schedule's and the plain pass's), the budget and
    // the stage's flash traffic; elsewhere what the view shows.
    QString toolTipAt(const QPointF& pixel) const;
    // From the keyboard: Left and Right move an op cursor (Shift: a stage),
    // Home and End to the first and last op; it says what hovering its op
    // says (keyOpText(), the tooltip's text; the accessible description in
    // plain words) and pans a zoomed axis to it. +, - and 0 zoom in, out and
    // show all stages. (-1, -1) before the first key.
    std::pair<int, int> keyOp() const { return {keyStage_, keyOpIndex_}; }
    QString keyOpText() const;
    // Draws the plot into `target` (vector on PDF/SVG painters), with
    // `title` above it (the heatmap's: the timeline's export alone could
    // not be told apart) and half a line clear of the page's edges.
    void renderTo(QCPPainter& painter, const QRectF& target, const QString& title = {});
    QSizeF exportSize() const;  // with room for a title
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

signals:
    // The user zoomed or panned the stage axis (wheel, drag, double-click);
    // not emitted where the view set its range itself.
    void stagesMovedByUser(double first, double last);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* e) override;
    void focusInEvent(QFocusEvent* e) override;  // the op cursor shows with the focus
    void focusOutEvent(QFocusEvent* e) override;

private:
    void rescale();
    void setStageRange(double first, double last);  // without stagesMovedByUser
    QMargins plotAreaMargins() const;
    void fillLegend(bool schedule, bool paging);
    void wrapLegend(double width);
    // The axes' titles as the plot's height holds them: a rotated title
    // longer than its axis ran up into the legend (1280 x 720) and out of
    // the widget. Shorter words, or none, where the axis is short.
    void setAxisTitles(const QString& ram, const QString& flash);
    void fitAxisTitles();
    double oneLineLegendWidth() const;
    void namePlainCurve(double peak_bytes);
    void setRamScale(double maxBytes);
    // What hovering op k of stage t says (HTML).
    QString opText(int t, int k) const;
    bool hasKeyOp() const { return keyStage_ >= 0 && keyStage_ < stages_; }  // an op of the curves drawn
    void moveKeyOp(int ops, int stages);
    void zoomStages(double factor);  // about the op cursor, else the middle
    void showKeyOp();
    void keepForToolTip(const Graph& g, const Schedule& s, std::vector<std::vector<std::int64_t>> trace,
                        std::vector<std::vector<std::int64_t>> plain);

    QCustomPlot* plot_ = nullptr;
    QCPGraph* ram_ = nullptr;
    QCPGraph* plain_ = nullptr;
    QCPGraph* budget_ = nullptr;
    QCPBars* pageIn_ = nullptr;
    QCPBars* pageOut_ = nullptr;
    QCPItemStraightLine* cursor_ = nullptr;     // teaching mode's op
    QCPItemStraightLine* keyCursor_ = nullptr;  // the keyboard's op
    int keyStage_ = -1, keyOpIndex_ = -1;
    double unit_ = 1e6;
    double flashUnit_ = 1e3;
    QString ramTitle_, flashTitle_;  // in full, as setAxisTitles was given them
    int stages_ = 0;
    std::int64_t budget_bytes_ = 0;
    double maxRam_ = 0;
    bool hasData_ = false;  // a schedule's curves
    bool drawn_ = false;    // any curve (the plain pass alone too): the axes' units and stages_ hold
    bool settingRange_ = false;
    // For the tooltip: what the curves were drawn from.
    std::vector<std::string> nodeNames_;
    BoolMatrix computed_;  // the schedule's R: which slot runs (the whole schedule is five times as large)
    std::vector<std::vector<std::int64_t>> trace_, plainTrace_;  // empty: not drawn
    std::vector<double> pageInBytes_, pageOutBytes_;              // per stage
};

}  // namespace poet::ui
