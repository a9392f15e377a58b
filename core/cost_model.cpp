#include "cost_model.h"

#include <stdexcept>

namespace poet {

namespace {

double elementCount(const std::vector<std::int64_t>& shape)
{
    double n = 1;
    for (auto d : shape) n *= static_cast<double>(d);
    return n;
}

// The reference's per-layer cost model (power_computation.py).
void setCosts(Node& node, double flop, const std::vector<std::int64_t>& shape, const Platform& p)
{
    node.memory_bytes = static_cast<std::int64_t>(elementCount(shape)) * p.dtype_bytes;
    const double m = static_cast<double>(node.memory_bytes);
    node.compute_energy_j = flop / p.flop_per_joule;
    node.compute_time_s = flop / p.flop_per_second;
    node.pagein_energy_j = (p.pagein_latency_s + m / p.pagein_throughput_bytes_per_s) * p.memory_power_w;
    node.pageout_energy_j = (p.pageout_latency_s + m / p.pageout_throughput_bytes_per_s) * p.memory_power_w;
}

}  // namespace

Graph buildTrainingGraph(const Network& net, const Platform& platform)
{
    const auto& layers = net.layers;
    const int n = static_cast<int>(layers.size());
    if (n < 2) throw std::invalid_argument(net.file + ": a network needs at least an input and a loss layer");

    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    nodes.reserve(2 * n - 1);
    for (int i = 0; i < n; ++i) {
        const Layer& l = layers[i];
        Node node;
        node.name = l.name;
        node.type = l.type;
        node.kind = i == n - 1 ? NodeKind::Loss : NodeKind::Forward;
        node.param_bytes = l.param_count * platform.dtype_bytes;
        setCosts(node, l.flop, l.out_shape, platform);
        nodes.push_back(node);
        for (int in : l.inputs) edges.emplace_back(in, i);
    }
    // Backward, as the reference builds it: for each consecutive pair (L_k, L_k+1)
    // from the last to the first, a gradient node reading L_k, L_k+1 and the
    // gradient before it (the loss for the first). Output shape L_k+1's, flop 2 x L_k's.
    int previous = n - 1;
    for (int k = n - 2; k >= 0; --k) {
        Node node;
        node.name = "grad " + layers[k].name;
        node.type = "gradient";
        node.kind = NodeKind::Backward;
        setCosts(node, 2 * layers[k].flop, layers[k + 1].out_shape, platform);
        const int id = static_cast<int>(nodes.size());
        nodes.push_back(node);
        edges.emplace_back(k, id);
        edges.emplace_back(k + 1, id);
        edges.emplace_back(previous, id);
        previous = id;
    }
    return Graph(std::move(nodes), std::move(edges));
}

}  // namespace poet
