#include "pareto_plot.h"

#include <QApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <qcustomplot.h>

#include "figure_text.h"
#include "legend_placement.h"
#include "profile_catalog.h"
#include "units.h"
#include "view_export.h"

namespace poet::ui {

namespace {

struct StrategyStyle {
    QColor colour;
    QCPScatterStyle::ScatterShape shape;
    int custom_polygon = 0;  // corners of a custom marker (0: `shape`)
    bool star = false;       // the custom marker's corners pointed, a star's
};

// Okabe-Ito colours (distinguishable with colour-blindness) and one marker
// shape per strategy.
StrategyStyle styleFor(const std::string& s) {
    if (s == "poet") return {QColor(0xD5, 0x5E, 0x00), QCPScatterStyle::ssCircle};
    if (s == "remat-only") return {QColor(0x00, 0x72, 0xB2), QCPScatterStyle::ssSquare};
    if (s == "paging-only") return {QColor(0x00, 0x9E, 0x73), QCPScatterStyle::ssDiamond};
    if (s == "chen-sqrtn") return {QColor(0xCC, 0x79, 0xA7), QCPScatterStyle::ssTriangle};
    if (s == "chen-greedy") return {QColor(0xE6, 0x9F, 0x00), QCPScatterStyle::ssTriangleInverted};
    if (s == "revolve") return {QColor(0x56, 0xB4, 0xE9), QCPScatterStyle::ssCustom, 5};
    // A star: a black hexagon read as the key's filled "proven optimal" circle
    // (at 7 px on screen, 5 on paper), on POET's curve.
    if (s == "dtr") return {QColor(0x00, 0x00, 0x00), QCPScatterStyle::ssCustom, 5, true};
    return {QColor(0x99, 0x99, 0x99), QCPScatterStyle::ssCross};  // plain
}

QString labelFor(const std::string& s) {
    if (s == "poet") return QStringLiteral("POET");
    if (s == "remat-only") return QStringLiteral("remat only");
    if (s == "paging-only") return QStringLiteral("paging only");
    if (s == "chen-sqrtn") return QStringLiteral("Chen \u221An");
    if (s == "chen-greedy") return QStringLiteral("Chen greedy");
    if (s == "revolve") return QStringLiteral("revolve");
    if (s == "dtr") return QStringLiteral("DTR");
    if (s == "plain") return QStringLiteral("plain pass");
    return QString::fromStdString(s);
}

QCPScatterStyle scatter(const StrategyStyle& st, double size, double pen_width, bool filled) {
    const QPen pen(st.colour, pen_width);
    const QBrush brush = filled ? QBrush(st.colour) : QBrush(Qt::white);
    if (st.custom_polygon > 0) {
        QPainterPath path;
        const double r = size / 2;
        const int k = st.star ? 2 * st.custom_polygon : st.custom_polygon;
        for (int i = 0; i < k; ++i) {
            const double a = -M_PI / 2 + i * 2 * M_PI / k;
            const double ri = st.star && i % 2 ? r * 0.45 : r;  // a star's inner corners
            const QPointF p(ri * std::cos(a), ri * std::sin(a));
            if (i == 0) path.moveTo(p);
            else path.lineTo(p);
        }
        path.closeSubpath();
        return QCPScatterStyle(path, pen, brush, size);
    }
    return QCPScatterStyle(st.shape, pen, brush, size);
}

// A MILP point that could still improve: drawn hollow.
bool hasGap(const SweepRow& r) {
    return r.status == SolveStatus::Feasible && isMilpStrategy(r.strategy);
}

// A MILP point with no schedule that is not proven infeasible (none found
// within its time limit, or cancelled): a longer solve may find one. Drawn
// as a question mark along the bottom, where a proven infeasible point is a
// gap; the two looked alike.
bool undecided(const SweepRow& r) {
    return isMilpStrategy(r.strategy) && (r.status == SolveStatus::NoSolution || r.status == SolveStatus::Cancelled);
}

struct PlotStyle {
    double font_pt;
    double legend_pt;
    double line_width;
    double marker_size;
    bool title;
};

struct Unit { double divisor; QString name; };

Unit ramUnit(const SweepResult& r) {
    std::int64_t mx = r.plain_peak_bytes;
    for (const auto& row : r.rows) mx = std::max(mx, row.ram_budget_bytes);
    if (mx >= 2'000'000) return {1e6, QStringLiteral("MB")};
    if (mx >= 2'000) return {1e3, QStringLiteral("kB")};
    return {1.0, QStringLiteral("B")};
}

// The varied budget, and the fixed one where it is known: a figure read
// away from its command line must say at which budget it was swept.
// And the switches where one is off: a POET curve without paging read as
// POET's own.
QString xAxisLabel(const SweepResult& r, const Unit& unit) {
    QString label;
    // Without recomputation every schedule runs one plain pass's time (paging
    // is not timed): a runtime budget there says nothing.
    if (r.axis == SweepAxis::RamBudget)
        label = r.fixed_runtime_factor > 0 && r.options.remat
                    ? QStringLiteral("RAM budget [%1], runtime %2\u00d7").arg(unit.name).arg(r.fixed_runtime_factor)
                    : QStringLiteral("RAM budget [%1]").arg(unit.name);
    else
        label = r.fixed_ram_budget_bytes > 0
                    ? QStringLiteral("runtime budget [\u00d7 plain pass], RAM %1")
                          .arg(QString::fromStdString(formatBytes(r.fixed_ram_budget_bytes)))
                    : QStringLiteral("runtime budget [\u00d7 plain pass]");
    // On a line of their own: with them, the label was wider than a paper figure.
    if (const QString off = switchesOffText(r.options); !off.isEmpty()) label += QLatin1Char('\n') + off;
    return label;
}

// [lo, hi] widened by `share` of its span each way; around a single value
// (one point) by `share` of the value (a zero-width range drew the same
// tick label five times).
std::pair<double, double> paddedRange(double lo, double hi, double share) {
    const double span = hi > lo ? hi - lo : std::max(std::abs(hi), 1e-12);
    return {lo - share * span, hi + share * span};
}

constexpr double kEnergyPadding = 0.06;  // of the energies' span, each way

// Energies in J, mJ or uJ by the top of the axis as drawn (linear's 0.0005
// J read "0.00045575" on every tick of a one-point sweep; energies up to
// 0.98 J in mJ put "1000" on the padded axis's top tick).
Unit energyUnit(const SweepResult& r) {
    double lo = INFINITY, hi = 0;
    for (const auto& row : r.rows)
        if (row.hasSchedule()) {
            lo = std::min(lo, row.total_energy_j);
            hi = std::max(hi, row.total_energy_j);
        }
    const double top = hi > 0 ? paddedRange(lo, hi, kEnergyPadding).second : 0;
    if (top >= 1) return {1.0, QStringLiteral("J")};
    if (top >= 1e-3) return {1e-3, QStringLiteral("mJ")};
    return {1e-6, QStringLiteral("\u00b5J")};
}

// The range's top raised for the legend (placeLegendClearOfData) left less
// than a marker under the lowest value: a runtime sweep's POET markers sat
// half under the x axis. Lowers the range's bottom until the lowest value
// is `strip_px` above it (a marker and a half, more where question marks
// go under the data); the data only moves down, away from the legend.
// `lowest` in the axis's unit.
void keepLowestMarkersOffTheAxis(QCustomPlot* plot, double lowest, double strip_px) {
    const int height = plot->axisRect()->height();
    if (height <= 0) return;
    const double k = std::min(0.3, strip_px / height);  // of the height, under the lowest value
    const QCPRange range = plot->yAxis->range();
    // lowest - lower >= k (upper - lower)  <=>  lower <= (lowest - k upper) / (1 - k)
    const double lower = (lowest - k * range.upper) / (1 - k);
    if (lower < range.lower) plot->yAxis->setRangeLower(lower);
}

// A question mark kQuestionHeight markers high, centred on the point: an
// undecided MILP point (undecided()). A cross was the plain pass's marker.
constexpr double kQuestionHeight = 1.5;
QCPScatterStyle questionMark(const QColor& colour, double marker_px) {
    QFont font;
    font.setBold(true);
    font.setPixelSize(60);
    QPainterPath path;
    path.addText(0, 0, font, QStringLiteral("?"));
    const QRectF box = path.boundingRect();
    // QCPScatterStyle draws a custom path scaled by size / 6.
    QTransform t;
    t.scale(6 / box.height(), 6 / box.height());
    t.translate(-box.center().x(), -box.center().y());
    // A thin outline in its colour: QCustomPlot draws no pen as the graph's.
    return QCPScatterStyle(t.map(path), QPen(colour, 0.5), QBrush(colour), kQuestionHeight * marker_px);
}

// Question marks, one row per curve that has them, from the axis up.
constexpr double kQuestionRowPitch = 1.7;  // in markers
constexpr double kFirstQuestionRow = 1.3;  // its centre, in markers above the axis

struct DrawnGraph { QCPGraph* graph; QString strategy; std::vector<int> rows; };

// A curve whose every point has the same energy as another curve drawn over
// it (POET is on top, then the strategies in their order) cannot be seen:
// its legend name says which one covers it, "remat only (= POET)" (a
// figure showed eight strategies and six lines). One within
// kIndistinguishable of another's energy at each of its points is hidden to
// the eye too, "DTR (≈ POET)": on resnet18_cifar at 1.5x, DTR's 0.546368 J
// against POET's 0.546326 J left a legend entry with no line to be seen. An
// exact cover is named before a near one.
constexpr double kIndistinguishable = 1e-3;

void nameHiddenCurves(const SweepResult& result, const std::vector<DrawnGraph>& drawn) {
    std::vector<std::string> order = result.strategies;  // bottom to top
    std::stable_partition(order.begin(), order.end(), [](const std::string& s) { return s != "poet"; });
    const auto pointsOf = [&](const std::string& s) {
        std::map<std::pair<std::int64_t, double>, double> energy;  // (RAM, runtime) -> J
        for (const SweepRow& r : sweepCurve(result, s))
            if (r.hasSchedule()) energy[{r.ram_budget_bytes, r.runtime_budget_factor}] = r.total_energy_j;
        return energy;
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto below = pointsOf(order[i]);
        if (below.empty()) continue;
        const auto coveredWithin = [&](const auto& above, double share) {
            return std::all_of(below.begin(), below.end(), [&](const auto& point) {
                const auto it = above.find(point.first);
                return it != above.end() && std::abs(it->second - point.second) <= share * std::abs(point.second);
            });
        };
        // The topmost curve equal to it, else the topmost within kIndistinguishable.
        std::optional<std::size_t> cover;
        QString sign;
        bool fewer = false;  // it has no schedule at some of the cover's points
        for (std::size_t k = order.size(); k-- > i + 1;) {
            const auto above = pointsOf(order[k]);
            if (coveredWithin(above, 1e-9)) {
                cover = k;
                sign = QStringLiteral("=");
                fewer = below.size() < above.size();
                break;
            }
            if (!cover && coveredWithin(above, kIndistinguishable)) {
                cover = k;
                sign = QStringLiteral("\u2248");
                fewer = below.size() < above.size();
            }
        }
        if (!cover) continue;
        // "plain pass (= POET)" read as equal at every budget, where the
        // plain pass fits at one of eight.
        const QString where = fewer ? QStringLiteral(" where it fits") : QString();
        for (const DrawnGraph& d : drawn)
            if (d.strategy == QString::fromStdString(order[i]) && d.graph->name() == labelFor(order[i]))
                d.graph->setName(
                    QStringLiteral("%1 (%2 %3%4)").arg(labelFor(order[i]), sign, labelFor(order[*cover]), where));
    }
}

// Draws `result` into `plot` (cleared first), laid out at `size`, with its
// legend clear of the data; returns the graphs with the curve rows behind
// their data points.
std::vector<DrawnGraph> drawSweep(QCustomPlot* plot, const SweepResult& result, const PlotStyle& ps, QSize size) {
    plot->clearGraphs();
    plot->clearItems();
    takeLegendBackIntoPlot(plot);  // a legend placed above the plot last time
    if (plot->plotLayout()->rowCount() > 1) {
        plot->plotLayout()->removeAt(0);
        plot->plotLayout()->simplify();
    }
    QFont font = withoutLigatures(plot->font());
    font.setPointSizeF(ps.font_pt);
    QFont legend_font = font;
    legend_font.setPointSizeF(ps.legend_pt);
    const bool ram_axis = result.axis == SweepAxis::RamBudget;
    const Unit unit = ramUnit(result);

    for (QCPAxis* ax : {plot->xAxis, plot->yAxis}) {
        ax->setTickLabelFont(font);
        ax->setLabelFont(font);
        ax->setBasePen(QPen(Qt::black, 0.8 * ps.line_width));
        ax->setTickPen(QPen(Qt::black, 0.8 * ps.line_width));
        ax->setSubTickPen(QPen(Qt::black, 0.6 * ps.line_width));
        ax->setTickLengthIn(3);
        ax->setSubTickLengthIn(2);
        ax->grid()->setPen(QPen(QColor(0xDD, 0xDD, 0xDD), 0.5 * ps.line_width, Qt::DotLine));
        ax->grid()->setSubGridVisible(false);
        ax->setLabelPadding(2);
        ax->setTickLabelPadding(2);
    }
    // Five energy ticks (QCustomPlot's default) on a plot as short as the
    // smallest window's drew their labels over each other: three there.
    plot->yAxis->ticker()->setTickCount(size.height() < 200 ? 3 : 5);
    plot->xAxis->setLabel(xAxisLabel(result, unit));
    const Unit joules = energyUnit(result);
    plot->yAxis->setLabel(QStringLiteral("energy [%1]").arg(joules.name));
    plot->legend->setVisible(true);
    plot->legend->setFont(legend_font);
    plot->legend->setBrush(QBrush(QColor(255, 255, 255, 230)));
    plot->legend->setBorderPen(QPen(QColor(0xAA, 0xAA, 0xAA), 0.5 * ps.line_width));
    plot->legend->setRowSpacing(-2);
    plot->legend->setMargins(QMargins(3, 2, 3, 2));
    plot->legend->setIconSize(QSize(static_cast<int>(ps.font_pt * 2.2), static_cast<int>(ps.font_pt)));

    std::vector<DrawnGraph> drawn;
    std::vector<DrawnGraph> questions;  // each curve's undecided points, placed once the range is known
    QStringList never_fit;  // strategies run at every point, with no schedule at any
    bool any_gap = false;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    auto xOf = [&](const SweepRow& r) {
        return ram_axis ? static_cast<double>(r.ram_budget_bytes) / unit.divisor : r.runtime_budget_factor;
    };
    for (const auto& name : result.strategies) {
        const std::vector<SweepRow> curve = sweepCurve(result, name);
        if (curve.empty()) continue;
        const StrategyStyle st = styleFor(name);
        const QString qname = QString::fromStdString(name);
        QCPGraph* line = plot->addGraph();
        line->setName(labelFor(name));
        line->setPen(QPen(st.colour, ps.line_width));
        line->setLineStyle(QCPGraph::lsLine);
        line->setScatterStyle(scatter(st, ps.marker_size, ps.line_width, true));
        QCPGraph* hollow = plot->addGraph();
        hollow->setLineStyle(QCPGraph::lsNone);
        hollow->setScatterStyle(scatter(st, ps.marker_size, ps.line_width, false));
        hollow->removeFromLegend();
        DrawnGraph dl{line, qname, {}}, dh{hollow, qname, {}}, du{nullptr, qname, {}};
        QVector<double> lx, ly, hx, hy, ux;
        for (int i = 0; i < static_cast<int>(curve.size()); ++i) {
            const SweepRow& r = curve[i];
            const double x = xOf(r);
            xmin = std::min(xmin, x);
            xmax = std::max(xmax, x);
            if (!r.hasSchedule()) {
                // Breaks the line; not drawn.
                lx.push_back(x);
                ly.push_back(std::numeric_limits<double>::quiet_NaN());
                dl.rows.push_back(i);
                if (undecided(r)) {
                    ux.push_back(x);
                    du.rows.push_back(i);
                }
                continue;
            }
            lx.push_back(x);
            const double y = r.total_energy_j / joules.divisor;
            ly.push_back(y);
            dl.rows.push_back(i);
            ymin = std::min(ymin, y);
            ymax = std::max(ymax, y);
            if (hasGap(r)) {
                hx.push_back(x);
                hy.push_back(y);
                dh.rows.push_back(i);
                any_gap = true;
            }
        }
        line->setData(lx, ly, true);
        if (!ux.isEmpty()) {
            du.graph = plot->addGraph();
            du.graph->setLineStyle(QCPGraph::lsNone);
            du.graph->setScatterStyle(questionMark(st.colour, ps.marker_size));
            du.graph->removeFromLegend();
            du.graph->setData(ux, QVector<double>(ux.size(), std::numeric_limits<double>::quiet_NaN()), true);
            questions.push_back(std::move(du));
        }
        if (std::none_of(curve.begin(), curve.end(),
                         [](const SweepRow& r) { return r.hasSchedule() || undecided(r); })) {
            line->removeFromLegend();  // nothing drawn
            if (curve.size() == (ram_axis ? result.ram_budgets.size() : result.runtime_factors.size()))
                never_fit << labelFor(name);
        }
        hollow->setData(hx, hy, true);
        drawn.push_back(std::move(dl));
        drawn.push_back(std::move(dh));
    }
    // POET over the rest: where a baseline finds the same schedules (remat
    // only, where paging does not pay) its curve would hide POET's. The
    // legend keeps the strategies' order.
    for (const DrawnGraph& d : drawn)
        if (d.strategy == QLatin1String("poet")) d.graph->setLayer(d.graph->layer());  // to the layer's top
    nameHiddenCurves(result, drawn);
    if (!never_fit.isEmpty()) {
        // One legend line, no icon: so that they are not read as left out
        // of the sweep (they vanished from the legend).
        QCPGraph* g = plot->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
        // Two names a line: the legend is as wide as its widest line, and
        // five on one line were wider than a paper figure.
        QString text = QStringLiteral("no schedule fits:");
        for (int i = 0; i < never_fit.size(); ++i)
            text += (i == 0 ? QStringLiteral("\n  ") : i % 2 ? QStringLiteral(", ") : QStringLiteral(",\n  ")) +
                    never_fit[i];
        g->setName(text);
    }
    if (any_gap) {
        // Explain filled and hollow markers: the MILP strategies' only (a
        // baseline's schedule is neither proven nor has a gap; its markers
        // stay filled, as its line's). Mid grey: no strategy's colour.
        const QColor k(0x80, 0x80, 0x80);
        for (bool filled : {true, false}) {
            QCPGraph* g = plot->addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(k, ps.line_width),
                                               filled ? QBrush(k) : QBrush(Qt::white), ps.marker_size));
            g->setName(filled ? QStringLiteral("MILP: proven optimal") : QStringLiteral("MILP: feasible (gap)"));
        }
    }
    if (!questions.empty()) {
        QCPGraph* g = plot->addGraph();  // the key
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(questionMark(QColor(0x80, 0x80, 0x80), ps.marker_size));
        g->setName(QStringLiteral("MILP: none found in time"));
    }
    if (std::isfinite(xmin)) {
        const auto [lo, hi] = paddedRange(xmin, xmax, 0.04);
        plot->xAxis->setRange(lo, hi);
    }
    if (std::isfinite(ymin)) {
        const auto [lo, hi] = paddedRange(ymin, ymax, kEnergyPadding);
        plot->yAxis->setRange(lo, hi);
    }
    if (ps.title && (!result.model.empty() || !result.platform.empty())) {
        plot->plotLayout()->insertRow(0);
        QString t = QString::fromStdString(profileShownName(result.model));
        if (!result.platform.empty())
            t += QStringLiteral(" on ") + QString::fromStdString(profileShownName(result.platform));
        auto* title = new QCPTextElement(plot, t, font);
        plot->plotLayout()->addElement(0, 0, title);
    }
    // The legend keeps clear of the question marks at the lowest energy's
    // height; then they go under it, into a strip kept below the data (or
    // mid-height where nothing has an energy).
    const auto placeQuestions = [&](auto y) {  // y(row)
        for (std::size_t j = 0; j < questions.size(); ++j)
            for (auto it = questions[j].graph->data()->begin(); it != questions[j].graph->data()->end(); ++it)
                it->value = y(j);
    };
    placeQuestions([&](std::size_t) { return std::isfinite(ymin) ? ymin : plot->yAxis->range().center(); });
    placeLegendClearOfData(plot, size);
    const double rows = static_cast<double>(questions.size());
    const double strip = questions.empty() ? 1.5 : kFirstQuestionRow + kQuestionRowPitch * (rows - 1) + 1.5;
    if (std::isfinite(ymin)) keepLowestMarkersOffTheAxis(plot, ymin, strip * ps.marker_size);
    const QCPRange yr = plot->yAxis->range();
    const double per_marker = yr.size() * ps.marker_size / std::max(1, plot->axisRect()->height());
    placeQuestions([&](std::size_t j) {
        return std::isfinite(ymin) ? yr.lower + (kFirstQuestionRow + kQuestionRowPitch * j) * per_marker
                                   : yr.center() - kQuestionRowPitch * j * per_marker;
    });
    for (DrawnGraph& d : questions) drawn.push_back(std::move(d));
    return drawn;
}

QString etaText(double s, bool isLimit) {
    if (s < 0) return {};
    const QString about = isLimit ? QObject::tr("at most") : QObject::tr("about");
    if (s < 60) return QObject::tr("%1 %2 s left").arg(about).arg(std::ceil(s));
    if (s < 3600) return QObject::tr("%1 %2 min left").arg(about).arg(std::ceil(s / 60));
    return QObject::tr("%1 %2 h left").arg(about).arg(s / 3600, 0, 'f', 1);
}

// Qt's warnings about its runtime directory (XDG_RUNTIME_DIR unset, as under
// su, cron or a CI container; or the fallback's permissions): the command
// line only draws to files, never needs that directory, and a plot export
// is no place to hear of it. Everything else goes on to Qt's handler.
QtMessageHandler qtHandler = nullptr;
void quietRuntimeDirWarning(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: ")) &&
        (message.contains(QLatin1String("XDG_RUNTIME_DIR")) || message.contains(QLatin1String("runtime director"))))
        return;
    qtHandler(type, context, message);
}

