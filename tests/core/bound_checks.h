#pragma once
// Checking a lower bound against exact optima on small problems
// (tst_stage_bound, tst_arrival_bound).
#include <QtTest>
#include <cstdint>
#include <filesystem>

#include "exact_solve.h"
#include "problem_loader.h"
#include "stage_bound.h"
#include "tiny_graphs.h"

namespace poet::test {

// Every byte budget from `from` to g's plain-pass peak (every second one
// without paging), with paging on and off, at runtime factors 1.0, 1.3 and
// 2.0: `check(problem, ref)` gets each one with its exact solve under
// formulation.md's reference build.
template <class Check>
void forEachSmallProblem(const Graph& g, std::int64_t from, Check check)
{
    const std::int64_t peak = plainPassPeakBytes(g);
    for (bool paging : {true, false})
        for (double factor : {1.0, 1.3, 2.0})
            for (std::int64_t ram = from; ram <= peak; ram += paging ? 1 : 2) {
                const Problem p = problemOf(g, ram, factor, paging, true);
                check(p, solveExactly(p, FormulationVariant::Reference));
            }
}

// resnet18_cifar on `platform` at `ram` bytes and `factor`: the bounds' real cases.
inline Problem resnet18Cifar(std::int64_t ram, double factor, const std::string& platform = "m4")
{
    Problem p =
        problemOf(loadTrainingGraph(ProfileCatalog::standard(), "resnet18_cifar", platform), ram, factor, true, true);
    p.model = "resnet18_cifar";
    p.platform = platform;
    return p;
}

// The test profiles (tests/data/profiles), then the bundled ones.
inline ProfileCatalog testProfiles()
{
    return ProfileCatalog(
        {std::filesystem::path(POET_TEST_DATA_DIR) / "profiles", std::filesystem::path(POET_PROFILES_DIR)});
}

// bert with three encoder blocks (a test profile) on m4 at bert's 9%
// (34,540,093 B) and 1.5x: its best schedule (26.836307 J) is optimal, and
// the checkpoint bound is 0.13% under it.
inline Problem bertThreeBlocks()
{
    Problem p = problemOf(loadTrainingGraph(testProfiles(), "bert_three_blocks", "m4"), 34'540'093, 1.5, true, true);
    p.model = "bert_three_blocks";
    p.platform = "m4";
    return p;
}

inline QString describe(const Problem& p)
{
    return QStringLiteral("%1 B, %2x, paging %3")
        .arg(p.ram_budget_bytes)
        .arg(p.runtime_budget_factor)
        .arg(p.options.paging);
}

// `ref` solved to optimality, and `bound_j` not above its optimum.
inline void verifyBelowOptimum(double bound_j, const SolveResult& ref, const QString& where)
{
    QVERIFY2(ref.status == SolveStatus::Optimal, qPrintable(where + ": " + toString(ref.status)));
    const double optimum = ref.replay.total_energy_j;
    QVERIFY2(bound_j <= optimum * (1 + 1e-9), qPrintable(where + QStringLiteral(": bound %1 > optimum %2")
                                                                   .arg(bound_j, 0, 'g', 12)
                                                                   .arg(optimum, 0, 'g', 12)));
}

// The two chains the bounds' tests run on: uneven costs, and every odd node cheap.
inline void chainRows()
{
    QTest::addColumn<bool>("cheap_odd");
    QTest::newRow("uneven chain") << false;
    QTest::newRow("cheap odd nodes") << true;
}

// Over the problems where a bound holding every stage's peak (checkpoint,
// bucket) was compared: never below the stage-peak bound (each stage's MILP
// is a relaxation of it), how often above it, and how often it meets the
// optimum.
struct AboveTheStagePeak {
    int compared = 0, above_peak = 0, met = 0;
    void add(double bound_j, const Problem& p, const SolveResult& ref)
    {
        ++compared;
        const StageBound s = stagePeakBound(p, 10);
        QVERIFY2(bound_j >= s.bound_j * (1 - 1e-9), qPrintable(describe(p)));
        if (bound_j > s.bound_j * (1 + 1e-9)) ++above_peak;
        if (bound_j >= ref.replay.total_energy_j * (1 - 1e-9)) ++met;
    }
    void report() const { qInfo("%d compared, %d above the stage peak, %d met", compared, above_peak, met); }
};

// What a bound (a StageBound or an ArrivalBound) said on one small problem,
// checked against the exact solve: a proof that no schedule exists must
// agree with it (Proof); else the bound was solved exactly and is no higher
// than the optimum (Compared); or formulation.md finds no schedule where the
// bound saw none (Unseen: a relaxation need not see every infeasibility).
enum class Verdict { Proof, Compared, Unseen };

// forEachSmallProblem with `boundOf(problem)` checked as above, and
// `count(verdict, bound, problem, ref)` for the caller's tallies.
template <class BoundOf, class Count>
void checkBoundOnEverySmallProblem(const Graph& g, std::int64_t from, BoundOf boundOf, Count count)
{
    forEachSmallProblem(g, from, [&](const Problem& p, const SolveResult& ref) {
        const auto b = boundOf(p);
        const QString where = describe(p);
        if (b.infeasible) {
            QVERIFY2(ref.status == SolveStatus::Infeasible, qPrintable(where));
            count(Verdict::Proof, b, p, ref);
            return;
        }
        QVERIFY2(b.complete, qPrintable(where));
        if (ref.status == SolveStatus::Infeasible) {
            count(Verdict::Unseen, b, p, ref);
            return;
        }
        verifyBelowOptimum(b.bound_j, ref, where);
        count(Verdict::Compared, b, p, ref);
    });
}

}  // namespace poet::test
