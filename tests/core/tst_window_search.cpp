// The window search (window_search.h): formulation.md's MILP re-solved on a
// few stages with the rest of a schedule fixed, against a hand-worked tiny
// graph, the exact optimum of small problems, and resnet18_cifar.
#include <QtTest>

#include <atomic>
#include <cstdint>

#include "baselines.h"
#include "bound_checks.h"
#include "deadline.h"
#include "heuristic_schedule.h"
#include "replay.h"
#include "schedule_io.h"
#include "window_search.h"

using namespace poet;
using Clock = std::chrono::steady_clock;

namespace {

ReplayReport replayUnder(const Problem& p, const Schedule& s)
{
    const ReplayReport rep = replaySchedule(p.graph, s, limitsOf(p));
    if (!rep.valid) qWarning("%s", rep.errors.front().c_str());
    return rep;
}

Clock::time_point in(double seconds)
{
    return secondsAfter(Clock::now(), seconds);
}

// A saved schedule of resnet18_cifar on m4 (tests/data/schedules/`file`,
// its budgets with it) and what improveByWindows (its `passes`) makes of it
// in up to 60 s, stopped once a schedule costs `target_j` or less. Checks
// (QTest: the caller returns where one failed) that the file holds `bytes`
// of RAM and `start_j`, and that the result is valid, costs `target_j` or
// less and not less than `bound_j`, a lower bound a solve proved.
struct SavedImprovement {
    LoadedSchedule loaded;
    Problem problem;
    Schedule improved;
};

void improveSaved(const char* file, std::int64_t bytes, double start_j, double target_j, double bound_j,
                  SavedImprovement& r, WindowPasses passes = WindowPasses::All)
{
    r.loaded = readScheduleDocument(std::filesystem::path(POET_TEST_DATA_DIR) / "schedules" / file);
    r.problem = test::resnet18Cifar(r.loaded.ram_budget_bytes, r.loaded.runtime_budget_factor);
    const Problem& p = r.problem;
    QCOMPARE(p.ram_budget_bytes, bytes);
    QVERIFY(std::abs(replayUnder(p, r.loaded.schedule).total_energy_j - start_j) < 1e-8);
    std::atomic<bool> stop{false};
    r.improved = improveByWindows(
        p, r.loaded.schedule, in(60), &stop,
        [&](const Schedule& better) {
            if (replaySchedule(p.graph, better, limitsOf(p)).total_energy_j <= target_j) stop = true;
        },
        nullptr, passes);
    const ReplayReport rep = replayUnder(p, r.improved);
    QVERIFY(rep.valid);
    QVERIFY2(rep.total_energy_j <= target_j, qPrintable(QString::number(rep.total_energy_j, 'f', 9)));
    QVERIFY(rep.total_energy_j >= bound_j * (1 - 1e-9));
}

}  // namespace

class TestWindowSearch : public QObject {
    Q_OBJECT

private slots:
    void pagesWhereRecomputingCostsMore()
    {
        // longSkipGraph at 9 B and 2.0x (tiny_graphs.h): X cannot wait in RAM
        // through stage 2. The start recomputes it for W (5 J); paging it out
        // and back costs 0.1 + 0.15 J: 4.25 J, which no schedule beats.
        const Problem p = test::problemOf(test::longSkipGraph(0.1, 0.15), 9, 2.0, true, true);
        BoolMatrix R(4);
        R.set(3, 0);
        const Schedule start = scheduleFromRecompute(p.graph, R);
        QCOMPARE(replayUnder(p, start).total_energy_j, 5.0);
        const Schedule better = improveByWindows(p, start, in(60));
        const ReplayReport rep = replayUnder(p, better);
        QVERIFY(rep.valid);
        QCOMPARE(rep.total_energy_j, 4.25);
        QCOMPARE(rep.recomputations, 0);
        QCOMPARE(test::solveExactly(p, FormulationVariant::Reference).replay.total_energy_j, 4.25);
        // Past the deadline nothing changes.
        QVERIFY(improveByWindows(p, start, Clock::now()) == start);
    }

