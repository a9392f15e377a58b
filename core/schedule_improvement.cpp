#include "schedule_improvement.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

#include "baselines.h"
#include "heuristic_schedule.h"
#include "paging_plan.h"
#include "plan_search.h"

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

// Seconds of computation in R: the plain pass and every recomputation.
double computeTime(const Graph& g, const BoolMatrix& R)
{
    double seconds = 0;
    for (int t = 0; t < g.size(); ++t)
        for (int i = 0; i <= t; ++i)
            if (R(t, i)) seconds += g.node(i).compute_time_s;
    return seconds;
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

std::optional<Schedule> relieveRuntime(const Problem& problem, const Schedule& s, Clock::time_point deadline,
                                       const std::atomic<bool>* cancel)
{
    const Graph& g = problem.graph;
    const ReplayLimits limits = limitsOf(problem);
    auto stop = [&] { return Clock::now() > deadline || isSet(cancel); };
    struct Paged {
        Schedule schedule;
        double energy_j = INFINITY;
    };
    // The least paging that fits R's computations into the RAM budget.
    auto paged = [&](const BoolMatrix& R) -> std::optional<Paged> {
        Schedule base;
        try {
            base = scheduleFromRecompute(g, R);
        } catch (const std::invalid_argument&) {
            return std::nullopt;  // a value read before any computation of it
        }
        const PagingPlan plan(problem, base);
        SolverOptions options;
        options.time_limit_s = std::chrono::duration<double>(deadline - Clock::now()).count();
        options.relative_gap = 1e-6;
        const PlanOutcome out = solvePagingPlan(plan, problem, options, Clock::now(), INFINITY, -1, cancel, {});
        if (!out.best) return std::nullopt;
        return Paged{*out.best, out.best_j};
    };

    BoolMatrix R = s.R;
    double seconds = computeTime(g, R);  // of R, kept with it
    std::optional<Paged> current = paged(R);
    if (!current) return std::nullopt;
    // Within the replay's tolerance of the budget is within it.
    auto excess = [&] { return seconds - limits.runtime_budget_s * (1 + 1e-9); };
    // A drop's cost per second of the excess it removes (a drop that saves
    // energy comes first whatever it removes).
    auto cost = [&](int t, int i, BoolMatrix& dropped, std::optional<Paged>& after) -> double {
        dropped = withoutRecomputation(g, R, t, i);
        const double removed = seconds - computeTime(g, dropped);
        after = removed > 0 ? paged(dropped) : std::nullopt;
        if (!after) return INFINITY;
        return (after->energy_j - current->energy_j) / std::min(removed, excess());
    };
    struct Drop {
        double cost;
        int t, i;
        bool operator>(const Drop& o) const { return cost > o.cost; }
    };
    std::priority_queue<Drop, std::vector<Drop>, std::greater<>> line;
    BoolMatrix dropped;
    std::optional<Paged> after;
    for (int t = 0; t < g.size() && excess() > 0 && !stop(); ++t)
        for (int i = 0; i < t; ++i)
            if (R(t, i)) line.push({cost(t, i, dropped, after), t, i});
    while (excess() > 0 && !line.empty() && !stop()) {
        const Drop next = line.top();
        line.pop();
        if (!R(next.t, next.i)) continue;  // gone with an earlier drop
        const double now = cost(next.t, next.i, dropped, after);
        if (!std::isfinite(now)) continue;
        if (!line.empty() && now > line.top().cost) {
            line.push({now, next.t, next.i});
            continue;
        }
        R = dropped;
        seconds = computeTime(g, R);
        current = std::move(after);
    }
    if (excess() > 0) return std::nullopt;
    if (!replaySchedule(g, current->schedule, limits).valid) return std::nullopt;
    return std::move(current->schedule);
}

std::optional<Schedule> relieveHints(const Problem& problem, const std::vector<Schedule>& hints,
                                     Clock::time_point deadline, const std::atomic<bool>* cancel)
{
    const Graph& g = problem.graph;
    const ReplayLimits limits = limitsOf(problem);
    std::vector<std::pair<double, const Schedule*>> rejected;  // (compute seconds, hint)
    for (const Schedule& hint : hints) {
        if (hint.size() != g.size()) continue;
        const ReplayReport replay = replaySchedule(g, hint, limits);
        if (!replay.valid) rejected.emplace_back(replay.runtime_s, &hint);
    }
    // Those with the fewest seconds to drop first, and only the first few:
    // a relief takes seconds (resnet18_cifar on m4 at 16%, 1.003x to 1.002x:
    // 3 to 4 s), and an equal share of a few seconds among the explorer's six
    // recent schedules would leave each too little.
    std::stable_sort(rejected.begin(), rejected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (rejected.size() > kMostHintsRelieved) rejected.resize(kMostHintsRelieved);
    std::optional<Schedule> best;
    double best_j = INFINITY;
    for (std::size_t k = 0; k < rejected.size() && !isSet(cancel); ++k) {
        const double left_s = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (left_s <= 0) break;
        const auto share_end = secondsAfter(Clock::now(), left_s / static_cast<double>(rejected.size() - k));
        std::optional<Schedule> fitted = relieveRuntime(problem, *rejected[k].second, share_end, cancel);
        if (!fitted) continue;
        const double energy_j = replaySchedule(g, *fitted, limits).total_energy_j;
        if (!(energy_j < best_j)) continue;
        best_j = energy_j;
        best = std::move(fitted);
    }
    return best;
}

}  // namespace poet
