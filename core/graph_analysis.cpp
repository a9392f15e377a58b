#include "graph_analysis.h"

#include <algorithm>
#include <functional>

namespace poet {

int forwardEnd(const Graph& g) {
    int f = 0;
    while (f < g.size() && g.node(f).kind != NodeKind::Backward) ++f;
    return f;
}

std::vector<int> forwardArticulationPoints(const Graph& g) {
    const int n = forwardEnd(g);
    std::vector<std::vector<int>> adj(n);
    for (const auto& [u, v] : g.edges()) {
        if (u < n && v < n) {
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
    }
    std::vector<int> disc(n, -1), low(n, 0), parent(n, -1);
    std::vector<char> is_ap(n, 0);
    int timer = 0;
    // Iterative DFS (graphs can be a few hundred nodes deep).
    for (int root = 0; root < n; ++root) {
        if (disc[root] >= 0) continue;
        struct Frame { int v; std::size_t next; };
        std::vector<Frame> stack{{root, 0}};
        disc[root] = low[root] = timer++;
        int root_children = 0;
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next < adj[f.v].size()) {
                const int w = adj[f.v][f.next++];
                if (disc[w] < 0) {
                    parent[w] = f.v;
                    disc[w] = low[w] = timer++;
                    if (f.v == root) ++root_children;
                    stack.push_back({w, 0});
                } else if (w != parent[f.v]) {
                    low[f.v] = std::min(low[f.v], disc[w]);
                }
            } else {
                const int v = f.v;
                stack.pop_back();
                if (!stack.empty()) {
                    const int p = stack.back().v;
                    low[p] = std::min(low[p], low[v]);
                    if (p != root && low[v] >= disc[p]) is_ap[p] = 1;
                }
            }
        }
        if (root_children > 1) is_ap[root] = 1;
    }
    std::vector<int> out;
    for (int v = 0; v < n; ++v)
        if (is_ap[v]) out.push_back(v);
    return out;
}

std::vector<int> checkpointCandidates(const Graph& g) {
    const int n = forwardEnd(g);
    // reach[v] = the furthest forward node read by any forward node up to v
    // jumping from before v: an edge (u, w) with u < v < w exists iff the max
    // successor index over u < v exceeds v.
    std::vector<int> max_succ_before(n + 1, -1);
    int running = -1;
    for (int v = 0; v < n; ++v) {
        max_succ_before[v] = running;  // over u < v
        for (int w : g.successors(v))
            if (w < n) running = std::max(running, w);
    }
    std::vector<int> aps = forwardArticulationPoints(g);
    std::vector<int> out;
    for (int v : aps)
        if (max_succ_before[v] <= v) out.push_back(v);
    return out;
}

bool isForwardChain(const Graph& g) {
    const int n = forwardEnd(g);
    for (int v = 1; v < n; ++v) {
        const auto& p = g.predecessors(v);
        if (p.size() != 1 || p[0] != v - 1) return false;
    }
    return n > 0 && g.predecessors(0).empty();
}

}  // namespace poet
