#pragma once
// Local search on a valid schedule, for the warm start: the quick schedules
// come from budget-blind rules (DTR, greedy relief) that recompute some
// values several times where keeping the first recomputation is cheaper.
#include <atomic>

#include "deadline.h"
#include "graph.h"
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
Schedule dropRecomputations(const Graph& g, const Schedule& s, const ReplayLimits& limits,
                            Clock::time_point deadline,
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace poet
