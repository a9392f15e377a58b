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
};

}  // namespace poet