void ensureApplication() {
    if (QCoreApplication::instance()) return;
    qtHandler = qInstallMessageHandler(quietRuntimeDirWarning);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "poet";
    static char* argv[] = {name, nullptr};
    new QApplication(argc, argv);  // lives until exit
}

const PlotStyle kPaper{8.0, 7.0, 1.0, 5.0, false};
const PlotStyle kScreen{9.0, 8.5, 1.5, 7.0, true};
// How near a point the mouse hovers or clicks it, px: a marker, and a little for the hand.
const double kReach = kScreen.marker_size / 2 + 3;
const QSizeF kPaperSize(336, 240);  // logical pixels (1/96 in): 3.5 in x 2.5 in

bool exportWith(const SweepResult& result, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) {
        std::string err;
        if (writeSweepCsv(result, path.toStdString(), &err)) return true;
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    if (!paretoPlotFormatKnown(path, error)) return false;
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(kPaperSize.toSize());
    drawSweep(&plot, result, kPaper, kPaperSize.toSize());
    const QString title = QStringLiteral("Energy vs %1: %2 on %3")
                              .arg(result.axis == SweepAxis::RamBudget ? QStringLiteral("RAM budget")
                                                                       : QStringLiteral("runtime budget"),
                                   QString::fromStdString(profileShownName(result.model)),
                                   QString::fromStdString(profileShownName(result.platform)));
    return exportView(
        [&plot](QCPPainter& painter, const QRectF& target) {
            painter.save();
            painter.translate(target.topLeft());
            plot.toPainter(&painter, static_cast<int>(target.width()), static_cast<int>(target.height()));
            painter.restore();
        },
        kPaperSize, path, title, error, 4.0);
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

// `text` broken into lines of at most `width` pixels in `fm`, at spaces.
QString wrappedToWidth(const QString& text, const QFontMetrics& fm, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines.join(QLatin1Char('\n'));
}

// A drawn point's words for its tooltip, what the axes cannot be read to:
// its energy and how it was proven (`how`), and the rest of its figures.
struct PointWords {
    QString head;     // "8.0000 J, best found, gap 5 %"
    QString figures;  // budgets, peak, runtime, the energy's parts, where it came from
};

PointWords pointWords(const SweepRow& r, SweepAxis axis) {
    if (!r.hasSchedule()) {  // undecided: a question mark
        QString head = r.status == SolveStatus::Cancelled
                           ? QObject::tr("not solved, the sweep was cancelled")
                           : QObject::tr("no schedule found in %1, not proven infeasible")
                                 .arg(qs(formatSeconds(r.solve_time_s)));
        QString figures = QObject::tr("RAM budget %1 (%2), runtime budget %3")
                              .arg(qs(formatBytes(r.ram_budget_bytes)), qs(formatBytesExact(r.ram_budget_bytes)),
                                   qs(formatFactor(r.runtime_budget_factor)));
        if (std::isfinite(r.best_bound_j) && r.best_bound_j > 0)
            figures += QObject::tr("<br>a schedule here spends at least %1").arg(qs(formatEnergy(r.best_bound_j)));
        return {head, figures};
    }
    QString how;
    if (!isMilpStrategy(r.strategy)) how = QObject::tr("the algorithm's schedule");
    else if (r.status == SolveStatus::Optimal)
        how = r.gap >= 5e-5 ? QObject::tr("proven optimal within %1").arg(qs(formatGapPercent(r.gap)))
                            : QObject::tr("proven optimal");
    else how = QObject::tr("best found, gap %1").arg(qs(formatGapPercent(r.gap)));
    QString figures = QObject::tr("RAM budget %1 (%2), runtime budget %3<br>peak RAM %4, runtime %5; compute %6, "
                                  "paging %7")
                          .arg(qs(formatBytes(r.ram_budget_bytes)), qs(formatBytesExact(r.ram_budget_bytes)),
                               qs(formatFactor(r.runtime_budget_factor)), qs(formatBytes(r.peak_ram_bytes)),
                               qs(formatSeconds(r.runtime_s)),
                               qs(formatEnergyLike(r.compute_energy_j, r.total_energy_j)),
                               qs(formatEnergyLike(r.paging_energy_j, r.total_energy_j)));
    if (!r.schedule_from_budget.empty())
        figures += QObject::tr("<br>the schedule of the tighter point at %1, which fits here too (this point's own "
                               "solve ended worse)")
                       .arg(axis == SweepAxis::RamBudget ? qs(formatBytes(std::stoll(r.schedule_from_budget)))
                                                         : qs(r.schedule_from_budget) + QLatin1Char('x'));
    if (r.from_cache) figures += QObject::tr("<br>from the solve cache");
    else if (r.from_earlier_point)
        figures += QObject::tr("<br>the same problem as an earlier point of this sweep (the same usable RAM)");
    return {QObject::tr("%1, %2").arg(qs(formatEnergy(r.total_energy_j)), how), figures};
}

}  // namespace

