#include "bound_schedule.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "graph.h"
#include "plan_search.h"

namespace poet {

BoolMatrix computePlanFromBound(const Graph& g, const std::vector<BoundRecomputation>& recomputations)
{
    const int n = g.size();
    BoolMatrix R = plainSchedule(g).R;
    auto costs = [&](const BoundRecomputation& r) { return r.value >= 0 && g.node(r.value).compute_time_s > 0; };
    for (const auto& r : recomputations)
        if (costs(r) && r.value < r.stage && r.stage < n) R.set(r.stage, r.value);
    for (const auto& r : recomputations) {
        if (!costs(r) || r.stage < n) continue;
        const auto& readers = g.successors(r.value);
        for (int stage = std::max(r.after + 1, r.value + 1); stage < n; ++stage)
            if (std::any_of(readers.begin(), readers.end(), [&](int v) { return v < stage && R(stage, v); })) {
                R.set(stage, r.value);
                break;
            }
    }
    // An input recomputed in a later stage than its reader's recomputation
    // comes forward to the reader's stage (and its own inputs after it).
    std::function<void(int, int)> bringInputsForward = [&](int value, int stage) {
        for (int u : g.predecessors(value))
            for (int later = stage + 1; later < n; ++later)
                if (R(later, u)) {
                    R.set(later, u, false);
                    R.set(stage, u);
                    bringInputsForward(u, stage);
                    break;
                }
    };
    for (int stage = 0; stage < n; ++stage)
        for (int value = 0; value < stage; ++value)
            if (R(stage, value)) bringInputsForward(value, stage);
    return R;
}

std::optional<Schedule> scheduleFromBound(const Problem& problem, const std::vector<BoundRecomputation>& recomputations,
                                          Clock::time_point deadline, const std::atomic<bool>* cancel)
{
    if (recomputations.empty()) return std::nullopt;
    auto paged = pagedExactly(problem, computePlanFromBound(problem.graph, recomputations), deadline, cancel);
    if (!paged) return std::nullopt;
    return std::move(paged->schedule);
}

}  // namespace poet
