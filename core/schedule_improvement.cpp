#include "schedule_improvement.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

#include "baselines.h"
#include "heuristic_schedule.h"
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
                            Clock::time_point deadline, const std::atomic<bool>* cancel, bool* finished)
{
    const int n = g.size();
    Schedule best = s;
    double best_j = replaySchedule(g, s, limits, ReplayDetail::StagePeaks).total_energy_j;
    auto stop = [&] { return Clock::now() > deadline || (cancel && cancel->load()); };
    bool improved = true;
    while (improved && !stop()) {
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
            const ReplayReport rep = replaySchedule(g, *fitted, limits, ReplayDetail::StagePeaks);
            if (!rep.valid || !(rep.total_energy_j < best_j * (1 - 1e-12))) continue;
            best = std::move(*fitted);
            best_j = rep.total_energy_j;
            improved = true;
        }
    }
    // A pass that a stop broke off may have changed nothing so far.
    if (finished) *finished = !improved && !stop();
    return best;
}

namespace {

// How many combined moves a round of swapRecomputations pages exactly.
constexpr std::size_t kSwapsTriedPerRound = 30;

}  // namespace

std::optional<Schedule> relieveRuntime(const Problem& problem, const Schedule& s, Clock::time_point deadline,
                                       const std::atomic<bool>* cancel)
{
    const Graph& g = problem.graph;
    const ReplayLimits limits = limitsOf(problem);
    auto stop = [&] { return Clock::now() > deadline || isSet(cancel); };
    auto paged = [&](const BoolMatrix& R) { return pagedExactly(problem, R, deadline, cancel); };

    BoolMatrix R = s.R;
    double seconds = computeTime(g, R);  // of R, kept with it
    std::optional<PagedPlan> current = paged(R);
    if (!current) return std::nullopt;
    // Within the replay's tolerance of the budget is within it.
    auto excess = [&] { return seconds - acceptedRuntimeS(limits); };
    // A drop's cost per second of the excess it removes (a drop that saves
    // energy comes first whatever it removes).
    auto cost = [&](int t, int i, BoolMatrix& dropped, std::optional<PagedPlan>& after) -> double {
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
    std::optional<PagedPlan> after;
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

Schedule swapRecomputations(const Problem& problem, const Schedule& source, const Schedule& fitted,
                            Clock::time_point deadline, const std::atomic<bool>* cancel)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    const ReplayLimits limits = limitsOf(problem);
    const double budget_s = acceptedRuntimeS(limits);
    auto over = [&] { return Clock::now() > deadline || isSet(cancel); };
    const ReplayReport fitted_replay = replaySchedule(g, fitted, limits);
    if (!fitted_replay.valid) return fitted;
    // Each move's energy is measured against `fitted` as it is (relieveRuntime
    // paged it exactly already; a schedule paged better still is only
    // harder to beat).
    PagedPlan current{fitted, fitted_replay.total_energy_j};
    struct Move {
        BoolMatrix R;
        double seconds, energy_j;  // its change of each, alone
    };
    for (bool improved = true; improved && !over();) {
        improved = false;
        const BoolMatrix& R = current.schedule.R;
        const double seconds = computeTime(g, R);
        auto single = [&](BoolMatrix moved, std::vector<Move>& into) {
            const double moved_s = computeTime(g, moved) - seconds;
            if (const auto paged = pagedExactly(problem, moved, deadline, cancel))
                into.push_back({std::move(moved), moved_s, paged->energy_j - current.energy_j});
        };
        std::vector<Move> adds, drops;
        for (int t = 0; t < n && !over(); ++t)
            for (int i = 0; i < t; ++i) {
                if (R(t, i)) single(withoutRecomputation(g, R, t, i), drops);
                if (!source.R(t, i) || R(t, i)) continue;
                BoolMatrix add = R;
                add.set(t, i, true);
                single(add, adds);
                bool more = false;  // the rest of the source's stage t
                for (int u = 0; u < t; ++u)
                    if (source.R(t, u) && !add(t, u)) {
                        add.set(t, u, true);
                        more = true;
                    }
                if (more) single(std::move(add), adds);
            }
        // Moves made together, by the sum of their energy changes alone.
        struct Combination {
            double energy_j;
            int add, add2, drop;  // indices into adds and drops; -1 for none
        };
        std::vector<Combination> combinations;
        auto consider = [&](int a, int a2) {
            const double dt = adds[a].seconds + (a2 >= 0 ? adds[a2].seconds : 0.0);
            const double de = adds[a].energy_j + (a2 >= 0 ? adds[a2].energy_j : 0.0);
            if (seconds + dt <= budget_s && de < 0) combinations.push_back({de, a, a2, -1});
            for (int d = 0; d < static_cast<int>(drops.size()); ++d)
                if (seconds + dt + drops[d].seconds <= budget_s && de + drops[d].energy_j < 0)
                    combinations.push_back({de + drops[d].energy_j, a, a2, d});
        };
        for (int a = 0; a < static_cast<int>(adds.size()); ++a) {
            consider(a, -1);
            for (int a2 = a + 1; a2 < static_cast<int>(adds.size()); ++a2) consider(a, a2);
        }
        std::sort(combinations.begin(), combinations.end(),
                  [](const Combination& x, const Combination& y) { return x.energy_j < y.energy_j; });
        if (combinations.size() > kSwapsTriedPerRound) combinations.resize(kSwapsTriedPerRound);
        PagedPlan best = current;
        for (const Combination& c : combinations) {
            if (over()) break;
            BoolMatrix moved = adds[c.add].R;
            for (int t = 0; t < n; ++t)
                for (int i = 0; i < t; ++i) {
                    if (c.add2 >= 0 && adds[c.add2].R(t, i)) moved.set(t, i, true);
                    if (c.drop >= 0 && R(t, i) && !drops[c.drop].R(t, i)) moved.set(t, i, false);
                }
            if (computeTime(g, moved) > budget_s) continue;
            std::optional<PagedPlan> paged = pagedExactly(problem, moved, deadline, cancel);
            if (!paged || !(paged->energy_j < best.energy_j * (1 - 1e-12))) continue;
            if (!replaySchedule(g, paged->schedule, limits).valid) continue;
            best = std::move(*paged);
        }
        improved = best.energy_j < current.energy_j;
        current = std::move(best);
    }
    return std::move(current.schedule);
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
    const Schedule* best_hint = nullptr;
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
        best_hint = rejected[k].second;
    }
    // The swaps on the best one, in what is left.
    if (best) best = swapRecomputations(problem, *best_hint, *best, deadline, cancel);
    return best;
}

}  // namespace poet
