// The arrival bound (arrival_bound.h) against exact optima of formulation.md's
// MILP (the reference build) on small graphs, and on the tight resnet18_cifar
// budgets it was built for.
#include <QtTest>
#include <algorithm>

#include "arrival_bound.h"
#include "heuristic_schedule.h"
#include "replay.h"
#include "problem_loader.h"
#include "solver.h"
#include "stage_bound.h"
#include "bound_checks.h"
#include "tiny_graphs.h"

using namespace poet;

namespace {

// Each piece of `b` (solved exactly) is at most what `schedule` spends in
// its stages, and those charges over all stages are at most the schedule's
// energy beyond one plain pass. Returns how many pieces it meets exactly
// (to within 1e-9 of the plain pass).
int verifyPiecesBelowCharges(const Problem& p, const ArrivalBound& b, const Schedule& schedule, double energy_j,
                             const QString& where)
{
    const double plain_j = p.graph.totalComputeEnergy(), tolerance = 1e-9 * plain_j;
    int met = 0;
    for (const BoundPiece& piece : b.pieces) {
        if (!piece.exact) continue;
        const double spent = chargedIn(p, schedule, piece.first, piece.last);
        if (piece.extra_j > spent + tolerance) {
            qWarning("%s, stages %d..%d: bound %.12g > spent %.12g", qPrintable(where), piece.first, piece.last,
                     piece.extra_j, spent);
            return -1;
        }
        if (piece.extra_j > spent - tolerance && spent > tolerance) ++met;
    }
    const double all = chargedIn(p, schedule, 1, p.graph.size() - 1);
    if (all > energy_j - plain_j + tolerance) {
        qWarning("%s: charges %.12g > the schedule's extra %.12g", qPrintable(where), all, energy_j - plain_j);
        return -1;
    }
    return met;
}

}  // namespace

class TestArrivalBound : public QObject {
    Q_OBJECT
private slots:
    // Every byte budget from the one-node bound to the plain-pass peak, with
    // and without paging and at three runtime factors: the bound never
    // exceeds the exact optimum, and it is not idle (it rises above one plain
    // pass, and above the stage-peak bound, on some budgets).
    void neverAboveTheOptimum_data() { test::chainRows(); }

