// The fast schedules (heuristic_schedule.h): the greedy relief of a RAM peak
// by paging or recomputation, and the local search that drops recomputations
// (schedule_improvement.h), and the relief of a schedule over the runtime
// budget, against hand-worked tiny graphs and the MILP.
#include <QtTest>

#include "baselines.h"
#include "heuristic_schedule.h"
#include "problem_loader.h"
#include "replay.h"
#include "schedule_improvement.h"
#include "solver.h"
#include "bundled_problem.h"
#include "tiny_graphs.h"

using namespace poet;
using test::longSkipGraph;
using test::problemOf;

namespace {

// A(1 B) -> B(2 B) -> C -> D -> E -> F (1 B each), E also reads B, F also
// reads A; each node costs 1 J and 1 s. Plain pass at a 4 B budget: stage 3
// holds A, B, C and computes D (5 B); stage 4 holds A, B, D and computes E
// (5 B). Paging B (out at 2, in at 3) fixes stage 3 only; paging A (out at 1,
// in at 4) fixes both. Stage 4 can only lose A (B and D are read there), so
// with remat off the optimum pages A alone: 6 J + A's 1 J of paging.
Graph twoPeaksGraph()
{
    std::vector<Node> nodes(6);
    const char* names[] = {"A", "B", "C", "D", "E", "F"};
    for (int i = 0; i < 6; ++i) {
        nodes[i].name = names[i];
        nodes[i].type = "test";
        nodes[i].memory_bytes = i == 1 ? 2 : 1;
        nodes[i].compute_energy_j = 1;
        nodes[i].compute_time_s = 1;
        // Paging B is ten times cheaper per byte relieved at stage 3 than
        // paging A, so the greedy pages B first.
        nodes[i].pageout_energy_j = i == 1 ? 0.05 : 0.5;
        nodes[i].pagein_energy_j = i == 1 ? 0.05 : 0.5;
    }
    return Graph(nodes, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {1, 4}, {0, 5}});
}

// The reference README's API example: resnet18_cifar on m4, 737,719 B, 1.5x.
Problem referenceApiExample()
{
    Problem p;
    p.graph = loadTrainingGraph(ProfileCatalog::standard(), "resnet18_cifar", "m4");
    p.ram_budget_bytes = 737719;
    p.runtime_budget_factor = 1.5;
    return p;
}

// recomputeChainGraph's schedule that recomputes X for W in stage 4, and A
// for X (7 J, 2 s over the plain pass: tiny_graphs.h).
Schedule chainRecomputedForW(const Graph& g)
{
    BoolMatrix R(5);
    for (int t = 0; t < 5; ++t) R.set(t, t);
    R.set(4, 0);
    R.set(4, 1);
    return scheduleFromRecompute(g, R);
}

ReplayReport replayUnder(const Problem& p, const Schedule& s)
{
    const ReplayReport rep = replaySchedule(p.graph, s, limitsOf(p));
    if (!rep.valid) qWarning("%s", rep.errors.front().c_str());
    return rep;
}

}  // namespace

