#pragma once
// The paging plan, the local search on its best and the window search, on
// a thread of their own beside the rest of a solve (solver.cpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "deadline.h"
#include "plan_search.h"
#include "problem.h"
#include "replay.h"
#include "schedule.h"
#include "schedule_improvement.h"
#include "solver.h"
#include "window_search.h"

namespace poet {

// The paging plan (where it is a heuristic), the local search on its best
// and the window search (window_search.h) on the best schedule shown so
// far, on a second core from the start while the calling thread computes
// the bounds, the local search on the quick schedule and the LP relaxation
// (options.threads >= 2): its schedules come in while the one-core solve
// would not have started the plan yet. The plan, the windows and the small
// bound MILPs each use one CBC thread.
class BackgroundPlan {
public:
    // The plan runs until `plan_s` (from `start`), or where it has found no
    // schedule by then, or the plan at the problem's own budget is still in
    // CBC's root then, until options.time_limit_s, then the local search
    // for at most `search_s` on its best, or where a relieved schedule that
    // had the local search already beat the plan's own best, on the plan's
    // own (PlansFound::to_search), then the window search on the better of
    // that and `best_shown()` until `windows_s` (from `start`) or
    // stopWindows(). Each schedule goes to `announce` (with its replay) as
    // soon as it is found.
    using Announce = std::function<void(const Schedule&, const ReplayReport&)>;
    BackgroundPlan(const Problem& problem, SolverOptions options, Clock::time_point start, double plan_s,
                   double search_s, double windows_s, Announce announce,
                   std::function<std::optional<Schedule>()> best_shown, const std::atomic<bool>* cancel)
        : problem_(problem), cancel_(cancel), announce_(std::move(announce))
    {
        options.threads = 1;
        thread_ = std::thread([this, options, start, plan_s, search_s, windows_s,
                               best_shown = std::move(best_shown)] {
            // The plan's incumbents come replayed already.
            const IncumbentCallback keep = [this](const SolveResult& r) { hand(*r.schedule, r.replay); };
            // CBC's clock ends the plan's search, but not its set-up (loading
            // its MILP, building the cut generators and heuristics: ~1.4 s
            // at bert on m4 at 10%), which a stop flag cuts short: a 1 s
            // solve there returned after 1.8 s, its plan (0.5 s) still
            // building CBC's heuristics at 1.1 s.
            const auto plan_deadline = secondsAfter(start, plan_s);
            const auto last_deadline = secondsAfter(start, options.time_limit_s);
            PlansFound found;
            PlanProgress progress;
            // Past plan_s with the plan at the problem's own budget still in
            // CBC's root, the plan runs on to its own time limit: it has not
            // searched yet, and the schedule that would stop it came from the
            // tight plan. resnet50 on m4 at 10% and 1.5x (30 s): the tight
            // plan's 48.766885 J at ~2 s, then the own plan's root until 16
            // to 20 s beside the bounds, and its 48.284321 J after it; stopped
            // at plan_s (15 s) the solve ended 7.5 to 8.1% short, now 6.6 to
            // 6.8% (1.5 and 2x). Every plan run on to eight tenths of the
            // limit did as well there, but resnet18_cifar at 22% and 1.002x
            // then ended 1.29% short, not 0.79% (3 runs of 3).
            bool run_on = false;  // asked on runUntil's one watching thread
            runUntil(
                [&] {
                    const auto now = Clock::now();
                    if (plan_stop_ || now >= last_deadline) return true;
                    if (now < plan_deadline || !planFoundOne() || run_on) return false;
                    run_on = progress.inOwnPlansRoot();
                    return !run_on;
                },
                [&](const std::atomic<bool>* stop) {
                    found = solvePlans(problem_, options, start, stop, keep, &progress);
                });
            plan_done_ = true;
            if (found.best) replayAndHand(*found.best);
            const auto end = secondsAfter(start, windows_s);
            if (found.to_search && !stop_) {
                const auto deadline = std::min(secondsAfter(Clock::now(), search_s), end);
                replayAndHand(
                    dropRecomputations(problem_.graph, *found.to_search, limitsOf(problem_), deadline, &stop_));
            }
            // The best shown includes what was just handed over. Not started
            // at its end: building its MILP and index takes bert ~0.3 s.
            if (const std::optional<Schedule> from = best_shown(); from && !stop_ && Clock::now() < end) {
                improveByWindows(
                    problem_, *from, end, &windows_stop_,
                    [this](const Schedule& better) { replayAndHand(better); }, &window_threads_);
            }
            done_ = true;
        });
    }
    BackgroundPlan(const BackgroundPlan&) = delete;
    BackgroundPlan& operator=(const BackgroundPlan&) = delete;
    // A solve that ends before it needs the plan stops it.
    ~BackgroundPlan()
    {
        stopAll();
        thread_.join();
    }

    // The plan's newest schedule since the last call, if any.
    std::optional<Schedule> take()
    {
        std::lock_guard lock(mutex_);
        return std::exchange(latest_, std::nullopt);
    }

