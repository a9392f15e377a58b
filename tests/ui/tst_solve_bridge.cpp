// The solve bridge: answers arrive as queued signals on the GUI thread,
// incumbents in order and before `finished`, a cancel ends a solve quickly,
// and an answer to an older request is never delivered after a newer request.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "problem_loader.h"
#include "profile_catalog.h"
#include "solve_bridge.h"
#include "ui_test_graphs.h"

using namespace poet;
using namespace poet::ui;

namespace {
ProfileCatalog catalog() { return ProfileCatalog({std::filesystem::path(POET_PROFILES_DIR)}); }

Problem problemFor(const std::string& model, const std::string& platform, double budgetFractionOfPeak,
                   double runtime) {
    Problem p;
    p.graph = loadTrainingGraph(catalog(), model, platform);
    p.model = model;
    p.platform = platform;
    p.ram_budget_bytes = static_cast<std::int64_t>(plainPassPeakBytes(p.graph) * budgetFractionOfPeak);
    p.runtime_budget_factor = runtime;
    return p;
}

// resnet18_cifar on m4 at 737,719 B and 1.5x: a hard instance (formulation.md).
Problem hardProblem() {
    Problem p = problemFor("resnet18_cifar", "m4", 1.0, 1.5);
    p.ram_budget_bytes = 737719;
    return p;
}
}  // namespace

class TestSolveBridge : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { SolveBridge::registerMetaTypes(); }
    void solvesOnAWorkerAndFinishes();
    void handBuiltGraph();
    void incumbentsArriveInOrderBeforeFinished();
    void cancelStopsQuickly();
    void staleAnswerIsDropped();
    void discardForgetsTheRequest();
    void tighterBudgetStartsFromTheLooserBound();
};

void TestSolveBridge::solvesOnAWorkerAndFinishes() {
    SolveBridge bridge;
    QSignalSpy started(&bridge, &SolveBridge::started);
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    QSignalSpy failed(&bridge, &SolveBridge::failed);
    const Problem p = problemFor("linear", "a72", 1.0, 1.0);
    SolverOptions o;
    o.time_limit_s = 20;
    QElapsedTimer clock;
    clock.start();
    const quint64 id = bridge.request(p, o);
    QVERIFY(clock.elapsed() < 500);  // request() does not solve on this thread
    QVERIFY(bridge.isBusy());
    QCOMPARE(started.count(), 1);
    QVERIFY(finished.wait(30000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).value<quint64>(), id);
    const auto r = finished.at(0).at(1).value<SolveResult>();
    QCOMPARE(r.status, SolveStatus::Optimal);
    QVERIFY(r.schedule.has_value());
    QVERIFY(r.replay.valid);
    QVERIFY(!bridge.isBusy());
}

void TestSolveBridge::handBuiltGraph() {
    SolveBridge bridge;
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    Problem p;
    p.graph = uitest::tinyGraph();
    p.model = "tiny";
    p.platform = "none";
    p.ram_budget_bytes = plainPassPeakBytes(p.graph);
    p.runtime_budget_factor = 1.0;
    SolverOptions o;
    o.time_limit_s = 10;
    const quint64 id = bridge.request(p, o);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).value<quint64>(), id);
    const auto r = finished.at(0).at(1).value<SolveResult>();
    QVERIFY(r.schedule.has_value());
    QCOMPARE(r.schedule->size(), 6);
}

void TestSolveBridge::incumbentsArriveInOrderBeforeFinished() {
    SolveBridge bridge;
    std::vector<std::pair<QString, double>> events;  // in arrival order
    quint64 seenId = 0;
    bool wrongId = false;
    connect(&bridge, &SolveBridge::incumbent, this, [&](quint64 id, const SolveResult& r) {
        wrongId |= seenId && id != seenId;
        events.emplace_back("incumbent", r.replay.total_energy_j);
    });
    connect(&bridge, &SolveBridge::finished, this, [&](quint64 id, const SolveResult& r) {
        wrongId |= id != seenId;
        events.emplace_back("finished", r.replay.total_energy_j);
    });
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    // Tight enough to need recomputation or paging on the linear model.
    const Problem p = problemFor("linear", "a72", 0.8, 2.0);
    SolverOptions o;
    o.time_limit_s = 20;
    seenId = bridge.request(p, o);
    QVERIFY(finished.wait(40000));
    QVERIFY(!wrongId);
    QVERIFY(!events.empty());
    QCOMPARE(events.back().first, QStringLiteral("finished"));
    // Each incumbent is no worse than the one before (replayed energies).
    double last = std::numeric_limits<double>::infinity();
    for (const auto& [kind, energy] : events) {
        if (kind != "incumbent") continue;
        QVERIFY2(energy <= last + 1e-9, qPrintable(QStringLiteral("%1 after %2").arg(energy).arg(last)));
        last = energy;
    }
    const auto r = finished.at(0).at(1).value<SolveResult>();
    if (r.schedule) QVERIFY(r.replay.total_energy_j <= last + 1e-9);
}

