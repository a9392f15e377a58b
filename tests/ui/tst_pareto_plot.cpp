// The Pareto view: renders offscreen, exports PNG/PDF/SVG/CSV, a click on a
// point emits pointActivated with that point's budget, the runner fills it,
// and its legend covers no data.
#include <cmath>
#include <optional>

#include <QSignalSpy>
#include <QImage>
#include <QTemporaryDir>
#include <QMessageBox>
#include <QLabel>
#include <QToolTip>
#include <QtTest>
#include <qcustomplot.h>

#include "legend_placement.h"
#include "pareto_plot.h"
#include "sweep.h"

using namespace poet;
using poet::ui::ParetoPlot;

namespace {

SweepRow row(const std::string& s, std::int64_t b, SolveStatus st, double e, double gap = 0) {
    SweepRow r;
    r.strategy = s;
    r.ram_budget_bytes = b;
    r.runtime_budget_factor = 1.5;
    r.status = st;
    r.compute_energy_j = e;
    r.total_energy_j = e;
    r.runtime_s = 0.01;
    r.peak_ram_bytes = b;
    r.gap = gap;
    return r;
}

SweepResult sample() {
    SweepResult res;
    res.model = "toy";
    res.platform = "m4";
    res.axis = SweepAxis::RamBudget;
    res.strategies = {"poet", "chen-greedy", "dtr", "plain"};
    res.ram_lower_bound_bytes = 400'000;
    res.plain_peak_bytes = 2'400'000;
    for (int i = 0; i < 5; ++i) {
        const std::int64_t b = 400'000 + i * 500'000;
        res.ram_budgets.push_back(b);
        res.rows.push_back(i == 0 ? row("poet", b, SolveStatus::Infeasible, 0)
                                  : row("poet", b, i == 2 ? SolveStatus::Feasible : SolveStatus::Optimal,
                                        10.0 - i, i == 2 ? 0.05 : 0));
        res.rows.push_back(i < 2 ? row("chen-greedy", b, SolveStatus::Infeasible, 0)
                                 : row("chen-greedy", b, SolveStatus::Feasible, 12.0 - i, NAN));
        res.rows.push_back(row("dtr", b, SolveStatus::Feasible, 13.0 - i, NAN));
        res.rows.push_back(i < 4 ? row("plain", b, SolveStatus::Infeasible, 0)
                                 : row("plain", b, SolveStatus::Feasible, 6.0, NAN));
    }
    res.total = res.done = static_cast<int>(res.rows.size());
    return res;
}

// A baseline flat and dear across the top, as Chen's sqrt(n) is from the
// budget where it first fits: under the top-right corner, where the legend
// used to be.
SweepResult flatBaselineOnTop() {
    SweepResult res = sample();
    res.strategies.push_back("chen-sqrtn");
    for (const std::int64_t b : res.ram_budgets)
        res.rows.push_back(b < 1'400'000 ? row("chen-sqrtn", b, SolveStatus::Infeasible, 0)
                                         : row("chen-sqrtn", b, SolveStatus::Feasible, 12.6, NAN));
    res.total = res.done = static_cast<int>(res.rows.size());
    return res;
}

// The names in a plot's legend, in its order.
QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// The pixels a graph draws: its points, and every pixel or so along the
// line between two of them (none across a gap).
QVector<QPointF> drawnPixels(const QCPGraph* g) {
    QVector<QPointF> out;
    std::optional<QPointF> last;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        if (std::isnan(it->value)) {
            last.reset();
            continue;
        }
        const QPointF p(g->keyAxis()->coordToPixel(it->key), g->valueAxis()->coordToPixel(it->value));
        if (last && g->lineStyle() != QCPGraph::lsNone)
            for (int k = 1; k < 200; ++k) out.push_back(*last + (p - *last) * (k / 200.0));
        out.push_back(p);
        last = p;
    }
    return out;
}

// The drawn pixels of every graph inside the legend's box, as a plot drawn
// at its size shows it.
// `w` on screen at 640 x 480 with `result` drawn, as a user sees it.
bool showOnScreen(ParetoPlot& w, const SweepResult& result) {
    w.resize(640, 480);
    w.setResult(result);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return false;
    w.plot()->replot();
    return true;
}

int pixelsUnderLegend(QCustomPlot* plot) {
    plot->toPixmap(plot->width(), plot->height());  // lays it out at that size
    const QRectF legend = plot->legend->outerRect();
    int under = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
        for (const QPointF& p : drawnPixels(plot->graph(i))) under += legend.contains(p);
    return under;
}

}  // namespace

