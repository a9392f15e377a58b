#pragma once
// What a solve tells its caller: the truth about its status, the schedule it
// found (if any), and the replay's measurement of that schedule.
#include <cstdint>
#include <optional>
#include <string>

#include "replay.h"
#include "schedule.h"

namespace poet {

enum class SolveStatus {
    Optimal,     // proven optimal within the requested gap
    Feasible,    // a schedule, not proven optimal (time limit, cancel with incumbent)
    Infeasible,  // proven: no schedule meets the budgets
    NoSolution,  // the limit was reached before any schedule was found
    Cancelled,   // stopped by the caller before any schedule was found
};

// Where the reported schedule came from.
enum class SolutionSource { None, Heuristic, Cached, Incumbent, Proven };

const char* toString(SolveStatus s);      // "optimal", "feasible", "infeasible", "no_solution", "cancelled"
const char* toString(SolutionSource s);   // "none", "heuristic", "cached", "solver_incumbent", "proven_optimal"
std::optional<SolveStatus> solveStatusFromString(const std::string& s);

struct SolveResult {
    SolveStatus status = SolveStatus::NoSolution;
    SolutionSource source = SolutionSource::None;
    std::optional<Schedule> schedule;
    ReplayReport replay;          // of `schedule`; every reported figure comes from here
    double objective_j = 0;       // the solver's objective for `schedule` (for cross-checks)
    double best_bound_j = 0;      // proven lower bound on the optimum
    double gap = 0;               // relative: (objective - bound) / objective; 0 when proven
    double solve_time_s = 0;
    double first_solution_time_s = -1;  // when the first valid schedule was known, < 0 if never
    double lp_bound_time_s = -1;  // when the LP relaxation's bound was known, < 0 if never
    int variables = 0;
    int constraints = 0;
    std::string message;          // human-readable detail (e.g. why infeasible)
    // Where infeasible: a RAM budget at which a schedule exists with every
    // other setting unchanged (the smallest, where the solve knows it), so a
    // user can be offered it; 0 where none is known.
    std::int64_t ram_budget_that_works_bytes = 0;
};

}  // namespace poet
