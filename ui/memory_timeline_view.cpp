#include "memory_timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPaintEngine>
#include <QTextDocumentFragment>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include <qcustomplot.h>

#include "cell_palette.h"
#include "figure_text.h"
#include "units.h"

namespace poet::ui {

double opPosition(int stage, int op) { return stage + static_cast<double>(op) / (stage + 1); }

namespace {

// The middle of op k of stage t on the stage axis, where the teaching and
// the key cursors stand.
double opMiddle(int t, int k) { return opPosition(t, k) + 0.5 / (t + 1); }

// Stage t is drawn over [t, t + 1): its number goes at its middle, as on the
// heatmap's axis above. At t, the default, each number stood half a stage
// left of the same number on the heatmap.
class StageMiddleTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override {
        const double step = QCPAxisTicker::getTickStep(range);
        if (step <= 1) return 1;  // whole stages
        return std::fmod(step, 1) == 0 ? step : std::ceil(step / 5) * 5;  // 2.5 -> 5
    }
    QVector<double> createTickVector(double step, const QCPRange& range) override {
        QVector<double> ticks;
        for (double t = std::floor((range.lower - 0.5) / step) * step; t + 0.5 <= range.upper; t += step)
            if (t >= 0) ticks.push_back(t + 0.5);
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::number(std::lround(tick - 0.5));
    }
};

// A legend's entries (a wrapped legend's itemCount counts its grid's cells,
// the empty last ones too).
int legendEntries(const QCPLegend* legend) {
    int entries = 0;
    for (int i = 0; i < legend->itemCount(); ++i) entries += legend->item(i) != nullptr;
    return entries;
}

}  // namespace

TimelineSeries timelineSeries(const Graph& g, const Schedule& s, const ReplayReport& r) {
    TimelineSeries out;
    const int n = static_cast<int>(r.ram_trace.size());
    for (int t = 0; t < n; ++t) {
        const auto& ops = r.ram_trace[t];
        for (int k = 0; k < static_cast<int>(ops.size()); ++k) {
            out.x.push_back(opPosition(t, k));
            out.ram.push_back(static_cast<double>(ops[k]));
        }
    }
    if (!out.ram.empty()) {
        out.x.push_back(n);
        out.ram.push_back(out.ram.back());
    }
    const int T = std::min(g.size(), s.size());
    for (int t = 0; t < T; ++t) {
        double in = 0, outb = 0;
        for (int i = 0; i < T; ++i) {
            if (s.M_in(t, i)) in += g.node(i).memory_bytes;
            if (s.M_out(t, i)) outb += g.node(i).memory_bytes;
        }
        out.stageX.push_back(t + 0.5);
        out.pageInBytes.push_back(in);
        out.pageOutBytes.push_back(outb);
    }
    return out;
}

namespace {
QVector<double> scaled(const std::vector<double>& v, double unit) {
    QVector<double> out;
    out.reserve(static_cast<int>(v.size()));
    for (double x : v) out.push_back(x / unit);
    return out;
}
QVector<double> toQ(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }
// The most RAM a series' curve shows (0 for none).
double peakOf(const TimelineSeries& ts) {
    return ts.ram.empty() ? 0.0 : *std::max_element(ts.ram.begin(), ts.ram.end());
}
}  // namespace

