// The replay: measures what it should and rejects each kind of broken schedule.
#include <QtTest>

#include "replay.h"
#include "tiny_graphs.h"

using namespace poet;

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
        QVERIFY(r.errors.front().find("RAM over budget: 12 bytes") != std::string::npos);
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
