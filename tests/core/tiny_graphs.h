#pragma once
// Hand-built graphs whose optima are worked out by hand in the comments.
#include "graph.h"
#include "problem.h"

namespace poet::test {

// X -> Y -> Z -> W, and W also reads X (a long-lived activation, like a
// forward value the backward pass needs). Sizes X, Y, Z = 4 B, W = 1 B; each
// node costs 1 J and 1 s to compute.
//
// Plain pass: stage 2 holds X, Y and Z: peak 12 B. Computing W needs
// X + Z + W = 9 B, so 9 B is the smallest budget. At 9 B, X cannot wait in RAM
// through stage 2, so the schedule either
//  - recomputes X at stage 3 (+1 J, +1 s): 5 J, needs runtime factor >= 1.25;
//  - or pages X out at stage 1 and in at stage 2: 4 J + Φout + Φin.
inline Graph longSkipGraph(double pageout_j, double pagein_j)
{
    std::vector<Node> nodes(4);
    const char* names[] = {"X", "Y", "Z", "W"};
    for (int i = 0; i < 4; ++i) {
        nodes[i].name = names[i];
        nodes[i].type = "test";
        nodes[i].memory_bytes = i == 3 ? 1 : 4;
        nodes[i].compute_energy_j = 1;
        nodes[i].compute_time_s = 1;
        nodes[i].pageout_energy_j = pageout_j;
        nodes[i].pagein_energy_j = pagein_j;
    }
    return Graph(nodes, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
}

inline Problem problemOf(Graph g, std::int64_t ram, double runtime_factor, bool paging, bool remat)
{
    Problem p;
    p.graph = std::move(g);
    p.model = "test";
    p.platform = "test";
    p.ram_budget_bytes = ram;
    p.runtime_budget_factor = runtime_factor;
    p.options.paging = paging;
    p.options.remat = remat;
    return p;
}

}  // namespace poet::test