MemoryTimelineView::MemoryTimelineView(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    lay->addWidget(plot_);
    setAccessibleName(tr("Memory timeline"));
    plot_->installEventFilter(this);  // the tooltip reads the curves under the mouse
    plot_->setToolTip(tr("RAM in use after every operation of every stage (replayed), against the RAM budget and "
                         "the plain pass. Bars: bytes paged to or from flash in each stage (right axis). "
                         "Wheel: zoom the stage axis; drag: pan; double-click: show all. Keys: Left and Right "
                         "(Shift: a stage) move an op cursor that reads the curves. The heatmap above "
                         "shows the same stages."));
    // The curves could be read by hovering alone: the view takes the focus
    // (a click on the plot, or Tab) and its keys move an op cursor.
    setFocusPolicy(Qt::StrongFocus);
    plot_->setFocusPolicy(Qt::NoFocus);
    setWhatsThis(tr("RAM in use after every operation of every stage, as the replay counts it, against the RAM "
                    "budget and the plain pass; bars: bytes paged to or from flash per stage. Wheel: zoom the "
                    "stage axis; drag: pan; double-click: show all. Keys: Left and Right move an op cursor that "
                    "says what the RAM is after that op (Shift: a stage at a time; Home, End: the first and last "
                    "op) and pans a zoomed axis to it; + and - zoom, 0 shows all stages."));

    QFont f = withoutLigatures(font());  // exports draw with it
    plot_->setFont(f);
    plot_->xAxis->setLabel(tr("stage (each stage split into its operations)"));
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new StageMiddleTicker));
    plot_->xAxis->setLabelFont(f);
    plot_->yAxis->setLabelFont(f);
    plot_->yAxis2->setLabelFont(f);
    plot_->xAxis->setTickLabelFont(f);
    plot_->yAxis->setTickLabelFont(f);
    plot_->yAxis2->setTickLabelFont(f);
    plot_->yAxis2->setVisible(true);
    plot_->xAxis->grid()->setPen(QPen(QColor(0xE4, 0xE4, 0xE4), 0));
    plot_->yAxis->grid()->setPen(QPen(QColor(0xE4, 0xE4, 0xE4), 0));

    pageIn_ = new QCPBars(plot_->xAxis, plot_->yAxis2);
    pageIn_->setName(tr("paged in (right axis)"));
    pageIn_->setPen(Qt::NoPen);
    QColor inC = categoryColor(CellCategory::PagedIn);
    inC.setAlpha(170);
    pageIn_->setBrush(inC);
    pageIn_->setWidth(0.8);
    pageOut_ = new QCPBars(plot_->xAxis, plot_->yAxis2);
    pageOut_->setName(tr("paged out (right axis)"));
    pageOut_->setPen(Qt::NoPen);
    QColor outC = categoryColor(CellCategory::PagedOut);
    outC.setAlpha(170);
    pageOut_->setBrush(outC);
    pageOut_->setWidth(0.8);
    pageOut_->moveAbove(pageIn_);

    plain_ = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    plain_->setName(tr("plain pass"));
    plain_->setLineStyle(QCPGraph::lsStepLeft);
    plain_->setPen(QPen(QColor(0x99, 0x99, 0x99), 1.5, Qt::SolidLine));
    ram_ = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    ram_->setName(tr("this schedule"));
    ram_->setLineStyle(QCPGraph::lsStepLeft);
    ram_->setPen(QPen(categoryColor(CellCategory::ComputedFirst), 2));
    QColor fill = categoryColor(CellCategory::InRam);
    fill.setAlpha(90);
    ram_->setBrush(fill);
    budget_ = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    budget_->setPen(QPen(QColor(0xC0, 0x1B, 0x1B), 1.5, Qt::DashLine));

    cursor_ = new QCPItemStraightLine(plot_);
    cursor_->setPen(QPen(QColor(0, 0, 0, 160), 1.5));
    cursor_->setVisible(false);
    keyCursor_ = new QCPItemStraightLine(plot_);
    keyCursor_->setPen(QPen(QColor(0, 0, 0, 200), 1, Qt::DashLine));
    keyCursor_->setVisible(false);

    // The legend sits in its own row above the plot, one line wide, so it
    // never hides the curves however small the plot gets.
    plot_->legend->setVisible(true);
    plot_->legend->setFont(f);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(5);
    plot_->legend->setRowSpacing(0);
    plot_->legend->setColumnSpacing(fontMetrics().height());
    // A little room on the left, so an exported figure's first swatch is not at the page edge.
    plot_->legend->setMargins(QMargins(fontMetrics().height() / 2, 0, 0, 0));
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->plotLayout()->setRowSpacing(0);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    // Laid out, not yet drawn: the axis's length is known.
    connect(plot_, &QCustomPlot::afterLayout, this, &MemoryTimelineView::fitAxisTitles);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
        rescale();
        plot_->replot();
        emit stagesMovedByUser(plot_->xAxis->range().lower, plot_->xAxis->range().upper);
    });
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        if (!settingRange_) emit stagesMovedByUser(r.lower, r.upper);
    });
    clear();
}

