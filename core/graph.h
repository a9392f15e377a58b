#pragma once
// The cost-annotated graph the formulation schedules: T nodes in a fixed
// topological order 0..T-1 (forward layers, the loss, then gradient nodes),
// unique edges (u, v) meaning v reads u's output.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace poet {

enum class NodeKind { Forward, Loss, Backward };

struct Node {
    std::string name;
    std::string type;             // layer type, or "gradient"
    NodeKind kind = NodeKind::Forward;
    std::int64_t memory_bytes = 0;       // m_i: output size
    double compute_energy_j = 0;         // Φc_i
    double compute_time_s = 0;           // τ_i
    double pagein_energy_j = 0;          // Φin_i
    double pageout_energy_j = 0;         // Φout_i
    double param_bytes = 0;              // parameters (for the stricter option)

    // Producing it takes no time and no energy (the input batch): its
    // recomputations are free, and freeing it saves no effort to undo.
    bool costsNothing() const { return compute_time_s == 0 && compute_energy_j == 0; }
};

class Graph {
public:
    Graph() = default;
    // Edges are de-duplicated and must point forward (u < v); throws otherwise.
    Graph(std::vector<Node> nodes, std::vector<std::pair<int, int>> edges);

    int size() const { return static_cast<int>(nodes_.size()); }
    const Node& node(int i) const { return nodes_[i]; }
    const std::vector<Node>& nodes() const { return nodes_; }
    // How text names node i: its name, or "node i" where it has none.
    std::string label(int i) const { return nodes_[i].name.empty() ? "node " + std::to_string(i) : nodes_[i].name; }
    // Node i's inputs by label, as a list in running text ("a, b and c").
    std::string inputLabels(int i) const;
    const std::vector<std::pair<int, int>>& edges() const { return edges_; }  // sorted by (v, u)
    const std::vector<int>& predecessors(int v) const { return preds_[v]; }  // ascending
    const std::vector<int>& successors(int u) const { return succs_[u]; }    // ascending
    // Index into edges() of each edge entering v, parallel to predecessors(v).
    const std::vector<int>& inEdges(int v) const { return in_edges_[v]; }
    int edgeIndex(int u, int v) const;  // -1 when absent

    // Summed once, when the graph is built: the plans and formulations ask
    // for the spare time per value and per cell (a 771-node graph's paging
    // plan spent 13% of its build summing τ).
    double totalComputeTime() const { return total_compute_time_s_; }     // Σ τ_i, one plain pass
    double totalComputeEnergy() const { return total_compute_energy_j_; }  // Σ Φc_i
    int forwardCount() const;             // nodes before the first backward node (loss included)

private:
    std::vector<Node> nodes_;
    std::vector<std::pair<int, int>> edges_;
    std::vector<std::vector<int>> preds_, succs_, in_edges_;
    double total_compute_time_s_ = 0, total_compute_energy_j_ = 0;
};

}  // namespace poet