void TestSolveBridge::cancelStopsQuickly() {
    SolveBridge bridge;
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    QSignalSpy failed(&bridge, &SolveBridge::failed);
    SolverOptions o;
    o.time_limit_s = 120;
    const quint64 id = bridge.request(hardProblem(), o);
    QTest::qWait(300);
    QElapsedTimer clock;
    clock.start();
    bridge.cancel();
    QVERIFY(finished.wait(20000) || finished.count() == 1);
    QVERIFY2(clock.elapsed() < 15000, "a cancelled solve must stop promptly");
    QCOMPARE(failed.count(), 0);
    QCOMPARE(finished.at(0).at(0).value<quint64>(), id);
    const auto r = finished.at(0).at(1).value<SolveResult>();
    QVERIFY2(r.status == SolveStatus::Cancelled || r.status == SolveStatus::Feasible ||
                 r.status == SolveStatus::Optimal || r.status == SolveStatus::Infeasible,
             toString(r.status));
    if (r.status == SolveStatus::Feasible) QVERIFY(r.schedule.has_value());
}

void TestSolveBridge::staleAnswerIsDropped() {
    SolveBridge bridge;
    std::vector<quint64> ids;
    connect(&bridge, &SolveBridge::incumbent, this, [&](quint64 id, const SolveResult&) { ids.push_back(id); });
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    SolverOptions slow;
    slow.time_limit_s = 60;
    const quint64 old = bridge.request(hardProblem(), slow);
    SolverOptions fast;
    fast.time_limit_s = 20;
    const quint64 newer = bridge.request(problemFor("linear", "a72", 1.0, 1.0), fast);
    QVERIFY(newer > old);
    QCOMPARE(bridge.latestRequestId(), newer);
    QVERIFY(finished.wait(40000));
    // Give the cancelled older solve time to wind down and post its answer.
    QElapsedTimer clock;
    clock.start();
    while (bridge.runningWorkers() > 0 && clock.elapsed() < 20000) QTest::qWait(50);
    QTest::qWait(200);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).value<quint64>(), newer);
    QCOMPARE(finished.at(0).at(1).value<SolveResult>().schedule->size(),
             loadTrainingGraph(catalog(), "linear", "a72").size());
    for (quint64 id : ids) QCOMPARE(id, newer);
}

void TestSolveBridge::discardForgetsTheRequest() {
    SolveBridge bridge;
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    QSignalSpy incumbent(&bridge, &SolveBridge::incumbent);
    SolverOptions o;
    o.time_limit_s = 20;
    bridge.request(problemFor("linear", "a72", 1.0, 1.0), o);
    bridge.discard();
    QVERIFY(!bridge.isBusy());
    QElapsedTimer clock;
    clock.start();
    while (bridge.runningWorkers() > 0 && clock.elapsed() < 20000) QTest::qWait(50);
    QTest::qWait(200);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(incumbent.count(), 0);
}

// After a slider move to a tighter runtime budget, the solve starts from
// the bound the looser solve proved (proven_bound.h): at 737,719 B the 1.5x
// schedule runs in 1.005x, so with that bound it is proven at 1.2x at once.
void TestSolveBridge::tighterBudgetStartsFromTheLooserBound() {
    SolveBridge bridge;
    QSignalSpy finished(&bridge, &SolveBridge::finished);
    SolverOptions o;
    o.time_limit_s = 30;
    o.relative_gap = 0.005;
    Problem p = hardProblem();
    bridge.request(p, o);
    QVERIFY(finished.wait(60000));
    const auto loose = finished.at(0).at(1).value<SolveResult>();
    QCOMPARE(loose.status, SolveStatus::Optimal);
    p.runtime_budget_factor = 1.2;
    bridge.request(p, o);
    QVERIFY(finished.wait(60000));
    const auto tight = finished.at(1).at(1).value<SolveResult>();
    QCOMPARE(tight.status, SolveStatus::Optimal);
    QVERIFY2(tight.message.rfind("the bound proven at 737719 B and 1.5x", 0) == 0, tight.message.c_str());
    QCOMPARE(tight.best_bound_j, loose.best_bound_j);
}

QTEST_MAIN(TestSolveBridge)
#include "tst_solve_bridge.moc"
