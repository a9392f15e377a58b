// The replay: measures what it should and rejects each kind of broken schedule.
#include <QtTest>

#include <algorithm>

#include "replay.h"
#include "tiny_graphs.h"

using namespace poet;

// recomputeChainGraph's five stages, each value kept for the next stage
// only, A and X recomputed for W at stage 4.
Schedule recomputeChainSchedule()
{
    Schedule s(5);
    for (int t = 0; t < 5; ++t) s.R.set(t, t);
    s.R.set(4, 0);
    s.R.set(4, 1);
    for (int t = 1; t < 5; ++t) s.S_RAM.set(t, t - 1);
    return s;
}

// Replays `s` both ways, checks that they agree in everything but the
// trace, and returns the full report.
ReplayReport sameButTheTrace(const Graph& g, const Schedule& s, const ReplayLimits& limits)
{
    const ReplayReport full = replaySchedule(g, s, limits, ReplayDetail::EveryOp);
    const ReplayReport peaks = replaySchedule(g, s, limits, ReplayDetail::StagePeaks);
    [&] {
        QVERIFY(peaks.ram_trace.empty());
        QCOMPARE(full.ram_trace.size(), std::size_t(g.size()));
        QCOMPARE(peaks.stage_peak_bytes, full.stage_peak_bytes);
        for (int t = 0; t < g.size(); ++t)
            QCOMPARE(full.stage_peak_bytes[t], *std::max_element(full.ram_trace[t].begin(), full.ram_trace[t].end()));
        QCOMPARE(peaks.valid, full.valid);
        QCOMPARE(peaks.errors, full.errors);
        QCOMPARE(peaks.total_energy_j, full.total_energy_j);
        QCOMPARE(peaks.runtime_s, full.runtime_s);
        QCOMPARE(peaks.peak_ram_bytes, full.peak_ram_bytes);
        QCOMPARE(peaks.peak_stage, full.peak_stage);
        QCOMPARE(peaks.peak_node, full.peak_node);
        QCOMPARE(peaks.recomputations, full.recomputations);
    }();
    return full;
}