bool exportParetoPlot(const SweepResult& result, const QString& path, QString* error) {
    ensureApplication();
    return exportWith(result, path, error);
}

bool paretoPlotFormatKnown(const QString& path, QString* error) {
    if (QFileInfo(path).suffix().toLower() == QLatin1String("csv") || exportFormatForPath(path)) return true;
    if (error) *error = QObject::tr("unknown export format for %1 (use .png, .pdf, .svg or .csv)").arg(path);
    return false;
}

// ----------------------------------------------------------- SweepRunner --

SweepRunner::SweepRunner(QObject* parent) : QObject(parent), cache_(std::make_unique<SweepCache>()) {}

SweepRunner::~SweepRunner() {
    cancel_ = true;
    wait();
}

void SweepRunner::setCacheDirectory(const QString& dir) {
    if (!isRunning()) cache_ = std::make_unique<SweepCache>(dir.toStdString());
}

bool SweepRunner::isRunning() const { return thread_ && thread_->isRunning(); }

void SweepRunner::wait() {
    if (thread_) {
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }
}

void SweepRunner::cancel() { cancel_ = true; }

bool SweepRunner::start(const SweepConfig& config) {
    if (isRunning()) return false;
    wait();
    cancel_ = false;
    config_ = config;
    SweepCache* cache = cache_.get();
    thread_ = QThread::create([this, config, cache] {
        SweepResult result;
        try {
            result = runSweep(
                config,
                [this](const SweepProgress& p) {
                    const SweepRow row = *p.row;
                    const int done = p.done, total = p.total;
                    const double eta = p.eta_s;
                    const bool eta_is_limit = p.eta_is_limit;
                    QMetaObject::invokeMethod(this, [this, row, done, total, eta, eta_is_limit] {
                        Q_EMIT rowFinished(row);
                        Q_EMIT progress(done, total, eta, eta_is_limit);
                    }, Qt::QueuedConnection);
                },
                &cancel_, cache);
        } catch (const std::exception&) {
            result.cancelled = true;
        }
        QMetaObject::invokeMethod(this, [this, result] { Q_EMIT finished(result); }, Qt::QueuedConnection);
    });
    const int total = config.points * static_cast<int>(config.strategies.size());
    thread_->start();
    Q_EMIT started(total);
    return true;
}

