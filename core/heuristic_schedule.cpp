#include "heuristic_schedule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "baselines.h"
#include "deadline.h"
#include "problem_loader.h"
#include "replay.h"

namespace poet {

namespace {

// A stretch a value could spend on flash instead of in RAM: it is in RAM at
// the start of stages from..to and nothing reads it in from+1..to-1. Paged,
// it is paged out during `from` (or earlier, once per value), absent from
// from+1 to to-1 and paged in during to-1.
struct Gap {
    int node;
    int from;
    int to;
};

// Stages at which a value must be in RAM: it is read there, or paged out.
bool neededAt(const Graph& g, const Schedule& s, int t, int i)
{
    if (s.M_out(t, i)) return true;
    for (int v : g.successors(i))
        if (v <= t && s.R(t, v)) return true;
    return false;
}

// The first stage after t that needs i in RAM at its start, with i resident
// from t+1 up to it; nothing where i is dropped before any further need.
std::optional<int> nextNeed(const Graph& g, const Schedule& s, int t, int i)
{
    const int n = s.size();
    int to = t + 1;
    while (to < n && s.S_RAM(to, i) && !neededAt(g, s, to, i)) ++to;
    if (to >= n || !s.S_RAM(to, i)) return std::nullopt;
    return to;
}

// The gap of value i in s that spans stage t (from < t < to), if any.
std::optional<Gap> gapAcross(const Graph& g, const Schedule& s, int t, int i)
{
    if (!s.S_RAM(t, i) || neededAt(g, s, t, i) || t == 0) return std::nullopt;
    // Back to the latest earlier stage that needs i, or to the start of its residency.
    int from = t - 1;
    if (!s.S_RAM(from, i)) return std::nullopt;
    while (from > 0 && !neededAt(g, s, from, i) && s.S_RAM(from - 1, i)) --from;
    const auto to = nextNeed(g, s, t, i);
    if (!to) return std::nullopt;
    return Gap{i, from, *to};
}

// The gap of a value in RAM at the peak moment (after op k of stage p) only
// because it is kept for stage p+1: computed or read in p before op k, read
// by no op from k on. It starts at p, so from+1..to-1 leaves stage p out,
// though dropping it relieves the peak itself too. Without this, a peak
// made of what a stage computes and keeps (bert without paging: a block's
// recomputed internals, held for its gradients) had nothing to relieve.
std::optional<Gap> gapKeptPast(const Graph& g, const Schedule& s, int p, int k, int i)
{
    if (i == k || p + 1 >= s.size() || !s.S_RAM(p + 1, i)) return std::nullopt;
    if (!s.S_RAM(p, i) && !(s.R(p, i) && i < k)) return std::nullopt;
    for (int v : g.successors(i))
        if (v >= k && v <= p && s.R(p, v)) return std::nullopt;
    const auto to = nextNeed(g, s, p, i);
    if (!to) return std::nullopt;
    return Gap{i, p, *to};
}

// What recomputing value i at stage t adds to R[t]: i and, recursively,
// every input that is neither in RAM at the start of t nor computed there.
std::vector<int> recomputeClosure(const Graph& g, const Schedule& s, int t, int i)
{
    std::vector<int> added;
    std::vector<char> seen(static_cast<std::size_t>(s.size()), 0);
    std::vector<int> stack{i};
    seen[i] = 1;
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        added.push_back(v);
        for (int u : g.predecessors(v))
            if (!seen[u] && !s.S_RAM(t, u) && !s.R(t, u)) {
                seen[u] = 1;
                stack.push_back(u);
            }
    }
    return added;
}

// Relieving RAM over a gap: page the value out and back in, or drop it and
// recompute it in the stage that next reads it.
struct Relief {
    Gap gap;
    bool recompute = false;
};

// Sets m(t, i) to `value`; whether that changed it.
bool change(BoolMatrix& m, int t, int i, bool value = true)
{
    if (m(t, i) == value) return false;
    m.set(t, i, value);
    return true;
}

// Whether the schedule changed: a relief that changes nothing would be
// chosen again and again. (Told, not found by comparing a copy: a 771-node
// schedule is 3 MB, copied and compared at every step.)
bool apply(const Graph& g, Schedule& s, const Relief& relief)
{
    const int n = s.size();
    const Gap& gap = relief.gap;
    const int i = gap.node;
    bool changed = false;
    if (relief.recompute) {
        for (int v : recomputeClosure(g, s, gap.to, i)) changed |= change(s.R, gap.to, v);
        for (int t = gap.from + 1; t <= gap.to; ++t) changed |= change(s.S_RAM, t, i, false);
        return changed;
    }
    // Paged: one page-out per value, at its earliest paged stage.
    int out_stage = -1;
    for (int t = 0; t < n && out_stage < 0; ++t)
        if (s.M_out(t, i)) out_stage = t;
    if (out_stage < 0 || gap.from < out_stage) {
        if (out_stage >= 0) changed |= change(s.M_out, out_stage, i, false);
        out_stage = gap.from;
        changed |= change(s.M_out, out_stage, i);
    }
    for (int t = out_stage + 1; t < n; ++t) changed |= change(s.S_SD, t, i);
    for (int t = gap.from + 1; t < gap.to; ++t) changed |= change(s.S_RAM, t, i, false);
    changed |= change(s.M_in, gap.to - 1, i);
    return changed;
}

// Revolve's schedules whose recomputations fit the runtime budget, however
// much RAM they take: relieving them keeps a chain's checkpoints where
// relieving the plain pass holds every block output (bert at 11 to 12%
// without paging: nothing else fits). The number of checkpoint slots grows
// by ~40% a step up to one per state: resnet50 has 87 states, and relieving
// each schedule takes up to 0.05 s (without paging at 10 and 20%).
std::vector<Schedule> revolveWithinRuntime(const Graph& g, const ReplayLimits& limits)
{
    ReplayLimits any_ram = limits;
    any_ram.ram_budget_bytes = -1;
    std::vector<Schedule> out;
    const int states = static_cast<int>(revolveStates(g).size());
    for (int slots = 1;; slots = std::min(states, std::max(slots + 1, slots * 7 / 5))) {
        if (auto s = revolveSchedule(g, slots); s && replaySchedule(g, *s, any_ram, ReplayDetail::StagePeaks).valid)
            out.push_back(std::move(*s));
        if (slots >= states) return out;
    }
}

// Runs each build once, on up to `threads` threads (the caller's among
// them), each into its own place, so the result is the same on any number
// of threads. A build not begun when `stopped()` holds is skipped; an
// exception in one is rethrown here once all have ended.
std::vector<std::optional<Schedule>> buildEach(const std::vector<std::function<std::optional<Schedule>()>>& builds,
                                               int threads, const std::function<bool()>& stopped)
{
    std::vector<std::optional<Schedule>> built(builds.size());
    std::atomic<std::size_t> next{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto work = [&] {
        for (std::size_t k; (k = next++) < builds.size() && !stopped();) {
            try {
                built[k] = builds[k]();
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> helpers;
    for (int h = 1; h < std::min<int>(threads, static_cast<int>(builds.size())); ++h) helpers.emplace_back(work);
    work();
    for (std::thread& h : helpers) h.join();
    if (failure) std::rethrow_exception(failure);
    return built;
}

}  // namespace

std::optional<Schedule> relieveToFit(const Graph& g, const Schedule& original, const ReplayLimits& limits)
{
    ReplayLimits unbounded = limits;
    unbounded.ram_budget_bytes = -1;
    auto fits = [&](const ReplayReport& rep) {
        return limits.ram_budget_bytes < 0 || rep.peak_ram_bytes <= limits.ram_budget_bytes;
    };
    Schedule s = original;
    const int n = s.size();
    std::vector<Relief> applied;
    ReplayReport rep;
    for (;;) {
        rep = replaySchedule(g, s, unbounded, ReplayDetail::StagePeaks);
        if (!rep.valid) return std::nullopt;
        if (fits(rep)) break;
        // Among the ways to relieve a wait across the peak stage, the one that
        // removes the most excess RAM (summed over the stages it frees) per joule.
        std::vector<std::int64_t> excess = rep.stage_peak_bytes;
        for (std::int64_t& e : excess) e = std::max<std::int64_t>(0, e - limits.ram_budget_bytes);
        const double spare_s = limits.runtime_budget_s < 0 ? INFINITY : limits.runtime_budget_s - rep.runtime_s;
        const int peak = rep.peak_stage;
        std::optional<Relief> best;
        double best_score = -1;
        auto consider = [&](const Relief& r, double cost_j, double relieved) {
            const double score = relieved / std::max(cost_j, 1e-300);
            if (score > best_score) {
                best_score = score;
                best = r;
            }
        };
        auto offer = [&](const Gap& gap) {
            const int i = gap.node;
            const Node& v = g.node(i);
            double relieved = gap.from == peak ? static_cast<double>(std::min(v.memory_bytes, excess[peak])) : 0.0;
            for (int t = gap.from + 1; t < gap.to; ++t)
                relieved += static_cast<double>(std::min(v.memory_bytes, excess[t]));
            // Paged, it leaves RAM from from+1 to to-1: a gap kept past the
            // peak into the very next reader frees nothing that way (and
            // chosen, would be chosen again for ever). A page-out reads the
            // value from RAM at the stage's start.
            if (limits.paging && gap.to - gap.from >= 2 && s.S_RAM(gap.from, i))
                consider({gap, false}, v.pagein_energy_j + (s.S_SD(gap.from, i) ? 0.0 : v.pageout_energy_j), relieved);
            if (limits.remat && !s.M_out(gap.to, i)) {
                double energy = 0, time = 0;
                for (int u : recomputeClosure(g, s, gap.to, i)) {
                    energy += g.node(u).compute_energy_j;
                    time += g.node(u).compute_time_s;
                }
                if (time <= spare_s) consider({gap, true}, energy, relieved);
            }
        };
        for (int i = 0; i < peak; ++i)
            if (const auto gap = gapAcross(g, s, peak, i)) offer(*gap);
        // Only where no wait across the peak can go: offered beside them, the
        // kept values changed the greedy's path (bert without paging at 16%:
        // 0.35% dearer; resnet50 at 16% and 1.2x: nothing found); as a
        // fallback they lose nothing and go on where it gave up
        // (resnet18_cifar at 16 to 20% with paging: 0.85 to 0.64 J; without:
        // none before).
        if (!best)
            for (int i = 0; i < peak; ++i)
                if (const auto gap = gapKeptPast(g, s, peak, rep.peak_node, i)) offer(*gap);
        if (!best || !apply(g, s, *best)) return std::nullopt;
        applied.push_back(*best);
    }
    // A greedy choice can be made redundant by later ones: drop every relief
    // the schedule fits without. Dropping one puts its value back in RAM
    // over its gap, and at a stage there where `s` recomputes nothing that
    // is all that changes: every step of the stage holds the value's bytes
    // more. Where that is over the budget the relief stays, with no replay
    // (most of them: the paging heuristic on resnet50 at 35% keeps 144; the
    // replays took 0.22 of its 0.35 s). `rep` is always the replay of `s`.
    std::vector<std::int64_t> stage_peak;
    std::vector<char> recomputes(n);
    auto measure = [&] {
        stage_peak = rep.stage_peak_bytes;
        for (int t = 0; t < n; ++t) {
            recomputes[t] = 0;
            for (int i = 0; i < t && !recomputes[t]; ++i) recomputes[t] = s.R(t, i);
        }
    };
    auto surelyNeeded = [&](const Relief& r) {
        const std::int64_t bytes = g.node(r.gap.node).memory_bytes;
        for (int t = r.gap.from + 1; t < r.gap.to; ++t)
            if (!recomputes[t] && stage_peak[t] + bytes > limits.ram_budget_bytes) return true;
        return false;
    };
    if (!applied.empty()) measure();  // none where the budget is not checked
    for (std::size_t k = 0; k < applied.size();) {
        if (surelyNeeded(applied[k])) {
            ++k;
            continue;
        }
        Schedule without = original;
        for (std::size_t j = 0; j < applied.size(); ++j)
            if (j != k) apply(g, without, applied[j]);
        if (ReplayReport fitted = replaySchedule(g, without, limits, ReplayDetail::StagePeaks); fitted.valid) {
            s = std::move(without);
            rep = std::move(fitted);
            applied.erase(applied.begin() + static_cast<std::ptrdiff_t>(k));
            measure();
        } else {
            ++k;
        }
    }
    return s;
}

std::optional<Schedule> heuristicSchedule(const Problem& problem)
{
    if (problem.runtime_budget_factor < 1.0) return std::nullopt;
    ReplayLimits limits = limitsOf(problem);
    limits.remat = false;
    return relieveToFit(problem.graph, plainSchedule(problem.graph), limits);
}

std::optional<Schedule> bestQuickSchedule(const Problem& problem, const std::atomic<bool>* cancel,
                                          const QuickScheduleOptions& options)
{
    const ReplayLimits limits = limitsOf(problem);
    const Graph& g = problem.graph;
    std::vector<std::optional<Schedule>> candidates{heuristicSchedule(problem)};
    const bool first_valid = candidates.front() && replaySchedule(g, *candidates.front(), limits).valid;
    if (first_valid && options.on_first) options.on_first(*candidates.front());
    // With a schedule in hand, the time limit ends the builds as a cancel does.
    const auto stopped = [&] {
        return isSet(cancel) || (first_valid && Clock::now() >= options.until);
    };
    if (problem.options.remat) {
        std::vector<std::function<std::optional<Schedule>()>> builds;
        // DTR at budgets between this one and the plain-pass peak, paged down
        // to this budget: cheap recomputations where they suffice, paging
        // for the rest.
        const double peak = static_cast<double>(plainPassPeakBytes(g));
        const double budget = static_cast<double>(problem.ram_budget_bytes);
        constexpr int kSteps = 12;
        for (int k = 0; k < kSteps && budget < peak; ++k) {
            ReplayLimits relaxed = limits;
            relaxed.ram_budget_bytes = static_cast<std::int64_t>(budget * std::pow(peak / budget, k / double(kSteps)));
            builds.emplace_back([&g, relaxed, &limits]() -> std::optional<Schedule> {
                if (auto remat = dtr(g, relaxed)) return relieveToFit(g, *remat, limits);
                return std::nullopt;
            });
        }
        builds.emplace_back([&] { return chenGreedy(g, limits); });
        builds.emplace_back([&] { return chenSqrtN(g, limits); });
        builds.emplace_back([&] { return revolve(g, limits); });
        for (auto& c : buildEach(builds, options.threads, stopped)) candidates.push_back(std::move(c));
    }
    auto best = leastEnergyValid(g, limits, std::move(candidates));
    // Without paging, where nothing above fits: revolve's checkpoints,
    // relieved (bert at 11 to 12%, resnet50 at 11 to 13%). Only then: it
    // costs resnet50 ~1 s more.
    if (!best && problem.options.remat && !problem.options.paging && !isSet(cancel)) {
        std::vector<std::function<std::optional<Schedule>()>> reliefs;
        for (Schedule& s : revolveWithinRuntime(g, limits))
            reliefs.emplace_back([&g, &limits, s = std::move(s)] { return relieveToFit(g, s, limits); });
        best = leastEnergyValid(g, limits, buildEach(reliefs, options.threads, stopped));
    }
    return best;
}

std::optional<Schedule> leastEnergyValid(const Graph& g, const ReplayLimits& limits,
                                         std::vector<std::optional<Schedule>> candidates)
{
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

namespace {

// The least budget in (lo, hi] where `fits`, to within 0.1%, by bisection
// (hi fits, lo does not), or where it stands at `until` or on `stop`.
template <class Fits>
std::int64_t bisectBudget(std::int64_t lo, std::int64_t hi, Fits fits, const std::atomic<bool>* stop,
                          Clock::time_point until = Clock::time_point::max())
{
    while (hi - lo > std::max<std::int64_t>(1, hi / 1000) && Clock::now() < until &&
           !isSet(stop)) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
    }
    return hi;
}

}  // namespace

// Upward from the lower bound in steps that double from 0.1% of it (from
// `short_of`, 1/16 of that), then a bisection of the last step: the
// paging heuristic mostly works just above that bound (vgg16_cifar, bert,
// resnet50 on m4 at 1.5x: within 0.07%), so this takes a few runs where a
// bisection from the plain-pass peak took a dozen (resnet50: 3.8 s).
std::optional<std::int64_t> smallestHeuristicBudget(const Problem& problem, std::int64_t short_of,
                                                    const std::atomic<bool>* stop)
{
    Problem p = problem;
    auto fits = [&](std::int64_t budget) {
        p.ram_budget_bytes = budget;
        if (p.options.paging) return heuristicSchedule(p).has_value();
        // Without paging, the relief by recomputation (resnet18_cifar at
        // 1.5x: 0.33 MB, where the paging heuristic could only offer the
        // plain-pass peak, 2.45 MB).
        return p.runtime_budget_factor >= 1.0 && relieveToFit(p.graph, plainSchedule(p.graph), limitsOf(p)).has_value();
    };
    const std::int64_t lower = minimumFeasibleBudgetLowerBound(problem.graph);
    const std::int64_t peak = plainPassPeakBytes(problem.graph);
    std::int64_t lo = std::max(lower - 1, short_of);  // never fits
    // The lower bound itself first: where it fits, it is the smallest budget
    // there is, exactly (resnet18_cifar on m4 at 1.5x: 262,144 B, where the
    // steps below named 262,405 B).
    if (lo == lower - 1 && !isSet(stop) && fits(lower)) return lower;
    std::int64_t hi = -1;
    // From short_of, the answer is often tens of percent above it (the
    // relief without paging), and steps of 0.1% took a dozen tries to get there.
    for (std::int64_t step = std::max<std::int64_t>(1, lo >= lower ? lo / 16 : lower / 1000); hi < 0; step *= 2) {
        if (isSet(stop)) return std::nullopt;
        const std::int64_t budget = std::min(peak, lo + step);
        if (fits(budget)) hi = budget;
        else if (budget >= peak) return std::nullopt;
        else lo = budget;
    }
    return bisectBudget(lo, hi, fits, stop);
}

// Without paging, bisected on with bestQuickSchedule for 0.5 s at most, at
// 0.1 to 0.25 s a try (resnet50: ~1.4 s, one try, which may fail: the
// greedy relief fits at 11% and 13% of its peak, not at 12%).
std::optional<std::int64_t> smallestQuickBudget(const Problem& problem, std::int64_t short_of,
                                                const std::atomic<bool>* stop)
{
    const auto works = smallestHeuristicBudget(problem, short_of, stop);
    if (!works || problem.options.paging) return works;
    Problem p = problem;
    const auto fits = [&](std::int64_t budget) {
        p.ram_budget_bytes = budget;
        return bestQuickSchedule(p, stop).has_value();  // stopped: from what it built, and the bisection ends
    };
    const std::int64_t lo = std::max(short_of, minimumFeasibleBudgetLowerBound(problem.graph) - 1);
    return bisectBudget(lo, *works, fits, stop, Clock::now() + std::chrono::milliseconds(500));
}

}  // namespace poet
