#include "schedule_improvement.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "baselines.h"
#include "heuristic_schedule.h"

namespace poet {

namespace {

// R without the recomputation (t, i) and without the recomputations at t
// that only fed it (recursively).
BoolMatrix withoutRecomputation(const Graph& g, BoolMatrix R, int t, int i)
{
    R.set(t, i, false);
    std::vector<int> dropped{i};
    while (!dropped.empty()) {
        const int v = dropped.back();
        dropped.pop_back();
        for (int u : g.predecessors(v)) {
            if (u == t || !R(t, u)) continue;
            bool read_at_t = false;
            for (int w : g.successors(u))
                if (w <= t && R(t, w)) { read_at_t = true; break; }
            if (!read_at_t) {
                R.set(t, u, false);
                dropped.push_back(u);
            }
        }
    }
    return R;
}

}  // namespace

Schedule dropRecomputations(const Graph& g, const Schedule& s, const ReplayLimits& limits,
                            Clock::time_point deadline, const std::atomic<bool>* cancel)
{
    const int n = g.size();
    Schedule best = s;
    double best_j = replaySchedule(g, s, limits).total_energy_j;
    auto stop = [&] { return Clock::now() > deadline || (cancel && cancel->load()); };
    for (bool improved = true; improved && !stop();) {
        improved = false;
        std::vector<std::pair<int, int>> recomputations;  // (stage, node)
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < t; ++i)
                if (best.R(t, i)) recomputations.emplace_back(t, i);
        std::stable_sort(recomputations.begin(), recomputations.end(), [&](const auto& a, const auto& b) {
            return g.node(a.second).compute_energy_j > g.node(b.second).compute_energy_j;
        });
        for (const auto& [t, i] : recomputations) {
            if (stop()) break;
            if (!best.R(t, i)) continue;  // gone with an earlier change of this pass
            Schedule trial;
            try {
                trial = scheduleFromRecompute(g, withoutRecomputation(g, best.R, t, i));
            } catch (const std::invalid_argument&) {
                continue;  // a value read before any computation of it
            }
            auto fitted = relieveToFit(g, trial, limits);
            if (!fitted) continue;
            const ReplayReport rep = replaySchedule(g, *fitted, limits);
            if (!rep.valid || !(rep.total_energy_j < best_j * (1 - 1e-12))) continue;
            best = std::move(*fitted);
            best_j = rep.total_energy_j;
            improved = true;
        }
    }
    return best;
}

}  // namespace poet
