#pragma once
// Fast valid schedules, in milliseconds: an instant answer for the explorer
// and a first cutoff (warm start) for CBC.
//
// No-remat plus greedy paging: every node runs once at its own stage; each
// value is carried in RAM between the stages that read it, and while the
// replay's peak is over the budget, the largest value carried across the peak
// is paged out once and paged back in just before its next reader instead.
// Paging time is not in the runtime budget (reference semantics), so the
// result meets any runtime factor >= 1.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "deadline.h"
#include "problem.h"
#include "replay.h"
#include "schedule.h"

namespace poet {

// nullopt when the heuristic finds nothing within the RAM budget.
std::optional<Schedule> heuristicSchedule(const Problem& problem);

// Greedy relief of any schedule the replay accepts apart from its RAM peak:
// while the peak is over the budget, a value that waits in RAM across the
// peak stage without being read there, or that the peak stage keeps for a
// later one past its last read there, is either paged out (once per value)
// and back in just before its next use, or dropped and recomputed in the
// stage that next reads it (what the limits allow, within the runtime
// budget), choosing the most excess RAM removed per joule; then every step
// the schedule fits without is undone. nullopt when the schedule is invalid
// for another reason or nothing is left to relieve.
std::optional<Schedule> relieveToFit(const Graph& g, const Schedule& s, const ReplayLimits& limits);

// The candidate the replay accepts under `limits` with the least energy.
std::optional<Schedule> leastEnergyValid(const Graph& g, const ReplayLimits& limits,
                                         std::vector<std::optional<Schedule>> candidates);

// How bestQuickSchedule runs. Its rematerialization candidates are built on
// up to `threads` threads, each into its own place, so the answer is the
// same on any number (resnet50 on m4 at 35% and 1.5x: 2.9 s on one, where
// the paging heuristic's schedule is ready at 0.35 s). `on_first`, where
// set, gets that schedule as soon as the replay accepts it, so that a
// caller can show it before the rest are built. Where that schedule is
// valid, the builds not begun by `until` (the solve's time limit) are
// skipped, as on `cancel`.
struct QuickScheduleOptions {
    int threads = 1;
    std::function<void(const Schedule&)> on_first;
    Clock::time_point until = Clock::time_point::max();
};

// The least-energy valid schedule among the paging heuristic above and the
// rematerialization baselines (DTR, Chen's rules, revolve) that the problem's
// switches allow: CBC's warm start and the explorer's instant answer. On
// `cancel` (read between candidates, ~0.1 s apart on resnet50, which takes
// 1 to 3 s in all on one thread), the best of those built so far.
std::optional<Schedule> bestQuickSchedule(const Problem& problem, const std::atomic<bool>* cancel = nullptr,
                                          const QuickScheduleOptions& options = {});

// The smallest RAM budget (to within 0.1%) at which heuristicSchedule (with
// paging off: relieveToFit of the plain pass) finds a schedule for this
// problem's other settings, searched upward from
// minimumFeasibleBudgetLowerBound (tried first: where it fits, the answer is
// exact; it does at 1.5x on m4 for every bundled model), or from `short_of`
// where the caller knows it finds none there (fewer tries: resnet50 without
// paging, from 10% of its peak, 3.5 s from the lower bound): an upper bound
// on the smallest feasible budget. nullopt when it finds none even at the
// plain-pass peak, or when `stop` is set before it found one (it is read
// between tries; set later, the budget found so far is returned).
std::optional<std::int64_t> smallestHeuristicBudget(const Problem& problem, std::int64_t short_of = 0,
                                                    const std::atomic<bool>* stop = nullptr);

// smallestHeuristicBudget, lowered without paging by bisection with
// bestQuickSchedule (0.5 s at most): its revolve fallback fits far below the
// relief of the plain pass (bert on m4 at 1.5x: 41.7 MB, not 48.8 MB).
// `stop` as for smallestHeuristicBudget.
std::optional<std::int64_t> smallestQuickBudget(const Problem& problem, std::int64_t short_of = 0,
                                                const std::atomic<bool>* stop = nullptr);

}  // namespace poet
