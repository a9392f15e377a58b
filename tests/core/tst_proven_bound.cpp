// Bounds carried between solves (proven_bound.h): which problems a bound
// holds for, and a solve that starts from a looser budget's bound. On
// recomputeChainGraph at 8 B with paging the optimum is 5.7 J at every
// runtime factor (worked out in tiny_graphs.h: 5 J + page-out 0.3 J +
// page-in 0.4 J; recomputing costs 7 J), so the bound proven at 2x proves
// the 1.5x schedule at once.
#include <QtTest>

#include "proven_bound.h"
#include "solver.h"
#include "tiny_graphs.h"

using namespace poet;

class TestProvenBound : public QObject {
    Q_OBJECT

    static Problem chain(std::int64_t ram, double factor, bool paging = true, bool remat = true)
    {
        return test::problemOf(test::recomputeChainGraph(0.3, 0.4), ram, factor, paging, remat);
    }

private slots:
    void holdsForEveryRestriction()
    {
        const ProvenBound b = provenBoundOf(chain(9, 1.5), 5.7);
        QVERIFY(holdsFor(b, chain(9, 1.5)));
        QVERIFY(holdsFor(b, chain(8, 1.5)));                // less RAM
        QVERIFY(holdsFor(b, chain(9, 1.2)));                // less time
        QVERIFY(holdsFor(b, chain(9, 1.5, false, true)));   // paging forbidden
        QVERIFY(holdsFor(b, chain(9, 1.5, true, false)));   // recomputation forbidden
        QVERIFY(!holdsFor(b, chain(10, 1.5)));              // more RAM
        QVERIFY(!holdsFor(b, chain(9, 1.6)));               // more time
        const ProvenBound no_paging = provenBoundOf(chain(9, 1.5, false, true), 7);
        QVERIFY(!holdsFor(no_paging, chain(9, 1.5)));        // paging allowed here, not there
        QVERIFY(holdsFor(no_paging, chain(8, 1.5, false, true)));
        // Another graph (other page costs): never.
        QVERIFY(!holdsFor(b, test::problemOf(test::recomputeChainGraph(0.3, 0.5), 8, 1.5, true, true)));
    }

    void strongestThatHolds()
    {
        const std::vector<ProvenBound> bounds = {provenBoundOf(chain(9, 2.0), 5.5), provenBoundOf(chain(8, 1.2), 6.5),
                                                 provenBoundOf(chain(10, 1.5), 5.6)};
        const auto best = strongestBoundFor(bounds, chain(8, 1.5));
        QVERIFY(best);
        QCOMPARE(best->bound_j, 5.6);  // 6.5 J is for a tighter runtime budget
        QCOMPARE(provenBoundName(*best), std::string("the bound proven at 10 B and 1.5x"));
        QVERIFY(!strongestBoundFor(bounds, chain(11, 1.5)));
    }

    void solveStartsFromLooserBound()
    {
        SolverOptions options;
        options.time_limit_s = 30;
        const SolveResult loose = solve(chain(8, 2.0), options);
        QCOMPARE(loose.status, SolveStatus::Optimal);
        QVERIFY(std::abs(loose.objective_j - 5.7) < 1e-9);

        options.proven_bounds = {provenBoundOf(chain(8, 2.0), loose.best_bound_j)};
        const SolveResult tight = solve(chain(8, 1.5), options);
        QCOMPARE(tight.status, SolveStatus::Optimal);
        QVERIFY(std::abs(tight.objective_j - 5.7) < 1e-9);
        QCOMPARE(tight.best_bound_j, loose.best_bound_j);
        QVERIFY2(tight.message.rfind("the bound proven at 8 B and 2x", 0) == 0, tight.message.c_str());
        QVERIFY(tight.replay.valid);

        // A bound for a looser problem than this one proves nothing here.
        options.proven_bounds = {provenBoundOf(chain(8, 1.2), loose.best_bound_j)};
        const SolveResult other = solve(chain(8, 1.5), options);
        QCOMPARE(other.status, SolveStatus::Optimal);
        QVERIFY2(other.message.find("the bound proven at") == std::string::npos, other.message.c_str());
    }

    void boundAboveTheScheduleIsIgnored()
    {
        // A bound above a replayed schedule's energy is a fault, never a proof.
        SolverOptions options;
        options.time_limit_s = 30;
        options.proven_bounds = {provenBoundOf(chain(8, 2.0), 6.0)};
        const SolveResult r = solve(chain(8, 1.5), options);
        QCOMPARE(r.status, SolveStatus::Optimal);
        QVERIFY(std::abs(r.objective_j - 5.7) < 1e-9);
        QVERIFY(r.best_bound_j <= r.objective_j);
        QVERIFY2(r.message.find("the bound proven at") == std::string::npos, r.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestProvenBound)
#include "tst_proven_bound.moc"
