#include "graph.h"

#include <algorithm>
#include <stdexcept>

#include "list_text.h"

namespace poet {

Graph::Graph(std::vector<Node> nodes, std::vector<std::pair<int, int>> edges) : nodes_(std::move(nodes))
{
    const int n = size();
    for (const auto& [u, v] : edges) {
        if (u < 0 || v >= n || u >= v)
            throw std::invalid_argument("edge (" + std::to_string(u) + ", " + std::to_string(v) +
                                        ") does not point forward in the node order");
    }
    // The reference lists the loss -> first gradient edge twice; keep edges unique.
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    edges_ = std::move(edges);
    preds_.assign(n, {});
    succs_.assign(n, {});
    in_edges_.assign(n, {});
    for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
        const auto [u, v] = edges_[e];
        preds_[v].push_back(u);
        in_edges_[v].push_back(e);
        succs_[u].push_back(v);
    }
    for (auto& s : succs_) std::sort(s.begin(), s.end());
    for (const auto& node : nodes_) {  // in node order, as they were summed on each call
        total_compute_time_s_ += node.compute_time_s;
        total_compute_energy_j_ += node.compute_energy_j;
    }
}

int Graph::edgeIndex(int u, int v) const
{
    const auto& p = preds_[v];
    const auto it = std::lower_bound(p.begin(), p.end(), u);
    if (it == p.end() || *it != u) return -1;
    return in_edges_[v][it - p.begin()];
}

std::string Graph::inputLabels(int i) const
{
    std::vector<std::string> labels;
    for (int u : preds_[i]) labels.push_back(label(u));
    return joinAsList(labels);
}

int Graph::forwardCount() const
{
    int c = 0;
    for (const auto& n : nodes_)
        if (n.kind != NodeKind::Backward) ++c;
    return c;
}

}  // namespace poet
