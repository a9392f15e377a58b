#pragma once
// Turns a network and a platform into the cost-annotated training graph, the
// way the POET reference does: forward layers, then one gradient node per
// consecutive layer pair from the last pair to the first.
#include "graph.h"
#include "network.h"
#include "platform.h"

namespace poet {

Graph buildTrainingGraph(const Network& net, const Platform& platform);

}  // namespace poet