class TestQuickSchedules : public QObject {
    Q_OBJECT
private slots:
    void pagesWhatWaitsAcrossThePeak()
    {
        // longSkipGraph at 9 B, remat off: X is paged out at stage 1 and in at 2 (4 + 0.2 + 0.3 J).
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 1.0, true, false);
        const auto s = relieveToFit(p.graph, plainSchedule(p.graph), limitsOf(p));
        QVERIFY(s.has_value());
        const ReplayReport rep = replayUnder(p, *s);
        QVERIFY(rep.valid);
        QCOMPARE(rep.total_energy_j, 4.5);
        QVERIFY(s->M_out(1, 0));
        QVERIFY(s->M_in(2, 0));
        QCOMPARE(rep.recomputations, 0);
    }

    void recomputesWhenPagingIsDearerOrOff()
    {
        // Paging X costs 1.5 J, recomputing it 1 J: X is recomputed at stage 3 (5 J).
        const Problem dear = problemOf(longSkipGraph(0.7, 0.8), 9, 2.0, true, true);
        const auto a = relieveToFit(dear.graph, plainSchedule(dear.graph), limitsOf(dear));
        QVERIFY(a.has_value());
        QCOMPARE(replayUnder(dear, *a).total_energy_j, 5.0);
        QVERIFY(a->R(3, 0));
        QCOMPARE(a->M_in.count() + a->M_out.count(), 0);
        // Cheap paging, but paging switched off: recomputed as well.
        const Problem off = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, false, true);
        const auto b = relieveToFit(off.graph, plainSchedule(off.graph), limitsOf(off));
        QVERIFY(b.has_value());
        QCOMPARE(replayUnder(off, *b).total_energy_j, 5.0);
        // Neither allowed within a 1.0x runtime budget and paging off: nothing fits.
        const Problem none = problemOf(longSkipGraph(0.2, 0.3), 9, 1.0, false, true);
        QVERIFY(!relieveToFit(none.graph, plainSchedule(none.graph), limitsOf(none)).has_value());
    }

    void undoesStepsMadeRedundant()
    {
        // twoPeaksGraph: the greedy pages B (best per joule at the first
        // peak), then A (the only relief at the second); A alone fits, so
        // paging B is undone: 7 J, not 7.1 J.
        const Problem p = problemOf(twoPeaksGraph(), 4, 1.0, true, false);
        QCOMPARE(replaySchedule(p.graph, plainSchedule(p.graph)).peak_ram_bytes, std::int64_t(5));
        const auto s = relieveToFit(p.graph, plainSchedule(p.graph), limitsOf(p));
        QVERIFY(s.has_value());
        const ReplayReport rep = replayUnder(p, *s);
        QVERIFY(rep.valid);
        QCOMPARE(rep.page_outs, 1);
        QVERIFY(s->M_out(1, 0));
        QVERIFY(s->M_in(4, 0));
        QCOMPARE(rep.total_energy_j, 7.0);
        // The MILP agrees that this is optimal.
        SolverOptions o;
        o.relative_gap = 1e-9;
        o.use_heuristics = false;
        const SolveResult r = solve(p, o);
        QCOMPARE(toString(r.status), "optimal");
        QCOMPARE(r.replay.total_energy_j, 7.0);
    }

    void quickScheduleMixesRecomputationAndPaging()
    {
        // The reference's API example: every fast schedule is valid, and the
        // best mixes cheap recomputations with paging, so it costs less than
        // the paging-only heuristic and the pure-recomputation baselines.
        const Problem p = referenceApiExample();
        const auto paging = heuristicSchedule(p);
        const auto best = bestQuickSchedule(p);
        QVERIFY(paging.has_value() && best.has_value());
        const ReplayReport pagingRep = replayUnder(p, *paging), bestRep = replayUnder(p, *best);
        QVERIFY(pagingRep.valid && bestRep.valid);
        QCOMPARE(pagingRep.recomputations, 0);
        QVERIFY(bestRep.recomputations > 0);
        QVERIFY(bestRep.page_ins > 0);
        QVERIFY(bestRep.total_energy_j < pagingRep.total_energy_j);
        qInfo("737,719 B / 1.5x: paging only %.6f J, best quick %.6f J (plain pass %.6f J)", pagingRep.total_energy_j,
              bestRep.total_energy_j, p.graph.totalComputeEnergy());
    }

    void cancelledQuickScheduleKeepsWhatItBuilt()
    {
        // Cancelled before it starts, only the first candidate is built (the
        // paging heuristic): a valid schedule, dearer than the best, which
        // the solve keeps as its answer to the cancel.
        const Problem p = referenceApiExample();
        const std::atomic<bool> cancel{true};
        const auto cut = bestQuickSchedule(p, &cancel);
        const auto paging = heuristicSchedule(p);
        const auto best = bestQuickSchedule(p);
        QVERIFY(cut.has_value() && paging.has_value() && best.has_value());
        QVERIFY(*cut == *paging);
        QVERIFY(replayUnder(p, *cut).valid);
        QVERIFY(replayUnder(p, *best).total_energy_j < replayUnder(p, *cut).total_energy_j);
    }

    void quickScheduleIsTheSameOnTwoThreads()
    {
        // Each candidate is built into its own place, so the pick does not
        // depend on which thread finished first: the reference's API example
        // (DTR and the baselines) and bert without paging at 11% (revolve's
        // relieved checkpoints, the fallback) give the very same schedule.
        for (const Problem& p : {referenceApiExample(), test::bundledOnM4("bert", 0.11, 1.5, false)}) {
            QuickScheduleOptions two;
            two.threads = 2;
            const auto one = bestQuickSchedule(p);
            const auto both = bestQuickSchedule(p, nullptr, two);
            QVERIFY(one.has_value() && both.has_value());
            QVERIFY(*one == *both);
        }
    }

    void pagingScheduleIsHandedOverFirst()
    {
        // on_first gets the paging heuristic's schedule once, before the
        // rest are built: the solve shows it while DTR and the baselines run.
        const Problem p = referenceApiExample();
        std::vector<Schedule> handed;
        QuickScheduleOptions options;
        options.on_first = [&](const Schedule& s) { handed.push_back(s); };
        const auto best = bestQuickSchedule(p, nullptr, options);
        const auto paging = heuristicSchedule(p);
        QCOMPARE(handed.size(), std::size_t(1));
        QVERIFY(paging.has_value() && handed.front() == *paging);
        QVERIFY(best.has_value());
        QVERIFY(replayUnder(p, *best).total_energy_j < replayUnder(p, handed.front()).total_energy_j);
    }

    void timeLimitEndsTheBuildsOnceAScheduleIsInHand()
    {
        // Past `until`, with the paging heuristic's schedule valid, nothing
        // more is built: that schedule is the answer, as on a cancel.
        QuickScheduleOptions late;
        late.until = std::chrono::steady_clock::now();
        const Problem p = referenceApiExample();
        const auto cut = bestQuickSchedule(p, nullptr, late);
        const auto paging = heuristicSchedule(p);
        QVERIFY(cut.has_value() && paging.has_value());
        QVERIFY(*cut == *paging);
        // Without such a schedule the limit does not cut the builds short:
        // bert without paging at 11% has none from the paging heuristic,
        // and revolve's relieved checkpoints still give one.
        const Problem bert = test::bundledOnM4("bert", 0.11, 1.5, false);
        QVERIFY(!heuristicSchedule(bert).has_value());
        const auto s = bestQuickSchedule(bert, nullptr, late);
        QVERIFY(s.has_value());
        QVERIFY(replayUnder(bert, *s).valid);
    }

    void relievesWhatAStageKeepsPastItsPeak()
    {
        // resnet18_cifar without paging at 20% and 1.2x: once the waits
        // across the peak are recomputed, the peak is what a stage keeps
        // for later after its last read there. Relieving only the waits gave
        // up (no schedule); recomputing the kept values later fits.
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.2, 1.2, false);
        const auto s = relieveToFit(p.graph, plainSchedule(p.graph), limitsOf(p));
        QVERIFY(s.has_value());
        const ReplayReport rep = replayUnder(p, *s);
        QVERIFY(rep.valid);
        QVERIFY(rep.recomputations > 0);
        // With paging, where a kept value's next reader is the very next
        // stage, paging it frees nothing: offered, it was taken again and
        // again (resnet18_cifar at 9% and 1.2x never returned). It ends now.
        const Problem tight = test::bundledOnM4("resnet18_cifar", 0.09, 1.2, true);
        if (const auto t = bestQuickSchedule(tight)) QVERIFY(replayUnder(tight, *t).valid);
    }

    void revolvesWhereNothingElseFits()
    {
        // bert without paging at 11% and 1.5x: the plain pass relieved keeps
        // every block's output, and no baseline fits as it is; revolve's
        // checkpoints (12 slots for 13 states), relieved, fit.
        const Problem p = test::bundledOnM4("bert", 0.11, 1.5, false);
        const auto s = bestQuickSchedule(p);
        QVERIFY(s.has_value());
        const ReplayReport rep = replayUnder(p, *s);
        QVERIFY(rep.valid);
        QCOMPARE(rep.page_outs, 0);
        QVERIFY(rep.runtime_s <= 1.5 * p.graph.totalComputeTime());
    }

    void dropsRecomputationsWhereKeepingFits()
    {
        // longSkipGraph with X and Y recomputed at stage 3 (Y for nobody):
        // 6 J, and stage 3 holds Z, X, Y and W at once: 13 B. At 13 B the
        // plain pass (12 B) fits: 4 J, no recomputation left.
        const Problem p = problemOf(longSkipGraph(0.7, 0.8), 13, 2.0, true, true);
        BoolMatrix R(4);
        R.set(3, 0);
        R.set(3, 1);
        const Schedule start = scheduleFromRecompute(p.graph, R);
        QVERIFY(replayUnder(p, start).valid);
        QCOMPARE(replayUnder(p, start).total_energy_j, 6.0);
        const auto far = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        bool finished = false;
        const Schedule s = dropRecomputations(p.graph, start, limitsOf(p), far, nullptr, &finished);
        QVERIFY(finished);  // its passes ended with one that changed nothing
        const ReplayReport rep = replayUnder(p, s);
        QVERIFY(rep.valid);
        QCOMPARE(rep.total_energy_j, 4.0);
        QCOMPARE(rep.recomputations, 0);
        // At 9 B keeping X through stage 2 does not fit and paging it costs
        // more than recomputing it: the 5 J schedule stays as it is.
        const Problem tight = problemOf(longSkipGraph(0.7, 0.8), 9, 2.0, true, true);
        BoolMatrix needed(4);
        needed.set(3, 0);
        const Schedule fits = dropRecomputations(tight.graph, scheduleFromRecompute(tight.graph, needed),
                                                 limitsOf(tight), far);
        QCOMPARE(replayUnder(tight, fits).total_energy_j, 5.0);
        QVERIFY(fits.R(3, 0));
        // Past the deadline, or cancelled, nothing changes, and the search
        // says it did not finish.
        const Schedule late =
            dropRecomputations(p.graph, start, limitsOf(p), std::chrono::steady_clock::now(), nullptr, &finished);
        QVERIFY(late == start);
        QVERIFY(!finished);
        const std::atomic<bool> cancelled{true};
        QVERIFY(dropRecomputations(p.graph, start, limitsOf(p), far, &cancelled, &finished) == start);
        QVERIFY(!finished);
    }

    void dropRecomputationsImprovesTheApiExample()
    {
        // The best quick schedule recomputes some values twice; keeping them
        // (and paging what that costs) is cheaper. Measured: 0.551020 J ->
        // 0.550850 J; the LP bound is 0.548277 J.
        const Problem p = referenceApiExample();
        const auto quick = bestQuickSchedule(p);
        QVERIFY(quick.has_value());
        const Schedule better = dropRecomputations(p.graph, *quick, limitsOf(p),
                                                   std::chrono::steady_clock::now() + std::chrono::seconds(60));
        const ReplayReport before = replayUnder(p, *quick), after = replayUnder(p, better);
        QVERIFY(after.valid);
        QVERIFY2(after.total_energy_j < before.total_energy_j * (1 - 1e-5),
                 qPrintable(QString("%1 J -> %2 J").arg(before.total_energy_j, 0, 'f', 9).arg(after.total_energy_j, 0, 'f', 9)));
        QVERIFY(after.total_energy_j >= 0.548277);
    }

    void relievesRuntimeByTheCheaperDrop()
    {
        // recomputeChainGraph at 8 B: stage 4 recomputes X for W, and A for
        // X (7 J, 2 s over the plain pass: valid at 1.4x). At 1.2x only 1 s
        // is spare. Dropping X (and A, which fed only X) pages X instead:
        // 5 J + 0.3 + 0.4 J, 2 s less. Dropping A alone leaves X recomputed
        // from A, which cannot stay beside Y and Z and is paged: 6.7 J, 1 s
        // less. The first costs less per second of the excess (-1.3 J
        // against -0.3 J), and is the optimum at 1.2x (worked out in
        // tiny_graphs.h).
        const Problem loose = problemOf(test::recomputeChainGraph(0.3, 0.4), 8, 1.4, true, true);
        const Schedule start = chainRecomputedForW(loose.graph);
        QCOMPARE(replayUnder(loose, start).total_energy_j, 7.0);
        QCOMPARE(replayUnder(loose, start).runtime_s, 7.0);

        const Problem tight = problemOf(test::recomputeChainGraph(0.3, 0.4), 8, 1.2, true, true);
        QVERIFY(!replaySchedule(tight.graph, start, limitsOf(tight)).valid);
        const auto far = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        const std::optional<Schedule> fitted = relieveRuntime(tight, start, far);
        QVERIFY(fitted.has_value());
        const ReplayReport rep = replayUnder(tight, *fitted);
        QVERIFY(rep.valid);
        QCOMPARE(rep.recomputations, 0);
        QCOMPARE(rep.page_outs, 1);
        QVERIFY(std::abs(rep.total_energy_j - 5.7) < 1e-9);
        const SolveResult exact = solve(tight, SolverOptions{});
        QCOMPARE(exact.status, SolveStatus::Optimal);
        QVERIFY(std::abs(exact.objective_j - rep.total_energy_j) < 1e-9);

        // Past its deadline it gives nothing, and where no drop leaves a
        // schedule that fits (paging off at 1.0x: X cannot stay beside Y
        // and Z, nor be recomputed) nothing either.
        QVERIFY(!relieveRuntime(tight, start, std::chrono::steady_clock::now()).has_value());
        const Problem none = problemOf(test::recomputeChainGraph(0.3, 0.4), 8, 1.0, false, true);
        QVERIFY(!relieveRuntime(none, start, far).has_value());
    }

    void relievesOnlyTheHintsTheBudgetRejects()
    {
        // chainRecomputedForW (7 J, 7 s) is over the 1.2x
        // budget: relieved, it is the 5.7 J optimum. That one fits, and is
        // passed over as a hint (it is a warm start as it is); so is a
        // schedule of another graph's size.
        const Problem tight = problemOf(test::recomputeChainGraph(0.3, 0.4), 8, 1.2, true, true);
        const Schedule over = chainRecomputedForW(tight.graph);
        const auto far = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        const std::optional<Schedule> relieved = relieveHints(tight, {Schedule(3), over}, far);
        QVERIFY(relieved.has_value());
        const ReplayReport rep = replayUnder(tight, *relieved);
        QVERIFY(rep.valid);
        QVERIFY(std::abs(rep.total_energy_j - 5.7) < 1e-9);

        QVERIFY(!relieveHints(tight, {*relieved, Schedule(3)}, far).has_value());
        QVERIFY(!relieveHints(tight, {over}, std::chrono::steady_clock::now()).has_value());
    }
};

QTEST_APPLESS_MAIN(TestQuickSchedules)
#include "tst_quick_schedules.moc"