// Legend order: what one reads first. Only what is drawn: the schedule's
// curve where there is one, flash traffic where it pages.
void MemoryTimelineView::fillLegend(bool schedule, bool paging) {
    plot_->legend->clearItems();
    if (schedule) ram_->addToLegend();
    plain_->addToLegend();
    budget_->addToLegend();
    if (paging) {
        pageIn_->addToLegend();
        pageOut_->addToLegend();
    }
    wrapLegend(plot_->width());
}

// As many legend entries on a line as `width` holds: on one line, a narrow
// window cut them short ("pagedou") and over the right axis's title. An
// export has them all on one line (exportSize makes room for it).
void MemoryTimelineView::wrapLegend(double width) {
    QCPLegend* legend = plot_->legend;
    for (int per_line = std::max(legendEntries(legend), 1); per_line >= 1; --per_line) {
        legend->setWrap(per_line);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
        if (per_line == 1 || legend->minimumOuterSizeHint().width() <= width) return;
    }
}

void MemoryTimelineView::setAxisTitles(const QString& ram, const QString& flash) {
    ramTitle_ = ram;
    flashTitle_ = flash;
    fitAxisTitles();
}

void MemoryTimelineView::fitAxisTitles() {
    const int room = plot_->axisRect()->height();
    const auto fitting = [room](QCPAxis* axis, const QString& full, const QString& brief) {
        const QFontMetrics fm(axis->labelFont());
        const QString title = fm.horizontalAdvance(full) <= room ? full : fm.horizontalAdvance(brief) <= room ? brief
                                                                                                            : QString();
        if (axis->label() != title) axis->setLabel(title);
    };
    // "[kB]" and the like: the unit, which the numbers need most.
    const auto unitOf = [](const QString& title) {
        const qsizetype at = title.lastIndexOf(QLatin1Char('['));
        return at < 0 ? QString() : QStringLiteral(" ") + title.mid(at);
    };
    fitting(plot_->yAxis, ramTitle_, tr("RAM") + unitOf(ramTitle_));
    fitting(plot_->yAxis2, flashTitle_, tr("flash") + unitOf(flashTitle_));
}

double MemoryTimelineView::oneLineLegendWidth() const {
    const QCPLegend* legend = plot_->legend;
    double width = legend->margins().left() + legend->margins().right();
    bool first = true;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            width += item->minimumOuterSizeHint().width() + (first ? 0 : legend->columnSpacing());
            first = false;
        }
    return width;
}

// Room above the axis's top value, so that a curve at it stays clear of the frame.
constexpr double kRamHeadroom = 1.12;

double ramAxisTopBytes(double schedule_peak, double plain_peak, double budget) {
    const double main_peak = schedule_peak > 0 ? schedule_peak : plain_peak;
    double top = main_peak;
    for (double other : {plain_peak, budget})
        if (other <= kOnScale * main_peak) top = std::max(top, other);
    return top;
}

// The RAM axis up to `maxBytes` (ramAxisTopBytes): its unit and label.
void MemoryTimelineView::setRamScale(double maxBytes) {
    maxRam_ = std::max(maxBytes, 1.0);
    unit_ = axisUnitBytes(maxRam_);
    setAxisTitles(tr("RAM in use [%1]").arg(unitName(unit_)), flashTitle_);
}

// An axis of bytes in MB or kB, or in B under a kilobyte: a small model's
// curves read "[kB]" with ticks 0.2, 0.4, 0.6.
double axisUnitBytes(double maxBytes) { return maxBytes >= 1e6 ? 1e6 : maxBytes >= 1e3 ? 1e3 : 1.0; }
QString unitName(double unitBytes) {
    return unitBytes >= 1e6 ? QStringLiteral("MB") : unitBytes >= 1e3 ? QStringLiteral("kB") : QStringLiteral("B");
}