// ------------------------------------------------------------ ParetoPlot --

ParetoPlot::ParetoPlot(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    // Low enough for the smallest window (1024 x 576, the Problem row on two
    // lines): at 240 the tab's page could not hold it, and the plot was
    // drawn under the point count with its x axis hidden.
    plot_->setMinimumSize(320, 150);
    plot_->setInteractions(QCP::Interactions());
    plot_->installEventFilter(this);  // a new size places the legend again
    // Keys reach the points: a click on the plot gives this widget the focus.
    setFocusPolicy(Qt::StrongFocus);
    plot_->setFocusPolicy(Qt::ClickFocus);
    plot_->setFocusProxy(this);
    setAccessibleName(tr("Pareto plot"));
    setAccessibleDescription(tr("Arrow keys walk the points (left and right along a curve, up and down to another "
                                "curve); Enter solves POET at the point's budgets"));
    connect(plot_, &QCustomPlot::mouseRelease, this, &ParetoPlot::onClick);
    progress_ = new QProgressBar(this);
    progress_->setTextVisible(true);
    eta_ = new QLabel(this);
    eta_->setTextFormat(Qt::RichText);
    eta_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(eta_, &QLabel::linkActivated, this, [this] {
        QStringList notes;
        for (const auto& n : result_.notes) notes << QString::fromStdString(n);
        auto* box = new QMessageBox(QMessageBox::Information, tr("Sweep notes"), notes.join(QStringLiteral("\n\n")),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setObjectName(QStringLiteral("sweepNotes"));
        box->open();  // not exec(): the plot goes on drawing behind it
    });
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setToolTip(tr("Stop the sweep now; the point in progress keeps the schedule its solve has found, if any"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(progress_, 1);
    bar->addWidget(eta_, 1);
    bar->addWidget(cancel_);
    offRange_ = new QLabel(this);
    offRange_->setObjectName(QStringLiteral("budgetOffRange"));
    // Both may wrap: on one line they widened the whole window.
    offRange_->setWordWrap(true);
    eta_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addLayout(bar);
    layout->addWidget(offRange_);
    for (QWidget* w : {static_cast<QWidget*>(progress_), static_cast<QWidget*>(eta_), static_cast<QWidget*>(cancel_)})
        w->setVisible(false);

    runner_ = new SweepRunner(this);
    connect(cancel_, &QPushButton::clicked, this, &ParetoPlot::cancelSweep);
    // A sweep cleared while it runs (its problem switched) is of a problem no
    // longer shown: its rows and result are dropped, not drawn when they come.
    connect(runner_, &SweepRunner::rowFinished, this, [this](const SweepRow& row) {
        if (!discardRunning_) addRow(row);
    });
    connect(runner_, &SweepRunner::progress, this, [this](int done, int total, double eta_s, bool etaIsLimit) {
        if (!discardRunning_) onProgress(done, total, eta_s, etaIsLimit);
    });
    connect(runner_, &SweepRunner::started, this, [this](int total) {
        progress_->setRange(0, total);
        progress_->setValue(0);
        eta_->setText(tr("starting"));
        for (QWidget* w : {static_cast<QWidget*>(progress_), static_cast<QWidget*>(eta_), static_cast<QWidget*>(cancel_)})
            w->setVisible(true);
        cancel_->setEnabled(true);
    });
    connect(runner_, &SweepRunner::finished, this, [this](const SweepResult& r) {
        sweepUnanswered_ = false;
        progress_->setVisible(false);
        cancel_->setVisible(false);
        if (discardRunning_) {
            discardRunning_ = false;
            eta_->clear();
            Q_EMIT sweepEnded(false);
            return;
        }
        setResult(r);
        // "12 points" asked for are 12 budgets, each solved for every
        // strategy: the count of solves alone read as a mistake (96).
        const auto budgets = r.axis == SweepAxis::RamBudget ? r.ram_budgets.size() : r.runtime_factors.size();
        QString done = r.cancelled ? tr("cancelled after %1 of %2 points").arg(r.done).arg(r.total)
                                   : tr("%1 budgets \u00d7 %2 strategies: %3 points")
                                         .arg(budgets)
                                         .arg(r.strategies.size())
                                         .arg(r.done);
        if (const std::string reused = reusedPointsText(r); !reused.empty() && !r.cancelled)
            done += QStringLiteral(" (%1)").arg(QString::fromStdString(reused));
        // The sweep's notes (a strategy left out, a point given a tighter
        // point's schedule): counted in the line, read in its tooltip or,
        // from the keyboard too, through its link (a tooltip alone was out
        // of a keyboard's reach).
        QStringList notes;
        for (const auto& n : r.notes) notes << QString::fromStdString(n);
        done = done.toHtmlEscaped();
        if (!notes.isEmpty())
            done += tr(", <a href=\"notes\">%n note(s)</a>", nullptr, static_cast<int>(notes.size()));
        eta_->setText(done);
        eta_->setToolTip(notes.join(QLatin1Char('\n')));
        Q_EMIT sweepEnded(true);
    });
    rebuild();
}

ParetoPlot::~ParetoPlot() = default;

bool ParetoPlot::eventFilter(QObject* watched, QEvent* event) {
    // The plot has its new size already; the legend's corner and the room
    // it needs depend on it.
    if (watched == plot_ && event->type() == QEvent::Resize) rebuild();
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        const auto* he = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(he->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(he->globalPos(), text, plot_);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ParetoPlot::setResult(const SweepResult& result) {
    result_ = result;
    rebuild();
}

void ParetoPlot::addRow(const SweepRow& row) {
    for (auto& r : result_.rows) {
        if (r.strategy == row.strategy && r.ram_budget_bytes == row.ram_budget_bytes &&
            r.runtime_budget_factor == row.runtime_budget_factor) {
            r = row;
            rebuild();
            return;
        }
    }
    result_.rows.push_back(row);
    if (std::find(result_.strategies.begin(), result_.strategies.end(), row.strategy) == result_.strategies.end())
        result_.strategies.push_back(row.strategy);
    rebuild();
}

void ParetoPlot::clear() {
    // Its thread may have ended with its rows and result still queued: they
    // were drawn under the problem switched to (linear's points on
    // transformer, a click opening an infeasible budget).
    if (sweepUnanswered_) {
        discardRunning_ = true;
        cancelSweep();
    }
    result_ = SweepResult{};
    keyStrategy_.clear();
    rebuild();
}

void ParetoPlot::setCurrentBudgets(std::int64_t ram_budget_bytes, double runtime_budget_factor) {
    current_ram_ = ram_budget_bytes;
    current_factor_ = runtime_budget_factor;
    rebuild();
}

bool ParetoPlot::runSweep(const SweepConfig& config) {
    if (sweepUnanswered_) return false;
    result_ = SweepResult{};
    keyStrategy_.clear();
    result_.axis = config.axis;
    result_.model = config.problem.model;
    result_.platform = config.problem.platform;
    result_.fixed_runtime_factor = config.problem.runtime_budget_factor;
    result_.fixed_ram_budget_bytes = config.problem.ram_budget_bytes;
    result_.strategies = config.strategies;
    rebuild();
    sweepUnanswered_ = runner_->start(config);
    return sweepUnanswered_;
}

void ParetoPlot::cancelSweep() {
    runner_->cancel();
    cancel_->setEnabled(false);
    eta_->setText(tr("cancelling"));
}

void ParetoPlot::onProgress(int done, int total, double eta_s, bool etaIsLimit) {
    progress_->setRange(0, total);
    progress_->setValue(done);
    eta_->setText(etaText(eta_s, etaIsLimit));
}

bool ParetoPlot::exportTo(const QString& path, QString* error) const { return exportWith(result_, path, error); }

void ParetoPlot::rebuild() {
    const auto drawn = drawSweep(plot_, result_, kScreen, plot_->size());
    drawn_.clear();
    for (const auto& d : drawn) drawn_.push_back({d.graph, d.strategy, d.rows});
    keyRing_ = nullptr;
    // The point the arrow keys reached: a ring around its marker.
    if (const auto at = keyStrategy_.isEmpty() ? std::nullopt : pointCoords(keyStrategy_, keyIndex_)) {
        QCPGraph* ring = keyRing_ = plot_->addGraph();
        ring->setLineStyle(QCPGraph::lsNone);
        ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::NoBrush,
                                              kScreen.marker_size * 2.2));
        ring->setData(QVector<double>{at->x()}, QVector<double>{at->y()});
        ring->removeFromLegend();
        ring->setSelectable(QCP::stNone);
    }
    marker_ = nullptr;
    offRange_->clear();
    if (current_ram_ >= 0) {
        const double x = result_.axis == SweepAxis::RamBudget
                             ? static_cast<double>(current_ram_) / ramUnit(result_).divisor
                             : current_factor_;
        marker_ = new QCPItemStraightLine(plot_);
        marker_->point1->setCoords(x, 0);
        marker_->point2->setCoords(x, 1);
        marker_->setPen(QPen(QColor(0x44, 0x44, 0x44), 1.0, Qt::DashLine));
        marker_->setSelectable(false);
        // Off the swept range the line was simply missing: say where it is
        // (under the plot: inside, a corner's text lay over a curve).
        const QCPRange shown = plot_->xAxis->range();
        if (!result_.rows.empty() && !shown.contains(x))
            offRange_->setText(x < shown.lower ? tr("\u25C0 the budget on screen, %1, is left of the sweep")
                                                     .arg(currentBudgetText())
                                               : tr("the budget on screen, %1, is right of the sweep \u25B6")
                                                     .arg(currentBudgetText()));
    }
    offRange_->setVisible(!offRange_->text().isEmpty());
    // Before any sweep the axes stood empty, beside "Click a point": say
    // what fills them.
    if (result_.rows.empty()) {
        auto* hint = new QCPItemText(plot_);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        // Broken to the plot's width: in three fixed lines it ran off both
        // sides of a narrow plot ("gainst the RAM budget").
        const int fh = fontMetrics().height();  // the axes' margins are about four lines wide
        const int width = std::max(plot_->width() - 6 * fh, 8 * fh);
        hint->setText(wrappedToWidth(tr("No sweep yet: Run sweep draws the energy of POET and the baselines against "
                                        "the RAM budget (from the smallest that could work to the plain pass's peak) "
                                        "or against the runtime budget."),
                                     QFontMetrics(hint->font()), width));
        hint->setColor(QColor(0x55, 0x55, 0x55));
        hint->setSelectable(false);
        plot_->legend->setVisible(false);  // an empty box in the corner
    }
    plot_->replot();
}

std::optional<QPointF> ParetoPlot::pointCoords(const QString& strategy, int index) const {
    for (const auto& d : drawn_) {
        if (d.strategy != strategy) continue;
        for (int k = 0; k < static_cast<int>(d.rows.size()); ++k) {
            if (d.rows[k] != index) continue;
            const auto it = d.graph->data()->at(k);
            if (!std::isnan(it->value)) return QPointF(it->key, it->value);
            // else the line's gap: an undecided point's question mark is in a graph further on
        }
    }
    return std::nullopt;
}

QPointF ParetoPlot::pointPosition(const QString& strategy, int index) const {
    const auto at = pointCoords(strategy, index);
    if (!at) return {-1, -1};
    return {plot_->xAxis->coordToPixel(at->x()), plot_->yAxis->coordToPixel(at->y())};
}

std::vector<int> ParetoPlot::drawnIndices(const QString& strategy) const {
    std::set<int> drawn;  // a point with a gap is in two graphs (the line's and the hollow markers')
    for (const auto& d : drawn_) {
        if (d.strategy != strategy) continue;
        for (int k = 0; k < static_cast<int>(d.rows.size()); ++k)
            if (!std::isnan(d.graph->data()->at(k)->value)) drawn.insert(d.rows[k]);
    }
    return {drawn.begin(), drawn.end()};
}

void ParetoPlot::moveKeyPoint(int along, int across) {
    QStringList curves;  // the strategies with a point drawn, in the sweep's order
    for (const auto& s : result_.strategies)
        if (!drawnIndices(QString::fromStdString(s)).empty()) curves << QString::fromStdString(s);
    if (curves.isEmpty()) return;
    int c = static_cast<int>(curves.indexOf(keyStrategy_));
    if (c < 0) {  // the first key: POET's (else the first curve's) first point
        c = std::max<int>(0, static_cast<int>(curves.indexOf(QStringLiteral("poet"))));
        keyStrategy_ = curves[c];
        keyIndex_ = drawnIndices(keyStrategy_).front();
    } else if (across != 0) {
        // The next curve's point nearest along the axis to where the key was.
        const double x = pointCoords(keyStrategy_, keyIndex_).value_or(QPointF()).x();
        keyStrategy_ = curves[(c + across + curves.size()) % curves.size()];
        const std::vector<int> there = drawnIndices(keyStrategy_);
        keyIndex_ = *std::min_element(there.begin(), there.end(), [&](int a, int b) {
            return std::abs(pointCoords(keyStrategy_, a)->x() - x) < std::abs(pointCoords(keyStrategy_, b)->x() - x);
        });
    } else {
        const std::vector<int> here = drawnIndices(keyStrategy_);
        const auto it = std::find(here.begin(), here.end(), keyIndex_);
        const int k = it == here.end() ? 0 : static_cast<int>(it - here.begin());
        keyIndex_ = here[std::clamp<int>(k + along, 0, static_cast<int>(here.size()) - 1)];
    }
    rebuild();
    const QPointF at = pointPosition(keyStrategy_, keyIndex_);
    QToolTip::showText(plot_->mapToGlobal(at.toPoint()), toolTipAt(at), plot_);
}

void ParetoPlot::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Left: return moveKeyPoint(-1, 0);
    case Qt::Key_Right: return moveKeyPoint(1, 0);
    case Qt::Key_Up: return moveKeyPoint(0, 1);
    case Qt::Key_Down: return moveKeyPoint(0, -1);
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (!keyStrategy_.isEmpty()) return activatePoint(keyStrategy_, keyIndex_);
        break;
    default: break;
    }
    QWidget::keyPressEvent(event);
}

QString ParetoPlot::currentBudgetText() const {
    return result_.axis == SweepAxis::RamBudget ? qs(formatBytes(current_ram_)) : qs(formatFactor(current_factor_));
}

std::vector<ParetoPlot::NearPoint> ParetoPlot::pointsNear(const QPointF& pixel) const {
    std::vector<NearPoint> near;
    for (const auto& s : result_.strategies) {
        const QString strategy = QString::fromStdString(s);
        // Each point once: a point with a gap is drawn twice (the line's
        // marker and the hollow one over it).
        for (const int i : drawnIndices(strategy)) {
            const QPointF at = pointPosition(strategy, i);
            const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
            if (distance <= kReach) near.push_back({strategy, i, distance});
        }
    }
    return near;
}

QString ParetoPlot::toolTipAt(const QPointF& pixel) const {
    // The points under the mouse, those with the same figures together: at
    // a plain pass's peak six curves coincide, and six blocks of the same
    // figures ran to 25 lines. Within a group, one line per energy and way
    // of proof names its curves.
    std::vector<std::pair<QString, std::vector<std::pair<QString, QStringList>>>> groups;  // figures, heads
    for (const NearPoint& near : pointsNear(pixel)) {
        const std::string s = near.strategy.toStdString();
        const PointWords words = pointWords(sweepCurve(result_, s)[near.index], result_.axis);
        auto group =
            std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == words.figures; });
        if (group == groups.end()) group = groups.insert(groups.end(), {words.figures, {}});
        auto head = std::find_if(group->second.begin(), group->second.end(),
                                 [&](const auto& h) { return h.first == words.head; });
        if (head == group->second.end()) head = group->second.insert(group->second.end(), {words.head, {}});
        head->second << labelFor(s);
    }
    QStringList parts;
    for (const auto& [figures, heads] : groups) {
        QStringList lines;
        for (const auto& [head, names] : heads)
            lines << QStringLiteral("<b>%1</b>: %2").arg(names.join(QStringLiteral(", ")), head);
        parts << lines.join(QStringLiteral("<br>")) + QStringLiteral("<br>") + figures;
    }
    if (parts.isEmpty()) {
        // The dashed line, otherwise unexplained.
        if (marker_ && std::abs(marker_->point1->pixelPosition().x() - pixel.x()) <= 3)
            return tr("The dashed line: the budget on screen, %1").arg(currentBudgetText());
        return {};
    }
    return parts.join(QStringLiteral("<br><br>")) +
           tr("<br><br>Click to solve POET at these budgets.");
}

void ParetoPlot::activatePoint(const QString& strategy, int index) {
    const std::vector<SweepRow> curve = sweepCurve(result_, strategy.toStdString());
    if (index < 0 || index >= static_cast<int>(curve.size())) return;
    if (!curve[index].hasSchedule() && !undecided(curve[index])) return;  // infeasible: not drawn
    const SweepRow& r = curve[index];
    Q_EMIT pointActivated(r.ram_budget_bytes, r.runtime_budget_factor, strategy);
}

void ParetoPlot::onClick(QMouseEvent* event) {
    // By distance, as the tooltip finds its points, not by QCustomPlot's
    // plottables: within its tolerance of the x axis that took the click, and
    // question marks sit just above it.
    if (event->button() != Qt::LeftButton) return;
    const std::vector<NearPoint> near = pointsNear(event->position());
    // The nearest; on a tie the first in the sweep's order (POET's, drawn on top).
    const auto nearest = std::min_element(near.begin(), near.end(), [](const NearPoint& a, const NearPoint& b) {
        return a.distance < b.distance;
    });
    if (nearest != near.end() && nearest->distance < kReach) activatePoint(nearest->strategy, nearest->index);
}

}  // namespace poet::ui
