#include "heatmap_view.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "cell_palette.h"
#include "figure_text.h"
#include "units.h"

namespace poet::ui {

namespace {

constexpr CellCategory kLegendOrder[] = {
    CellCategory::ComputedFirst, CellCategory::Recomputed, CellCategory::InRam,   CellCategory::OnFlash,
    CellCategory::InRamAndFlash, CellCategory::PagedOut,   CellCategory::PagedIn, CellCategory::Absent,
};

QColor kindColor(NodeKind k) {
    switch (k) {
    case NodeKind::Forward: return QColor(0xDD, 0xE6, 0xF0);
    case NodeKind::Loss: return QColor(0x55, 0x55, 0x55);
    case NodeKind::Backward: return QColor(0xF3, 0xE3, 0xD3);
    }
    return Qt::lightGray;
}

int niceStep(double minStep) {
    static const int steps[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};
    for (int s : steps)
        if (s >= minStep) return s;
    return 10000;
}

// The last legend entry, for the dashed lines: students asked what they were.
const char* const kDividerWords = "forward | loss | backward";
const char* const kDividerExplanation =
    "The dashed lines bracket the loss's stage: the stages left of them run the forward pass, those right of them "
    "the backward pass (stage t computes node t, the row of the same number).";

QString legendText(std::optional<CellCategory> c, const CategoryGrid& g) {
    if (!c) return QObject::tr(kDividerWords);
    return QStringLiteral("%1 (%2)").arg(QString::fromUtf8(categoryName(*c))).arg(g.count(*c));
}

// Legend entries laid out left to right, wrapping; returns the rows' rects.
struct LegendItem {
    std::optional<CellCategory> cat;  // none: the dashed lines' entry
    QRectF swatch, text;
};

std::vector<LegendItem> legendItems(const QRectF& area, const QFontMetricsF& fm, const CategoryGrid& g,
                                    double* neededHeight, bool allCategories) {
    std::vector<LegendItem> out;
    const double sw = fm.height() * 0.9, gap = fm.height() * 0.35, itemGap = fm.height() * 1.1;
    const double lineH = fm.height() * 1.35;
    double x = area.left(), y = area.top();
    std::vector<std::optional<CellCategory>> entries;
    for (const CellCategory c : kLegendOrder)
        if (allCategories || g.count(c) > 0) entries.push_back(c);
    entries.push_back(std::nullopt);
    for (const std::optional<CellCategory> c : entries) {
        const double tw = fm.horizontalAdvance(legendText(c, g));
        const double w = sw + gap + tw;
        if (x > area.left() && x + w > area.right()) {
            x = area.left();
            y += lineH;
        }
        LegendItem it;
        it.cat = c;
        it.swatch = QRectF(x, y + (lineH - sw) / 2, sw, sw);
        it.text = QRectF(x + sw + gap, y, tw + 1, lineH);
        out.push_back(it);
        x += w + itemGap;
    }
    if (neededHeight) *neededHeight = (y - area.top()) + lineH;
    return out;
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // A label, not painted text: the status line's link in it ("Use 3,256 B")
    // works here too; painted, it read as a link and did nothing.
    placeholder_ = new QLabel(this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setTextFormat(Qt::RichText);
    placeholder_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    connect(placeholder_, &QLabel::linkActivated, this, &HeatmapView::placeholderLinkActivated);
    setPlaceholderText(tr("No schedule yet."));
    setToolTip(QString());
    setAccessibleName(tr("Schedule heatmap"));
    setWhatsThis(tr("One row per layer (forward, loss, backward), one column per stage. Colours show what the "
                    "schedule does with each layer's output at each stage. Wheel: zoom; drag: pan; double-click: "
                    "reset; click: select a layer and highlight what it reads. Keys: the arrows (Shift: ten at a "
                    "time) move a cell cursor that says what its cell holds; Enter or Space selects its layer; + "
                    "and - zoom, 0 or Home shows all. The memory timeline below shows the same stages."));
}

void HeatmapView::setPlaceholderText(const QString& text) {
    placeholder_->setText(text);
    update();
}

QString HeatmapView::placeholderText() const { return placeholder_->text(); }

void HeatmapView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const int m = fontMetrics().height();
    placeholder_->setGeometry(rect().adjusted(m, m, -m, -m));
}

void HeatmapView::setSchedule(const Graph& graph, const Schedule& schedule, const QString& title) {
    if (graph.size() != schedule.size()) {
        clear();
        return;
    }
    const bool sameShape = graph_.size() == graph.size();
    graph_ = graph;
    schedule_ = schedule;
    grid_ = classifySchedule(schedule);
    title_ = title;
    if (!sameShape) {
        selected_ = -1;
        keyNode_ = keyStage_ = -1;  // another network's cell
        resetZoom();
    }
    if (selected_ >= graph_.size()) selected_ = -1;
    placeholder_->hide();
    update();
}

void HeatmapView::clear() {
    graph_ = Graph();
    schedule_ = Schedule();
    grid_ = CategoryGrid();
    selected_ = -1;
    curStage_ = curNode_ = -1;
    keyNode_ = keyStage_ = -1;
    placeholder_->show();
    update();
}

void HeatmapView::setSelectedNode(int node) {
    if (node >= grid_.size()) node = -1;
    if (node == selected_) return;
    selected_ = node;
    update();
    emit nodeSelected(node);
}

void HeatmapView::setCurrentOp(int stage, int node) {
    curStage_ = stage;
    curNode_ = node;
    update();
}

void HeatmapView::resetZoom() {
    zoom_ = 1.0;
    col0_ = row0_ = 0;
    viewMoved();
}

void HeatmapView::viewMoved() {
    update();
    emit stageWindowChanged();
}

std::pair<double, double> HeatmapView::stageWindow() const {
    const double n = std::max(grid_.size(), 1);
    return {col0_, col0_ + n / zoom_};
}

void HeatmapView::showStages(double first, double last) {
    if (!hasSchedule() || !(last > first)) return;
    const double n = grid_.size();
    const double newZoom = std::clamp(n / (last - first), 1.0, std::max(1.0, n / 4.0));
    // Keep the middle of the asked window in the middle, where the zoom had to be clamped.
    const double middle = (first + last) / 2;
    const double rowMiddle = row0_ + n / zoom_ / 2;
    zoom_ = newZoom;
    col0_ = middle - n / zoom_ / 2;
    row0_ = rowMiddle - n / zoom_ / 2;
    clampOffsets();
    viewMoved();
}

QMargins HeatmapView::naturalStageMargins() const {
    const Layout L = layoutFor(QRectF(rect()), font(), false, zoom_, col0_, row0_, QMargins());
    return QMargins(static_cast<int>(std::ceil(L.grid.left())), 0,
                    static_cast<int>(std::ceil(width() - L.grid.right())), 0);
}

void HeatmapView::setStageMargins(const QMargins& margins) {
    if (margins == stageMargins_) return;
    stageMargins_ = margins;
    update();
}

QSize HeatmapView::sizeHint() const {
    const QFontMetrics fm(font());
    return QSize(fm.height() * 50, fm.height() * 32);
}

QSize HeatmapView::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return QSize(fm.height() * 16, fm.height() * 10);
}

QSizeF HeatmapView::exportSize() const {
    const QFontMetricsF fm(font());
    const double n = std::max(grid_.size(), 10);
    const double cell = std::clamp(fm.height() * 0.6, 4.0, 10.0);
    // At most a page's text width, 7 in (96 px an inch), each way: cells
    // shrink, text keeps its size. resnet18_cifar's was 13.9 x 13.1 in and
    // bert's 19.3 x 18.5 in, their 9 pt text 3 to 4.5 pt once scaled to a
    // page (the PDF's cells are vectors: zoomed in, each is still there).
    // Rows a line high where that fits, so that every layer is named
    // (linear's figure named every other one, "loss" not).
    constexpr double kPage = 7 * 96;
    return QSizeF(std::min(kPage, std::max(fm.height() * 40, n * cell + fm.height() * 16)),
                  std::min(kPage, std::max(fm.height() * 30, n * fm.height() + fm.height() * 11)));
}

HeatmapView::Layout HeatmapView::layoutFor(const QRectF& area, const QFont& font, bool forExport, double zoom,
                                           double col0, double row0, const QMargins& stageMargins) const {
    Layout L;
    // A figure's legend names what it shows: "paged in (0)" and three more
    // flash categories stood in every figure made without paging. On screen
    // all stay, the vocabulary of the view.
    L.allCategories = !forExport;
    const QFontMetricsF fm(font);
    const double pad = fm.height() * 0.5;
    QRectF r = area.adjusted(pad, pad, -pad, -pad);
    if (forExport && !title_.isEmpty()) {
        // As many lines as it takes at this width: on one, a long title lost
        // its end at the page's edge ("... no paging — opti").
        QFont bold = font;
        bold.setBold(true);
        const double h = QFontMetricsF(bold)
                             .boundingRect(QRectF(0, 0, r.width(), 1e6), Qt::TextWordWrap, keepFiguresWhole(title_))
                             .height();
        L.title = QRectF(r.left(), r.top(), r.width(), h + fm.height() * 0.5);
        r.setTop(L.title.bottom());
    }
    double legendH = 0;
    legendItems(QRectF(r.left(), 0, r.width(), 0), fm, grid_, &legendH, L.allCategories);
    L.legend = QRectF(r.left(), r.bottom() - legendH, r.width(), legendH);
    r.setBottom(L.legend.top() - pad);

    double labelW = fm.horizontalAdvance(QStringLiteral("layer"));
    for (const auto& n : graph_.nodes())
        labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(n.name)));
    labelW = std::min(labelW + pad, std::max(fm.height() * 4, r.width() * 0.22));
    const double bandW = fm.height() * 1.2;
    // The grid starts and ends no nearer the edges than stageMargins asks:
    // the labels' column takes the extra room on the left (the names stay
    // against the grid), the right edge gives it up.
    const double gridLeft = std::max(r.left() + bandW + labelW, area.left() + stageMargins.left());
    const double gridRight = std::min(r.right(), area.right() - stageMargins.right());
    labelW = gridLeft - r.left() - bandW;
    L.stageAxis = QRectF(gridLeft, r.top(), std::max(gridRight - gridLeft, 1.0), fm.height() * 1.4);
    L.kindBand = QRectF(r.left(), L.stageAxis.bottom(), bandW, r.bottom() - L.stageAxis.bottom());
    L.labels = QRectF(L.kindBand.right(), L.kindBand.top(), labelW, L.kindBand.height());
    L.grid = QRectF(L.labels.right(), L.kindBand.top(), L.stageAxis.width(), L.kindBand.height());

    const int n = std::max(grid_.size(), 1);
    const double visible = n / zoom;
    L.cellW = L.grid.width() / visible;
    L.cellH = L.grid.height() / visible;
    L.col0 = col0;
    L.row0 = row0;
    L.labelStep = std::max(1, static_cast<int>(std::ceil(fm.height() * 0.95 / L.cellH)));
    L.stageStep = niceStep(fm.horizontalAdvance(QStringLiteral("0000")) * 1.3 / L.cellW);
    return L;
}

