#pragma once
// Structural helpers over a Graph used by the baselines: the forward part,
// articulation points, the nodes where a forward pass can be cut in two, and
// simple RAM lower bounds.
#include <cstdint>
#include <vector>

#include "graph.h"

namespace poet {

// Number of forward nodes (loss included): nodes 0..forwardEnd(g)-1.
int forwardEnd(const Graph& g);

// Articulation points (cut vertices) of the forward subgraph taken as an
// undirected graph (Tarjan / Hopcroft), ascending.
std::vector<int> forwardArticulationPoints(const Graph& g);

// Forward nodes v that cut the forward pass in topological order: no forward
// edge (u, w) with u < v < w jumps over v, so every later forward node reads
// only v and nodes after it. Articulation points that are also order cuts are
// the candidates for checkpoints (Chen et al.); ascending.
std::vector<int> checkpointCandidates(const Graph& g);

// True when the forward part is a chain: node i > 0 reads exactly node i-1.
bool isForwardChain(const Graph& g);

}  // namespace poet
