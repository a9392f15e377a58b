#pragma once
// Checking a lower bound against exact optima on small problems
// (tst_stage_bound, tst_arrival_bound).
#include <QtTest>
#include <cstdint>

#include "exact_solve.h"
#include "problem_loader.h"
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

// resnet18_cifar on m4 at `ram` bytes and `factor`: the bounds' real cases.
inline Problem resnet18Cifar(std::int64_t ram, double factor)
{
    Problem p = problemOf(loadTrainingGraph(ProfileCatalog::standard(), "resnet18_cifar", "m4"), ram, factor, true, true);
    p.model = "resnet18_cifar";
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

}  // namespace poet::test