HeatmapView::Layout HeatmapView::currentLayout() const {
    return layoutFor(QRectF(rect()), font(), false, zoom_, col0_, row0_, stageMargins_);
}

QRectF HeatmapView::cellRect(int node, int stage) const {
    const Layout L = currentLayout();
    return QRectF(L.grid.left() + (stage - L.col0) * L.cellW, L.grid.top() + (node - L.row0) * L.cellH, L.cellW,
                  L.cellH);
}

std::pair<int, int> HeatmapView::cellAt(QPointF pos) const {
    if (!hasSchedule()) return {-1, -1};
    const Layout L = currentLayout();
    if (!L.grid.contains(pos)) return {-1, -1};
    const int stage = static_cast<int>(std::floor(L.col0 + (pos.x() - L.grid.left()) / L.cellW));
    const int node = static_cast<int>(std::floor(L.row0 + (pos.y() - L.grid.top()) / L.cellH));
    if (stage < 0 || node < 0 || stage >= grid_.size() || node >= grid_.size()) return {-1, -1};
    return {node, stage};
}

void HeatmapView::paintAll(QPainter& p, const Layout& L, const QFont& font, bool interactive) const {
    // An export is the schedule alone: a row clicked before Ctrl+E, or the
    // teaching walk's ring, went into the paper's figure.
    const int selected = interactive ? selected_ : -1;
    const int curStage = interactive ? curStage_ : -1;
    const QFontMetricsF fm(font);
    p.setFont(font);
    const int n = grid_.size();
    const QColor ink(0x22, 0x22, 0x22);

    if (!L.title.isEmpty()) {
        QFont tf = font;
        tf.setBold(true);
        p.setFont(tf);
        p.setPen(ink);
        p.drawText(L.title, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, keepFiguresWhole(title_));
        p.setFont(font);
    }

    const auto rowY = [&](double row) { return L.grid.top() + (row - L.row0) * L.cellH; };
    const auto colX = [&](double col) { return L.grid.left() + (col - L.col0) * L.cellW; };
    const int r0 = std::max(0, static_cast<int>(std::floor(L.row0)));
    const int r1 = std::min(n, static_cast<int>(std::ceil(L.row0 + L.grid.height() / L.cellH)));
    const int c0 = std::max(0, static_cast<int>(std::floor(L.col0)));
    const int c1 = std::min(n, static_cast<int>(std::ceil(L.col0 + L.grid.width() / L.cellW)));

    // Cells: runs of one category per row as one rectangle (fewer shapes in PDF/SVG).
    // The flash states' hatch (cell_palette.h) where a cell is large enough
    // to show it: on screen from 6 px; an export is vectors or a PNG at
    // print density, so always there.
    const double cellSide = std::min(L.cellW, L.cellH);
    const double hatchSpacing = interactive && cellSide < 6 ? 0 : std::min(cellSide / 2, fm.height() * 0.45);
    std::map<CellCategory, std::vector<QLineF>> hatches;
    const QPointF cellOrigin(colX(0), rowY(0));
    p.save();
    p.setClipRect(L.grid);
    p.fillRect(L.grid, Qt::white);
    p.setPen(Qt::NoPen);
    for (int r = r0; r < r1; ++r) {
        int c = c0;
        while (c < c1) {
            const CellCategory cat = grid_.at(r, c);
            int e = c + 1;
            while (e < c1 && grid_.at(r, e) == cat) ++e;
            if (cat != CellCategory::Absent) {
                // Overlap by a hair so anti-aliased edges leave no white seams.
                const QRectF cell(colX(c), rowY(r), (e - c) * L.cellW + 0.02, L.cellH + 0.02);
                p.fillRect(cell, categoryColor(cat));
                appendHatch(hatches[cat], QRectF(colX(c), rowY(r), (e - c) * L.cellW, L.cellH), categoryHatch(cat),
                            hatchSpacing, cellOrigin);
            }
            c = e;
        }
    }
    for (const auto& [cat, lines] : hatches) {
        p.setPen(hatchPen(cat, hatchSpacing));
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
    // Thin cell borders when cells are large enough to read.
    if (L.cellW >= 7 && L.cellH >= 7) {
        p.setPen(QPen(QColor(255, 255, 255, 160), 0));
        for (int c = c0; c <= c1; ++c) p.drawLine(QPointF(colX(c), L.grid.top()), QPointF(colX(c), L.grid.bottom()));
        for (int r = r0; r <= r1; ++r) p.drawLine(QPointF(L.grid.left(), rowY(r)), QPointF(L.grid.right(), rowY(r)));
    }
    // Dividers between forward, loss and backward: rows and the matching stages.
    QPen divider(QColor(0x33, 0x33, 0x33), std::max(1.0, fm.height() / 12.0));
    divider.setCosmetic(false);
    QPen dashed = divider;  // the stages' (and their legend entry's)
    dashed.setStyle(Qt::DashLine);
    dashed.setColor(QColor(0x33, 0x33, 0x33, 140));
    for (int i = 1; i < n; ++i) {
        if (graph_.node(i).kind == graph_.node(i - 1).kind) continue;
        p.setPen(divider);
        p.drawLine(QPointF(L.grid.left(), rowY(i)), QPointF(L.grid.right(), rowY(i)));
        p.setPen(dashed);
        p.drawLine(QPointF(colX(i), L.grid.top()), QPointF(colX(i), L.grid.bottom()));
    }
    // Selection: the selected row outlined, its inputs (what it reads) and
    // readers tinted.
    if (selected >= 0 && selected < n) {
        const auto tintRow = [&](int r, QColor c) {
            p.fillRect(QRectF(L.grid.left(), rowY(r), L.grid.width(), L.cellH), c);
        };
        for (int u : graph_.predecessors(selected)) tintRow(u, QColor(0, 0, 0, 40));
        for (int v : graph_.successors(selected)) tintRow(v, QColor(0, 0, 0, 18));
        p.setPen(QPen(QColor(0, 0, 0), std::max(1.5, fm.height() / 8.0)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(L.grid.left(), rowY(selected), L.grid.width(), L.cellH));
    }
    // The keyboard's cell, where the heatmap has the focus: a dashed square.
    if (interactive && hasFocus() && keyNode_ >= 0 && keyNode_ < n && keyStage_ >= 0 && keyStage_ < n) {
        const QRectF cell(colX(keyStage_), rowY(keyNode_), L.cellW, L.cellH);
        const double m = std::max(2.0, fm.height() * 0.2);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, std::max(3.0, fm.height() / 4.0)));
        p.drawRect(cell.adjusted(-m, -m, m, m));
        p.setPen(QPen(Qt::black, std::max(1.5, fm.height() / 8.0), Qt::DashLine));
        p.drawRect(cell.adjusted(-m, -m, m, m));
    }
    // Teaching: the current op.
    if (curStage >= 0 && curStage < n) {
        QPen col(QColor(0, 0, 0, 110), 0);
        p.setPen(col);
        p.drawLine(QPointF(colX(curStage + 0.5), L.grid.top()), QPointF(colX(curStage + 0.5), L.grid.bottom()));
        if (curNode_ >= 0 && curNode_ < n) {
            const QRectF cell(colX(curStage), rowY(curNode_), L.cellW, L.cellH);
            const double m = std::max(3.0, fm.height() * 0.25);
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(Qt::white, std::max(3.0, fm.height() / 4.0)));
            p.drawEllipse(cell.center(), cell.width() / 2 + m, cell.height() / 2 + m);
            p.setPen(QPen(Qt::black, std::max(1.5, fm.height() / 8.0)));
            p.drawEllipse(cell.center(), cell.width() / 2 + m, cell.height() / 2 + m);
        }
    }
    p.restore();
    p.setPen(QPen(QColor(0x88, 0x88, 0x88), 0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(L.grid);

    // Kind band: forward / loss / backward.
    p.save();
    p.setClipRect(L.kindBand.united(L.labels).adjusted(0, -fm.height() * 0.6, 0, fm.height() * 0.6));
    int start = 0;
    for (int i = 1; i <= n; ++i) {
        if (i < n && graph_.node(i).kind == graph_.node(start).kind) continue;
        const NodeKind k = graph_.node(start).kind;
        const QRectF band = QRectF(L.kindBand.left(), rowY(start), L.kindBand.width() * 0.8, (i - start) * L.cellH)
                                .intersected(L.kindBand);
        p.fillRect(band, kindColor(k));
        const QString name = QString::fromStdString(kindName(k));
        if (band.height() > fm.horizontalAdvance(name) + fm.height()) {
            p.save();
            p.translate(band.center());
            p.rotate(-90);
            p.setPen(k == NodeKind::Loss ? Qt::white : ink);
            p.drawText(QRectF(-band.height() / 2, -band.width() / 2, band.height(), band.width()), Qt::AlignCenter,
                       name);
            p.restore();
        }
        start = i;
    }
    // Layer names: every labelStep-th row, and the loss's always, its
    // neighbours then left out where they would run into it (where rows
    // were named every other one, linear's "loss" was not).
    int loss = -1;
    for (int i = 0; i < n && loss < 0; ++i)
        if (graph_.node(i).kind == NodeKind::Loss) loss = i;
    const auto named = [&](int r) {
        if (r == loss) return true;
        return r % L.labelStep == 0 && (loss < 0 || std::abs(r - loss) >= L.labelStep);
    };
    for (int r = r0; r < r1; ++r) {
        const bool isSel = r == selected;
        bool isDep = false;
        if (selected >= 0) {
            const auto& pr = graph_.predecessors(selected);
            isDep = std::find(pr.begin(), pr.end(), r) != pr.end();
        }
        if (!named(r) && !isSel && !isDep) continue;
        QFont f = font;
        f.setBold(isSel || isDep);
        p.setFont(f);
        p.setPen(isSel ? Qt::black : ink);
        const QRectF lr(L.labels.left(), rowY(r) + L.cellH / 2 - fm.height() / 2, L.labels.width() - fm.height() * 0.3,
                        fm.height());
        const QString name = QFontMetricsF(f).elidedText(QString::fromStdString(graph_.node(r).name), Qt::ElideMiddle,
                                                         lr.width());
        p.drawText(lr, Qt::AlignRight | Qt::AlignVCenter, name);
    }
    p.setFont(font);
    p.restore();

    // Stage axis.
    p.save();
    p.setClipRect(L.stageAxis.adjusted(-fm.height(), 0, fm.height(), 0));
    p.setPen(ink);
    double captionRight = L.labels.right() - fm.height() * 0.3;
    for (int c = (c0 / L.stageStep) * L.stageStep; c < c1; c += L.stageStep) {
        const double x = colX(c + 0.5);
        p.drawLine(QPointF(x, L.stageAxis.bottom() - fm.height() * 0.25), QPointF(x, L.stageAxis.bottom()));
        const QString number = QString::number(c);
        p.drawText(QRectF(x - fm.height() * 2, L.stageAxis.top(), fm.height() * 4, fm.height()), Qt::AlignCenter,
                   number);
        // Narrow cells put the first number's left half under the caption: "stage →0".
        captionRight = std::min(captionRight, x - fm.horizontalAdvance(number) / 2 - fm.height() * 0.3);
    }
    p.restore();
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(QRectF(L.labels.left(), L.stageAxis.top(), captionRight - L.labels.left(), fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("stage \u2192"));

    // Legend with counts.
    for (const auto& it : legendItems(L.legend, fm, grid_, nullptr, L.allCategories)) {
        if (it.cat) {
            p.fillRect(it.swatch, categoryColor(*it.cat));
            std::vector<QLineF> hatch;
            const double spacing = it.swatch.width() / 3;
            appendHatch(hatch, it.swatch, categoryHatch(*it.cat), spacing, it.swatch.topLeft());
            p.setPen(hatchPen(*it.cat, spacing));
            p.drawLines(hatch.data(), static_cast<int>(hatch.size()));
            p.setPen(QPen(QColor(0x66, 0x66, 0x66), 0));
            p.setBrush(Qt::NoBrush);
            p.drawRect(it.swatch);
        } else {  // a stretch of the grid's dashed line
            p.setPen(dashed);
            p.drawLine(QPointF(it.swatch.center().x(), it.swatch.top()),
                       QPointF(it.swatch.center().x(), it.swatch.bottom()));
        }
        p.setPen(ink);
        p.drawText(it.text, Qt::AlignLeft | Qt::AlignVCenter, legendText(it.cat, grid_));
    }
}

void HeatmapView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!hasSchedule()) return;  // the placeholder label says why
    // Draw on white whatever the theme: the categorical colours are chosen for it.
    p.fillRect(rect(), Qt::white);
    paintAll(p, currentLayout(), font(), true);
}