    // Ends the window search (the plan runs on): the caller's tails want the
    // second core. With three threads on two cores, resnet18_cifar at 14%
    // and 1.5x reached its LP bound at 18.6 s instead of 12.2 s.
    void stopWindows() { windows_stop_ = true; }

    // Ends the plan's search (what follows it runs on): its core is wanted
    // elsewhere.
    void stopPlan() { plan_stop_ = true; }

    // Ends the plan, what follows it and the window search.
    void stopAll() { stop_ = plan_stop_ = windows_stop_ = true; }

    // Whether its thread still works (the plan, what follows it, or the
    // window search): its schedules may still come.
    bool running() const { return !done_; }

    // The window search solves this many windows at once from its next pass.
    void useWindowThreads(int threads) { window_threads_ = threads; }

    // Whether the plan is still searching and has found no schedule
    // kSignificantGain below the last such one (or none since its start)
    // for `seconds`.
    bool planStalledFor(double seconds)
    {
        std::lock_guard lock(mutex_);
        return !plan_done_ && Clock::now() - last_gain_ >= std::chrono::duration<double>(seconds);
    }

    // Whether the plan has handed over a schedule.
    bool planFoundOne()
    {
        std::lock_guard lock(mutex_);
        return last_gain_j_ < INFINITY;
    }

    // The longest time so far between two of the plan's gains of
    // kSignificantGain (0 before its second).
    double longestGainIntervalS()
    {
        std::lock_guard lock(mutex_);
        return longest_gain_interval_s_;
    }

    // From now on, finish() stops the plan (what follows it runs on) once it
    // has found no schedule kSignificantGain below the last such one for
    // `seconds`, or none at all for `seconds` from its start. Its first
    // schedule may take 5 to 15 s (bert at 8.5 to 11%); at 9 and 10% it
    // often finds none in the half of the time limit it used to get (its
    // root's cuts break its LP: CBC's bound goes to -1e14), and the window
    // search waited for it.
    void stopPlanWhenStalledFor(double seconds) { stall_stop_s_ = seconds; }

    // Waits for the plan to end (passing a cancel on to it), handing each
    // new schedule to `use` as it comes. The window search ends at once
    // (CBC's search wants both cores), or with `windows_to_the_end` runs on
    // to its deadline, `window_threads` windows at once from its next pass.
    // Where `use` or `enough` (asked every few milliseconds) returns true,
    // the gap is proven: the plan and the window search both end (bert on
    // m4 at 13% and 1.5x, the plan's second search ran to 65 s after that).
    template <class Use>
    void finish(Use use, bool windows_to_the_end = false, int window_threads = 2,
                const std::function<bool()>& enough = {})
    {
        if (windows_to_the_end) window_threads_ = window_threads;
        else stopWindows();
        for (bool last = false; !last;) {
            last = done_;  // read before take(): the final schedule is handed before done_ is set
            if (cancel_ && cancel_->load()) stopAll();
            if (enough && enough()) stopAll();
            if (stall_stop_s_ > 0 && planStalledFor(stall_stop_s_)) stopPlan();
            if (std::optional<Schedule> s = take())
                if (use(std::move(*s))) stopAll();
            if (!last) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

private:
    void hand(const Schedule& schedule, const ReplayReport& replay)
    {
        announce_(schedule, replay);
        std::lock_guard lock(mutex_);
        latest_ = schedule;
        if (replay.total_energy_j < last_gain_j_ * (1 - kSignificantGain)) {
            const Clock::time_point now = Clock::now();
            if (last_gain_j_ < INFINITY)
                longest_gain_interval_s_ =
                    std::max(longest_gain_interval_s_, std::chrono::duration<double>(now - last_gain_).count());
            last_gain_j_ = replay.total_energy_j;
            last_gain_ = now;
        }
    }
    void replayAndHand(const Schedule& schedule)
    {
        const ReplayReport replay = replaySchedule(problem_.graph, schedule, limitsOf(problem_));
        if (replay.valid) hand(schedule, replay);
    }

    const Problem& problem_;
    const std::atomic<bool>* cancel_;
    Announce announce_;
    std::atomic<bool> stop_{false}, windows_stop_{false}, done_{false};
    std::atomic<bool> plan_stop_{false};  // set with stop_, or alone (stopPlan)
    std::atomic<bool> plan_done_{false};
    std::atomic<int> window_threads_{1};
    double stall_stop_s_ = 0;  // 0: finish() leaves the plan to its time limit (set and read by finish()'s caller)
    std::mutex mutex_;
    std::optional<Schedule> latest_;
    // A gain of 0.05%: at resnet18_cifar's 20% and 1.5x the plan's gains
    // after 3.6 s are 0.005% each; at 16% it gains 0.4% up to 7.4 s.
    static constexpr double kSignificantGain = 5e-4;
    double last_gain_j_ = INFINITY;
    Clock::time_point last_gain_ = Clock::now();  // the plan's start, until its first gain
    double longest_gain_interval_s_ = 0;  // between two such gains
    std::thread thread_;
};

}  // namespace poet
