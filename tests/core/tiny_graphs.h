#pragma once
// Hand-built graphs for the core tests; where an optimum is worked out by
// hand, the comment says so.
#include <string>
#include <vector>

#include "graph.h"
#include "problem.h"

namespace poet::test {

// Nodes named `names` with `sizes` bytes, each costing 1 J and 1 s to compute.
inline std::vector<Node> unitCostNodes(const std::vector<std::string>& names, const std::vector<std::int64_t>& sizes,
                                       double pageout_j, double pagein_j)
{
    std::vector<Node> nodes(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        nodes[i].name = names[i];
        nodes[i].type = "test";
        nodes[i].memory_bytes = sizes[i];
        nodes[i].compute_energy_j = 1;
        nodes[i].compute_time_s = 1;
        nodes[i].pageout_energy_j = pageout_j;
        nodes[i].pagein_energy_j = pagein_j;
    }
    return nodes;
}

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
    return Graph(unitCostNodes({"X", "Y", "Z", "W"}, {4, 4, 4, 1}, pageout_j, pagein_j),
                 {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
}

// A -> X -> Y -> Z -> W, and W also reads X: longSkipGraph with X computed
// from A. Sizes A, W = 1 B, X = 3 B, Y, Z = 4 B; each node costs 1 J and 1 s.
// Worked out by hand: at 8 B, Y and Z fill RAM while Z runs, so neither X
// nor A can be there. Without paging X is recomputed for W, from A, which
// is recomputed too (Z + A + X = 8 B): 7 J, which needs 2 s of spare time
// (factor >= 1.4; at 1.2 nothing fits). With paging, X goes to flash and
// back: 5 J + Φout + Φin.
inline Graph recomputeChainGraph(double pageout_j, double pagein_j)
{
    return Graph(unitCostNodes({"A", "X", "Y", "Z", "W"}, {1, 3, 4, 4, 1}, pageout_j, pagein_j),
                 {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {1, 4}});
}

// A -> B -> ... -> I, and E also reads A, I also reads E: two long skips,
// one after the other. Sizes A, B, C = 4 B, D = 1 B, E = 2 B, F, G = 5 B,
// H, I = 1 B; each node costs 1 J and 1 s. Worked out by hand: at 10 B, A
// cannot stay in RAM while C runs (B + C = 8 B), nor E while G runs
// (F + G = 10 B), and each is read later, so each must come back. Paging
// is the cheaper way for both (recomputing E needs D and A, and so the
// chain from A): 9 J + 2 (Φout + Φin). One stage's peak sees only one of
// them; every stage at once sees both. The stage before each reader (D, H)
// has room for the value, so the arrival bound sees neither.
inline Graph twoPeaksGraph(double pageout_j, double pagein_j)
{
    return Graph(unitCostNodes({"A", "B", "C", "D", "E", "F", "G", "H", "I"}, {4, 4, 4, 1, 2, 5, 5, 1, 1},
                               pageout_j, pagein_j),
                 {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {0, 4}, {4, 8}});
}

// Appends node "n<index>" of `bytes`, costing `energy` joules and as many
// seconds; its page costs are a latency and a per-byte part (the training
// graphs below). Returns its index.
inline int addTrainingNode(std::vector<Node>& nodes, std::int64_t bytes, double energy)
{
    Node node;
    node.name = "n" + std::to_string(nodes.size());
    node.type = "test";
    node.memory_bytes = bytes;
    node.compute_energy_j = energy;
    node.compute_time_s = energy;
    node.pageout_energy_j = 0.05 + 0.02 * bytes;
    node.pagein_energy_j = 0.04 + 0.03 * bytes;
    nodes.push_back(node);
    return static_cast<int>(nodes.size()) - 1;
}

// A training graph built as the reference builds one (formulation.md): a
// forward chain with uneven sizes, a loss, and one gradient node per pair of
// consecutive forward nodes that reads both and the gradient before it. Page
// costs are a latency plus a per-byte part, so small values page dearer per
// byte; node 0 is a cost-free input. With `cheap_odd`, odd forward nodes cost
// less to compute than to page in (like batch norms and ReLUs); with a
// `cheap_run` of 2, two of every three do (a batch norm and a ReLU after
// each conv).
inline Graph trainingChain(const std::vector<std::int64_t>& sizes, bool cheap_odd = false, int cheap_run = 1)
{
    const int f = static_cast<int>(sizes.size());
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    auto add = [&](std::int64_t bytes, double energy) { return addTrainingNode(nodes, bytes, energy); };
    add(sizes[0], 0);
    for (int i = 1; i < f; ++i) edges.emplace_back(add(sizes[i], cheap_odd && i % (cheap_run + 1) ? 0.01 : 1.0 + 0.1 * i) - 1, i);
    int grad = add(1, 0.1);  // the loss
    edges.emplace_back(f - 1, grad);
    for (int k = f - 2; k >= 0; --k) {
        const int g = add(sizes[k + 1], 2.0);
        for (int u : {k, k + 1, grad}) edges.emplace_back(u, g);
        grad = g;
    }
    return Graph(nodes, edges);
}

// trainingChain's shape with ResNet's adds: forward nodes 1, 4, ... are
// convs (1 J and more), 2, 5, ... ReLUs and 3, 6, ... adds of the node
// before and the block's input (three back), both cheap (0.01 J); each
// gradient node reads its forward node, that node's inputs and the
// gradient before it. An add recomputed between two backward nodes needs
// its two inputs and itself in RAM at once.
inline Graph trainingResidual(const std::vector<std::int64_t>& sizes)
{
    const int f = static_cast<int>(sizes.size());
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    std::vector<std::vector<int>> inputs(f);
    auto add = [&](std::int64_t bytes, double energy) { return addTrainingNode(nodes, bytes, energy); };
    add(sizes[0], 0);
    for (int i = 1; i < f; ++i) {
        add(sizes[i], i % 3 == 1 ? 1.0 + 0.1 * i : 0.01);
        inputs[i].push_back(i - 1);
        if (i % 3 == 0) inputs[i].push_back(i - 3);
        for (int u : inputs[i]) edges.emplace_back(u, i);
    }
    int grad = add(1, 0.1);  // the loss
    edges.emplace_back(f - 1, grad);
    for (int k = f - 1; k >= 1; --k) {
        const int g = add(sizes[k], 2.0);
        edges.emplace_back(k, g);
        for (int u : inputs[k]) edges.emplace_back(u, g);
        edges.emplace_back(grad, g);
        grad = g;
    }
    return Graph(nodes, edges);
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