void HeatmapView::renderTo(QPainter& p, const QRectF& target) const {
    p.save();
    p.fillRect(target, Qt::white);
    if (hasSchedule()) {
        QFont f = withoutLigatures(font());
        const Layout L = layoutFor(target, f, true, 1.0, 0, 0, QMargins());
        paintAll(p, L, f, false);
    } else {
        p.setPen(Qt::black);
        QTextDocument words;  // the label's text without its markup
        words.setHtml(placeholder_->text());
        p.drawText(target, Qt::AlignCenter | Qt::TextWordWrap, words.toPlainText());
    }
    p.restore();
}

QString HeatmapView::toolTipAt(QPointF pos) const {
    if (!hasSchedule()) return {};
    const auto [node, stage] = cellAt(pos);
    const Layout L = currentLayout();
    if (node >= 0) return QString::fromStdString(describeCell(graph_, schedule_, stage, node, CellView::Heatmap));
    if (L.labels.contains(pos) || L.kindBand.contains(pos)) {
        const int r = static_cast<int>(std::floor(L.row0 + (pos.y() - L.grid.top()) / L.cellH));
        if (r < 0 || r >= grid_.size()) return {};
        const auto& nd = graph_.node(r);
        return tr("%1: %2 (%3), node %4, output %5. Click to highlight what it reads.")
            .arg(QString::fromStdString(nd.name), QString::fromStdString(nd.type),
                 QString::fromStdString(kindName(nd.kind)))
            .arg(r)
            .arg(QString::fromStdString(formatBytes(nd.memory_bytes)));
    }
    if (L.legend.contains(pos))
        for (const auto& it : legendItems(L.legend, QFontMetricsF(font()), grid_, nullptr, L.allCategories))
            if (it.swatch.united(it.text).contains(pos))
                return it.cat ? QString::fromUtf8(categoryExplanation(*it.cat)) : tr(kDividerExplanation);
    return {};
}

