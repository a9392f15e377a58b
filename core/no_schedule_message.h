#pragma once
// What a solve that ends without a schedule tells its user: why nothing
// fits (explainInfeasible), or what is known and a RAM budget that works
// (NoScheduleExplanation).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "deadline.h"
#include "heuristic_schedule.h"
#include "problem.h"
#include "solver.h"

namespace poet {

// Why nothing fits, and the smallest RAM budget that would: a lower bound
// (one node with all its inputs) and, where the paging heuristic finds one,
// a budget that certainly works, which the result keeps for the explorer to
// offer.
// The budget that works is searched until `deadline` (the solve's time
// limit) or a cancel at most: resnet50 on m4 at 8% and 1.5x without paging
// (below what one node needs) searched ~2.9 s, with a 1 s limit. Cut short,
// it names the budget found so far, if any.
void explainInfeasible(SolveResult& result, const Problem& problem, Clock::time_point deadline,
                       const std::atomic<bool>* cancel, const std::string& why = {});

// What a solve that ends without a schedule says: what is known, and a RAM
// budget where the quick heuristics have a schedule, which the result keeps
// for the explorer to offer: remat-only budgets this tight are often left
// open (bert on m4 at 10% and 1.5x without paging: about 42 MB, 11%).
// With paging off, whether switching it on has a schedule at once (the
// quick paging schedule).
//
// Searched on a thread of its own from the start of a solve with no quick
// schedule, so that the answer comes at the time limit and not after it:
// resnet50 on m4 at 10% and 1.5x without paging takes ~4 s of searching,
// and a 5 s solve ended at 7.8 s when it followed the time limit. It ends
// soon after `stop` is set (its quick schedules look at it between
// candidates), which the solve does when it shows a schedule.
class NoScheduleExplanation {
public:
    NoScheduleExplanation(const Problem& problem, std::atomic<bool>* stop)
        : stop_(stop), thread_([this, &problem] { search(problem); })
    {
    }
    ~NoScheduleExplanation() { end(); }

    // The result's message and budget, from what the search found by
    // `deadline` (or by a cancel).
    void explain(SolveResult& result, Clock::time_point deadline, const std::atomic<bool>* cancel)
    {
        while (!done_ && Clock::now() < deadline && !isSet(cancel))
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        end();
        std::string msg = "no schedule found within the time limit, and none proven impossible";
        if (works_) {
            result.ram_budget_that_works_bytes = *works_;
            msg += "; a schedule exists at " + std::to_string(*works_) + " B";
        }
        if (paging_helps_) msg += "; with paging on, a schedule exists at these budgets";
        result.message = msg;
    }

private:
    void search(const Problem& problem)
    {
        if (!problem.options.paging) {
            Problem paged = problem;
            paged.options.paging = true;
            paging_helps_ = heuristicSchedule(paged).has_value();
        }
        works_ = smallestQuickBudget(problem, problem.ram_budget_bytes, stop_);
        done_ = true;
    }
    void end()
    {
        *stop_ = true;
        if (thread_.joinable()) thread_.join();
    }

    std::atomic<bool>* stop_;
    std::atomic<bool> done_{false};
    std::optional<std::int64_t> works_;
    bool paging_helps_ = false;
    std::thread thread_;  // last: it starts once the rest is built
};

}  // namespace poet
