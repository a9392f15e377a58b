#pragma once
// Random small problems for differential checks: the whole pipeline against
// formulation.md's Reference build, solved bare (tst_random_agreement, and
// tests/bench/differential for longer runs). A problem is a function of its
// seed alone: draws come from mt19937_64's output, which the standard fixes
// (its distributions it does not), so a seed names the same problem on every
// machine.
#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "graph.h"
#include "problem.h"
#include "problem_loader.h"

namespace poet::test {

struct RandomProblemShape {
    int min_nodes = 4;
    int max_nodes = 10;
    std::int64_t max_bytes = 8;  // sizes 1..max_bytes, a few of them 4 times that
};

struct RandomProblem {
    Problem problem;
    std::string kind;  // "chain", "residual" or "training"
    // The problem in one line: to rebuild it by hand, or paste into a test.
    std::string text() const;
};

class RandomDraws {
public:
    explicit RandomDraws(std::uint64_t seed) : rng_(seed) {}
    int between(int lo, int hi) { return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool chance(double p) { return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p; }
    template <typename T>
    const T& pick(const std::vector<T>& from) { return from[rng_() % from.size()]; }

private:
    std::mt19937_64 rng_;
};

// Costs are multiples of 0.05 (J or s), some of them zero: ties and free
// nodes are where bounds and dominance rules go wrong.
inline Node randomNode(RandomDraws& d, int i, const RandomProblemShape& shape)
{
    Node n;
    n.name = "v" + std::to_string(i);
    n.type = "random";
    n.memory_bytes = d.between(1, static_cast<int>(shape.max_bytes)) * (d.chance(0.1) ? 4 : 1);
    auto cost = [&](int steps) { return d.chance(0.08) ? 0.0 : 0.05 * d.between(1, steps); };
    n.compute_energy_j = cost(60);
    n.compute_time_s = cost(30);
    n.pageout_energy_j = cost(40);
    n.pagein_energy_j = cost(40);
    return n;
}

// Three shapes: a chain with random skip inputs; residual blocks (x, two
// layers, an add reading x); a training graph (a forward chain, the loss,
// gradients each reading the one before and the forward values it mirrors).
inline RandomProblem randomProblem(std::uint64_t seed, const RandomProblemShape& shape = {})
{
    RandomDraws d(seed);
    const int n = d.between(shape.min_nodes, shape.max_nodes);
    std::vector<Node> nodes;
    for (int i = 0; i < n; ++i) nodes.push_back(randomNode(d, i, shape));
    if (d.chance(0.4)) nodes[0].compute_energy_j = nodes[0].compute_time_s = 0;  // a free input
    std::vector<std::pair<int, int>> edges;
    RandomProblem out;
    const int shapeDraw = d.between(0, 2);
    if (shapeDraw == 2 && n >= 5) {
        out.kind = "training";
        const int loss = (n - 1) / 2;
        for (int v = 0; v < n; ++v) nodes[v].kind = v < loss ? NodeKind::Forward : v == loss ? NodeKind::Loss
                                                                                           : NodeKind::Backward;
        for (int v = 1; v < n; ++v) edges.emplace_back(v - 1, v);
        for (int v = loss + 1; v < n; ++v) {
            const int mirror = 2 * loss - v;
            if (mirror >= 0) edges.emplace_back(mirror, v);
            if (mirror >= 1 && d.chance(0.6)) edges.emplace_back(mirror - 1, v);
        }
    } else if (shapeDraw == 1) {
        out.kind = "residual";
        for (int v = 1; v < n; ++v) edges.emplace_back(v - 1, v);
        for (int x = 0; x + 3 < n; x += 3) edges.emplace_back(x, x + 3);
    } else {
        out.kind = "chain";
        for (int v = 1; v < n; ++v) {
            if (d.chance(0.85)) edges.emplace_back(v - 1, v);
            for (int extra = d.chance(0.45) ? d.between(1, 2) : 0; extra > 0; --extra)
                edges.emplace_back(d.between(0, v - 1), v);
        }
    }
    // A node read far ahead: the activations POET pages or recomputes.
    if (n >= 6 && d.chance(0.5)) edges.emplace_back(d.between(0, n / 3), d.between(2 * n / 3, n - 1));
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    edges.erase(std::remove_if(edges.begin(), edges.end(), [](auto e) { return e.first >= e.second; }), edges.end());

    Problem& p = out.problem;
    p.graph = Graph(std::move(nodes), std::move(edges));
    p.model = "random-" + std::to_string(seed);
    p.platform = "random";
    const auto lowest = static_cast<int>(minimumFeasibleBudgetLowerBound(p.graph));
    const auto peak = static_cast<int>(plainPassPeakBytes(p.graph));
    // Most budgets in between; some just under the smallest that could fit,
    // some at the peak (nothing to save).
    const int where = d.between(0, 9);
    p.ram_budget_bytes = where == 0 ? std::max(1, lowest - d.between(1, 2))
                         : where == 1 ? peak
                                      : d.between(lowest, std::max(lowest, peak - 1));
    p.runtime_budget_factor = d.pick(std::vector<double>{1.0, 1.001, 1.05, 1.3, 2.0});
    p.options.paging = d.chance(0.7);
    p.options.remat = d.chance(0.8);
    return out;
}

inline std::string RandomProblem::text() const
{
    const Graph& g = problem.graph;
    std::ostringstream s;
    s << kind << ", " << g.size() << " nodes, RAM " << problem.ram_budget_bytes << " B, runtime "
      << problem.runtime_budget_factor << "x, paging " << problem.options.paging << ", remat "
      << problem.options.remat << "; (bytes, compute J, compute s, out J, in J):";
    for (const Node& n : g.nodes())
        s << " (" << n.memory_bytes << ", " << n.compute_energy_j << ", " << n.compute_time_s << ", "
          << n.pageout_energy_j << ", " << n.pagein_energy_j << ")";
    s << "; edges:";
    for (auto [u, v] : g.edges()) s << " " << u << ">" << v;
    return s.str();
}

}  // namespace poet::test