bool HeatmapView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(he->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            e->ignore();
        } else {
            QToolTip::showText(he->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(e);
}

void HeatmapView::clampOffsets() {
    const double n = grid_.size();
    const double visible = n / zoom_;
    col0_ = std::clamp(col0_, 0.0, std::max(0.0, n - visible));
    row0_ = std::clamp(row0_, 0.0, std::max(0.0, n - visible));
}

void HeatmapView::wheelEvent(QWheelEvent* e) {
    if (!hasSchedule()) return;
    const Layout L = currentLayout();
    const QPointF pos = e->position();
    const double col = L.col0 + (pos.x() - L.grid.left()) / L.cellW;
    const double row = L.row0 + (pos.y() - L.grid.top()) / L.cellH;
    const double steps = e->angleDelta().y() / 120.0;
    const double newZoom = std::clamp(zoom_ * std::pow(1.25, steps), 1.0, std::max(1.0, grid_.size() / 4.0));
    if (newZoom == zoom_) return;
    // Keep the cell under the cursor where it is.
    const double ratio = zoom_ / newZoom;
    col0_ = col - (col - L.col0) * ratio;
    row0_ = row - (row - L.row0) * ratio;
    zoom_ = newZoom;
    clampOffsets();
    viewMoved();
    e->accept();
}

void HeatmapView::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->position();
    pressCol0_ = col0_;
    pressRow0_ = row0_;
    dragging_ = false;
    QWidget::mousePressEvent(e);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) {
        const QPointF d = e->position() - pressPos_;
        if (!dragging_ && d.manhattanLength() > 4) {
            dragging_ = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (dragging_ && zoom_ > 1.0) {
            const Layout L = currentLayout();
            col0_ = pressCol0_ - d.x() / L.cellW;
            row0_ = pressRow0_ - d.y() / L.cellH;
            clampOffsets();
            viewMoved();
        }
    }
    QWidget::mouseMoveEvent(e);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragging_ && e->button() == Qt::LeftButton && hasSchedule()) {
        const Layout L = currentLayout();
        const QPointF pos = e->position();
        if (L.grid.contains(pos) || L.labels.contains(pos) || L.kindBand.contains(pos)) {
            const int r = static_cast<int>(std::floor(L.row0 + (pos.y() - L.grid.top()) / L.cellH));
            if (r >= 0 && r < grid_.size()) setSelectedNode(r == selected_ ? -1 : r);
        }
    }
    dragging_ = false;
    unsetCursor();
    QWidget::mouseReleaseEvent(e);
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent*) { resetZoom(); }