void MemoryTimelineView::clear() {
    hasData_ = false;
    drawn_ = false;
    ram_->data()->clear();
    plain_->data()->clear();
    budget_->data()->clear();
    pageIn_->data()->clear();
    pageOut_->data()->clear();
    cursor_->setVisible(false);
    keyCursor_->setVisible(false);
    setAccessibleDescription(QString());
    nodeNames_.clear();
    computed_ = BoolMatrix();
    trace_.clear();
    plainTrace_.clear();
    pageInBytes_.clear();
    pageOutBytes_.clear();
    budget_->setName(tr("RAM budget"));
    setAxisTitles(tr("RAM in use"), tr("flash traffic per stage"));
    plot_->yAxis2->setVisible(false);
    fillLegend(true, false);  // no flash traffic promised on an axis that is not shown
    setStageRange(0, 1);
    plot_->yAxis->setRange(0, 1);
    plot_->replot();
}

void MemoryTimelineView::setData(const Graph& g, const Schedule& s, const ReplayReport& report,
                                 const ReplayReport& plain, std::int64_t ramBudgetBytes) {
    const TimelineSeries ts = timelineSeries(g, s, report);
    TimelineSeries ps;
    if (plain.valid || !plain.ram_trace.empty()) ps = timelineSeries(g, s, plain);
    setRamScale(ramAxisTopBytes(peakOf(ts), peakOf(ps), static_cast<double>(ramBudgetBytes)));
    namePlainCurve(peakOf(ps));
    double maxFlash = 0;
    for (std::size_t i = 0; i < ts.pageInBytes.size(); ++i)
        maxFlash = std::max(maxFlash, ts.pageInBytes[i] + ts.pageOutBytes[i]);
    flashUnit_ = axisUnitBytes(maxFlash);
    stages_ = static_cast<int>(report.ram_trace.size());

    ram_->setData(toQ(ts.x), scaled(ts.ram, unit_), true);
    plain_->setData(toQ(ps.x), scaled(ps.ram, unit_), true);
    pageIn_->setData(toQ(ts.stageX), scaled(ts.pageInBytes, flashUnit_), true);
    pageOut_->setData(toQ(ts.stageX), scaled(ts.pageOutBytes, flashUnit_), true);
    setAxisTitles(ramTitle_, tr("flash traffic per stage [%1]").arg(unitName(flashUnit_)));
    const bool paging = maxFlash > 0;
    pageIn_->setVisible(paging);
    pageOut_->setVisible(paging);
    plot_->yAxis2->setVisible(paging);
    fillLegend(true, paging);
    keepForToolTip(g, s, report.ram_trace, plain.ram_trace);
    pageInBytes_ = ts.pageInBytes;
    pageOutBytes_ = ts.pageOutBytes;
    hasData_ = true;
    drawn_ = true;
    setBudget(ramBudgetBytes);
    rescale();
    showKeyOp();  // where the schedule before had it, if this one has the op
    plot_->replot();
}

void MemoryTimelineView::showPlainOnly(const Graph& g, const ReplayReport& plain, std::int64_t ramBudgetBytes) {
    clear();
    if (plain.ram_trace.empty()) return;
    const Schedule plainRun = plainSchedule(g);
    const TimelineSeries ps = timelineSeries(g, plainRun, plain);
    setRamScale(ramAxisTopBytes(0, peakOf(ps), static_cast<double>(ramBudgetBytes)));
    namePlainCurve(peakOf(ps));
    stages_ = static_cast<int>(plain.ram_trace.size());
    plain_->setData(toQ(ps.x), scaled(ps.ram, unit_), true);
    fillLegend(false, false);
    keepForToolTip(g, plainRun, {}, plain.ram_trace);
    drawn_ = true;
    setBudget(ramBudgetBytes);
    rescale();
    showKeyOp();  // where the schedule before had it, if this one has the op
    plot_->replot();
}