class TestReplay : public QObject {
    Q_OBJECT
private slots:
    void plainPassIsMeasured()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        const ReplayReport r = replaySchedule(g, plainSchedule(g));
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(r.compute_energy_j, 4.0);
        QCOMPARE(r.paging_energy_j, 0.0);
        QCOMPARE(r.runtime_s, 4.0);
        // Stage 2 holds X and Y and computes Z (see tiny_graphs.h).
        QCOMPARE(r.peak_ram_bytes, std::int64_t(12));
        QCOMPARE(r.peak_stage, 2);
        QCOMPARE(r.recomputations, 0);
        // U[3,*]: X and Z resident (8), then W (9).
        QCOMPARE(r.ram_trace[3], (std::vector<std::int64_t>{8, 8, 8, 9}));
    }

    // recomputeChainGraph without paging at 8 B (tiny_graphs.h): A and X
    // recomputed for W at stage 4, beside Z. Worked out by hand, op by op:
    // Z (4), A (5), X (8), A released as X is done (7), Y and Z not run (7),
    // W (8). Ops that run nothing between two that do keep the RAM figure.
    void recomputationsAreMeasuredOpByOp()
    {
        const Graph g = test::recomputeChainGraph(0.2, 0.3);
        ReplayLimits limits;
        limits.ram_budget_bytes = 8;
        const ReplayReport r = replaySchedule(g, recomputeChainSchedule(), limits);
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(r.ram_trace[4], (std::vector<std::int64_t>{5, 8, 7, 7, 8}));
        QCOMPARE(r.ram_trace[3], (std::vector<std::int64_t>{4, 4, 4, 8}));
        QCOMPARE(r.peak_ram_bytes, std::int64_t(8));
        QCOMPARE(r.peak_stage, 3);  // the first op at the peak
        QCOMPARE(r.peak_node, 3);
        QCOMPARE(r.recomputations, 2);
        QCOMPARE(r.compute_energy_j, 7.0);
        QCOMPARE(r.runtime_s, 7.0);
    }

    // The replay reads a stage's entries eight at a time: a fault is found
    // wherever it is in a row, first and last entries and across eight-entry
    // boundaries included (20 nodes), and named where it is.
    void faultsAreFoundInEveryPlaceOfARow()
    {
        const Graph g = test::trainingChain(std::vector<std::int64_t>(10, 4));
        const int n = g.size();
        QCOMPARE(n, 20);
        const Schedule plain = plainSchedule(g);
        QVERIFY(replaySchedule(g, plain).valid);
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < n; ++i) {
                std::vector<std::pair<Schedule, std::string>> broken;
                Schedule s = plain;
                s.M_in.set(t, i);  // never paged out
                broken.emplace_back(s, "paged in, but not on flash");
                if (!plain.S_RAM(t, i)) {
                    s = plain;
                    s.M_out.set(t, i);
                    broken.emplace_back(s, "paged out, but not in RAM");
                }
                if (i > t) {
                    s = plain;
                    s.R.set(t, i);
                    broken.emplace_back(s, "computed before its own stage");
                }
                const std::string where = "stage " + std::to_string(t) + ", node " + std::to_string(i) + " (";
                for (const auto& [schedule, fault] : broken) {
                    const ReplayReport r = replaySchedule(g, schedule);
                    QVERIFY2(r.errors.size() == 1, (where + fault).c_str());
                    QVERIFY2(r.errors.front().rfind(where, 0) == 0, r.errors.front().c_str());
                    QVERIFY2(r.errors.front().find(fault) != std::string::npos, r.errors.front().c_str());
                }
            }
    }

    void rejectsValueReadWhileAbsent()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        Schedule s = plainSchedule(g);
        s.S_RAM.set(3, 0, false);  // W reads X at stage 3, but X is gone
        s.S_RAM.set(2, 0, false);
        const ReplayReport r = replaySchedule(g, s);
        QVERIFY(!r.valid);
        QVERIFY(r.errors.front().find("value read while absent") != std::string::npos);
        QVERIFY(r.errors.front().find("stage 3") != std::string::npos);
    }

    void rejectsValueInRamWithoutSource()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        Schedule s = plainSchedule(g);
        s.S_RAM.set(2, 0, false);  // dropped at stage 2, claimed again at stage 3
        const ReplayReport r = replaySchedule(g, s);
        QVERIFY(!r.valid);
        QVERIFY(r.errors.front().find("stage 3, node 0 (X)") != std::string::npos);
    }

    void rejectsStorageReadBeforeWritten()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        Schedule s = plainSchedule(g);
        s.S_RAM.set(2, 0, false);
        s.M_in.set(2, 0);  // page-in of X, but X was never paged out
        s.S_SD.set(2, 0);
        const ReplayReport r = replaySchedule(g, s);
        QVERIFY(!r.valid);
        QVERIFY(r.errors.front().find("storage read before written") != std::string::npos);
    }

    void rejectsRamOverBudget()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        ReplayLimits limits;
        limits.ram_budget_bytes = 11;
        const ReplayReport r = replaySchedule(g, plainSchedule(g), limits);
        QVERIFY(!r.valid);
        QCOMPARE(r.errors.front(), std::string("stage 2, node 2 (Z): RAM over budget: 12 B in use, budget 11 B (over at 1 op)"));
    }

    // One fault, one line: stages over budget in a row are reported once,
    // at their worst op with that op's figure (was one line per op, each
    // with its own figure, filling the list); the runtime is the whole
    // schedule's, not stage 0's.
    void overBudgetRunIsOneErrorAtItsWorstOp()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        ReplayLimits limits;
        limits.ram_budget_bytes = 7;
        limits.runtime_budget_s = 3.5;  // 4 s of compute
        const ReplayReport r = replaySchedule(g, plainSchedule(g), limits);
        QVERIFY(!r.valid);
        QCOMPARE(r.errors.size(), std::size_t(2));
        QCOMPARE(r.errors[0], std::string("runtime 4 s (the whole schedule's compute) exceeds the budget of 3.5 s"));
        // Over 7 B: which ops, from the trace; the most is stage 2's 12 B.
        int first = -1, last = -1, ops = 0;
        for (int t = 0; t < g.size(); ++t)
            for (std::int64_t used : r.ram_trace[t])
                if (used > 7) {
                    if (first < 0) first = t;
                    last = t;
                    ++ops;
                }
        QVERIFY(first < 2 && last == 3);
        QCOMPARE(r.errors[1], "stages " + std::to_string(first) + " to 3: RAM over budget at " + std::to_string(ops) +
                                  " ops, the most 12 B at stage 2, node 2 (Z), budget 7 B");
        QCOMPARE(r.errors_not_listed, 0);
    }

    // Asked for each stage's peak alone (the schedule searches), the replay
    // keeps no trace and reports all else alike: the peaks are the trace's
    // row maxima, the over-budget error names the same worst op.
    void stagePeaksAloneReportTheSame()
    {
        const Graph skip = test::longSkipGraph(0.2, 0.3);
        ReplayLimits tight;
        tight.ram_budget_bytes = 7;
        const ReplayReport over = sameButTheTrace(skip, plainSchedule(skip), tight);
        QVERIFY(!over.valid);
        QCOMPARE(over.stage_peak_bytes[2], std::int64_t(12));  // X, Y and Z (see plainPassIsMeasured)

        const Graph chain = test::recomputeChainGraph(0.2, 0.3);
        ReplayLimits fits;
        fits.ram_budget_bytes = 8;
        const ReplayReport valid = sameButTheTrace(chain, recomputeChainSchedule(), fits);
        QVERIFY(valid.valid);
        QCOMPARE(valid.stage_peak_bytes[4], std::int64_t(8));  // the trace {5, 8, 7, 7, 8} (recomputationsAre...)
    }

    // A long list is cut at 50, and the cut is counted, not hidden.
    void longErrorListCountsWhatItLeavesOut()
    {
        std::vector<std::int64_t> sizes(40, 4);
        const Graph g = test::trainingChain(sizes);
        Schedule s = plainSchedule(g);
        for (int t = 0; t < g.size(); ++t)
            for (int i = 0; i < g.size(); ++i) s.S_RAM.set(t, i, false);  // every value read while absent
        const ReplayReport r = replaySchedule(g, s);
        QCOMPARE(r.errors.size(), std::size_t(50));
        QVERIFY(r.errors_not_listed > 10);
    }

    void acceptsHandWrittenPagingSchedule()
    {
        // Page X out at stage 1, in at stage 2 (tiny_graphs.h): peak 9 B, 4.5 J.
        const Graph g = test::longSkipGraph(0.2, 0.3);
        Schedule s(4);
        for (int t = 0; t < 4; ++t) s.R.set(t, t);
        s.S_RAM.set(1, 0);
        s.M_out.set(1, 0);
        s.S_RAM.set(2, 1);
        s.S_SD.set(2, 0);
        s.M_in.set(2, 0);
        s.S_RAM.set(3, 0);
        s.S_RAM.set(3, 2);
        ReplayLimits limits;
        limits.ram_budget_bytes = 9;
        const ReplayReport r = replaySchedule(g, s, limits);
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(r.peak_ram_bytes, std::int64_t(9));
        QCOMPARE(r.total_energy_j, 4.5);
        QCOMPARE(r.page_ins, 1);
        QCOMPARE(r.page_outs, 1);
    }

    void rejectsSwitchViolations()
    {
        const Graph g = test::longSkipGraph(0.2, 0.3);
        Schedule s = plainSchedule(g);
        s.R.set(3, 0);  // a recomputation
        ReplayLimits limits;
        limits.remat = false;
        QVERIFY(!replaySchedule(g, s, limits).valid);
        limits.remat = true;
        QVERIFY(replaySchedule(g, s, limits).valid);
        limits.runtime_budget_s = 4.5;  // 5 s of compute
        QVERIFY(!replaySchedule(g, s, limits).valid);
    }
};

QTEST_APPLESS_MAIN(TestReplay)
#include "tst_replay.moc"