// The heatmap from the keyboard alone: the arrows move a cell cursor (Shift:
// ten cells), which says what its cell holds as hovering does and pans a
// zoomed view to keep it in sight; Enter or Space selects its layer. Only
// the mouse could read a cell or reach the right of a zoomed heatmap.
void HeatmapView::moveKeyCell(int nodes, int stages) {
    const int n = grid_.size();
    if (n == 0) return;
    if (keyNode_ < 0 || keyStage_ < 0) {  // the first press lands on the top-left cell in view
        keyNode_ = std::clamp(static_cast<int>(std::ceil(row0_)), 0, n - 1);
        keyStage_ = std::clamp(static_cast<int>(std::ceil(col0_)), 0, n - 1);
    } else {
        keyNode_ = std::clamp(keyNode_ + nodes, 0, n - 1);
        keyStage_ = std::clamp(keyStage_ + stages, 0, n - 1);
    }
    const double visible = n / zoom_;
    if (keyStage_ < col0_) col0_ = keyStage_;
    if (keyStage_ + 1 > col0_ + visible) col0_ = keyStage_ + 1 - visible;
    if (keyNode_ < row0_) row0_ = keyNode_;
    if (keyNode_ + 1 > row0_ + visible) row0_ = keyNode_ + 1 - visible;
    clampOffsets();
    viewMoved();
    const QString words = keyCellText();
    setAccessibleDescription(words);
    QToolTip::showText(mapToGlobal(cellRect(keyNode_, keyStage_).bottomRight().toPoint()), words, this);
}

