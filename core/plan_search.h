#pragma once
// The paging plan (paging_plan.h) solved by CBC, as a heuristic where
// recomputation is possible and exactly where it is not.
#include <atomic>
#include <cmath>
#include <optional>

#include "paging_plan.h"
#include "problem.h"
#include "schedule.h"
#include "deadline.h"
#include "solver.h"

namespace poet {

// The covering MILP of paging_plan.h, solved by CBC: its best schedule (if
// any), whether that is proven optimal or the plan infeasible, and a bound.
struct PlanOutcome {
    std::optional<Schedule> best;
    double best_j = INFINITY;
    double bound_j = 0;
    bool proven = false, infeasible = false, cancelled = false;
    bool faulted = false;  // CBC faulted (fault_guard.h); after a first search, the rest is the second's
};

// Without `strong_branching`, CBC branches on pseudo-costs alone: a
// different search path (solver.cpp's second plan at the plan's stall).
// `tree_begun`, where given, is set once CBC's search leaves its root.
PlanOutcome solvePagingPlan(const PagingPlan& plan, const Problem& problem, const SolverOptions& options,
                            Clock::time_point start, double warm_energy_j, double first_solution_s,
                            const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent,
                            bool strong_branching = true, std::atomic<bool>* tree_begun = nullptr);

// A compute plan with the least paging that fits it into the RAM budget.
struct PagedPlan {
    Schedule schedule;
    double energy_j = INFINITY;
};

// R's computations (BoolMatrix R of a schedule) paged exactly (PagingPlan's
// fixed-plan MILP); empty where R reads a value before computing it, or no
// paging fits it, or `deadline` passes first.
std::optional<PagedPlan> pagedExactly(const Problem& problem, const BoolMatrix& R, Clock::time_point deadline,
                                      const std::atomic<bool>* cancel);

// What solvePlans found: the best schedule, and the one the local search
// (dropRecomputations) is to run on next. That is the best, but where a
// relieved schedule, which had the local search to its end already, beat
// the plan's own best: then the plan's own, whose local search can end
// lower than the relief's (resnet18_cifar on m4 at 22% and 1.05x: the
// relief's 0.581996 J beats the plan's 0.582436 J, which dropped is
// 0.579548 J, the 1.06x optimum; with the drop on the relief's again,
// 0.725% short at 30 s, now proven in 9 s). Empty where the relief's best
// had the local search to its end and the plan found nothing. A local
// search on the relief's best that the plan's stop cut short is taken up
// again: bert on m4 at 12% and 1.005x (120 s), it goes on from 125.758 J
// to 124.813 J in 8 s and the solve is proven at 21 s; left there, the
// solve ended 0.81% short (125.281 J).
struct PlansFound {
    std::optional<Schedule> best;
    std::optional<Schedule> to_search;
};

// How far solvePlans has come, for a caller on another thread: whether
// the plan at the problem's own budget (after the tight plan and the
// reliefs) is being searched, and whether its search has left CBC's root.
struct PlanProgress {
    std::atomic<bool> own_plan{false};
    std::atomic<bool> branching{false};
    bool inOwnPlansRoot() const { return own_plan && !branching; }
};

// The paging plan as a heuristic; where some chain of it needs three visits
// or more, the plan with stopped chains instead (PagingPlan's
// `stopped_chains`; bert on m4 at 8.2 to 8.6% and 1.5x: 112.3729 J, where
// the first finds 116.0988 J). Where chains need two visits at most
// (resnet18_cifar at 11 to 13%, resnet50 at 8 to 10%) a second plan found
// nothing better, and at resnet18_cifar 13% its time on the second core
// delayed the window search: proven in 16.9 to 19.6 s instead of 12.6 to
// 13.6 s.
//
// First (for an eighth of the time at most) the hints this problem's
// budgets reject, relieved to them (relieveHints, schedule_improvement.h);
// then, above 1.01x and where the plan's chains need fewer than three
// visits, the plan at 1.01x for a tenth of the time at most, each schedule
// taken as it comes (they fit as they are; plan_search.cpp's
// kTightPlanFactor);
// then, up to 1.05x, until a quarter of the time, the quick schedule at a
// looser runtime budget and, where the spare time is scarce
// (spareTimeIsScarce), the plans at looser runtime budgets, each relieved
// to this one by relieveRuntime, each schedule announced as it comes, then
// swapRecomputations and dropRecomputations on the best of them
// (relieveHints swaps on its own);
// where a looser plan proven optimal fits this runtime budget as it is, it
// is this plan's optimum too, and the search ends there. What it found,
// and what the local search is to run on next: PlansFound. `progress`,
// where given, follows it.
PlansFound solvePlans(const Problem& problem, const SolverOptions& options, Clock::time_point start,
                      const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent,
                      PlanProgress* progress = nullptr);

}  // namespace poet
