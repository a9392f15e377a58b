#include "problem_loader.h"

#include <algorithm>

#include "cost_model.h"
#include "replay.h"

namespace poet {

Graph loadTrainingGraph(const ProfileCatalog& catalog, const std::string& model, const std::string& platform,
                        int batch_size)
{
    return loadProblemGraph(catalog, model, platform, batch_size).graph;
}

Problem loadProblemGraph(const ProfileCatalog& catalog, const std::string& model, const std::string& platform,
                         int batch_size)
{
    const Network net = loadNetwork(catalog.modelFile(model), batch_size);
    Problem p;
    p.graph = buildTrainingGraph(net, loadPlatform(catalog.platformFile(platform)));
    p.model = model;
    p.platform = platform;
    p.batch_size = net.batch_size;
    return p;
}

std::int64_t plainPassPeakBytes(const Graph& g)
{
    return replaySchedule(g, plainSchedule(g)).peak_ram_bytes;
}

std::int64_t minimumFeasibleBudgetLowerBound(const Graph& g)
{
    std::int64_t best = 0;
    for (int k = 0; k < g.size(); ++k) {
        std::int64_t need = g.node(k).memory_bytes;
        for (int u : g.predecessors(k)) need += g.node(u).memory_bytes;
        best = std::max(best, need);
    }
    return best;
}

std::int64_t minimumFeasibleBudgetLowerBound(const Problem& p)
{
    if (!p.options.paging && !p.options.remat) return plainPassPeakBytes(p.graph);
    return minimumFeasibleBudgetLowerBound(p.graph);
}

}  // namespace poet