void HeatmapView::focusInEvent(QFocusEvent* e) {
    update();
    QWidget::focusInEvent(e);
}

void HeatmapView::focusOutEvent(QFocusEvent* e) {
    update();
    QWidget::focusOutEvent(e);
}

QString HeatmapView::keyCellText() const {
    if (!hasSchedule() || keyNode_ < 0 || keyStage_ < 0) return {};
    return QString::fromStdString(describeCell(graph_, schedule_, keyStage_, keyNode_, CellView::Heatmap));
}

void HeatmapView::keyPressEvent(QKeyEvent* e) {
    const int step = e->modifiers() & Qt::ShiftModifier ? 10 : 1;
    switch (e->key()) {
    case Qt::Key_Left: moveKeyCell(0, -step); return;
    case Qt::Key_Right: moveKeyCell(0, step); return;
    case Qt::Key_Up: moveKeyCell(-step, 0); return;
    case Qt::Key_Down: moveKeyCell(step, 0); return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (keyNode_ >= 0) {
            setSelectedNode(keyNode_ == selected_ ? -1 : keyNode_);
            return;
        }
        break;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom_ = std::min(zoom_ * 1.25, std::max(1.0, grid_.size() / 4.0));
        clampOffsets();
        viewMoved();
        return;
    case Qt::Key_Minus:
        zoom_ = std::max(1.0, zoom_ / 1.25);
        clampOffsets();
        viewMoved();
        return;
    case Qt::Key_Escape:
        if (selected_ >= 0) {
            setSelectedNode(-1);
            return;
        }
        break;
    default: break;
    }
    QWidget::keyPressEvent(e);
}

}  // namespace poet::ui
