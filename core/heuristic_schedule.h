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
#include <optional>

#include "problem.h"
#include "schedule.h"

namespace poet {

// nullopt when the heuristic finds nothing within the RAM budget.
std::optional<Schedule> heuristicSchedule(const Problem& problem);

}  // namespace poet