// "plain pass", or with its peak where that is past the axis's top.
void MemoryTimelineView::namePlainCurve(double peak_bytes) {
    plain_->setName(peak_bytes > maxRam_ * kRamHeadroom
                        ? tr("plain pass (peak %1, above the scale)")
                              .arg(QString::fromStdString(formatBytes(static_cast<std::int64_t>(peak_bytes))))
                        : tr("plain pass"));
}

void MemoryTimelineView::setBudget(std::int64_t b) {
    budget_bytes_ = b;
    if (!drawn_) return;
    const double y = b / unit_;
    budget_->setData(QVector<double>{0.0, static_cast<double>(std::max(stages_, 1))}, QVector<double>{y, y});
    // Its value in the legend, not beside the line: a label at the line's
    // end covered the plain pass's curve and the page-in bars there.
    const bool off_scale = b > maxRam_ * kRamHeadroom;  // past the axis's top (rescale)
    budget_->setName(b <= 0    ? tr("RAM budget")
                     : off_scale ? tr("RAM budget %1 (above the scale)").arg(QString::fromStdString(formatBytes(b)))
                                 : tr("RAM budget %1").arg(QString::fromStdString(formatBytes(b))));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryTimelineView::setStageRange(double first, double last) {
    settingRange_ = true;
    plot_->xAxis->setRange(first, last);
    settingRange_ = false;
}

void MemoryTimelineView::showStages(double first, double last) {
    if (plot_->xAxis->range().lower == first && plot_->xAxis->range().upper == last) return;
    setStageRange(first, last);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The axis rect's distance from the widget's left and right edges.
QMargins MemoryTimelineView::plotAreaMargins() const {
    const QRect area = plot_->axisRect()->rect();
    return QMargins(area.left(), 0, plot_->width() - (area.left() + area.width()), 0);
}

QMargins MemoryTimelineView::naturalStageMargins() {
    // Lay the plot out without the asked room (the steps replot takes
    // first) and read its margins; the link then asks for the room to keep.
    plot_->axisRect()->setMinimumMargins(QMargins());
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot_->plotLayout()->update(phase);
    return plotAreaMargins();
}

void MemoryTimelineView::setStageMargins(const QMargins& margins) {
    // Minimum margins count from the axis rect's outer rect, which starts
    // where the plot layout puts it, not at the widget's edge.
    const QRect outer = plot_->axisRect()->outerRect();
    const QMargins inner(std::max(0, margins.left() - outer.left()), 0,
                         std::max(0, margins.right() - (plot_->width() - (outer.left() + outer.width()))), 0);
    plot_->axisRect()->setMinimumMargins(inner);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryTimelineView::rescale() {
    setStageRange(0, std::max(stages_, 1));
    plot_->yAxis->setRange(0, maxRam_ / unit_ * kRamHeadroom);  // the budget among it where on the scale
    double flashMax = 0;
    for (auto it = pageIn_->data()->constBegin(); it != pageIn_->data()->constEnd(); ++it)
        flashMax = std::max(flashMax, it->value);
    double combined = 0;
    auto a = pageIn_->data()->constBegin();
    auto b = pageOut_->data()->constBegin();
    for (; a != pageIn_->data()->constEnd() && b != pageOut_->data()->constEnd(); ++a, ++b)
        combined = std::max(combined, a->value + b->value);
    // Bars use the lower 40% of the height so they do not hide the RAM curve.
    plot_->yAxis2->setRange(0, combined > 0 ? combined * 2.5 : 1);
}

void MemoryTimelineView::setCurrentOp(int stage, int op) {
    if (stage < 0) {
        cursor_->setVisible(false);
    } else {
        const double x = opMiddle(stage, std::max(op, 0));
        cursor_->point1->setCoords(x, 0);
        cursor_->point2->setCoords(x, 1);
        cursor_->setVisible(true);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryTimelineView::keepForToolTip(const Graph& g, const Schedule& s,
                                        std::vector<std::vector<std::int64_t>> trace,
                                        std::vector<std::vector<std::int64_t>> plain) {
    computed_ = s.R;
    nodeNames_.clear();
    for (int i = 0; i < g.size(); ++i) nodeNames_.push_back(g.node(i).name);
    trace_ = std::move(trace);
    plainTrace_ = std::move(plain);
}

QString MemoryTimelineView::toolTipAt(const QPointF& pixel) const {
    const QString general = plot_->toolTip();
    if (!drawn_ || !plot_->axisRect()->rect().contains(pixel.toPoint())) return general;
    const double x = plot_->xAxis->pixelToCoord(pixel.x());
    const int t = static_cast<int>(std::floor(x));
    if (t < 0 || t >= stages_) return general;
    // Op k of stage t is drawn from t + k/(t+1) to the next op (opPosition).
    return opText(t, std::clamp(static_cast<int>(std::floor((x - t) * (t + 1))), 0, t));
}

QString MemoryTimelineView::opText(int t, int k) const {
    const auto bytesAt = [t, k](const std::vector<std::vector<std::int64_t>>& trace) {
        return t < static_cast<int>(trace.size()) && k < static_cast<int>(trace[t].size())
                   ? QString::fromStdString(formatBytes(trace[t][k]))
                   : QString();
    };
    const auto nameOf = [this](int i) {
        return i < static_cast<int>(nodeNames_.size()) ? QString::fromStdString(nodeNames_[i]).toHtmlEscaped()
                                                       : QString::number(i);
    };
    // Op k of a stage is node k's slot, run or not: most slots of a late
    // stage run nothing, and naming their node alone read as if it ran.
    const bool runs = t < computed_.size() && computed_(t, k);
    const QString op = k == t    ? tr("computes %1 for the first time").arg(nameOf(k))
                       : runs    ? tr("recomputes %1").arg(nameOf(k))
                                 : tr("%1's slot, not run in this stage").arg(nameOf(k));
    QString text = tr("<b>Stage %1</b>, op %2 of %3: %4").arg(t).arg(k + 1).arg(t + 1).arg(op);
    const QString mine = bytesAt(trace_), plain = bytesAt(plainTrace_);
    if (!mine.isEmpty()) text += tr("<br>RAM in use after it: %1").arg(mine);
    if (!plain.isEmpty()) text += tr("<br>the plain pass: %1").arg(plain);
    if (budget_bytes_ > 0) text += tr("<br>RAM budget: %1").arg(QString::fromStdString(formatBytes(budget_bytes_)));
    if (t < static_cast<int>(pageInBytes_.size()) && pageInBytes_[t] + pageOutBytes_[t] > 0)
        text += tr("<br>this stage pages in %1 and out %2")
                    .arg(QString::fromStdString(formatBytes(static_cast<std::int64_t>(pageInBytes_[t]))),
                         QString::fromStdString(formatBytes(static_cast<std::int64_t>(pageOutBytes_[t]))));
    return text;
}

QString MemoryTimelineView::keyOpText() const {
    if (!drawn_ || !hasKeyOp()) return {};
    return opText(keyStage_, keyOpIndex_);
}

// Ops run stage by stage, stage t holding t + 1 of them: `ops` steps along
// that order (across stages), `stages` keeps the op's place in the stage
// where the next one has it.
void MemoryTimelineView::moveKeyOp(int ops, int stages) {
    if (!drawn_ || stages_ == 0) return;
    if (!hasKeyOp()) {  // the first press lands on the first op in view
        const double lower = std::max(plot_->xAxis->range().lower, 0.0);
        keyStage_ = std::clamp(static_cast<int>(std::floor(lower)), 0, stages_ - 1);
        keyOpIndex_ = std::clamp(static_cast<int>(std::ceil((lower - keyStage_) * (keyStage_ + 1))), 0, keyStage_);
    } else {
        keyStage_ = std::clamp(keyStage_ + stages, 0, stages_ - 1);
        keyOpIndex_ = std::min(keyOpIndex_, keyStage_);
        for (; ops > 0; --ops) {
            if (keyOpIndex_ < keyStage_) ++keyOpIndex_;
            else if (keyStage_ + 1 < stages_) ++keyStage_, keyOpIndex_ = 0;
        }
        for (; ops < 0; ++ops) {
            if (keyOpIndex_ > 0) --keyOpIndex_;
            else if (keyStage_ > 0) --keyStage_, keyOpIndex_ = keyStage_;
        }
    }
    // Pan a zoomed axis to the op; the move is the user's (the heatmap follows).
    const QCPRange shown = plot_->xAxis->range();
    const double x = opMiddle(keyStage_, keyOpIndex_), room = 0.5 / (keyStage_ + 1);
    if (x - room < shown.lower) plot_->xAxis->setRange(x - room, x - room + shown.size());
    else if (x + room > shown.upper) plot_->xAxis->setRange(x + room - shown.size(), x + room);
    showKeyOp();
    const QString html = keyOpText();
    const QPoint at(qRound(plot_->xAxis->coordToPixel(x)), plot_->axisRect()->center().y());
    QToolTip::showText(plot_->mapToGlobal(at), html, plot_);
}

// The wheel's zoom from the keyboard, about the op cursor where it is in
// view. No closer than four stages, as the heatmap (StageAxisLink keeps
// the two alike in the window), nor wider than all of them.
void MemoryTimelineView::zoomStages(double factor) {
    if (!drawn_ || stages_ == 0) return;
    const QCPRange shown = plot_->xAxis->range();
    const double key = hasKeyOp() ? opMiddle(keyStage_, keyOpIndex_) : -1;
    const double centre = shown.contains(key) ? key : shown.center();
    const double size = std::clamp(shown.size() / factor, std::min(4.0, static_cast<double>(stages_)),
                                   static_cast<double>(stages_));
    const double lower = std::clamp(centre - (centre - shown.lower) * size / shown.size(), 0.0, stages_ - size);
    plot_->xAxis->setRange(lower, lower + size);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The cursor where the focus is and its op exists, and its words for a
// screen reader (they said the schedule before's op after a new solve).
// An op the new curves do not have is forgotten: the next key starts over.
void MemoryTimelineView::showKeyOp() {
    if (drawn_ && keyStage_ >= stages_) keyStage_ = keyOpIndex_ = -1;
    setAccessibleDescription(QTextDocumentFragment::fromHtml(keyOpText()).toPlainText());
    const bool shown = drawn_ && hasFocus() && hasKeyOp();
    if (shown) {
        const double x = opMiddle(keyStage_, keyOpIndex_);
        keyCursor_->point1->setCoords(x, 0);
        keyCursor_->point2->setCoords(x, 1);
    }
    keyCursor_->setVisible(shown);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryTimelineView::focusInEvent(QFocusEvent* e) {
    showKeyOp();
    QWidget::focusInEvent(e);
}

void MemoryTimelineView::focusOutEvent(QFocusEvent* e) {
    showKeyOp();
    QWidget::focusOutEvent(e);
}

void MemoryTimelineView::keyPressEvent(QKeyEvent* e) {
    const bool stage = e->modifiers() & Qt::ShiftModifier;
    switch (e->key()) {
    case Qt::Key_Left: stage ? moveKeyOp(0, -1) : moveKeyOp(-1, 0); return;
    case Qt::Key_Right: stage ? moveKeyOp(0, 1) : moveKeyOp(1, 0); return;
    case Qt::Key_Home:
    case Qt::Key_End:
        if (drawn_ && stages_ > 0) {
            keyStage_ = keyOpIndex_ = e->key() == Qt::Key_Home ? 0 : stages_ - 1;
            moveKeyOp(0, 0);
        }
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomStages(1.25); return;
    case Qt::Key_Minus: zoomStages(1 / 1.25); return;
    case Qt::Key_0:
        if (drawn_) {
            plot_->xAxis->setRange(0, std::max(stages_, 1));
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
        return;
    default: break;
    }
    QWidget::keyPressEvent(e);
}

bool MemoryTimelineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        const auto* he = static_cast<QHelpEvent*>(event);
        QToolTip::showText(he->globalPos(), toolTipAt(he->pos()), plot_);
        return true;
    }
    if (watched == plot_ && event->type() == QEvent::Resize)
        wrapLegend(static_cast<QResizeEvent*>(event)->size().width());
    return QWidget::eventFilter(watched, event);
}

QSize MemoryTimelineView::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return QSize(fm.height() * 20, fm.height() * 11);
}

QSize MemoryTimelineView::sizeHint() const {
    const QFontMetrics fm(font());
    return QSize(fm.height() * 50, fm.height() * 16);
}

QSizeF MemoryTimelineView::exportSize() const {
    const QFontMetricsF fm(font());
    // The legend's one row needs its whole width: narrower, QCustomPlot cuts
    // its texts short ("paged out (right ax").
    const double legend = oneLineLegendWidth() + fm.height();
    return QSizeF(std::max(fm.height() * 48, legend) + fm.height(), fm.height() * 24.5);
}

void MemoryTimelineView::renderTo(QCPPainter& painter, const QRectF& target, const QString& title) {
    // An exported figure stands alone: no room kept for the heatmap's
    // labels; every stage, as the heatmap's export has them (a zoom on
    // screen cut the timeline's off its peak, unsaid); no teaching or key cursor.
    const QMargins kept = plot_->axisRect()->minimumMargins();
    const QCPRange shown = plot_->xAxis->range();
    const bool cursor = cursor_->visible(), keyCursor = keyCursor_->visible();
    plot_->axisRect()->setMinimumMargins(QMargins());
    settingRange_ = true;  // not a move by the user: the heatmap stays where it is
    plot_->xAxis->setRange(0, std::max(stages_, 1));
    cursor_->setVisible(false);
    keyCursor_->setVisible(false);
    wrapLegend(oneLineLegendWidth());
    QCPTextElement* heading = nullptr;
    if (!title.isEmpty()) {
        QFont bold = withoutLigatures(font());
        bold.setBold(true);
        plot_->plotLayout()->insertRow(0);
        heading = new QCPTextElement(plot_, title, bold);
        plot_->plotLayout()->addElement(0, 0, heading);
    }
    // Qt's SVG writer leaves out the clip to the plot area: a curve above
    // the scale (the plain pass, "above the scale") ran up through the
    // legend and off the page. There, what is above is not drawn.
    std::vector<std::pair<QCPGraph*, QSharedPointer<QCPGraphDataContainer>>> unclipped;
    if (painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::SVG) {
        const double top = plot_->yAxis->range().upper;
        for (QCPGraph* g : {plain_, ram_, budget_}) {
            auto below = QSharedPointer<QCPGraphDataContainer>::create(*g->data());
            for (auto it = below->begin(); it != below->end(); ++it)
                if (it->value > top) it->value = std::numeric_limits<double>::quiet_NaN();
            unclipped.emplace_back(g, g->data());
            g->setData(below);
        }
    }
    const double pad = QFontMetricsF(font()).height() / 2;  // its legend touched the page's top edge
    painter.save();
    painter.translate(target.topLeft() + QPointF(pad, pad));
    plot_->toPainter(&painter, qRound(target.width() - 2 * pad), qRound(target.height() - 2 * pad));
    painter.restore();
    for (auto& [g, data] : unclipped) g->setData(data);
    if (heading) {
        plot_->plotLayout()->remove(heading);
        plot_->plotLayout()->simplify();
    }
    cursor_->setVisible(cursor);
    keyCursor_->setVisible(keyCursor);
    wrapLegend(plot_->width());
    plot_->xAxis->setRange(shown);
    settingRange_ = false;
    plot_->axisRect()->setMinimumMargins(kept);
}

}  // namespace poet::ui