    // pageOutWindows on a hand-set paging pattern (the function reads only
    // which values are paged out and in where). trainingChain of eight
    // forward values: stages 0..7 forward (each reads the one before), 8
    // the loss, 9..15 the gradients.
    //  - value 1: out at 2, in at 10; its input 0 is never paged: windows
    //    10..13, 10..14 and 10..15;
    //  - value 2: out at 3, in at 12, but its input 1 is paged: none;
    //  - value 4 (20 B, dear to page): out at 5, in at 9 and 11: windows
    //    9..12, 9..13 and 9..14, after value 1's (the latest first);
    //  - value 6: out at 7, in at 9 and 12, three stages apart: none.
    void pageOutWindowsAreWhereAPageOutMayGo()
    {
        const Graph g = test::trainingChain({1, 2, 2, 2, 20, 2, 2, 2});
        QCOMPARE(g.size(), 16);
        Schedule s(g.size());
        for (auto [t, i] : {std::pair{2, 1}, {3, 2}, {5, 4}, {7, 6}}) s.M_out.set(t, i);
        for (auto [t, i] : {std::pair{10, 1}, {12, 2}, {9, 4}, {11, 4}, {9, 6}, {12, 6}}) s.M_in.set(t, i);
        const std::vector<std::pair<int, int>> expected{{10, 13}, {10, 14}, {10, 15}, {9, 12}, {9, 13}, {9, 14}};
        QCOMPARE(pageOutWindows(g, s), expected);
        // Value 1 paged out a second time: its windows go.
        s.M_out.set(4, 1);
        const std::vector<std::pair<int, int>> without_one{{9, 12}, {9, 13}, {9, 14}};
        QCOMPARE(pageOutWindows(g, s), without_one);
        // Value 6 paged in at 11 rather than 12: two stages apart, so it
        // has windows too, from 9 as value 4's: each is listed once.
        s.M_in.set(12, 6, false);
        s.M_in.set(11, 6);
        const std::vector<std::pair<int, int>> shared{{9, 12}, {9, 13}, {9, 14}};
        QCOMPARE(pageOutWindows(g, s), shared);
    }

    // swapValueSets on a hand-set pattern of the same chain (reads: value v
    // by v + 1 and by the gradients 15 - v and 16 - v; 7 by 8 and 9):
    //  - value 2 paged out at 3, back at 13; 4 recomputed at 11, 5 at 10:
    //    the pairs (2, 4) and (2, 5), each with 2's input 1. (2, 4): the
    //    first return 11 (4's), less eight, 3; the last read 15 (1's), and
    //    two more is past the last stage: 3..15. (2, 5): 10 (5's), so 2..15.
    //  - 5 no longer recomputed, 6 paged out at 7 and back at 9: (4, 6)
    //    with 6's input 5; first return 9 (6's): 1; last read 12 (4's):
    //    1..14. (2, 6) are both paged: none. Nearest pairs first.
    void swapValueSetsPairAPagedValueWithARecomputedOne()
    {
        const Graph g = test::trainingChain({1, 2, 2, 2, 20, 2, 2, 2});
        Schedule s(g.size());
        s.M_out.set(3, 2);
        s.M_in.set(13, 2);
        s.R.set(11, 4);
        s.R.set(10, 5);
        const std::vector<ValueSet> expected{{{1, 2, 4}, 3, 15}, {{1, 2, 5}, 2, 15}};
        QCOMPARE(swapValueSets(g, s), expected);
        s.R.set(10, 5, false);
        s.M_out.set(7, 6);
        s.M_in.set(9, 6);
        const std::vector<ValueSet> second{{{1, 2, 4}, 3, 15}, {{4, 5, 6}, 1, 14}};
        QCOMPARE(swapValueSets(g, s), second);
        // Nothing paged, or nothing recomputed: no set.
        QVERIFY(swapValueSets(g, Schedule(g.size())).empty());
    }

    void neverWorseNeverBelowTheOptimum_data() { test::chainRows(); }

