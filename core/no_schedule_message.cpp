#include "no_schedule_message.h"

#include "problem_loader.h"

namespace poet {

void explainInfeasible(SolveResult& result, const Problem& problem, Clock::time_point deadline,
                       const std::atomic<bool>* cancel, const std::string& why)
{
    std::string msg = "no schedule fits these budgets" + why;
    const auto lower = minimumFeasibleBudgetLowerBound(problem.graph);
    std::optional<std::int64_t> works;
    runUntil([&] { return Clock::now() >= deadline || isSet(cancel); },
             [&](const std::atomic<bool>* stop) { works = smallestHeuristicBudget(problem, 0, stop); });
    if (works && *works <= problem.ram_budget_bytes) works.reset();  // short of the runtime budget, not of RAM
    const std::int64_t works_bytes = works.value_or(0);  // 0: none found (a budget is never 0)
    result.ram_budget_that_works_bytes = works_bytes;
    if (problem.ram_budget_bytes < lower) {
        msg += ": the RAM budget is below " + std::to_string(lower) +
               " B, the smallest that holds one node with all its inputs";
        if (works_bytes > 0) msg += "; a schedule exists at " + std::to_string(works_bytes) + " B";
        if (works_bytes == lower) msg += ", so that is the smallest RAM budget that works";
    } else if (works_bytes > 0) {
        msg += "; the smallest RAM budget that would work lies between " + std::to_string(lower) + " B and " +
               std::to_string(works_bytes) + " B (a schedule exists there" +
               (problem.options.paging ? "" : "; or switch paging on") + ")";
    } else {
        msg += problem.options.paging ? "; a larger runtime budget may help"
                                      : "; switching paging on, or a larger runtime budget, may help";
    }
    result.message = msg;
}

}  // namespace poet
