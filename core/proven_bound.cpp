#include "proven_bound.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "problem_key.h"

namespace poet {

namespace {

std::string graphKey(const Graph& g)
{
    Fnv1a h;
    hashGraph(h, g);
    return h.hex();
}

// holdsFor, with `graph_key` the problem's graph's.
bool holdsForGraphKey(const ProvenBound& bound, const Problem& problem, const std::string& graph_key)
{
    return bound.ram_budget_bytes >= problem.ram_budget_bytes &&
           bound.runtime_budget_factor >= problem.runtime_budget_factor &&
           (bound.options.paging || !problem.options.paging) && (bound.options.remat || !problem.options.remat) &&
           bound.graph_key == graph_key;
}

}  // namespace

ProvenBound provenBoundOf(const Problem& problem, double bound_j)
{
    return {graphKey(problem.graph), problem.ram_budget_bytes, problem.runtime_budget_factor, problem.options,
            bound_j};
}

void keepProvenBound(std::vector<ProvenBound>& bounds, const Problem& problem, double bound_j)
{
    keepProvenBound(bounds, provenBoundOf(problem, bound_j));
}

void keepProvenBound(std::vector<ProvenBound>& bounds, ProvenBound bound)
{
    if (std::isfinite(bound.bound_j) && bound.bound_j > 0) bounds.push_back(std::move(bound));
}

bool holdsFor(const ProvenBound& bound, const Problem& problem)
{
    return holdsForGraphKey(bound, problem, graphKey(problem.graph));
}

std::optional<ProvenBound> strongestBoundFor(const std::vector<ProvenBound>& bounds, const Problem& problem)
{
    const std::string graph_key = graphKey(problem.graph);  // once, not per bound
    std::optional<ProvenBound> best;
    for (const ProvenBound& b : bounds)
        if ((!best || b.bound_j > best->bound_j) && holdsForGraphKey(b, problem, graph_key)) best = b;
    return best;
}

std::string provenBoundName(const ProvenBound& bound)
{
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.4g", bound.runtime_budget_factor);
    return "the bound proven at " + std::to_string(bound.ram_budget_bytes) + " B and " + factor + "x";
}

}  // namespace poet
