#pragma once
// Everything that defines one POET problem: the graph and the budgets and
// switches. Two problems with equal fields have the same optimum.
#include <cstdint>
#include <string>

#include "graph.h"

namespace poet {

struct ProblemOptions {
    bool paging = true;
    bool remat = true;
};

struct Problem {
    Graph graph;
    std::string model;     // names, for reports and exports
    std::string platform;
    int batch_size = 1;
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 1.0;  // multiple of one plain pass's compute time
    ProblemOptions options;

    double runtimeBudgetSeconds() const { return runtime_budget_factor * graph.totalComputeTime(); }
    // What the runtime budget leaves for recomputations beyond one plain
    // pass (negative below 1x).
    double spareRuntimeSeconds() const { return (runtime_budget_factor - 1.0) * graph.totalComputeTime(); }
};

// Runtime factors just above 1 (up to 1.005x): the spare time fits only
// recomputations that take a good part of it, so the runtime row binds,
// and couples the stages' choices (resnet18_cifar on m4 at 20% of its peak
// and 1.002x: 0.099 s spare, against 0.27 s of recomputations in the 1.01x
// optimum, conv1's 0.14 s among them). The solver treats this region apart
// (plan_search.h, solver.cpp).
inline bool spareTimeIsScarce(const Problem& p)
{
    return p.options.remat && p.runtime_budget_factor > 1 && p.runtime_budget_factor <= 1.005;
}

// Runtime factors up to 1.03x: the spare time fits few recomputations, so
// the bucket bound's long tails (bucket_bound.h), whose runtime row then
// prunes most of their choices, are solved where at looser factors they
// are not (resnet18_cifar on m4 at 16%: the last 18 stages prove the gap
// alone in 4.7 to 10 s on one core at 1.03x, in 11 s at 1.02x; at 1.05x
// the last 19 in 24 to 28 s of a 30 s solve; at 19 to 21% and 1.5x none
// is done in 30 s).
inline bool spareTimeIsShort(const Problem& p)
{
    return p.options.remat && p.runtime_budget_factor > 1 && p.runtime_budget_factor <= 1.03;
}

}  // namespace poet