    void neverAboveTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, cheap_odd);
        int compared = 0, raised = 0, above_stage = 0, infeasible = 0;
        test::checkBoundOnEverySmallProblem(
            g, minimumFeasibleBudgetLowerBound(g), [](const Problem& p) { return arrivalBound(p, 10); },
            [&](test::Verdict v, const ArrivalBound& b, const Problem& p, const SolveResult&) {
                if (v == test::Verdict::Proof) ++infeasible;
                if (v != test::Verdict::Compared) return;
                ++compared;
                if (b.bound_j > g.totalComputeEnergy() * (1 + 1e-9)) ++raised;
                if (b.bound_j > stagePeakBound(p, 10).bound_j * (1 + 1e-9)) ++above_stage;
            });
        qInfo("%d compared, %d raised, %d above the stage-peak bound, %d infeasible", compared, raised, above_stage,
              infeasible);
        QVERIFY2(compared >= 40 && raised >= 10 && above_stage >= 3,
                 qPrintable(QStringLiteral("%1 compared, %2 raised, %3 above the stage bound")
                                .arg(compared)
                                .arg(raised)
                                .arg(above_stage)));
    }

    // The carried bound (windows of stages, presence carried between them)
    // on the same problems, and on chains with two cheap nodes after each
    // expensive one, where paging a value in for one stage and again for the
    // next is what it rules out: never above the optimum, and above the
    // per-stage arrival bound on some budgets.
    void carriedNeverAboveTheOptimum_data()
    {
        QTest::addColumn<bool>("cheap_odd");
        QTest::addColumn<int>("cheap_run");
        QTest::addColumn<int>("window");
        QTest::newRow("uneven chain, windows of 3") << false << 1 << 3;
        QTest::newRow("cheap odd nodes, windows of 2") << true << 1 << 2;
        QTest::newRow("two cheap nodes in a row, windows of 3") << true << 2 << 3;
    }

    void carriedNeverAboveTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        QFETCH(int, cheap_run);
        QFETCH(int, window);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, cheap_odd, cheap_run);
        int compared = 0, above_arrival = 0, infeasible = 0, from_looser = 0;
        // As the solver runs it on two cores: with the bound at a budget 2%
        // looser beside it (either one's proof that nothing fits counts).
        test::checkBoundOnEverySmallProblem(
            g, minimumFeasibleBudgetLowerBound(g),
            [&](const Problem& p) {
                bool looser = false;
                const ArrivalBound b = carriedBoundHereOrLooser(p, window, 10, nullptr, -1, {}, 2, &looser);
                if (looser) ++from_looser;
                return b;
            },
            [&](test::Verdict v, const ArrivalBound& b, const Problem& p, const SolveResult&) {
                if (v == test::Verdict::Proof) ++infeasible;
                if (v != test::Verdict::Compared) return;
                ++compared;
                if (b.bound_j > arrivalBound(p, 10).bound_j * (1 + 1e-9)) ++above_arrival;
            });
        qInfo("%d compared, %d above the arrival bound, %d infeasible, %d from the looser budget", compared,
              above_arrival, infeasible, from_looser);
        QVERIFY2(compared >= 40 && above_arrival >= 3,
                 qPrintable(QStringLiteral("%1 compared, %2 above the arrival bound").arg(compared).arg(above_arrival)));
    }

    // Windows that look back to a stage before them (arrival_bound.h), on
    // the same problems, at every look-back stage with room between it and
    // the window: never above the optimum, above the carried bound without
    // one on some budgets, and the same with no solved LP kept.
    void lookBackNeverAboveTheOptimum_data()
    {
        QTest::addColumn<bool>("cheap_odd");
        QTest::addColumn<int>("cheap_run");
        QTest::newRow("uneven chain") << false << 1;
        QTest::newRow("two cheap nodes in a row") << true << 2;
    }

    void lookBackNeverAboveTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        QFETCH(int, cheap_run);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, cheap_odd, cheap_run);
        int compared = 0, above_carried = 0;
        test::forEachSmallProblem(g, minimumFeasibleBudgetLowerBound(g), [&](const Problem& p, const SolveResult& ref) {
            if (ref.status != SolveStatus::Optimal) return;
            ++compared;
            const double carried_j = carriedArrivalBound(p, 2, 10).bound_j;
            bool above = false;
            for (int s = 1; s + 3 < g.size(); ++s) {
                const ArrivalBound b = carriedArrivalBound(p, 2, 10, nullptr, s);
                QVERIFY2(!b.infeasible, qPrintable(test::describe(p)));
                // With no LP kept, each window's LP is solved again for its
                // exact solve (resnet50's windows): the same windows, the
                // same bound.
                const ArrivalBound rebuilt = carriedArrivalBound(p, 2, 10, nullptr, s, {}, 0);
                QCOMPARE(rebuilt.bound_j, b.bound_j);
                QCOMPARE(rebuilt.pieces.size(), b.pieces.size());
                QVERIFY(rebuilt.complete && b.complete);
                test::verifyBelowOptimum(b.bound_j, ref, test::describe(p) + QStringLiteral(", looking back to %1").arg(s));
                above = above || b.bound_j > carried_j * (1 + 1e-9);
            }
            if (above) ++above_carried;
        });
        qInfo("%d compared, %d above the carried bound", compared, above_carried);
        QVERIFY2(compared >= 40 && above_carried >= 3,
                 qPrintable(QStringLiteral("%1 compared, %2 above the carried bound").arg(compared).arg(above_carried)));
    }

    // Piece by piece: each stage of the arrival bound and each window of the
    // carried bound (looking back to the stage-peak stage or not) asks no
    // more than the optimal schedule spends there (chargedIn), on every
    // small problem; and some pieces meet it exactly.
    void eachPieceAtMostWhatTheOptimumSpendsThere()
    {
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, true, 2);
        int pieces = 0, met = 0;
        test::forEachSmallProblem(g, minimumFeasibleBudgetLowerBound(g), [&](const Problem& p, const SolveResult& ref) {
            if (ref.status != SolveStatus::Optimal) return;
            const int peak = stagePeakBound(p, 10).stage;
            for (const ArrivalBound& b :
                 {arrivalBound(p, 10), carriedArrivalBound(p, 3, 10), carriedArrivalBound(p, 3, 10, nullptr, peak)}) {
                QVERIFY(b.complete);
                const int m = verifyPiecesBelowCharges(p, b, *ref.schedule, ref.replay.total_energy_j, test::describe(p));
                QVERIFY(m >= 0);
                met += m;
                pieces += static_cast<int>(b.pieces.size());
            }
        });
        qInfo("%d pieces, %d met exactly", pieces, met);
        // (The carried bound lists the windows it sums: those with anything
        // to pay, so fewer pieces than stages, and more of them met.)
        QVERIFY2(pieces >= 60 && met >= 30, qPrintable(QStringLiteral("%1 pieces, %2 met").arg(pieces).arg(met)));
    }

    // resnet18_cifar at 1.5x, where a 0.5% gap asks for the schedules the
    // solver finds. At 11.4% of its peak the windows at this budget, and
    // those at 2% more RAM, each take 20 s or more on one core to prove it;
    // sharing their windows (whichever budget proves a window first, or
    // more), the two prove it in ~13 s. At 13.35% no stage pays at 2% more
    // RAM and the looser windows prove far less: both searches are at this
    // budget, splitting its windows (leaving them to the looser one, 2.7%
    // short in 21 s). Either way the sum stays below the schedule, and at
    // 13.35% no window of it is the looser budget's.
    void sharedWindowsProveWhatEachBudgetIsSlowTo_data()
    {
        QTest::addColumn<std::int64_t>("budget");
        QTest::addColumn<double>("schedule_j");
        QTest::addColumn<bool>("looser_alike");
        QTest::newRow("11.4%, alike 2% looser") << std::int64_t{279728} << 0.744315820 << true;
        QTest::newRow("13.35%, nothing to pay 2% looser") << std::int64_t{327576} << 0.729892395 << false;
    }

    void sharedWindowsProveWhatEachBudgetIsSlowTo()
    {
        QFETCH(std::int64_t, budget);
        QFETCH(double, schedule_j);
        const Problem p = test::resnet18Cifar(budget, 1.5);
        const StageBound peak = stagePeakBound(p, 30);
        const double asked_j = schedule_j * (1 - 0.005);
        bool looser = false;
        const ArrivalBound b =
            carriedBoundHereOrLooser(p, 7, 60, nullptr, peak.stage, [&] { return asked_j; }, 2, &looser);
        qInfo("%.9f J, %s windows from the looser budget", b.bound_j, looser ? "with" : "no");
        QVERIFY(!b.infeasible);
        QFETCH(bool, looser_alike);
        if (!looser_alike) QVERIFY(!looser);
        QVERIFY2(b.bound_j >= asked_j && b.bound_j <= schedule_j, qPrintable(QString::number(b.bound_j, 'g', 9)));
    }

    // Where the spare time is scarce the solver's windows have eight stages
    // (carriedWindowStages). resnet18_cifar at 12% and 1.002x: the windows
    // of seven, every one solved exactly, stay more than 0.5% under the best
    // schedule 30 s solves find at 1.001 and 1.002x (0.760395669 J); those
    // of eight prove it within 0.5%, and stay below what a valid schedule
    // (the quick one) spends, piece by piece.
    void scarceSpareTimeWidensTheWindows()
    {
        const Problem p = test::resnet18Cifar(294451, 1.002);
        QCOMPARE(carriedWindowStages(p), 8);
        Problem looser_time = p;
        looser_time.runtime_budget_factor = 1.01;
        QCOMPARE(carriedWindowStages(looser_time), 7);
        const StageBound peak = stagePeakBound(p, 30);
        const double asked_j = 0.760395669 * (1 - 0.005);
        const ArrivalBound seven = carriedBoundHereOrLooser(p, 7, 600, nullptr, peak.stage, {}, 2);
        QVERIFY(seven.complete && !seven.infeasible);
        QVERIFY2(seven.bound_j < asked_j, qPrintable(QString::number(seven.bound_j, 'g', 9)));
        const ArrivalBound eight =
            carriedBoundHereOrLooser(p, 8, 600, nullptr, peak.stage, [&] { return asked_j; }, 2);
        QVERIFY(!eight.infeasible);
        qInfo("seven %.9f J, eight %.9f J, asked %.9f J", seven.bound_j, eight.bound_j, asked_j);
        QVERIFY2(eight.bound_j >= asked_j, qPrintable(QString::number(eight.bound_j, 'g', 9)));
        for (const BoundPiece& piece : eight.pieces)
            QVERIFY(piece.last - piece.first < 8 || piece.first == peak.stage + 1);  // a window, or one looking back
        const std::optional<Schedule> quick = bestQuickSchedule(p);
        QVERIFY(quick.has_value());
        const ReplayReport replay = replaySchedule(p.graph, *quick, limitsOf(p));
        QVERIFY(replay.valid);
        QVERIFY(eight.bound_j <= replay.total_energy_j);
        QVERIFY(verifyPiecesBelowCharges(p, eight, *quick, replay.total_energy_j, test::describe(p)) >= 0);
    }

    // resnet18_cifar at 12% of its peak and 1.5x: a backward node's three
    // operands and output leave no room for the value the next one reads, so
    // every backward stage pays a page-in. The bound rises well above the
    // stage-peak bound and stays below the best schedule the solver finds.
    void raisesTheTightestResNetBound()
    {
        const Problem p = test::resnet18Cifar(294451, 1.5);
        const ArrivalBound arrival = arrivalBound(p, 30);
        QVERIFY(arrival.complete && !arrival.infeasible);
        const StageBound stage = stagePeakBound(p, 30);
        QVERIFY2(arrival.bound_j > stage.bound_j + 0.05, qPrintable(QStringLiteral("%1 vs %2")
                                                                         .arg(arrival.bound_j, 0, 'g', 9)
                                                                         .arg(stage.bound_j, 0, 'g', 9)));
        // The solver's carried bound (~11 s solves every window on an idle
        // machine; 150 s leaves room for a loaded one) proves the schedule
        // within 5%: the solve ends there.
        SolverOptions o;
        o.time_limit_s = 150;
        o.relative_gap = 0.05;
        const SolveResult r = solve(p, o);
        QVERIFY(r.replay.valid);
        QVERIFY(arrival.bound_j <= r.replay.total_energy_j);
        // Windows of seven stages (the solver's) see that a conv's output
        // cannot be brought in for one stage and again for the next: higher
        // still, and reported. 0.0538 J higher, from the best windows that
        // do not overlap. Windows of six give 0.0489 J, and the six-stage
        // windows from stage 1 on alone 0.0440 J (0.0415 J when each
        // page-out was split over its value's new-at stages, half of
        // layer1.0.relu3's going to the forward skip read that finds it in RAM).
        const ArrivalBound carried = carriedArrivalBound(p, 7, 60);
        QVERIFY(carried.complete && !carried.infeasible);
        QVERIFY2(carried.bound_j > arrival.bound_j + 0.052, qPrintable(QStringLiteral("%1 vs %2")
                                                                          .arg(carried.bound_j, 0, 'g', 9)
                                                                          .arg(arrival.bound_j, 0, 'g', 9)));
        QVERIFY(carried.bound_j <= r.replay.total_energy_j);
        double sum_j = p.graph.totalComputeEnergy();  // its pieces: windows in order, apart, summing to it
        for (std::size_t k = 0; k < carried.pieces.size(); ++k) {
            QVERIFY(carried.pieces[k].last - carried.pieces[k].first < 7);
            if (k > 0) QVERIFY(carried.pieces[k].first > carried.pieces[k - 1].last);
            sum_j += carried.pieces[k].extra_j;
        }
        QVERIFY(std::abs(sum_j - carried.bound_j) < 1e-9);
        // What is enough is read after each window solved: one that falls
        // (the caller's best schedule improving) ends the search there.
        int reads = 0;
        const ArrivalBound stopped = carriedArrivalBound(p, 7, 60, nullptr, -1, [&] {
            return ++reads < 3 ? INFINITY : p.graph.totalComputeEnergy();
        });
        QCOMPARE(reads, 3);
        QVERIFY(!stopped.complete && !stopped.infeasible);
        QVERIFY(stopped.bound_j >= p.graph.totalComputeEnergy() && stopped.bound_j <= carried.bound_j);
        // The solver reports it, or more, or stops where its gap is met (its
        // carried bound looks back to the stage peak and ends there).
        QVERIFY(r.best_bound_j >=
                std::min(carried.bound_j, r.replay.total_energy_j * (1 - o.relative_gap)) * (1 - 1e-12));
        // Looking back to the stage-peak stage (grad layer3.1.bn3), a window
        // no longer starts with layer1.1's values in RAM for free (no
        // schedule holds them through that peak): stages 73..116 give 0.0702
        // J where the windows give 0.0483 J, and the bound proves the
        // schedule the solver found at this budget in 30 s before the window
        // search (0.744527678 J; now it also finds 0.744315820 J) within
        // 0.5%, where the windows alone leave 3%.
        const StageBound peak = stagePeakBound(p, 30);
        QCOMPARE(p.graph.node(peak.stage).name, std::string("grad layer3.1.bn3"));
        const double within_half_percent_j = 0.744527678 * (1 - 0.005);
        const ArrivalBound look_back =
            carriedArrivalBound(p, 7, 60, nullptr, peak.stage, [&] { return within_half_percent_j; });
        QVERIFY2(look_back.bound_j >= within_half_percent_j && look_back.bound_j <= r.replay.total_energy_j,
                 qPrintable(QStringLiteral("%1").arg(look_back.bound_j, 0, 'g', 9)));
        QVERIFY(std::any_of(look_back.pieces.begin(), look_back.pieces.end(),
                            [&](const BoundPiece& piece) { return piece.first == peak.stage + 1; }));
        // And window by window, below what the solver's schedule spends there.
        for (const ArrivalBound* b : {&arrival, &carried, &look_back}) {
            const int met = verifyPiecesBelowCharges(p, *b, *r.schedule, r.replay.total_energy_j, test::describe(p));
            qInfo("%d of %zu pieces met by the schedule", met, b->pieces.size());
            QVERIFY(met >= 0);
        }
    }
};

QTEST_APPLESS_MAIN(TestArrivalBound)
#include "tst_arrival_bound.moc"