    // On every small problem, from the quick schedule of the tightest RAM
    // budget that has one (valid at every larger budget, and wasteful there:
    // the quick schedule of the problem itself is mostly optimal already): a
    // valid schedule, no dearer than the start and not below formulation.md's
    // exact optimum; better on many, the optimum on most. Each better
    // schedule goes to the callback as it is found, and the last one is the
    // answer. The same with two windows solved at once (the callback then
    // runs on either thread, one call at a time).
    void neverWorseNeverBelowTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, cheap_odd);
        const std::int64_t from = minimumFeasibleBudgetLowerBound(g);
        for (const int threads : {1, 2}) {
            const std::atomic<int> thread_count = threads;
            int compared = 0, improved = 0, met = 0;
            test::forEachSmallProblem(g, from, [&](const Problem& p, const SolveResult& ref) {
                std::optional<Schedule> quick;
                for (std::int64_t ram = from; ram <= p.ram_budget_bytes && !quick; ++ram) {
                    Problem tighter = p;
                    tighter.ram_budget_bytes = ram;
                    quick = bestQuickSchedule(tighter);
                }
                if (ref.status != SolveStatus::Optimal || !quick) return;
                QVERIFY(replayUnder(p, *quick).valid);
                ++compared;
                const double start_j = replayUnder(p, *quick).total_energy_j;
                std::optional<Schedule> last;
                double last_j = start_j;
                bool each_valid_and_better = true;
                std::atomic<bool> stop{false};
                const Schedule s = improveByWindows(
                    p, *quick, in(60), &stop,
                    [&](const Schedule& better) {
                        const ReplayReport rep = replaySchedule(p.graph, better, limitsOf(p));
                        each_valid_and_better = each_valid_and_better && rep.valid && rep.total_energy_j < last_j;
                        last = better;
                        last_j = rep.total_energy_j;
                        // Nothing is below the optimum: done (else the search ends at its deadline).
                        if (last_j <= ref.replay.total_energy_j * (1 + 1e-9)) stop = true;
                    },
                    &thread_count);
                QVERIFY2(each_valid_and_better, qPrintable(test::describe(p)));
                const ReplayReport rep = replayUnder(p, s);
                QVERIFY2(rep.valid, qPrintable(test::describe(p)));
                QVERIFY(rep.total_energy_j <= start_j);
                QVERIFY2(rep.total_energy_j >= ref.replay.total_energy_j * (1 - 1e-9), qPrintable(test::describe(p)));
                if (last) QVERIFY(s == *last);
                if (rep.total_energy_j < start_j * (1 - 1e-9)) ++improved;
                if (rep.total_energy_j <= ref.replay.total_energy_j * (1 + 1e-9)) ++met;
            });
            const QString counts = QStringLiteral("%1 thread(s): %2 compared, %3 improved, %4 optimal")
                                       .arg(threads)
                                       .arg(compared)
                                       .arg(improved)
                                       .arg(met);
            qInfo("%s", qPrintable(counts));
            QVERIFY2(compared >= 40 && improved >= compared / 2 && met >= compared / 2, qPrintable(counts));
        }
    }

    // The same at a scarce runtime factor (1.005x), where the swap sets
    // run first (the rows above stop at 1.0, 1.3 and 2x): on every small
    // problem with an exact optimum, from the quick schedule of the
    // tightest budget that has one, a valid schedule no dearer than the
    // start and not below the optimum.
    void swapSetsNeverWorseNeverBelowTheOptimum()
    {
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, true);
        const std::int64_t from = minimumFeasibleBudgetLowerBound(g);
        int compared = 0, improved = 0, met = 0;
        for (std::int64_t ram = from; ram <= plainPassPeakBytes(g); ++ram) {
            const Problem p = test::problemOf(g, ram, 1.005, true, true);
            QVERIFY(spareTimeIsScarce(p));
            const SolveResult ref = test::solveExactly(p, FormulationVariant::Reference);
            std::optional<Schedule> quick;
            for (std::int64_t tight = from; tight <= ram && !quick; ++tight) {
                Problem tighter = p;
                tighter.ram_budget_bytes = tight;
                quick = bestQuickSchedule(tighter);
            }
            if (ref.status != SolveStatus::Optimal || !quick) continue;
            ++compared;
            const double start_j = replayUnder(p, *quick).total_energy_j;
            std::atomic<bool> stop{false};
            const Schedule s = improveByWindows(p, *quick, in(60), &stop, [&](const Schedule& better) {
                if (replaySchedule(p.graph, better, limitsOf(p)).total_energy_j <=
                    ref.replay.total_energy_j * (1 + 1e-9))
                    stop = true;
            });
            const ReplayReport rep = replayUnder(p, s);
            QVERIFY2(rep.valid, qPrintable(test::describe(p)));
            QVERIFY(rep.total_energy_j <= start_j);
            QVERIFY2(rep.total_energy_j >= ref.replay.total_energy_j * (1 - 1e-9), qPrintable(test::describe(p)));
            if (rep.total_energy_j < start_j * (1 - 1e-9)) ++improved;
            if (rep.total_energy_j <= ref.replay.total_energy_j * (1 + 1e-9)) ++met;
        }
        qInfo("1.005x: %d compared, %d improved, %d optimal", compared, improved, met);
        QVERIFY(compared >= 10 && improved >= compared / 2 && met >= compared / 2);
    }

    // The swap sets on resnet18_cifar on m4 at 13% and 1.002x, from a 30 s
    // solve's schedule before them (0.755516 J, 1.29% above the carried
    // bound, 0.745749 J; tests/data/schedules): layer1.1.bn3 recomputed
    // rather than paged, layer2.0.bn1 recomputed once more (window_search.h),
    // 0.745972 J or less, within 0.5% of that bound.
    void swapSetsCloseTheGapAtThirteenPercentAndScarceTime()
    {
        SavedImprovement r;  // the bound: the carried arrival bound
        improveSaved("resnet18_cifar_m4_13pct_1.002x.json", 318988, 0.755516361, 0.745972245, 0.745749375, r);
    }

    // A time trade (window_search.h): resnet18_cifar on m4 at 17% and
    // 1.001x, a 30 s solve's schedule of 0.700261 J (tests/data/schedules),
    // from which windows and swap sets alone found nothing in 60 s (session
    // 73, the build before). With the spare runtime doubled, the stem's
    // set recomputes layer1.0.bn1 at stage 127; the relief frees that time
    // by paging in layer2.1.conv3 and layer3.0.bn1 for stages 89 and 86
    // where the schedule recomputed: 0.697959 J. Not below the solve's
    // bucket bound (0.691692 J).
    void timeTradeAtSeventeenPercentAndScarceTime()
    {
        SavedImprovement r;
        improveSaved("resnet18_cifar_m4_17pct_1.001x.json", 417139, 0.700260519, 0.697959003, 0.691692317, r);
        if (QTest::currentTestFailed()) return;
        // The time came from far away: a page-in before stage 100 of a value
        // the schedule did not page in, and a change after stage 120.
        const Schedule &before = r.loaded.schedule, &after = r.improved;
        const int n = r.problem.graph.size();
        bool paged_in_early = false, changed_late = false;
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < t; ++i) {
                bool paged_before = false;
                for (int u = 0; u < n; ++u) paged_before |= u > i && before.M_in(u, i);
                paged_in_early |= t < 100 && after.M_in(t, i) && !paged_before;
                changed_late |= t > 120 && (after.R(t, i) != before.R(t, i) || after.M_in(t, i) != before.M_in(t, i));
            }
        QVERIFY(paged_in_early);
        QVERIFY(changed_late);
    }

    // Trade windows (window_search.h): resnet18_cifar on m4 at 14% and
    // 1.001x, a 30 s solve's schedule of 0.712439 J (tests/data/schedules),
    // from which the passes before them found 0.712432 J at best in 60 s.
    // Window 87's trade, then window 110's: 0.710050 J, not below the bound
    // another 30 s solve proved (the strided tail's 0.708440 J).
    void tradeWindowsAtFourteenPercentAndScarceTime()
    {
        SavedImprovement r;
        improveSaved("resnet18_cifar_m4_14pct_1.001x.json", 343526, 0.712438923, 0.710050024, 0.708439627, r);
    }

    // The swap sets' passes alone (WindowPasses::SwapSetsOnly: the solve
    // runs them first where the window search starts beside the short
    // tails) find the same trade from the same schedule. At 1.5x, where the
    // spare time is not scarce, they make no pass at all, though the other
    // passes improve that schedule there.
    void swapSetsOnlyTradeWhereTimeIsScarceAndDoNothingElse()
    {
        SavedImprovement r;
        improveSaved("resnet18_cifar_m4_17pct_1.001x.json", 417139, 0.700260519, 0.697959003, 0.691692317, r,
                     WindowPasses::SwapSetsOnly);
        if (QTest::currentTestFailed()) return;
        Problem loose = r.problem;
        loose.runtime_budget_factor = 1.5;
        QVERIFY(!spareTimeIsScarce(loose));
        const Schedule& start = r.loaded.schedule;
        QVERIFY(improveByWindows(loose, start, in(60), nullptr, {}, nullptr, WindowPasses::SwapSetsOnly) == start);
        std::atomic<bool> stop{false};
        const Schedule better = improveByWindows(loose, start, in(60), &stop, [&](const Schedule&) { stop = true; });
        QVERIFY(replayUnder(loose, better).total_energy_j < replayUnder(loose, start).total_energy_j);
    }

    // In the solve, on the second core after the paging plan: resnet18_cifar
    // on m4 at 13% of its peak and 1.5x. The plan's schedule (0.739648 J)
    // was 1.3% above the carried bound (0.729786 J) and nothing lowered it;
    // re-solving stages 109..111 gives 0.729963 J (window_search.h), and
    // the solve proves it within 0.5% (measured: in 14 s of the 60).
    void closesTheGapAtThirteenPercent()
    {
        const Problem p = test::resnet18Cifar(318988, 1.5);
        SolverOptions o;
        o.time_limit_s = 60;
        o.relative_gap = 0.005;
        o.threads = 2;
        const SolveResult r = solve(p, o);
        QVERIFY(r.schedule && r.replay.valid);
        QVERIFY2(r.objective_j <= 0.729964, qPrintable(QString::number(r.objective_j, 'f', 9)));
        QCOMPARE(r.status, SolveStatus::Optimal);
        QVERIFY(r.best_bound_j <= r.objective_j && r.gap <= 0.005);
    }
};

QTEST_APPLESS_MAIN(TestWindowSearch)
#include "tst_window_search.moc"