class TestParetoPlot : public QObject {
    Q_OBJECT

private slots:
    void rendersAndExports() {
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(sample());
        w.setCurrentBudgets(1'400'000, 1.5);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage img = w.grab().toImage();
        QVERIFY(!img.isNull());
        // Something other than the background was drawn.
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 4)
            for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 10);
        QVERIFY(w.plot()->graphCount() >= 8);

        QTemporaryDir dir;
        for (const QString ext : {"png", "pdf", "svg", "csv"}) {
            const QString path = dir.filePath("pareto." + ext);
            QString err;
            QVERIFY2(w.exportTo(path, &err), qPrintable(err));
            QVERIFY(QFileInfo(path).size() > 500);
        }
        // The free function, as `poet sweep --plot` uses it.
        for (const QString ext : {"png", "pdf", "svg"}) {
            const QString path = dir.filePath("free." + ext);
            QString err;
            QVERIFY2(ui::exportParetoPlot(sample(), path, &err), qPrintable(err));
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            if (ext == "png") QVERIFY(head.startsWith("\x89PNG"));
            if (ext == "pdf") QVERIFY(head.startsWith("%PDF"));
            QVERIFY(f.size() > 1000);
        }
        QFile svg(dir.filePath("free.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray s = svg.readAll();
        QVERIFY(s.contains("<svg"));
        QVERIFY(!s.contains("<image"));  // vectors, not a picture
        QVERIFY(s.contains("POET"));
        QString err;
        QVERIFY(!ui::exportParetoPlot(sample(), dir.filePath("x.doc"), &err));
        QVERIFY(!err.isEmpty());
    }

    void clickEmitsPointActivated() {
        ParetoPlot w;
        QVERIFY(showOnScreen(w, sample()));
        QSignalSpy spy(&w, &ParetoPlot::pointActivated);

        // The slot.
        w.activatePoint("dtr", 3);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<std::int64_t>(), std::int64_t(1'900'000));
        QCOMPARE(spy.at(0).at(1).toDouble(), 1.5);
        QCOMPARE(spy.at(0).at(2).toString(), QString("dtr"));
        // Infeasible points are not drawn and cannot be activated.
        w.activatePoint("poet", 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(w.pointPosition("poet", 0), QPointF(-1, -1));

        // A real click on the drawn point.
        const QPointF p = w.pointPosition("poet", 3);
        QVERIFY(p.x() >= 0);
        const QPoint at = w.plot()->mapTo(&w, p.toPoint());
        Q_UNUSED(at);
        QTest::mouseClick(w.plot(), Qt::LeftButton, Qt::NoModifier, p.toPoint());
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).value<std::int64_t>(), std::int64_t(1'900'000));
        QCOMPARE(spy.at(1).at(2).toString(), QString("poet"));
    }

    // Hovering a point shows its figures, which the axes give only roughly:
    // the energy, how it was proven, the budgets exactly; coinciding points
    // list each curve.
    void hoverShowsThePointsFigures() {
        ParetoPlot w;
        QVERIFY(showOnScreen(w, sample()));
        const QString poet2 = w.toolTipAt(w.pointPosition("poet", 2));
        QVERIFY2(poet2.startsWith("<b>POET</b>: 8.0000 J, best found, gap 5 %<br>RAM budget 1.40 MB (1,400,000 B), "
                                  "runtime budget 1.50x<br>peak RAM 1.40 MB"),
                 qPrintable(poet2));
        QVERIFY2(!poet2.contains("DTR"), qPrintable(poet2));
        QCOMPARE(poet2.count("<b>POET</b>"), 1);  // drawn twice (line and hollow marker), listed once
        QVERIFY2(poet2.endsWith("Click to solve POET at these budgets."), qPrintable(poet2));
        const QString poet3 = w.toolTipAt(w.pointPosition("poet", 3));
        QVERIFY2(poet3.contains("<b>POET</b>: 7.0000 J, proven optimal<br>"), qPrintable(poet3));
        const QString dtr3 = w.toolTipAt(w.pointPosition("dtr", 3));
        QVERIFY2(dtr3.startsWith("<b>DTR</b>: 10.0000 J, the algorithm's schedule<br>"), qPrintable(dtr3));
        // POET and the plain pass both spend 6 J at the peak: one marker, two curves.
        const QString both = w.toolTipAt(w.pointPosition("poet", 4));
        QVERIFY2(both.startsWith("<b>POET</b>: 6.0000 J, proven optimal<br><b>plain pass</b>: 6.0000 J, the "
                                 "algorithm's schedule<br>RAM budget 2.40 MB"),
                 qPrintable(both));
        QCOMPARE(both.count("RAM budget"), 1);  // their same figures once, not a block each
        QCOMPARE(w.toolTipAt(QPointF(2, 2)), QString());

        // The dashed line says what it is; off the swept range, where it is.
        w.setCurrentBudgets(1'150'000, 1.5);
        const QPointF onLine(w.plot()->xAxis->coordToPixel(1.15), w.plot()->axisRect()->top() + 3);
        QCOMPARE(w.toolTipAt(onLine), QStringLiteral("The dashed line: the budget on screen, 1.15 MB"));
        auto* offRange = w.findChild<QLabel*>(QStringLiteral("budgetOffRange"));
        QVERIFY(offRange && offRange->isHidden());
        w.setCurrentBudgets(9'000'000, 1.5);
        QCOMPARE(offRange->text(), QString::fromUtf8("the budget on screen, 9.00 MB, is right of the sweep \u25B6"));
        QVERIFY(offRange->isVisible());
        w.setCurrentBudgets(1'400'000, 1.5);

        // Through the event a hovering mouse sends.
        const QPoint at = w.pointPosition("poet", 2).toPoint();
        QHelpEvent ev(QEvent::ToolTip, at, w.plot()->mapToGlobal(at));
        QApplication::sendEvent(w.plot(), &ev);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), poet2);
    }

    // The keyboard reaches every point: left and right along a curve, up and
    // down to the next curve (its point nearest along the axis), Enter opens
    // it as a click does; a ring marks where the keys are.
    void arrowKeysWalkThePoints() {
        ParetoPlot w;
        QVERIFY(showOnScreen(w, sample()));
        w.setFocus();
        QVERIFY(w.hasFocus());
        QSignalSpy spy(&w, &ParetoPlot::pointActivated);
        const int graphs = w.plot()->graphCount();
        QTest::keyClick(&w, Qt::Key_Right);  // the first key lands on POET's first point (0 does not fit)
        QCOMPARE(w.keyPoint(), std::make_pair(QStringLiteral("poet"), 1));
        QCOMPARE(w.plot()->graphCount(), graphs + 1);  // the ring
        QVERIFY(QToolTip::text().startsWith("<b>POET</b>: 9.0000 J"));
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.keyPoint(), std::make_pair(QStringLiteral("poet"), 2));
        QTest::keyClick(&w, Qt::Key_Left);
        QTest::keyClick(&w, Qt::Key_Left);  // no further than the first drawn point
        QCOMPARE(w.keyPoint(), std::make_pair(QStringLiteral("poet"), 1));
        QTest::keyClick(&w, Qt::Key_Up);  // Chen greedy fits from the third budget on: its nearest
        QCOMPARE(w.keyPoint(), std::make_pair(QStringLiteral("chen-greedy"), 2));
        QTest::keyClick(&w, Qt::Key_Right);
        QTest::keyClick(&w, Qt::Key_Down);
        QCOMPARE(w.keyPoint(), std::make_pair(QStringLiteral("poet"), 3));
        QTest::keyClick(&w, Qt::Key_Return);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<std::int64_t>(), std::int64_t(1'900'000));
        QCOMPARE(spy.at(0).at(2).toString(), QString("poet"));
        // A click on the ringed point still opens it.
        QTest::mouseClick(w.plot(), Qt::LeftButton, Qt::NoModifier, w.pointPosition("poet", 3).toPoint());
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).value<std::int64_t>(), std::int64_t(1'900'000));
    }

    // DTR's black hexagon read as the key's filled "MILP: proven optimal"
    // circle: DTR is a star now, and the key is in a grey no curve has.
    void dtrMarkerIsNoKeyCircle() {
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(sample());  // POET has a gap at one point: the key is drawn
        QCPGraph *dtr = nullptr, *proven = nullptr;
        for (int i = 0; i < w.plot()->graphCount(); ++i) {
            QCPGraph* g = w.plot()->graph(i);
            if (g->name() == "DTR") dtr = g;
            if (g->name() == "MILP: proven optimal") proven = g;
        }
        QVERIFY(dtr && proven);
        QCOMPARE(dtr->scatterStyle().shape(), QCPScatterStyle::ssCustom);
        QCOMPARE(dtr->scatterStyle().customPath().elementCount(), 11);  // five points, five inner corners, closed
        for (int i = 0; i < w.plot()->graphCount(); ++i)
            if (w.plot()->graph(i) != proven)
                QVERIFY2(w.plot()->graph(i)->scatterStyle().brush().color() != proven->scatterStyle().brush().color(),
                         qPrintable(w.plot()->graph(i)->name()));
    }

    // A MILP point with no schedule in its time limit is not proven
    // infeasible: a question mark along the bottom, which says so and opens
    // the point, where an infeasible point is a gap. The two were both gaps.
    void undecidedPointsAreQuestionMarksNotGaps() {
        SweepResult res = sample();
        QVERIFY(!legendNames(ParetoPlot().plot()).contains("MILP: none found in time"));
        for (SweepRow& r : res.rows)
            if (r.strategy == "poet" && r.ram_budget_bytes == 900'000) {
                r = row("poet", 900'000, SolveStatus::NoSolution, 0, NAN);
                r.solve_time_s = 10.0;
                r.best_bound_j = 8.5;
            }
        // remat only, undecided at the same budget: its mark in a row of its own.
        res.strategies.push_back("remat-only");
        for (const std::int64_t b : res.ram_budgets)
            res.rows.push_back(b == 900'000 ? row("remat-only", b, SolveStatus::NoSolution, 0, NAN)
                                            : row("remat-only", b, SolveStatus::Infeasible, 0));
        ParetoPlot w;
        QVERIFY(showOnScreen(w, sample()));
        QVERIFY(!legendNames(w.plot()).contains("MILP: none found in time"));
        QVERIFY(std::abs(w.plot()->yAxis->pixelToCoord(w.pointPosition("poet", 1).y()) - 9.0) < 1e-6);
        QVERIFY(showOnScreen(w, res));
        const QStringList keyed = legendNames(w.plot());
        QVERIFY2(keyed.contains("MILP: none found in time"), qPrintable(keyed.join(", ")));

        const QPointF mark = w.pointPosition("poet", 1);
        QCOMPARE(w.pointPosition("poet", 0), QPointF(-1, -1));  // proven infeasible: a gap
        QVERIFY(mark.x() >= 0);
        // Under every energy drawn, inside the axes.
        const QRect axes = w.plot()->axisRect()->rect();
        QVERIFY2(mark.y() < axes.bottom() && mark.y() > axes.top(), qPrintable(QString::number(mark.y())));
        for (const QString s : {"poet", "chen-greedy", "dtr", "plain"})
            for (int i = 0; i < 5; ++i)
                if (const QPointF p = w.pointPosition(s, i); p.x() >= 0 && !(s == "poet" && i == 1))
                    QVERIFY2(p.y() < mark.y() - 4, qPrintable(QString("%1 %2").arg(s).arg(i)));
        const QString tip = w.toolTipAt(mark);
        QVERIFY2(tip.startsWith("<b>POET</b>: no schedule found in 10.000 s, not proven infeasible<br>RAM budget "
                                "900.0 kB (900,000 B), runtime budget 1.50x<br>a schedule here spends at least "
                                "8.5000 J"),
                 qPrintable(tip));
        QCOMPARE(w.toolTipAt(QPointF(mark.x(), w.plot()->yAxis->coordToPixel(9.0))), QString());  // no 9 J point
        const QPointF above = w.pointPosition("remat-only", 1);
        QCOMPARE(above.x(), mark.x());
        QVERIFY2(above.y() < mark.y() - 8, qPrintable(QString("%1 %2").arg(above.y()).arg(mark.y())));
        QVERIFY(w.toolTipAt(above).startsWith("<b>remat only</b>: no schedule found"));
        // Not the plain pass's cross.
        for (int i = 0; i < w.plot()->graphCount(); ++i)
            if (w.plot()->graph(i)->name() == "MILP: none found in time")
                QCOMPARE(w.plot()->graph(i)->scatterStyle().shape(), QCPScatterStyle::ssCustom);

        // A click opens it, with the window's time limit.
        QSignalSpy spy(&w, &ParetoPlot::pointActivated);
        QTest::mouseClick(w.plot(), Qt::LeftButton, Qt::NoModifier, mark.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<std::int64_t>(), std::int64_t(900'000));
        w.activatePoint("poet", 0);  // infeasible
        QCOMPARE(spy.count(), 1);

        // A curve undecided everywhere is no "no schedule fits".
        for (SweepRow& r : res.rows)
            if (r.strategy == "poet") r = row("poet", r.ram_budget_bytes, SolveStatus::NoSolution, 0, NAN);
        w.setResult(res);
        const QStringList names = legendNames(w.plot());
        QVERIFY2(names.contains("MILP: none found in time") &&
                     names.filter("no schedule fits").isEmpty(),
                 qPrintable(names.join(", ")));
        QVERIFY(w.pointPosition("poet", 0).x() >= 0);
    }

    // Before any sweep the plot says what fills it (its axes stood empty);
    // the hint goes once there is a result.
    void emptyPlotSaysWhatFillsIt() {
        ParetoPlot w;
        const auto hints = [&] {
            QStringList texts;
            for (int i = 0; i < w.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(w.plot()->item(i))) texts << t->text();
            return texts;
        };
        QCOMPARE(hints().filter("No sweep yet").size(), 1);
        // Its lines fit a narrow plot (three fixed ones ran off both sides),
        // and no empty legend box stands in a corner.
        w.resize(480, 360);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.plot()->replot();
        for (int i = 0; i < w.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(w.plot()->item(i)))
                for (const QString& line : t->text().split('\n'))
                    QVERIFY2(QFontMetrics(t->font()).horizontalAdvance(line) <= w.plot()->axisRect()->width(),
                             qPrintable(line));
        QVERIFY(!w.plot()->legend->visible());
        w.setResult(flatBaselineOnTop());
        QVERIFY(hints().filter("No sweep yet").isEmpty());
        QVERIFY(w.plot()->legend->visible());
    }

    // The legend goes to a corner where it hides nothing, on screen and at
    // each new size; the old top-right place covered the flat baseline.
    void legendCoversNoData() {
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(flatBaselineOnTop());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(pixelsUnderLegend(w.plot()), 0);
        QVERIFY(w.plot()->legend->visible());
        QVERIFY(w.plot()->legend->itemCount() >= 6);
        for (const QSize size : {QSize(420, 300), QSize(900, 360), QSize(500, 700)}) {
            w.resize(size);
            QTRY_COMPARE(w.plot()->width(), size.width());
            QCOMPARE(pixelsUnderLegend(w.plot()), 0);
        }
        // The corner and range drawn before (top right, 4.5% of the data's
        // span added at the top per legend entry) hid the baseline. The
        // data span 6 J (plain) to 13 J (dtr). At a figure's size:
        w.resize(420, 300);
        QTRY_COMPARE(w.plot()->width(), 420);
        QCustomPlot* plot = w.plot();
        ui::takeLegendBackIntoPlot(plot);
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        plot->yAxis->setRange(6 - 0.06 * 7, 13 + 0.06 * 7 + 0.045 * 7 * plot->legend->itemCount());
        QVERIFY(pixelsUnderLegend(plot) > 0);
    }

    // A strategy with no schedule at any point is named in the legend's
    // "no schedule fits" line (it vanished, and read as left out of the
    // sweep); the x axis says
    // the budget held fixed (a figure lacked it).
    void legendKeepsAStrategyThatNeverFits() {
        SweepResult res = sample();
        res.fixed_runtime_factor = 1.5;
        res.strategies.push_back("paging-only");
        for (const std::int64_t b : res.ram_budgets) res.rows.push_back(row("paging-only", b, SolveStatus::Infeasible, 0));
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(res);
        const QStringList names = legendNames(w.plot());
        QVERIFY2(names.contains("no schedule fits:\n  paging only") && !names.contains("paging only"),
                 qPrintable(names.join(", ")));
        // Fits at one point: its own entry (where POET's point covers it).
        QVERIFY2(names.contains("plain pass (= POET where it fits)"), qPrintable(names.join(", ")));
        QCOMPARE(w.plot()->xAxis->label(), QString("RAM budget [MB], runtime 1.5\u00d7"));
        // Without recomputation the runtime budget binds nothing: not named.
        SweepResult noRemat = w.result();
        noRemat.options.remat = false;
        w.setResult(noRemat);
        QCOMPARE(w.plot()->xAxis->label(), QString("RAM budget [MB]\nno recomputation"));

        SweepResult runtime;
        runtime.axis = SweepAxis::RuntimeFactor;
        runtime.fixed_ram_budget_bytes = 490'752;
        w.setResult(runtime);
        QCOMPARE(w.plot()->xAxis->label(), QString("runtime budget [\u00d7 plain pass], RAM 490.8 kB"));
        // A switch off is said, on a line of its own (a POET curve without
        // paging read as POET's own).
        runtime.options.paging = false;
        w.setResult(runtime);
        QCOMPARE(w.plot()->xAxis->label(), QString("runtime budget [\u00d7 plain pass], RAM 490.8 kB\nno paging"));
        runtime.options.remat = false;
        w.setResult(runtime);
        QCOMPARE(w.plot()->xAxis->label(),
                 QString("runtime budget [\u00d7 plain pass], RAM 490.8 kB\nno paging, no recomputation"));
    }

    // Small energies in a unit of their size, and one point on a range
    // around it (linear's one-point sweep drew "0.00045575" on every tick).
    void energiesInTheirUnitAndOnePointHasARange() {
        SweepResult one;
        one.strategies = {"poet"};
        one.plain_peak_bytes = 7416;
        one.ram_budgets = {7416};
        one.rows = {row("poet", 7416, SolveStatus::Optimal, 0.00045575)};
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(one);
        QCOMPARE(w.plot()->yAxis->label(), QString("energy [\u00b5J]"));
        const QCPRange y = w.plot()->yAxis->range(), x = w.plot()->xAxis->range();
        QVERIFY2(y.lower < 455.75 && y.upper > 455.75 && y.size() > 40, qPrintable(QString::number(y.size())));
        QVERIFY(x.lower < 7.416 && x.upper > 7.416 && x.size() > 0.5);
        QCOMPARE(w.plot()->graph(0)->data()->at(0)->value, 0.00045575 / 1e-6);
        one.rows.front().total_energy_j = 0.0015;
        w.setResult(one);
        QCOMPARE(w.plot()->yAxis->label(), QString("energy [mJ]"));
        w.setResult(sample());
        QCOMPARE(w.plot()->yAxis->label(), QString("energy [J]"));
        // The unit is the axis top's as drawn, past the largest energy:
        // 0.6 to 0.98 J padded reaches 1.0028 J, which in mJ drew a
        // "1000" tick.
        SweepResult two = one;
        two.ram_budgets = {7416, 8000};
        two.rows = {row("poet", 7416, SolveStatus::Optimal, 0.98), row("poet", 8000, SolveStatus::Optimal, 0.6)};
        w.setResult(two);
        QCOMPARE(w.plot()->yAxis->label(), QString("energy [J]"));
        QVERIFY(w.plot()->yAxis->range().upper > 1.0);
        two.rows.front().total_energy_j = 0.97;  // padded top 0.9922 J
        w.setResult(two);
        QCOMPARE(w.plot()->yAxis->label(), QString("energy [mJ]"));
        QVERIFY(w.plot()->yAxis->range().upper < 1000);
    }

    // POET's curve is drawn over every other curve (a baseline with the
    // same energies would hide it), and stays first in the legend.
    void poetIsDrawnOnTop() {
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(flatBaselineOnTop());
        QCustomPlot* plot = w.plot();
        int poet = -1, last_other = -1;
        const QList<QCPLayerable*> order = plot->layer("main")->children();  // drawing order
        for (int k = 0; k < order.size(); ++k) {
            const auto* g = qobject_cast<QCPGraph*>(order[k]);
            if (!g || g->dataCount() == 0) continue;
            if (g->name() == "POET") poet = k;
            else if (g->lineStyle() != QCPGraph::lsNone) last_other = k;
        }
        QVERIFY(poet >= 0 && last_other >= 0);
        QVERIFY(poet > last_other);
        auto* first = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(0));
        QVERIFY(first);
        QCOMPARE(first->plottable()->name(), QString("POET"));
    }

    // A curve under another with the same energies at each of its points is
    // named with the one that covers it (a figure showed eight strategies
    // and six lines); one that differs anywhere is not.
    void hiddenCurveNamesWhatCoversIt() {
        SweepResult res = sample();
        for (SweepRow& r : res.rows)  // Chen greedy as DTR where it fits
            if (r.strategy == "chen-greedy" && r.hasSchedule())
                r.total_energy_j = 13.0 - static_cast<double>(r.ram_budget_bytes - 400'000) / 500'000;
        ParetoPlot w;
        w.resize(640, 480);
        w.setResult(res);
        const QStringList names = legendNames(w.plot());
        // The plain pass's one point is POET's there (6 J at 2.4 MB): equal
        // where it fits, which "(= POET)" alone did not say.
        QVERIFY2(names.contains("plain pass (= POET where it fits)") &&
                     names.contains("Chen greedy (= DTR where it fits)") && names.contains("DTR") &&
                     names.contains("POET"),
                 qPrintable(names.join(", ")));
        // Where it has a schedule at each of the other's points, just "=".
        SweepResult same = res;
        for (SweepRow& r : same.rows)
            if (r.strategy == "dtr") {
                const bool poet_fits = r.ram_budget_bytes > 400'000;
                r.status = poet_fits ? SolveStatus::Feasible : SolveStatus::Infeasible;
                r.total_energy_j = poet_fits ? 10.0 - static_cast<double>(r.ram_budget_bytes - 400'000) / 500'000 : 0;
            }
        w.setResult(same);
        QVERIFY2(legendNames(w.plot()).contains("DTR (= POET)"), qPrintable(legendNames(w.plot()).join(", ")));
        // Within 0.1% at each point, a line is hidden to the eye too (DTR
        // 0.008% over POET on resnet18_cifar at 1.5x had a legend entry and
        // no line to be seen); 1% off, it is seen.
        for (const auto& [energy, name] :
             {std::pair{6.003, "plain pass (\u2248 POET where it fits)"}, std::pair{6.06, "plain pass"}}) {
            for (SweepRow& r : res.rows)
                if (r.strategy == "plain" && r.hasSchedule()) r.total_energy_j = energy;
            w.setResult(res);
            const QStringList now = legendNames(w.plot());
            QVERIFY2(now.contains(QString::fromUtf8(name)) && now.contains("Chen greedy (= DTR where it fits)"),
                     qPrintable(now.join(", ")));
        }
    }

    // With SOURCE_DATE_EPOCH set, a PDF made again from the same data is the
    // same file: its creation date is that time (every figure of a paper in
    // git changed with each make).
    void pdfDateFollowsSourceDateEpoch() {
        QTemporaryDir dir;
        const QByteArray old = qgetenv("SOURCE_DATE_EPOCH");
        qputenv("SOURCE_DATE_EPOCH", "1700000000");  // 2023-11-14 22:13:20 UTC
        QByteArray first;
        for (const char* name : {"a.pdf", "b.pdf"}) {
            QString err;
            QVERIFY2(ui::exportParetoPlot(sample(), dir.filePath(name), &err), qPrintable(err));
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY(bytes.contains("/CreationDate (D:20231114221320Z)") ||  // Qt's UTC form
                    bytes.contains("/CreationDate (D:20231114221320+00'00')"));  // where the zone has an offset
            if (first.isEmpty()) first = bytes;
            else QCOMPARE(bytes, first);
        }
        if (old.isNull()) qunsetenv("SOURCE_DATE_EPOCH");
        else qputenv("SOURCE_DATE_EPOCH", old);
    }

    // The range's top raised for the legend left less than a marker under
    // the lowest value: resnet18_cifar's runtime sweep at 30% (these are its
    // energies) drew POET's markers half under the x axis.
    void lowestMarkersStayOffTheAxis() {
        SweepResult res;
        res.axis = SweepAxis::RuntimeFactor;
        res.fixed_ram_budget_bytes = 736'128;
        res.strategies = {"poet", "remat-only", "paging-only", "revolve", "chen-sqrtn", "chen-greedy", "dtr", "plain"};
        const double factors[] = {1, 1.333333333, 1.666666667, 2};
        for (int i = 0; i < 4; ++i) {
            const double f = factors[i];
            res.runtime_factors.push_back(f);
            auto add = [&](const std::string& s, SolveStatus st, double e, double gap) {
                SweepRow r = row(s, 736'128, st, e, gap);
                r.runtime_budget_factor = f;
                res.rows.push_back(r);
            };
            add("poet", i == 0 ? SolveStatus::Optimal : SolveStatus::Feasible, i == 0 ? 0.7987747 : 0.5532249,
                i == 0 ? 0 : 2e-4);
            if (i == 0) add("remat-only", SolveStatus::Infeasible, 0, NAN);
            else add("remat-only", SolveStatus::Feasible, 0.5565798, 4e-4);
            add("paging-only", SolveStatus::Optimal, 0.7987747, 0);
            if (i < 2) add("revolve", SolveStatus::Infeasible, 0, NAN);
            else add("revolve", SolveStatus::Feasible, 0.8828414, NAN);
            for (const char* s : {"chen-sqrtn", "chen-greedy", "dtr", "plain"}) add(s, SolveStatus::Infeasible, 0, NAN);
        }
        res.total = res.done = static_cast<int>(res.rows.size());
        // The paper figure, where it was seen: the lowest row of POET's
        // colour against the x axis (the darkest row of the lower half).
        QTemporaryDir dir;
        const QString png = dir.filePath("runtime.png");
        QString err;
        QVERIFY2(ui::exportParetoPlot(res, png, &err), qPrintable(err));
        const QImage img(png);
        const QColor poet(0xD5, 0x5E, 0x00);
        int lowest_poet = -1, axis_row = -1, axis_dark = 0;
        for (int y = 0; y < img.height(); ++y) {
            int dark = 0;
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                if (std::abs(c.red() - poet.red()) + std::abs(c.green() - poet.green()) +
                        std::abs(c.blue() - poet.blue()) < 30)
                    lowest_poet = y;
                if (c.lightness() < 40) ++dark;
            }
            if (y > img.height() / 2 && dark > axis_dark) {
                axis_dark = dark;
                axis_row = y;
            }
        }
        QVERIFY(lowest_poet > 0 && axis_row > 0);
        // A marker is 5 px at 1/96 in, drawn at 4x: most of its height clear.
        QVERIFY2(axis_row - lowest_poet >= 8, qPrintable(QString("POET's lowest pixel at row %1, the axis at row %2")
                                                             .arg(lowest_poet).arg(axis_row)));
    }

    // Where every corner covers data, the legend stays top right and the
    // range grows until what is under it is clear; where that would grow it
    // by more than a third, the legend goes above the plot (a paper figure's
    // data sat in its bottom half, under ticks no energy reached).
    void legendRaisesTheRangeWhereNoCornerIsFree() {
        const auto zigzagWithLegendOf = [](QCustomPlot& plot, int entries) {
            plot.resize(480, 320);
            plot.legend->setVisible(true);
            QCPGraph* zigzag = plot.addGraph();
            zigzag->setName("zigzag");
            zigzag->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
            for (int x = 0; x <= 20; ++x) zigzag->addData(x, x % 2 ? 10.0 : 0.0);
            for (int k = 1; k < entries; ++k) plot.addGraph()->setName(QString("empty %1").arg(k));
            plot.xAxis->setRange(-0.5, 20.5);
            plot.yAxis->setRange(-0.5, 10.5);
        };
        QCustomPlot plot;
        zigzagWithLegendOf(plot, 2);
        QVERIFY(pixelsUnderLegend(&plot) > 0);
        const int corner = ui::placeLegendClearOfData(&plot, plot.size());
        QCOMPARE(corner, int(Qt::AlignTop | Qt::AlignRight));
        QCOMPARE(plot.yAxis->range().lower, -0.5);
        QVERIFY(plot.yAxis->range().upper > 11);
        QVERIFY(plot.yAxis->range().upper < -0.5 + 11 * 1.35);
        QCOMPARE(pixelsUnderLegend(&plot), 0);
        // Placed again where it is clear already, nothing moves.
        const double upper = plot.yAxis->range().upper;
        ui::placeLegendClearOfData(&plot, plot.size());
        QCOMPARE(plot.yAxis->range().upper, upper);

        // Five entries would need half as much range again: above the plot.
        QCustomPlot tall;
        zigzagWithLegendOf(tall, 5);
        QCOMPARE(ui::placeLegendClearOfData(&tall, tall.size()), 0);
        QCOMPARE(tall.yAxis->range().upper, 10.5);
        QVERIFY(tall.legend->layout() == tall.plotLayout());
        QCOMPARE(pixelsUnderLegend(&tall), 0);
        QVERIFY(tall.legend->outerRect().bottom() <= tall.axisRect()->rect().top());
        // Drawn afresh, it is back in the plot.
        ui::takeLegendBackIntoPlot(&tall);
        QVERIFY(tall.legend->layout() == tall.axisRect()->insetLayout());
        QCOMPARE(tall.plotLayout()->rowCount(), 1);
    }

    void runnerFillsCurves() {
        // A tiny chain: heuristics only, so no solver time.
        std::vector<Node> nodes;
        std::vector<std::pair<int, int>> edges;
        const int n = 6;
        for (int i = 0; i <= n; ++i) {
            Node x;
            x.name = "L" + std::to_string(i);
            x.kind = i == n ? NodeKind::Loss : NodeKind::Forward;
            x.memory_bytes = 1000;
            x.compute_energy_j = 1;
            x.compute_time_s = 1e-3;
            nodes.push_back(x);
            if (i > 0) edges.push_back({i - 1, i});
        }
        int prev = n;
        for (int k = n - 1; k >= 0; --k) {
            Node gnode;
            gnode.name = "g" + std::to_string(k);
            gnode.kind = NodeKind::Backward;
            gnode.memory_bytes = 1000;
            gnode.compute_energy_j = 2;
            gnode.compute_time_s = 2e-3;
            const int id = static_cast<int>(nodes.size());
            nodes.push_back(gnode);
            edges.push_back({k, id});
            edges.push_back({k + 1, id});
            if (prev != k + 1) edges.push_back({prev, id});
            prev = id;
        }
        SweepConfig cfg;
        cfg.problem.graph = Graph(nodes, edges);
        cfg.problem.runtime_budget_factor = 3;
        cfg.points = 6;
        cfg.strategies = {"chen-greedy", "revolve", "dtr", "plain"};
        ParetoPlot w;
        QSignalSpy rows(w.runner(), &ui::SweepRunner::rowFinished);
        QSignalSpy done(w.runner(), &ui::SweepRunner::finished);
        QVERIFY(w.runSweep(cfg));
        QVERIFY(done.wait(20000));
        QCOMPARE(rows.count(), 24);
        QCOMPARE(static_cast<int>(w.result().rows.size()), 24);
        QVERIFY(w.plot()->graph(0)->dataCount() > 0);
        // Again: all from the runner's cache.
        QSignalSpy done2(w.runner(), &ui::SweepRunner::finished);
        QVERIFY(w.runSweep(cfg));
        QVERIFY(done2.wait(20000));
        QCOMPARE(w.result().cache_hits, 24);
        // A note (paging-only left out with paging off) is a link in the
        // line under the plot, which the keyboard reaches too, and shows it.
        cfg.problem.options.paging = false;
        cfg.strategies = {"paging-only", "dtr", "plain"};
        QSignalSpy done3(w.runner(), &ui::SweepRunner::finished);
        QVERIFY(w.runSweep(cfg));
        QVERIFY(done3.wait(20000));
        QLabel* line = nullptr;
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text().contains("href=\"notes\"")) line = l;
        QVERIFY(line);
        QVERIFY(line->textInteractionFlags() & Qt::LinksAccessibleByKeyboard);
        QVERIFY2(line->text().contains("1 note"), qPrintable(line->text()));
        emit line->linkActivated(QStringLiteral("notes"));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("sweepNotes"));
        QVERIFY(box);
        QVERIFY2(box->text().startsWith("paging-only: "), qPrintable(box->text()));
    }
};

QTEST_MAIN(TestParetoPlot)
#include "tst_pareto_plot.moc"
