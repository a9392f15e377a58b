#include "heuristic_schedule.h"

#include <algorithm>

#include "baselines.h"
#include "problem_loader.h"
#include "replay.h"

namespace poet {

namespace {

// A stretch during which a value waits in RAM for its next reader: it is in
// RAM at the start of stages from..to (to = the reader's stage).
struct Wait {
    int node;
    int from;
    int to;
    bool paged = false;
};

// Paged: page out at node+1 (once per value, so it is in RAM then), absent
// from max(from, node+2) to to-1, paged in during to-1 (which reads flash, so
// to-1 >= node+2).
int firstAbsentStage(const Wait& w) { return std::max(w.from, w.node + 2); }
bool pageable(const Wait& w) { return w.to - 1 >= firstAbsentStage(w); }

Schedule scheduleOf(const Graph& g, const std::vector<Wait>& waits)
{
    Schedule s(g.size());
    const int n = g.size();
    for (int t = 0; t < n; ++t) s.R.set(t, t);
    std::vector<char> paged_out(n, 0);
    for (const Wait& w : waits)
        if (w.paged) paged_out[w.node] = 1;
    for (const Wait& w : waits) {
        if (!w.paged) {
            for (int t = w.from; t <= w.to; ++t) s.S_RAM.set(t, w.node);
        } else {
            s.M_in.set(w.to - 1, w.node);
            s.S_RAM.set(w.to, w.node);
        }
    }
    for (int u = 0; u < n; ++u) {
        if (!paged_out[u]) continue;
        s.S_RAM.set(u + 1, u);  // the page-out reads it from RAM at stage u+1
        s.M_out.set(u + 1, u);
        for (int t = u + 2; t < n; ++t) s.S_SD.set(t, u);
    }
    return s;
}

}  // namespace

std::optional<Schedule> heuristicSchedule(const Problem& problem)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    ReplayLimits limits = limitsOf(problem);
    limits.runtime_budget_s = -1;  // no recomputation: any factor >= 1 holds
    if (problem.runtime_budget_factor < 1.0) return std::nullopt;

    // One wait per (value, reader): from the stage after the previous need to the reader.
    std::vector<Wait> waits;
    for (int u = 0; u < n; ++u) {
        int previous = u;
        for (int c : g.successors(u)) {
            waits.push_back({u, previous + 1, c});
            previous = c;
        }
    }
    for (;;) {
        Schedule s = scheduleOf(g, waits);
        const ReplayReport rep = replaySchedule(g, s, limits);
        if (rep.valid) return s;
        if (!problem.options.paging || rep.peak_ram_bytes <= problem.ram_budget_bytes) return std::nullopt;
        // Page the largest value that waits across the peak stage.
        const int t = rep.peak_stage;
        Wait* best = nullptr;
        for (Wait& w : waits) {
            if (w.paged || !pageable(w) || t < firstAbsentStage(w) || t > w.to - 1) continue;
            if (!best || g.node(w.node).memory_bytes > g.node(best->node).memory_bytes) best = &w;
        }
        if (!best) return std::nullopt;
        best->paged = true;
    }
}

std::optional<Schedule> bestQuickSchedule(const Problem& problem)
{
    const ReplayLimits limits = limitsOf(problem);
    const Graph& g = problem.graph;
    std::vector<std::optional<Schedule>> candidates{heuristicSchedule(problem)};
    if (problem.options.remat) {
        candidates.push_back(dtr(g, limits));
        candidates.push_back(chenGreedy(g, limits));
        candidates.push_back(chenSqrtN(g, limits));
        candidates.push_back(revolve(g, limits));
    }
    std::optional<Schedule> best;
    double best_j = 0;
    for (auto& c : candidates) {
        if (!c) continue;
        const ReplayReport rep = replaySchedule(g, *c, limits);
        if (rep.valid && (!best || rep.total_energy_j < best_j)) {
            best_j = rep.total_energy_j;
            best = std::move(c);
        }
    }
    return best;
}

std::optional<std::int64_t> smallestHeuristicBudget(const Problem& problem)
{
    Problem p = problem;
    auto fits = [&](std::int64_t budget) {
        p.ram_budget_bytes = budget;
        return heuristicSchedule(p).has_value();
    };
    std::int64_t lo = minimumFeasibleBudgetLowerBound(problem.graph) - 1;  // never fits
    std::int64_t hi = plainPassPeakBytes(problem.graph);
    if (!fits(hi)) return std::nullopt;
    while (hi - lo > std::max<std::int64_t>(1, hi / 1000)) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
    }
    return hi;
}

}  // namespace poet
