#pragma once
// A hand-built 6-node training graph and a schedule that uses every heatmap
// category, and a problem and solve result built from them, for the UI tests.
//
//   0 input -> 1 a -> 2 b -> 3 loss -> 4 grad b -> 5 grad a
//   edges: (0,1) (1,2) (2,3) (2,4) (3,4) (0,5) (1,5) (4,5)
//
// Expected cells (node, stage):
//   node 0: t0 computed, t1 in RAM, t2..t4 absent, t5 recomputed
//   node 1: t1 computed, t2 paged out, t3 on flash, t4 paged in, t5 in RAM and on flash
//   node 2: t2 computed, t3-t4 in RAM;  node 3: t3 computed, t4 in RAM
//   node 4: t4 computed, t5 in RAM;     node 5: t5 computed
#include "graph.h"
#include "problem.h"
#include "replay.h"
#include "schedule.h"
#include "solve_result.h"

namespace uitest {

inline poet::Graph tinyGraph() {
    using poet::NodeKind;
    std::vector<poet::Node> nodes;
    auto add = [&](const char* name, const char* type, NodeKind kind) {
        poet::Node n;
        n.name = name;
        n.type = type;
        n.kind = kind;
        n.memory_bytes = 1000 * static_cast<std::int64_t>(nodes.size() + 1);
        n.compute_energy_j = 0.5;
        n.compute_time_s = 0.01;
        n.pagein_energy_j = 0.05;
        n.pageout_energy_j = 0.07;
        nodes.push_back(n);
    };
    add("input", "input", NodeKind::Forward);
    add("a", "linear", NodeKind::Forward);
    add("b", "relu", NodeKind::Forward);
    add("loss", "cross_entropy", NodeKind::Loss);
    add("grad b", "gradient", NodeKind::Backward);
    add("grad a", "gradient", NodeKind::Backward);
    return poet::Graph(nodes, {{0, 1}, {1, 2}, {2, 3}, {2, 4}, {3, 4}, {0, 5}, {1, 5}, {4, 5}});
}

inline poet::Schedule tinySchedule() {
    poet::Schedule s(6);
    for (int t = 0; t < 6; ++t) s.R.set(t, t);
    s.S_RAM.set(1, 0);
    s.R.set(5, 0);
    s.S_RAM.set(2, 1);
    s.M_out.set(2, 1);
    s.S_SD.set(3, 1);
    s.S_SD.set(4, 1);
    s.S_SD.set(5, 1);
    s.M_in.set(4, 1);
    s.S_RAM.set(5, 1);
    s.S_RAM.set(3, 2);
    s.S_RAM.set(4, 2);
    s.S_RAM.set(4, 3);
    s.S_RAM.set(5, 4);
    return s;
}

// tinyGraph at a 20,000 B budget (every value fits).
inline poet::Problem tinyProblem() {
    poet::Problem p;
    p.graph = tinyGraph();
    p.ram_budget_bytes = 20000;
    return p;
}

// tinySchedule as a solve result with `status`, its figures from the replay.
inline poet::SolveResult tinyResult(const poet::Problem& p, poet::SolveStatus status) {
    poet::SolveResult r;
    r.status = status;
    r.schedule = tinySchedule();
    r.replay = poet::replaySchedule(p.graph, *r.schedule);
    return r;
}

}  // namespace uitest
