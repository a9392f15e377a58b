#pragma once
// Local search on a valid schedule, for the warm start: the quick schedules
// come from budget-blind rules (DTR, greedy relief) that recompute some
// values several times where keeping the first recomputation is cheaper.
// And the way back from a schedule over the runtime budget: fewer
// recomputations, each compute plan paged exactly.
#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

#include "deadline.h"
#include "graph.h"
#include "problem.h"
#include "replay.h"
#include "schedule.h"

namespace poet {

// Drops one recomputation at a time, most expensive first: the value is kept
// in RAM from its previous computation instead (and inputs computed only for
// it are dropped too), then relieveToFit pages or recomputes whatever RAM
// that costs. A change stays when the replay accepts it at less energy.
// Passes repeat until one changes nothing, `deadline` passes or `cancel` is
// set. Returns a schedule valid under `limits` with at most the energy of `s`
// (`s` itself when nothing helps); `s` must be valid under `limits`.
// `finished` (if given) says whether the passes ended with one that changed
// nothing, not at the deadline or on a cancel: a search cut short may be
// taken up again from what it returned.
Schedule dropRecomputations(const Graph& g, const Schedule& s, const ReplayLimits& limits,
                            Clock::time_point deadline, const std::atomic<bool>* cancel = nullptr,
                            bool* finished = nullptr);

// For a schedule over the runtime budget (a looser budget's): drops one
// recomputation at a time (with the inputs computed only for it) until the
// computations fit, each time the one whose drop costs the least energy per
// second of the excess it removes, each compute plan paged exactly by
// PagingPlan's fixed-plan MILP. Costs are re-evaluated lazily: a drop whose
// cost has risen since it was last evaluated goes back in line. Empty where
// no drop is left or `deadline` passes or `cancel` is set first; otherwise a
// schedule valid under the problem's limits.
std::optional<Schedule> relieveRuntime(const Problem& problem, const Schedule& s, Clock::time_point deadline,
                                       const std::atomic<bool>* cancel = nullptr);

// After relieveRuntime's greedy drops (`fitted`, valid under the problem's
// limits, from `source`): moves that put back recomputations of `source`
// that `fitted` lacks and pay for them with other drops. Each round pages
// exactly (PagingPlan's fixed-plan MILP) every single move (one
// recomputation of `source` put back, alone or with the rest of its stage's;
// one dropped, with the inputs computed only for it), then, by the sum of
// their energies, the best few combinations within the runtime budget (one
// or two put back, each with or without a drop), and keeps the best that the
// replay accepts. Rounds end when one finds nothing, at `deadline` or on
// `cancel`. Returns the better schedule, `fitted` itself where nothing helps.
// resnet18_cifar on m4 at 16% and 1.002x, from the 1.006x plan's optimum:
// the drops leave 0.647702 J; the first round puts layer3.0's bn2 (with its
// stage's chain) and layer1.0.bn1 back for layer1.1.relu2, 0.642858 J, the
// second 0.642844 J (1.2 s on one core): a put-back costs runtime that only
// a later drop frees, which the greedy drops cannot see.
Schedule swapRecomputations(const Problem& problem, const Schedule& source, const Schedule& fitted,
                            Clock::time_point deadline, const std::atomic<bool>* cancel = nullptr);

// How many of the hints relieveHints relieves at most.
inline constexpr std::size_t kMostHintsRelieved = 2;

// relieveRuntime on the hints that the problem's limits reject (over its
// runtime budget, or its RAM budget: each compute plan is paged anew), the
// kMostHintsRelieved that compute least first, in equal shares of the time
// to `deadline`. The least-energy schedule of them, or empty where none
// gives one. Hints of another graph's size are passed over.
std::optional<Schedule> relieveHints(const Problem& problem, const std::vector<Schedule>& hints,
                                     Clock::time_point deadline, const std::atomic<bool>* cancel = nullptr);

}  // namespace poet
