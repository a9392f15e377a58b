#include "solver.h"

#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <ClpEventHandler.hpp>
#include <OsiClpSolverInterface.hpp>

#include "arrival_bound.h"
#include "bucket_bound.h"
#include "checkpoint_bound.h"
#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"
#include "heuristic_schedule.h"
#include "paging_plan.h"
#include "problem_loader.h"
#include "relaxation_rounding.h"
#include "schedule_improvement.h"
#include "stage_bound.h"
#include "window_search.h"

namespace poet {

namespace {

using Clock = std::chrono::steady_clock;

// How long the short tails run where the window search follows them. Half
// the time left: resnet18_cifar on m4 at 17% and 1.5x, tail 11 (0.596339 J
// where tail 10 gives 0.593607 J: a 1.26% gap, not 1.71%) took 6 to 7 s
// beside the plan and the long tails, and a fifth or 0.3 of the time cut it
// short; the window search found no better schedules at 13.5 to 21% for
// the extra time (bench_solve, 30 s limit).
double shortTailsShare(double seconds_left)
{
    return 0.5 * seconds_left;
}

double relativeGap(double objective, double bound)
{
    if (objective <= 0) return 0;
    return std::max(0.0, (objective - bound) / objective);
}

// The bound a search must prove for `best_j` to be within `relative_gap` of
// it, a hair above the exact figure so that rounding cannot leave the
// proof short (infinite without a schedule: nothing proves that).
double gapAsksJ(double best_j, double relative_gap)
{
    return std::isfinite(best_j) ? best_j * (1 - 0.99 * relative_gap) : INFINITY;
}

// Collects incumbents from CBC (which calls it from its worker threads, and
// more than once per solution) and stops the search on cancel.
class IncumbentHandler : public CbcEventHandler {
public:
    struct Shared {
        const Problem* problem = nullptr;
        // The MILP being solved: a column solution's energy and schedule.
        std::function<double(const double*)> energy_of;
        std::function<Schedule(const double*)> decode;
        const std::atomic<bool>* cancel = nullptr;
        const IncumbentCallback* callback = nullptr;
        Clock::time_point start;
        double time_limit_s = INFINITY;
        // A bound proven elsewhere (stage_bound.h): an incumbent within
        // `relative_gap` of it ends the search.
        double known_bound_j = 0, relative_gap = 0;
        std::atomic<bool> lp_stopped{false};  // an LP solve was cut short
        // CBC's tree bound (model units) at its last node before any LP was
        // cut short: what its search proved (searchBound).
        double tree_bound = -INFINITY;
        std::atomic<bool> stopped_by_clock{false};  // the search, by the time limit or a cancel
        bool stopped_at_known_bound = false;
        // Set where known_bound_j proves best_j within the gap while the LP
        // runs (LongerTails): the LP stops then.
        std::atomic<bool> known_bound_proves_gap{false};
        // The search, and whether its tree has begun: a cancel in its root
        // ends it there (RootLpStop's `model`).
        CbcModel* model = nullptr;
        std::thread::id search_thread = std::this_thread::get_id();
        std::atomic<bool> in_tree{false};
        std::mutex mutex;
        double best_j = INFINITY;
        double first_solution_s = -1;
        bool cancelled = false;
    };

    explicit IncumbentHandler(Shared* shared) : shared_(shared) {}
    CbcEventHandler* clone() const override { return new IncumbentHandler(*this); }

    CbcAction event(CbcEvent which) override
    {
        if (which == node || which == treeStatus) shared_->in_tree = true;
        // CBC checks its own limit only between nodes; root cuts and heuristics
        // can run past it, so the handler checks the wall clock too.
        if (secondsSince(shared_->start) > shared_->time_limit_s) {
            shared_->stopped_by_clock = true;
            singleThreadedTreeFrom(model_, shared_->search_thread);
            return stop;
        }
        if (shared_->cancel && shared_->cancel->load()) {
            shared_->stopped_by_clock = true;
            std::lock_guard lock(shared_->mutex);
            shared_->cancelled = true;
            endAtCbcClock(model_);
            return stop;
        }
        if ((which == solution || which == heuristicSolution) && model_ && model_->bestSolution())
            report(model_->bestSolution());
        std::lock_guard lock(shared_->mutex);
        // From the search's own model only: with CBC threads, node events
        // come from the workers' copies, whose bounds are not the tree's.
        if ((which == node || which == treeStatus) && model_ == shared_->model && !shared_->lp_stopped) {
            const double bound = model_->getBestPossibleObjValue();
            if (bound < 1e300) shared_->tree_bound = std::max(shared_->tree_bound, bound);
        }
        const bool within_gap = std::isfinite(shared_->best_j) && shared_->known_bound_j > 0 &&
                                relativeGap(shared_->best_j, shared_->known_bound_j) <= shared_->relative_gap;
        if (!within_gap) return noAction;
        shared_->stopped_at_known_bound = true;
        return stop;
    }

private:
    void report(const double* x)
    {
        const double energy = shared_->energy_of(x);
        std::lock_guard lock(shared_->mutex);
        if (!(energy < shared_->best_j - 1e-12 * std::abs(energy))) return;  // the same incumbent again
        shared_->best_j = energy;
        if (shared_->first_solution_s < 0) shared_->first_solution_s = secondsSince(shared_->start);
        if (!shared_->callback || !*shared_->callback) return;
        SolveResult r;
        r.schedule = shared_->decode(x);
        r.replay = replaySchedule(shared_->problem->graph, *r.schedule, limitsOf(*shared_->problem));
        if (!r.replay.valid) return;  // never show what the replay rejects
        r.status = SolveStatus::Feasible;
        r.source = SolutionSource::Incumbent;
        r.objective_j = energy;
        r.solve_time_s = secondsSince(shared_->start);
        r.first_solution_time_s = shared_->first_solution_s;
        (*shared_->callback)(r);
    }

    Shared* shared_;
};

// Stops Clp's simplex on the deadline or on cancel. CBC raises no event
// during an LP solve, and the root LP of a large graph (resnet50: 0.4M
// columns) can take minutes; without this the time limit would not hold.
class LpDeadline : public ClpEventHandler {
public:
    explicit LpDeadline(IncumbentHandler::Shared* shared) : shared_(shared) {}
    ClpEventHandler* clone() const override { return new LpDeadline(*this); }
    int event(Event which) override
    {
        if (which != endOfIteration) return -1;
        const bool cancelled = shared_->cancel && shared_->cancel->load();
        const bool stop = secondsSince(shared_->start) > shared_->time_limit_s || cancelled ||
                          shared_->known_bound_proves_gap;
        if (!stop) return -1;
        shared_->lp_stopped = true;
        singleThreadedTreeFrom(shared_->model, shared_->search_thread);
        if (cancelled && !shared_->in_tree) endAtCbcClock(shared_->model);
        return 0;  // status "stopped by event"
    }

private:
    IncumbentHandler::Shared* shared_;
};

// What the incumbent handler needs to know of a solve of `milp`.
template <class Milp>
void describeSolve(IncumbentHandler::Shared& shared, const Milp& milp, const Problem& problem,
                   const SolverOptions& options, Clock::time_point start, const std::atomic<bool>* cancel,
                   const IncumbentCallback& onIncumbent)
{
    shared.problem = &problem;
    shared.energy_of = [&milp](const double* x) { return milp.energyJ(x); };
    shared.decode = [&milp](const double* x) { return milp.decode(x); };
    shared.cancel = cancel;
    shared.callback = &onIncumbent;
    shared.start = start;
    shared.time_limit_s = options.time_limit_s;
    shared.relative_gap = options.relative_gap;
}

// What `model`'s search proved (model units), at least `floor`. Where an
// LP was cut short, CBC's own bound is not proven: stopped in the root, it
// is that LP's unfinished objective (a copy of bert with three blocks at
// 34,540,093 B, 1.5x, 4 s on one core: 3.4e9 J, which passed for a proof
// of the schedule), and a node whose LP was stopped may be pruned. The
// tree's bound at its last node before then holds.
double searchBound(const CbcModel& model, const IncumbentHandler::Shared& shared, double floor)
{
    if (shared.lp_stopped) return std::max(floor, shared.tree_bound);
    return provenLowerBound(model, floor, shared.stopped_by_clock);
}

// The covering MILP of paging_plan.h, solved by CBC: its best schedule (if
// any), whether that is proven optimal or the plan infeasible, and a bound.
struct PlanOutcome {
    std::optional<Schedule> best;
    double best_j = INFINITY;
    double bound_j = 0;
    bool proven = false, infeasible = false, cancelled = false;
};

// Without `strong_branching`, CBC branches on pseudo-costs alone: a
// different search path (the second plan at the stall, below).
PlanOutcome solvePagingPlan(const PagingPlan& plan, const Problem& problem, const SolverOptions& options,
                            Clock::time_point start, double warm_energy_j, double first_solution_s,
                            const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent,
                            bool strong_branching = true)
{
    // A cancel is looked at between the steps before the search, which
    // take ~1.4 s in all at bert on m4 at 10% (loading the MILP ~0.3 s,
    // CBC's cut generators ~0.8 s): the solve waits for this to end.
    PlanOutcome out;
    out.cancelled = isSet(cancel);
    if (out.cancelled) return out;
    OsiClpSolverInterface lp;
    loadBinaryMilp(lp, plan);
    out.cancelled = isSet(cancel);
    if (out.cancelled) return out;

    IncumbentHandler::Shared shared;
    describeSolve(shared, plan, problem, options, start, cancel, onIncumbent);
    shared.best_j = warm_energy_j;  // report only what beats the warm start
    shared.first_solution_s = first_solution_s;

    // Its root LP stops on the deadline or a cancel too (bert at 30%: 0.4 s;
    // a background plan must stop at once when the solve answers).
    LpDeadline lp_deadline(&shared);
    lp.getModelPtr()->passInEventHandler(&lp_deadline);

    CbcModel model(lp);
    shared.model = &model;
    configureCbc(model, options, plan.objectiveOffsetJ(), plan.objectiveScale(),
                 options.time_limit_s - secondsSince(start), cancel);
    if (!strong_branching) model.setNumberStrong(0);
    IncumbentHandler handler(&shared);
    model.passInEventHandler(&handler);
    if (!(cancel && cancel->load())) model.branchAndBound();

    out.cancelled = shared.cancelled || (cancel && cancel->load());
    // An LP cut short proves nothing: neither infeasibility nor optimality
    // (in the tree, its node may be pruned as if infeasible); searchBound
    // says what bound holds.
    out.infeasible = model.isProvenInfeasible() && !out.cancelled && !shared.lp_stopped;
    out.proven = model.isProvenOptimal() && !out.cancelled && !shared.lp_stopped;
    if (const double* x = model.bestSolution()) {
        out.best = plan.decode(x);
        out.best_j = plan.energyJ(x);
    }
    const double cbc_bound = searchBound(model, shared, 0.0);
    out.bound_j = plan.objectiveOffsetJ() + std::max(0.0, cbc_bound / plan.objectiveScale());
    if (out.proven && out.best) out.bound_j = std::min(out.bound_j, out.best_j);
    return out;
}

// The paging plan as a heuristic, and where it was solved exactly in its
// time and some chain of it needs three visits or more, the plan with
// stopped chains too (PagingPlan's `stopped_chains`), from what the first
// found. bert on m4 at 8.5% and 1.5x: 116.099 J, then 112.329 J (each ~20
// s on one core). Where chains need two visits at most (resnet18_cifar at
// 11 to 13%, resnet50 at 8 to 10%) the second plan found nothing better,
// and at resnet18_cifar 13% its time on the second core delayed the window
// search: proven in 16.9 to 19.6 s instead of 12.6 to 13.6 s.
std::optional<Schedule> solvePlans(const Problem& problem, const SolverOptions& options, Clock::time_point start,
                                   const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent)
{
    const PagingPlan plan(problem);
    const PlanOutcome first = solvePagingPlan(plan, problem, options, start, INFINITY, -1, cancel, onIncumbent);
    if (!first.proven || !first.best || plan.mostVisits() < 3 || (cancel && cancel->load())) return first.best;
    const PagingPlan stopping(problem, true);
    if (stopping.stoppedChains() == 0) return first.best;
    const PlanOutcome second = solvePagingPlan(stopping, problem, options, start, first.best_j, -1, cancel, onIncumbent);
    return second.best && second.best_j < first.best_j ? second.best : first.best;
}

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
    // schedule by then until options.time_limit_s, then the local search
    // on its best for at most `search_s`, then the window search on the
    // better of that and `best_shown()` until `windows_s` (from `start`) or
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
            std::optional<Schedule> best;
            runUntil(
                [&] {
                    const auto now = Clock::now();
                    return plan_stop_ || now >= last_deadline || (now >= plan_deadline && planFoundOne());
                },
                [&](const std::atomic<bool>* stop) { best = solvePlans(problem_, options, start, stop, keep); });
            plan_done_ = true;
            if (best) replayAndHand(*best);
            const auto end = secondsAfter(start, windows_s);
            if (best && !stop_) {
                const auto deadline = std::min(secondsAfter(Clock::now(), search_s), end);
                replayAndHand(dropRecomputations(problem_.graph, *best, limitsOf(problem_), deadline, &stop_));
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

// Bucket bounds on longer tails (growBucketBound) on the second core, from
// before the LP relaxation to the end of CBC's search, wherever the
// nine-stage tail ran: CBC's second thread measured no gain there. Each
// tail is cut off at what the gap asks for (the best schedule's energy
// less the gap), which is all it needs to prove: CBC prunes far more then.
// The cutoff falls while a tail runs, as better schedules come in (the
// background plan's, during the LP): at 15% and a 0.5% gap, tail 18 began
// at 1.4 s cut off under the quick 0.630 J, the plan's 0.6209 J came at
// 5 s, and the tail proved 0.5% under that at 13.7 s.
// Each bound goes to the incumbent handler's shared state at once, which
// stops the LP and the search when the incumbent is within the gap of it.
//
// Long tails, one by one from nineteen, at the budgets where only they
// prove the gap (resnet18_cifar on m4 at 14% and 1.5x: tail 19 proves it in
// 10 s, tail 10 is not done in 23 s), and tail 18 alone from the short
// tails' start. Which of the two proves it first varies by budget, by up to
// 30 s. Each cut off at what a 30 s solve's schedule asks, from 18 (then
// 19) and 19, two at once on two cores: 13.5% 18.0 and 4.8 s, 13.55% 33.1
// and 8.1 (tail 18, 0.620757 J, cannot prove the 0.622543 J asked: it is
// solved to its end first), 13.7% 27.6 and 11.1, 14% 14.0 and 9.8, 14.5%
// 10.5 and 11.2, 15% 14.5 and 4.4, 15.5% 9.1 and 12.2, 16% 10.9 and 15.4 s;
// in 30 s solves, 14.6% 10.8 s with tail 18 and not proven with tail 19.
// Short tails, one by one from ten, in the LP's and CBC's place
// (growShortTails): at 17 to 21% only they finish (at 17%: tail 10 exact in
// 3 s, tails 18 and 19 not done in 30 s).
// CBC faults on some tails (fault_guard.h): such a tail ends the growth.
class LongerTails {
public:
    // `best_shown_j` gives the best schedule's energy announced so far (the
    // background plan's come in while the LP runs): the tails' cutoffs
    // follow the lower of it and the shared state's best (CBC's incumbents).
    LongerTails(const Problem& problem, int peak_stage, double seconds, IncumbentHandler::Shared& shared,
                std::function<double()> best_shown_j)
        : problem_(problem), peak_stage_(peak_stage), shared_(shared), best_shown_j_(std::move(best_shown_j))
    {
        thread_ = std::thread([this, seconds] { grow(kLongTail, seconds, &long_stop_); });
        // A cancel stops the long tails and tail 18 at once: they used to
        // run on until the plan had stopped too, three searches on two
        // cores, and the plan's root then took twice as long to end (bert on
        // m4 at 11% and 1.5x, cancelled 4 to 6 s in: returned 2.7 to 3.4 s
        // after the cancel).
        cancel_watch_ = std::thread([this] {
            for (; !long_stop_; std::this_thread::sleep_for(std::chrono::milliseconds(20)))
                if (shared_.cancel && shared_.cancel->load()) long_stop_ = true;
        });
    }
    LongerTails(const LongerTails&) = delete;
    LongerTails& operator=(const LongerTails&) = delete;
    ~LongerTails() { stop(); }

    // The short tails on the calling thread, beside the long ones, until
    // `seconds` pass, a tail proves the gap or `cancel` is set; tail 18
    // alone on a third thread from now until the long tails stop (a proof,
    // dropLongTailsUnlessOneIsDone, the rows below or stop()). At 13.5 to
    // 16% it or tail 19 proves the gap, often after the short tails' end;
    // at 19 to 21%, where no long tail is done in 30 s, the long tails stop
    // at the plan's stall and the window search has their core. It used to
    // stop at the short tails' end (when at 20% the window search wanted
    // its core: 0.589549 J, 0.98%, at 30 s with it running on; 0.588338 J,
    // 0.78%, without); resnet18_cifar at 16% (1.2, 1.5 and 2x, 30 s, two
    // runs each) was proven in 23.8 to 26.4 s then, 18.2 to 20.3 s now.
    // The short tails add the recompute-moment rows (bucket_bound.h) where
    // a tail's optimum breaks them. Those are the budgets where an add is
    // recomputed in layer1's backward (17 and 18%; at 13.5 to 16% layer1's
    // values are paged, and none breaks), where no long tail proves
    // anything (without the rows, tail 18 stays under tail 11 with them),
    // and only the short tails, solved again, may: tail 18 and the long
    // tails stop then, `on_moments` is called (from this thread), and the
    // short tails run on until `all_seconds` pass; `on_run_on` is called
    // (from a watching thread) when `seconds` pass then. resnet18_cifar on
    // m4 at 17% and 1.5x: tail 11 with the rows, 25 s of a core alone, was
    // not done in a 60 s solve with the long tails and the plan beside it.
    // Where `run_on_without_rows` (asked once, when `seconds` pass) says so,
    // they run on until `all_seconds` pass without the rows too (`on_run_on`
    // is called only where the rows break).
    void growShortTails(double seconds, double all_seconds, const std::atomic<bool>* cancel,
                        const std::function<void()>& on_moments, const std::function<void()>& on_run_on,
                        const std::function<bool()>& run_on_without_rows)
    {
        std::atomic<bool> moments_broken{false};
        const auto short_end = secondsAfter(Clock::now(), seconds);
        bool ran_on = false;               // the watcher's own
        std::optional<bool> without_rows;  // the watcher's own: run_on_without_rows's answer
        other_ = std::thread([this, all_seconds] { solveOne(kOtherLongTail, all_seconds, &long_stop_); });
        runUntil(
            [&] {
                if (proved() || (cancel && cancel->load())) return true;
                if (Clock::now() < short_end) return false;
                if (!without_rows) without_rows = run_on_without_rows();
                if (!moments_broken) return !*without_rows;
                if (!std::exchange(ran_on, true) && on_run_on) on_run_on();
                return false;
            },
            [&](const std::atomic<bool>* stop) {
                grow(kShortTail, std::max(seconds, all_seconds), stop,
                     {true,
                      [&] {
                          moments_broken = true;
                          long_stop_ = true;
                          if (on_moments) on_moments();
                      }},
                     kLookBack);
            });
    }

    // Whether a tail proved the gap (or stop() was called).
    bool proved() const { return stop_; }

    // Stops the long tails (and tail 18) where none is done by now, and
    // says whether it did: the second core is then free. The caller calls
    // it only where the gap is small enough for the window search to close
    // it (at the plan's stall or the short tails' end). At resnet18_cifar
    // on m4 and 1.5x, tail 18 or 19 proves the gap at 13.5 to 16%, in 11
    // to 29 s, often after this point; at 17 to 21% neither is done in 30
    // s. The price (measured before tail 18 ran beside the short tails):
    // 17 and 18%, where the gap is 1.27% then, lose their gain from the
    // second window thread (1.26%, not 1.03%, at 30 s; neither is proven).
    bool dropLongTailsUnlessOneIsDone()
    {
        std::lock_guard lock(shared_.mutex);
        if (longest_done_ < kOtherLongTail) long_stop_ = true;
        return long_stop_;
    }

    // Ends the search and waits for it.
    void stop()
    {
        stop_ = true;
        long_stop_ = true;
        if (cancel_watch_.joinable()) cancel_watch_.join();
        if (thread_.joinable()) thread_.join();
        if (other_.joinable()) other_.join();
    }
    // The best bound so far (0 if none) and its tail; call with the shared
    // state's mutex held, or after stop().
    double boundJ() const { return bound_j_; }
    int tail() const { return tail_; }
    int lookBackStage() const { return look_back_stage_; }

private:
    static constexpr int kLongTail = 19, kOtherLongTail = 18, kShortTail = 10;
    // Each short tail solved exactly is tried again with the over-budget
    // stage this many before it (growBucketBound): resnet18_cifar on m4 at
    // 19 and 20% and 1.5x, the short tails up to 13 stages cannot prove the
    // gap, and the last ten with stage 115 do in seconds.
    static constexpr int kLookBack = 4;

    void grow(int first_tail, double seconds, const std::atomic<bool>* stop, const RecomputeMoments& moments = {},
              int look_back = 0)
    {
        growBucketBound(
            problem_, peak_stage_, first_tail, seconds, stop,
            [this](const BucketBound& bound, int tail) { found(bound, tail); }, [this] { return enoughJ(); },
            moments, look_back);
    }
    void solveOne(int tail, double seconds, const std::atomic<bool>* stop)
    {
        found(bucketBound(problem_, bucketBoundStages(problem_, peak_stage_, tail), seconds, stop,
                          [this] { return enoughJ(); }),
              tail);
    }
    // What a tail must prove. Kept in the shared state too: found() and
    // CBC's handler judge the gap by its best_j.
    double enoughJ()
    {
        const double shown_j = best_shown_j_();
        std::lock_guard lock(shared_.mutex);
        shared_.best_j = std::min(shared_.best_j, shown_j);
        return gapAsksJ(shared_.best_j, shared_.relative_gap);
    }
    void found(const BucketBound& bound, int tail)
    {
        std::lock_guard lock(shared_.mutex);
        if (bound.complete && !bound.infeasible) longest_done_ = std::max(longest_done_, tail);
        // Not above the incumbent: that would be a fault, never a proof.
        if (bound.infeasible || bound.bound_j <= bound_j_ || bound.bound_j > shared_.best_j * (1 + 1e-9)) return;
        bound_j_ = bound.bound_j;
        tail_ = tail;
        look_back_stage_ = bound.look_back_stage;
        shared_.known_bound_j = std::max(shared_.known_bound_j, bound.bound_j);
        if (relativeGap(shared_.best_j, shared_.known_bound_j) <= shared_.relative_gap) {
            shared_.known_bound_proves_gap = true;
            stop_ = true;  // nothing more to prove
            long_stop_ = true;
        }
    }

    const Problem& problem_;
    const int peak_stage_;
    IncumbentHandler::Shared& shared_;
    const std::function<double()> best_shown_j_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> long_stop_{false};  // set with stop_, or alone (dropLongTailsUnlessOneIsDone)
    double bound_j_ = 0;
    int tail_ = 0;
    int look_back_stage_ = -1;  // the best bound's stage before its tail (-1: none)
    int longest_done_ = 0;  // the longest tail solved exactly
    std::thread thread_;  // the long tails
    std::thread other_;   // tail 18 (growShortTails)
    std::thread cancel_watch_;  // sets long_stop_ on a cancel
};

// How the result names a bucket bound on the stage-peak stage and a tail.
std::string bucketBoundName(int tail, int look_back_stage = -1)
{
    if (look_back_stage < 0)
        return "the bucket bound (the stage-peak stage and the last " + std::to_string(tail) +
               " over the budget, with time)";
    return "the bucket bound (the stage-peak stage, the last " + std::to_string(tail) + " over the budget and stage " +
           std::to_string(look_back_stage) + ", with time)";
}

// How the result names the checkpoint bound (its root or its tree).
std::string checkpointBoundName()
{
    return "the checkpoint bound (every stage's peak at once)";
}

// How the messages name carriedBoundHereOrLooser's looser budget ("2%").
std::string looserBudgetText()
{
    return std::to_string(std::lround(100 * kLooserBudgetShare)) + "%";
}

// Why nothing fits, and the smallest RAM budget that would: a lower bound
// (one node with all its inputs) and, where the paging heuristic finds one,
// a budget that certainly works, which the result keeps for the explorer to
// offer.
// The budget that works is searched until `deadline` (the solve's time
// limit) or a cancel at most: resnet50 on m4 at 8% and 1.5x without paging
// (below what one node needs) searched ~2.9 s, with a 1 s limit. Cut short,
// it names the budget found so far, if any.
void explainInfeasible(SolveResult& result, const Problem& problem, Clock::time_point deadline,
                       const std::atomic<bool>* cancel, const std::string& why = {})
{
    std::string msg = "no schedule fits these budgets" + why;
    const auto lower = minimumFeasibleBudgetLowerBound(problem.graph);
    std::optional<std::int64_t> works;
    runUntil([&] { return Clock::now() >= deadline || isSet(cancel); },
             [&](const std::atomic<bool>* stop) { works = smallestHeuristicBudget(problem, 0, stop); });
    if (works && *works <= problem.ram_budget_bytes) works.reset();  // short of the runtime budget, not of RAM
    result.ram_budget_that_works_bytes = works.value_or(0);
    if (problem.ram_budget_bytes < lower) {
        msg += ": the RAM budget is below " + std::to_string(lower) +
               " B, the smallest that holds one node with all its inputs";
        if (works) msg += "; a schedule exists at " + std::to_string(*works) + " B";
    } else if (works) {
        msg += "; the smallest RAM budget that would work lies between " + std::to_string(lower) + " B and " +
               std::to_string(*works) + " B (a schedule exists there" +
               (problem.options.paging ? "" : "; or switch paging on") + ")";
    } else {
        msg += problem.options.paging ? "; a larger runtime budget may help"
                                      : "; switching paging on, or a larger runtime budget, may help";
    }
    result.message = msg;
}

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

}  // namespace

int defaultSolverThreads()
{
    return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

SolveResult solve(const Problem& problem, const SolverOptions& options, const IncumbentCallback& onIncumbent,
                  const std::atomic<bool>* cancel)
{
    const auto start = Clock::now();
    const auto time_limit = secondsAfter(start, options.time_limit_s);
    SolveResult result;
    const ReplayLimits limits = limitsOf(problem);
    Formulation f(problem, options.variant);
    result.variables = f.columns();
    result.constraints = f.rows();

    // Each schedule better than every one announced before goes to
    // onIncumbent, from this thread or the background plan's; the best one
    // is kept.
    std::mutex announce_mutex;
    std::optional<Schedule> announced;
    ReplayReport announced_replay;
    // Set once a schedule is shown: nothing then needs the explanation of
    // a solve without one (NoScheduleExplanation, below).
    std::atomic<bool> explanation_stop{false};
    auto announce = [&](const Schedule& schedule, const ReplayReport& replay, double first_solution_s) {
        explanation_stop = true;
        std::lock_guard lock(announce_mutex);
        if (announced && !(replay.total_energy_j < announced_replay.total_energy_j)) return;
        announced = schedule;
        announced_replay = replay;
        if (!onIncumbent) return;
        SolveResult r;
        r.status = SolveStatus::Feasible;
        r.source = SolutionSource::Heuristic;
        r.schedule = schedule;
        r.replay = replay;
        r.objective_j = replay.total_energy_j;
        r.solve_time_s = secondsSince(start);
        r.first_solution_time_s = first_solution_s;
        onIncumbent(r);
    };
    auto bestShown = [&] {
        std::lock_guard lock(announce_mutex);
        return announced;
    };
    auto bestShownJ = [&] {
        std::lock_guard lock(announce_mutex);
        return announced ? announced_replay.total_energy_j : INFINITY;
    };
    // The paging plan on a second core (BackgroundPlan, below). Declared
    // after what it announces through, and before finishWith, which stops it.
    std::optional<BackgroundPlan> background_plan;
    std::optional<NoScheduleExplanation> explanation;  // where no quick schedule was found

    auto finishWith = [&](SolveStatus status, const Schedule* schedule, SolutionSource source, double bound_j) {
        // Stopped and joined first: the solve time includes it, and nothing is
        // announced after the answer.
        background_plan.reset();
        if (schedule) {
            result.schedule = *schedule;
            result.replay = replaySchedule(problem.graph, *schedule, limits);
        }
        // The background plan may have announced a better schedule after this
        // thread last took one: the answer is never worse than one shown.
        if (announced && status != SolveStatus::Infeasible &&
            (!schedule || announced_replay.total_energy_j < result.replay.total_energy_j)) {
            result.schedule = announced;
            result.replay = announced_replay;
            schedule = &*announced;
            source = SolutionSource::Heuristic;
            if (status != SolveStatus::Optimal) status = SolveStatus::Feasible;
        }
        result.status = status;
        result.source = schedule ? source : SolutionSource::None;
        if (schedule) result.objective_j = result.replay.total_energy_j;
        result.best_bound_j = bound_j;
        result.gap = schedule ? relativeGap(result.objective_j, bound_j) : 0;
        if (status == SolveStatus::NoSolution && result.message.empty()) {
            if (!explanation) explanation.emplace(problem, &explanation_stop);
            explanation->explain(result, time_limit, cancel);
        }
        explanation.reset();
        result.solve_time_s = secondsSince(start);
        return result;
    };

    // Computing a node holds its output and all its inputs at once: a proof of
    // infeasibility without a solve.
    if (problem.ram_budget_bytes < minimumFeasibleBudgetLowerBound(problem.graph)) {
        explainInfeasible(result, problem, time_limit, cancel);
        return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
    }
    if (f.triviallyInfeasible()) {
        result.message = "the runtime budget is below one plain pass (factor 1.0): every node must run at least once";
        return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
    }

    // A fast valid schedule first: an instant answer and CBC's first cutoff.
    std::optional<Schedule> warm;
    double warm_energy_j = INFINITY;
    ReplayReport warm_replay;
    auto consider = [&](std::optional<Schedule> candidate) {
        if (!candidate) return;
        ReplayReport rep = replaySchedule(problem.graph, *candidate, limits);
        if (!rep.valid || !(rep.total_energy_j < warm_energy_j)) return;
        warm = std::move(candidate);
        warm_energy_j = rep.total_energy_j;
        warm_replay = std::move(rep);
    };
    auto announceWarm = [&] {
        if (result.first_solution_time_s < 0) result.first_solution_time_s = secondsSince(start);
        announce(*warm, warm_replay, result.first_solution_time_s);
    };
    // Shows a schedule at once where it beats the best so far.
    auto considerAndAnnounce = [&](std::optional<Schedule> s) {
        const double before_j = warm_energy_j;
        consider(std::move(s));
        if (warm_energy_j < before_j) announceWarm();
    };
    for (const Schedule& hint : options.hints)
        if (hint.size() == problem.graph.size()) considerAndAnnounce(hint);
    if (options.use_heuristics) {
        // The paging heuristic's schedule is shown as soon as it is built,
        // before the baselines' (resnet50 at 35%: ~0.2 s, where all of them took ~3 s).
        QuickScheduleOptions quick;
        quick.threads = options.threads;
        quick.until = time_limit;
        quick.on_first = [&](const Schedule& s) { considerAndAnnounce(s); };
        considerAndAnnounce(bestQuickSchedule(problem, cancel, quick));
    }
    if (!warm) explanation.emplace(problem, &explanation_stop);
    // Every node runs at least once and paging costs >= 0, so one plain pass's
    // compute energy bounds every schedule: a warm start within the gap of it
    // needs no LP (resnet50 at 60% and 1.5x: 0.05% over it at once). The
    // stage-peak bound below may raise it.
    const double trivial_bound_j = f.objectiveOffsetJ();
    double known_bound_j = trivial_bound_j;
    std::string known_bound_name = "the plain-pass energy bound";
    auto withinGapOfKnownBound = [&] {
        return warm && relativeGap(warm_energy_j, known_bound_j) <= options.relative_gap;
    };
    auto finishWithKnownBound = [&] {
        result.message = known_bound_name + (warm_energy_j <= known_bound_j * (1 + 1e-12)
                                                 ? " is met"
                                                 : " proves it within the gap");
        return finishWith(SolveStatus::Optimal, &*warm, SolutionSource::Heuristic, known_bound_j);
    };
    // The best schedule, not proven within the gap: the known bound is all there is.
    auto finishShortOfKnownBound = [&] {
        result.message = known_bound_name + " gives the lower bound";
        return finishWith(SolveStatus::Feasible, &*warm, SolutionSource::Heuristic, known_bound_j);
    };
    auto outOfTime = [&] { return Clock::now() > time_limit || isSet(cancel); };
    auto finishOutOfTime = [&] {
        if (warm) return finishShortOfKnownBound();
        return finishWith(isSet(cancel) ? SolveStatus::Cancelled : SolveStatus::NoSolution, nullptr,
                          SolutionSource::None, known_bound_j);
    };
    // Between the bounds: out of time with a schedule in hand (without one,
    // a bound may still prove that none exists), the bounds left would only
    // make the answer late: resnet50 at 10% with a 0.5 s limit has its first
    // schedule at 1.3 s, and the checkpoint bound then built its MILP and
    // solved its LP to 1.7 s.
    auto outOfTimeBetweenBounds = [&] { return outOfTime() && (warm || isSet(cancel)); };
    if (withinGapOfKnownBound()) return finishWithKnownBound();
    const bool plan_is_exact = options.variant == FormulationVariant::Tight && PagingPlan::applies(problem);
    // Where recomputation is possible the paging plan is a restriction (each
    // value kept, paged, or recomputed from held inputs across each idle
    // span), so a heuristic: not a bound, but the best schedule at tight
    // budgets, where the LP and CBC after it rarely improve on it. Its own
    // optimum is solved as closely as its time allows (resnet18_cifar at 12%: 0.7471 J at a gap of 0.5%,
    // 0.7445 J closed). On one core it runs after the bounds and the local
    // search, for a quarter of the time at most (resnet18_cifar at 12 to
    // 16%: 4 to 6 s to its optimum); on two, beside them and the LP from
    // the start, until half the time limit, or where it has no schedule by
    // then until eight tenths: resnet50 on m4 at 10% and 1.5x (30 s),
    // beside a busy loop, has the plan's 48.284 J at 16.6 to 19.6 s in 5
    // runs of 8 (1.5 and 2x) where it used to end at 58.993 J (4 runs of 4;
    // the plan finds nothing until CBC's root cut passes end, ~11 s of one
    // core).
    // The window search after it, from the quick schedule, finds nothing
    // better there. Without paging (resnet18_cifar at 14 to 20%, bert and
    // resnet50 at 11 and 13%) the solves end as before.
    const bool plan_as_heuristic =
        options.use_heuristics && options.variant == FormulationVariant::Tight && !plan_is_exact;
    auto planOptions = [&](double until_s) {
        SolverOptions plan_options = options;
        plan_options.time_limit_s = std::min(options.time_limit_s, until_s);
        plan_options.relative_gap = 1e-6;
        return plan_options;
    };
    // On two cores, from the start. It does not touch `result`: the quick
    // schedule is announced first, with the time of the first schedule.
    if (plan_as_heuristic && options.threads >= 2)
        background_plan.emplace(
            problem, planOptions(0.8 * options.time_limit_s), start, 0.5 * options.time_limit_s,
            0.1 * options.time_limit_s, options.time_limit_s,
            [&, first_s = result.first_solution_time_s](const Schedule& s, const ReplayReport& replay) {
                announce(s, replay, first_s);
            },
            bestShown, cancel);
    // Takes the background plan's newest schedule where it beats the best so
    // far (it may end the solve at the next bound).
    auto withinGapWithPlan = [&] {
        if (background_plan) considerAndAnnounce(background_plan->take());
        return withinGapOfKnownBound();
    };
    // The stage of the stage-peak bound where that bound binds (the others
    // below add little to it), for the bucket bound after the local search.
    int peak_stage = -1;
    // A bound above a replayed schedule's energy cannot be: a fault (CBC's
    // cuts, say), never to be shown as a proof.
    auto raiseKnownBound = [&](double bound_j, auto name) {
        if (warm && bound_j > warm_energy_j * (1 + 1e-9)) return;
        if (bound_j <= known_bound_j) return;
        known_bound_j = bound_j;
        known_bound_name = name();
    };
    // The checkpoint bound's root, where it was cut short (its tree may
    // prove more: see where it runs in the LP's place, below).
    double checkpoint_root_j = 0;
    bool checkpoint_cut_short = false;
    if (options.variant == FormulationVariant::Tight && !plan_is_exact) {
        // Each bound below either proves that no schedule exists (the solve
        // ends with `why`) or may raise the known bound.
        auto provesInfeasible = [&](bool infeasible, double bound_j, auto why, auto name) {
            if (infeasible) {
                explainInfeasible(result, problem, time_limit, cancel, why());
                return true;
            }
            raiseKnownBound(bound_j, name);
            return false;
        };
        const Graph& g = problem.graph;
        // What each stage needs that the one before did not hold, summed over
        // the stages: strong where the stage-peak bound below is weak (the
        // tightest budgets, where no extra value fits beside a backward
        // node's operands). Milliseconds; a twentieth of the time at most.
        const ArrivalBound arrival = arrivalBound(problem, 0.05 * options.time_limit_s, cancel);
        if (provesInfeasible(
                arrival.infeasible, arrival.bound_j,
                [&] {
                    return ": the inputs " + g.node(arrival.stage).name + " (stage " + std::to_string(arrival.stage) +
                           ") needs do not fit beside " + g.node(arrival.stage - 1).name + " and cannot all be " +
                           (problem.options.paging ? "paged in or " : "") + "recomputed in time";
                },
                [] { return std::string("the arrival bound (what each stage needs that the one before did not hold)"); }))
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        if (withinGapWithPlan()) return finishWithKnownBound();
        if (outOfTimeBetweenBounds()) return finishOutOfTime();
        // Small exact MILPs, one per stage: often within the gap of the quick
        // schedule at once where the LP relaxation is far below it (tight
        // budgets with recomputation). A tenth of the time at most.
        const double enough_j = warm ? warm_energy_j * (1 - options.relative_gap) : INFINITY;
        const StageBound stage = stagePeakBound(problem, 0.1 * options.time_limit_s, cancel, enough_j);
        if (provesInfeasible(
                stage.infeasible, stage.bound_j,
                [&] {
                    return ": while " + g.node(stage.stage).name + " (stage " + std::to_string(stage.stage) +
                           ") runs with its inputs, the values read later do not fit and cannot all be " +
                           (problem.options.paging ? "paged out or " : "") + "recomputed within the runtime budget";
                },
                [&] { return "the stage-peak bound (at " + g.node(stage.stage).name + ")"; }))
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        if (withinGapWithPlan()) return finishWithKnownBound();
        if (outOfTimeBetweenBounds()) return finishOutOfTime();
        // Every over-budget stage's peak at once, each value's return shared
        // by the stages between two of its reads, with CBC's root cuts even
        // where its LP is below the bounds so far: bert on m4 at 1.5x rises
        // from the stage peak's 102.934 to 103.381 J at 20% in ~6 s, and
        // from its LP's 108.62 to 108.94 J at 10% (resnet18_cifar: 0.2 to
        // 0.6 s for nothing). A tenth of the time at most.
        const CheckpointBound checkpoints =
            checkpointBound(problem, 0.1 * options.time_limit_s, cancel, enough_j);
        if (provesInfeasible(
                checkpoints.infeasible, checkpoints.bound_j,
                [&] {
                    return std::string(": each stage fits alone, but not all of them within the runtime budget they "
                                       "share for recomputing what they hold");
                },
                checkpointBoundName))
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        checkpoint_root_j = checkpoints.bound_j;
        checkpoint_cut_short = !checkpoints.complete;
        if (withinGapWithPlan()) return finishWithKnownBound();
        if (outOfTimeBetweenBounds()) return finishOutOfTime();
        // The stages with no room beside their node for anything that
        // matters there (fullStages): what is away at one comes back before
        // the next, bucket by bucket. bert on m4 at 8.2 to 8.6% and 1.5x:
        // 111.733 J in 0.01 s, where the bounds above give 109.897 J. A tenth
        // of the time at most.
        if (const std::vector<int> full = fullStages(problem); full.size() > 1) {
            const BucketBound buckets = bucketBound(problem, full, 0.1 * options.time_limit_s, cancel);
            if (provesInfeasible(
                    buckets.infeasible, buckets.bound_j,
                    [] {
                        return std::string(": the stages with no room beside their node cannot all get their values "
                                           "back within the runtime budget they share");
                    },
                    [] { return std::string("the bucket bound on the full stages (no room beside their node)"); }))
                return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
            if (withinGapWithPlan()) return finishWithKnownBound();
            if (outOfTimeBetweenBounds()) return finishOutOfTime();
        }
        if (arrival.bound_j > trivial_bound_j) {
            // Where it binds, windows of seven stages carry what is in RAM
            // from one stage to the next: resnet18_cifar at 12% rises from
            // 0.669 J to 0.7222 J in 6 s (0.7174 J with windows of six, all
            // solved in 5 s; the windows from stage 1 alone: 0.7125 J), and
            // to 0.7434 J in ~11 s with the windows that look back to the
            // stage-peak stage (within 0.5% of the 0.7445 J schedule).
            // Eight tenths of the time at most (nothing else bounds these
            // budgets), at this budget and at one looser side by side on two
            // cores, sharing the windows (carriedBoundHereOrLooser), stopping
            // once their sum proves the gap of the best schedule shown, which
            // falls while it runs (11.5%: the quick schedule's 0.7519 J when
            // it begins, the plan's 0.7445 J at 2 s). resnet18_cifar at 1.5x,
            // 30 s, ends:
            //   11%: 7.7 s (this budget alone on one core: 18.2 s; with two
            //        fifths of the time: a 1.30% gap, the LP after it
            //        running 14 s for a lower bound),
            //   11.4%: 20 to 22 s (with seven tenths of the time: a 1.30%
            //        gap at 30 s in about one run in four; the higher of
            //        the two bounds, unshared: 1.30%),
            //   11.5%: 8.9 s (alone: 1.30% at 30 s),
            //   12%: 16.3 s (alone: 7.5 s),  13%: 7.4 s (alone: 5.8 s).
            // Where the bound known already proves the best schedule shown
            // (the full stages' at bert 8.5%: its schedule came at 63 s, and
            // this bound ran on to 96 s), it stops at once.
            auto gap_asks_j = [&] {
                const double asks_j = gapAsksJ(std::min(warm_energy_j, bestShownJ()), options.relative_gap);
                return known_bound_j >= asks_j ? -INFINITY : asks_j;
            };
            bool looser = false;
            // Never past the time limit (resnet50 at 10%: it begins at 6 s).
            const double carried_s =
                std::min(0.8 * options.time_limit_s, options.time_limit_s - secondsSince(start));
            const ArrivalBound carried = carriedBoundHereOrLooser(problem, 7, carried_s, cancel,
                                                                  stage.stage, gap_asks_j, options.threads, &looser);
            if (provesInfeasible(
                    carried.infeasible, carried.bound_j,
                    [&] {
                        return ": from stage " + std::to_string(carried.stage) +
                               " on, seven stages cannot get their inputs within the budgets" +
                               (looser ? " (even with " + looserBudgetText() + " more RAM)" : "");
                    },
                    [&] {
                        return std::string("the carried arrival bound (what each window of seven stages needs") +
                               (looser ? ", with " + looserBudgetText() + " more RAM)" : ")");
                    }))
                return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
            if (withinGapWithPlan()) return finishWithKnownBound();
            if (outOfTimeBetweenBounds()) return finishOutOfTime();
        }
        // The checkpoint bound's root cuts may pass the stage peak by a
        // hair (resnet18_cifar at 17%: 0.013%); bert's pass it by 0.4%.
        if (known_bound_j <= stage.bound_j * (1 + 1e-3)) peak_stage = stage.stage;
    }
    // A local search on the best schedule so far, a tenth of the time at
    // most each time, and never past the time limit (resnet50 at 10% and
    // 1.5x: the bounds before it ran 2 s over, and it went on to 35 s of
    // 30). It runs on the quick schedule first: resnet18_cifar at 25% and
    // 1.5x reaches 0.5675 J from it, within the gap of the stage-peak bound
    // at 0.5 s, and the plan below is not needed.
    auto searchFromWarm = [&] {
        if (!options.use_heuristics || !warm) return;
        const double before_j = warm_energy_j;
        const auto deadline = std::min(secondsAfter(Clock::now(), 0.1 * options.time_limit_s), time_limit);
        consider(dropRecomputations(problem.graph, *warm, limits, deadline, cancel));
        if (warm_energy_j < before_j) announceWarm();
    };
    searchFromWarm();
    if (withinGapWithPlan()) return finishWithKnownBound();
    if (plan_as_heuristic && !background_plan) {
        const double before_j = warm_energy_j;
        const SolverOptions plan_options = planOptions(secondsSince(start) + 0.25 * options.time_limit_s);
        consider(solvePlans(problem, plan_options, start, cancel, {}));
        if (warm_energy_j < before_j) {
            announceWarm();
            searchFromWarm();
        }
    }

    if (withinGapOfKnownBound()) return finishWithKnownBound();
    if (peak_stage >= 0) {
        // The stage-peak stage and the last nine over the budget, with time in
        // them (bucket_bound.h): the values away at the peak come back one
        // by one for the last gradients. resnet18_cifar at 15% and 1.5x:
        // 0.5972 J to 0.6066 J (solved exactly in ~2 s). After the local
        // search, which often closes the gap alone; a fifth of the time at
        // most.
        const BucketBound buckets =
            bucketBound(problem, bucketBoundStages(problem, peak_stage, 9),
                        std::min(0.2 * options.time_limit_s, options.time_limit_s - secondsSince(start)), cancel);
        if (buckets.infeasible) {
            explainInfeasible(result, problem, time_limit, cancel,
                              ": the stage-peak stage and the last nine cannot all fit within the runtime "
                              "budget they share");
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        }
        raiseKnownBound(buckets.bound_j, [] { return bucketBoundName(9); });
        if (withinGapWithPlan()) return finishWithKnownBound();
    }

    // Nothing to recompute: paging_plan.h's covering MILP has the same
    // optimum, with ~100 columns where this formulation has ~35,000.
    if (plan_is_exact) {
        const PagingPlan plan(problem);
        result.variables = plan.columns();
        result.constraints = plan.rows();
        const PlanOutcome out = solvePagingPlan(plan, problem, options, start, warm_energy_j,
                                                result.first_solution_time_s, cancel, onIncumbent);
        if (out.infeasible) {
            result.ram_budget_that_works_bytes = plan.smallestFeasibleBudget();
            result.message = "no schedule fits these budgets: with nothing to recompute, the smallest RAM budget "
                             "that works is " +
                             std::to_string(plan.smallestFeasibleBudget()) + " B" +
                             (problem.options.paging ? " (every value on flash whenever it is idle)"
                                                     : " without paging; switching paging on lowers it") +
                             (problem.options.remat ? "; a larger runtime budget allows recomputation"
                                                    : "; switching rematerialization on may lower it");
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        }
        const bool plan_wins = out.best && (!warm || out.best_j <= warm_energy_j * (1 + 1e-12));
        const Schedule* best = plan_wins ? &*out.best : (warm ? &*warm : nullptr);
        if (!best)
            return finishWith(out.cancelled ? SolveStatus::Cancelled : SolveStatus::NoSolution, nullptr,
                              SolutionSource::None, out.bound_j);
        const double energy = plan_wins ? out.best_j : warm_energy_j;
        const double bound = std::min(out.bound_j, energy);
        const bool proven = out.proven && relativeGap(energy, bound) <= options.relative_gap + 1e-12;
        if (proven)
            result.message = "solved exactly as a paging plan (nothing with a cost can be recomputed; "
                             "a cost-free input is read again where needed)";
        finishWith(proven ? SolveStatus::Optimal : SolveStatus::Feasible, best,
                   proven ? SolutionSource::Proven
                          : (plan_wins ? SolutionSource::Incumbent : SolutionSource::Heuristic),
                   bound);
        if (!result.replay.valid)  // should never happen: the plan and the replay disagree
            result.message = "internal error: the replay rejected the paging plan's schedule: " +
                             result.replay.errors.front();
        return result;
    }

    IncumbentHandler::Shared shared;
    describeSolve(shared, f, problem, options, start, cancel, onIncumbent);
    shared.best_j = warm_energy_j;
    shared.known_bound_j = known_bound_j;
    // Longer tails on the second core from here on, beside the short tails
    // and the window search (or, with no schedule yet, the LP and CBC).
    const bool grow_tails = options.threads >= 2 && peak_stage >= 0;
    std::optional<LongerTails> tails;
    if (grow_tails) {
        if (background_plan) background_plan->stopWindows();
        tails.emplace(problem, peak_stage, options.time_limit_s - secondsSince(start), shared, bestShownJ);
    }
    auto takeTailsBound = [&] {
        if (!tails) return;
        double bound_j = 0;
        int tail = 0, look_back_stage = -1;
        {
            std::lock_guard lock(shared.mutex);
            bound_j = tails->boundJ();
            tail = tails->tail();
            look_back_stage = tails->lookBackStage();
        }
        raiseKnownBound(bound_j, [tail, look_back_stage] { return bucketBoundName(tail, look_back_stage); });
    };
    if (tails && warm) {
        // No LP relaxation and no CBC search where the tails run: there the
        // LP is 3 to 5% below the known bound (resnet18_cifar on m4 at 13.5
        // to 21% and 1.2 to 2x: 0.5716 J against 0.5934 J at 17%), so CBC's
        // search cannot prove the gap, its incumbents never beat the plan's
        // and the window search's, and the LP alone took 11 to 18 s of the
        // 30. The short tails take this core instead, for half the time
        // left; then the window search to the end, beside the long tails
        // where one is done by then or the gap is still over twice what is
        // asked (they alone prove 13.5 to 16%), else on both cores (19 to
        // 21%, where the long tails stop at the plan's stall already, below);
        // where the recompute-moment rows break (17 and 18%), as below. Each
        // pass of the window search starts from the best schedule shown and
        // ends when the plan (still running on the other core) shows a
        // better one.
        std::atomic<int> window_threads{1};
        std::atomic<double> windows_from_j = INFINITY;
        std::atomic<bool> within_gap{false};
        auto over = [&] {
            return within_gap || tails->proved() || (cancel && cancel->load()) ||
                   secondsSince(start) >= options.time_limit_s;
        };
        auto searchWindows = [&] {
            for (bool plan_showed_better = true; plan_showed_better && !over();
                 plan_showed_better = bestShownJ() < windows_from_j) {
                considerAndAnnounce(bestShown());
                windows_from_j = warm_energy_j;
                runUntil([&] { return over() || bestShownJ() < windows_from_j; },
                         [&](const std::atomic<bool>* stop) {
                             improveByWindows(problem, *warm, time_limit, stop,
                                              [&](const Schedule& better) {
                                                  considerAndAnnounce(better);
                                                  windows_from_j = warm_energy_j;
                                                  takeTailsBound();
                                                  within_gap = withinGapOfKnownBound();
                                              },
                                              &window_threads);
                         });
            }
        };
        // At the short tails' end, the long tails stop where none is done
        // and the best schedule is within twice the gap of `bound_j`: the
        // window search then solves two windows at once. A wider gap the
        // window search alone does not close (it gains up to ~0.5% here:
        // 0.5849 to 0.5822 J at 21%, whose gap is 0.76% at this point), and
        // a long tail still may. At 14.3% (1.05% here), 13.7% and 15.25%, the
        // long tail that proves it was done 1 to 7 s after this point, and
        // dropped here, the gap stayed 1.05 to 1.51% at 30 s; at 16% the gap
        // is 1.54% here.
        auto dropLongTailsWhereWindowsMayCloseGap = [&](double bound_j) {
            if (relativeGap(bestShownJ(), bound_j) <= 2 * options.relative_gap &&
                tails->dropLongTailsUnlessOneIsDone())
                window_threads = 2;
        };
        // Where the recompute-moment rows break, the window search takes the
        // plan's core at once, beside the short tails to the end (it alone
        // touches the best schedule and the known bound until it is
        // joined), and from the short tails' share on two windows at once:
        // resnet18_cifar on m4 at 17% and 1.5x, 60 s, is proven at 35 s
        // (tail 11, and the window search's 0.602575 J). It takes the plan's
        // core as well where the plan, still searching, has gained little
        // for kPlanStallS (the short tails end as usual then): at 19 and 20%
        // the window search's schedules (0.5894 and 0.5871 J) give the short
        // tails the cutoff that the last ten stages with stage 115 prove in
        // seconds. Where the plan is done, its core stays with the long
        // tails: taken there too, 13.5 to 16% were 1.5 to 3 s slower (16%:
        // 29.4 s, against 27.5 s).
        // The plan counts as stalled only once it has gained nothing for
        // longer than kPlanPace times its longest wait between two gains so
        // far, too: at 16% its gains to 0.6257, 0.6233, 0.6208 and 0.6185 J
        // come 2.8 to 3.5 s apart, so a 3 s stall often stopped it just
        // before the 0.6185 J that the proof needs (16% at 1.2, 1.5 and 2x,
        // 30 s: 7 of 12 runs proven with the 3 s alone, 5 of 6 with the
        // pace; a fixed 5 s: 6 of 6, but 20% lost 2 of 4, whose plan gains
        // little after 4.3 s: there the pace asks for about 3 s too).
        // And only where the best schedule is within kWindowsCloseGaps times
        // the gap of the known bound, which the window search and the short
        // tails close then; the long tails (none is done in 30 s there) stop
        // at once, so the two share both cores. At the stall, 19 to 21% are
        // at 0.80 to 1.07%, 15.5 to 18% at 1.5 to 5.6%. Before, at 20%,
        // four threads shared the cores until the short tails' end, and the
        // windows' 0.5872 J that the proof needs often came after it;
        // resnet18_cifar at 30 s, 3 runs each of 15% at 1.5x, 15.5% at
        // 1.2x, 16% at 2x, 19% at 1.5x, 20% at 1.2, 1.5 and 2x and 21% at
        // 2x, before and after: proven in 21 and 24 of 24 runs; medians 19%
        // 22.7 and 8.0 s, 20% 19.7 and 14.3 s (1.2x), 16.9 and 12.6 s
        // (1.5x), 30 s (1 of 3 proven) and 13.9 s (2x), 21% 21.7 and 16.6
        // s, 15.5% 20.8 and 16.5 s, 16% 27.8 and 26.0 s, 15% 13.2 and 12.6
        // s. Where the plan stalled early at a wide gap (15.5% at 1.2x: 5.6%
        // at 3.3 s), the windows from its first schedules ended at 1.88%:
        // now it runs on.
        constexpr double kPlanStallS = 3, kPlanPace = 1.25, kWindowsCloseGaps = 2.5;
        std::optional<std::thread> windows_beside;
        std::once_flag windows_started;
        std::atomic<bool> rows_broken{false}, short_tails_over{false}, windows_running{false};
        // At the plan's stall, before the windows: the paging plan again for
        // kSecondPlanS, CBC without strong branching, a different search
        // path to a schedule the windows may start from (the best shown). At
        // resnet18_cifar on m4 at 21% and 1.5x the plan (CBC's default)
        // finds 0.587186 J by 2.4 s and stalls; the windows from there
        // settle at 0.584192 J, which no bound proves within 0.5% (a 300 s
        // solve's is 0.580778 J). Its 0.584955 J at 6 to 7 s, which leads
        // the windows to 0.583363 J, came only where the stall came later.
        // Without strong branching, CBC finds 0.584898 J (the same trade:
        // layer2.0 and layer3.0 values paged, layer1.1.conv2 held) 2.4 to
        // 2.9 s after its start, and the windows from it 0.583348 J by 20 s.
        // Not the first plan's rule: at 17% that plan stays at 0.6064 J where
        // the default reaches 0.6041 J at 2.6 s (17% ended 0.66% short in 4
        // of 4 runs). Not where the rows broke (17 and 18%: the windows take
        // the core at once there), and it stops if they break meanwhile.
        constexpr double kSecondPlanS = 4;
        auto secondPlan = [&] {
            if (rows_broken) return;
            SolverOptions second = planOptions(secondsSince(start) + kSecondPlanS);
            second.threads = 1;
            const PagingPlan plan(problem);
            runUntil([&] { return over() || rows_broken; },
                     [&](const std::atomic<bool>* stop) {
                         solvePagingPlan(plan, problem, second, start, INFINITY, -1, stop,
                                         [&](const SolveResult& r) { considerAndAnnounce(*r.schedule); },
                                         /*strong_branching=*/false);
                     });
        };
        auto startWindowsBeside = [&] {
            std::call_once(windows_started, [&] {
                if (background_plan) background_plan->stopPlan();
                windows_running = true;
                windows_beside.emplace([&] {
                    secondPlan();
                    searchWindows();
                });
            });
        };
        auto sharedKnownBoundJ = [&] {
            std::lock_guard lock(shared.mutex);
            return shared.known_bound_j;
        };
        std::thread stall_watch([&] {
            for (; !short_tails_over; std::this_thread::sleep_for(std::chrono::milliseconds(20)))
                if (background_plan &&
                    background_plan->planStalledFor(
                        std::max(kPlanStallS, kPlanPace * background_plan->longestGainIntervalS())) &&
                    relativeGap(bestShownJ(), sharedKnownBoundJ()) <= kWindowsCloseGaps * options.relative_gap) {
                    startWindowsBeside();
                    tails->dropLongTailsUnlessOneIsDone();
                    return;
                }
        });
        const double left_s = options.time_limit_s - secondsSince(start);
        tails->growShortTails(
            shortTailsShare(left_s), left_s, cancel,
            [&] {
                rows_broken = true;
                startWindowsBeside();
            },
            [&] { window_threads = 2; },
            // Where the window search runs beside them already (from the
            // plan's stall), the short tails run on to the end, the windows
            // on one thread: the windows' last schedules (0.583348 J at 21%,
            // at 18 to 20 s) ask for more than the tails had proven by the
            // end of their share. At 21% they now prove 0.58061 J (the last
            // ten stages and stage 114), not 0.58044 J (the last ten).
            [&] { return windows_running.load(); });
        short_tails_over = true;
        stall_watch.join();
        if (windows_beside) {
            if (rows_broken) {
                window_threads = 2;  // this core is free now
            } else {
                // From the shared state: the window search alone touches the
                // best schedule and the known bound.
                dropLongTailsWhereWindowsMayCloseGap(sharedKnownBoundJ());
            }
            windows_beside->join();
        } else {
            takeTailsBound();
            dropLongTailsWhereWindowsMayCloseGap(known_bound_j);
            if (withinGapWithPlan()) return finishWithKnownBound();
            searchWindows();
        }
        // Out of windows (small graphs): the long tails may still prove the gap.
        while (!over()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (background_plan)
            background_plan->finish([&](Schedule s) {
                considerAndAnnounce(std::move(s));
                return false;
            });
        tails->stop();
        takeTailsBound();
        if (withinGapWithPlan()) return finishWithKnownBound();
        return finishShortOfKnownBound();
    }

    // Out of time (or cancelled) already: the LP's first factorization
    // alone would run past the limit (resnet50: 0.4M columns).
    if (outOfTime()) return finishOutOfTime();

    // Where the checkpoint bound is the best bound and its root was cut
    // short, its tree, cut off at what the gap asks, takes this core to the
    // end beside the window search (one window at a time, two once the tree
    // is done), in place of the LP relaxation and CBC's search: there the
    // LP (45 to 55 s) ended below it at every budget measured (bert on m4
    // at 9 to 15% and 1.5x), so CBC was never run, and the tree only began
    // after it. bert at 1.5x and 120 s, before and after: 11.25% proven in
    // 92 s and 59 s, 11.75% 0.57% at 120 s and proven in 108 s, 9% 2.15%
    // and 1.91%; 10 and 11% unchanged (0.70%, 0.52%: the tree, solved to
    // its end at 11%, leaves 0.52% of its own). resnet50 at 10% is not
    // such a case (the carried arrival bound is its best).
    if (background_plan && warm && !tails && checkpoint_cut_short && checkpoint_root_j >= known_bound_j) {
        // The plan stops once it has gained less than kSignificantGain for
        // kTreePlanStallS after its first schedule (not until half the
        // limit): the window search, which starts after it, then finds what
        // it finds sooner. bert at 1.5x and 120 s, one run each, before and
        // after: 11% the same 109.0869 J at 47 s, not 83 s; 11.75% its proof's
        // schedule at 45 s, not 83 s; 8.5% proven in 53 s, not 64 s; 9, 10,
        // 11.25 and 13% the same. A 10 s stall counted from the plan's start
        // ended 8.5% at 1.32% and 10% at 0.81% (stopped before the plan's
        // first schedule, or before its second search's gains at 40 s). A
        // plan that has found nothing in kTreePlanStallS stops too: 9% then
        // ends at 111.7035 J (1.82%) in three runs of three, not 111.8015 J
        // (1.91%), where the plan found nothing in 60 s; 10% at 109.7283 J
        // (0.70%), 8.5, 11.25, 11.75, 12 and 13% proven as before.
        constexpr double kTreePlanStallS = 20;
        std::atomic<bool> tree_stop{false}, tree_done{false};
        CheckpointBound tree;
        const double asks_j = gapAsksJ(warm_energy_j, options.relative_gap);
        std::thread checkpoint_tree([&, asks_j] {
            tree = checkpointBound(problem, options.time_limit_s - secondsSince(start), &tree_stop, INFINITY,
                                   /*exact=*/true, asks_j);
            tree_done = true;
            background_plan->useWindowThreads(2);  // this core is free now
        });
        // A cancel ends finish() at once (it stops the plan), and the tree
        // at its next LP iteration after that.
        auto treeProvesGap = [&] {
            return tree_done && tree.complete && relativeGap(bestShownJ(), tree.bound_j) <= options.relative_gap;
        };
        background_plan->stopPlanWhenStalledFor(kTreePlanStallS);
        background_plan->finish(
            [&](Schedule s) {
                considerAndAnnounce(std::move(s));  // each announced as it comes
                return withinGapOfKnownBound();
            },
            /*windows_to_the_end=*/true, 1, treeProvesGap);
        tree_stop = true;
        checkpoint_tree.join();
        raiseKnownBound(tree.bound_j, checkpointBoundName);
        if (withinGapOfKnownBound()) return finishWithKnownBound();
        return finishShortOfKnownBound();
    }
    OsiClpSolverInterface lp;
    loadMilp(lp, f, f.col_lower.data(), f.col_upper.data(), f.is_integer);
    lp.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    LpDeadline lp_deadline(&shared);
    lp.getModelPtr()->passInEventHandler(&lp_deadline);

    // The LP relaxation first: its rounding is a second fast schedule, and its
    // value a bound that may already prove the best schedule within the gap
    // (CBC's root cuts and heuristics take much longer on large graphs).
    if (warm) {
        // Primal simplex from the warm schedule (a values pass: pivots from a
        // feasible point, not from a slack basis). Measured against Clp's
        // dual: resnet18_cifar 1.0 s vs 3.0 s, bert at 40% and 1.5x 8.1 s vs
        // 78 s (bench_solve's lp_s column shows the time to this bound).
        const auto x = f.encode(*warm);
        lp.getModelPtr()->setLogLevel(0);
        lp.getModelPtr()->setColSolution(x.data());
        lp.getModelPtr()->primal(1);
    } else {
        lp.initialSolve();
    }
    double lp_j = -INFINITY;
    if (lp.isProvenOptimal() && !shared.lp_stopped) {
        result.lp_bound_time_s = secondsSince(start);
        lp_j = lp.getObjValue() / f.objectiveScale() + f.objectiveOffsetJ();
        if (lp_j > known_bound_j) {
            known_bound_j = lp_j;
            known_bound_name = "the LP relaxation's bound";
        }
        const double before_j = warm_energy_j;
        if (options.use_heuristics) {
            // Each rounding also gets its least paging (paging_plan.h) where
            // relieveToFit's greedy steps give up; a second each at most.
            const double plan_deadline_s = secondsSince(start) + 0.1 * options.time_limit_s;
            FitToBudget fit;
            if (problem.options.paging)
                fit = [&](const Schedule& rounded) -> std::optional<Schedule> {
                    const double left_s = plan_deadline_s - secondsSince(start);
                    if (left_s <= 0 || (cancel && cancel->load())) return std::nullopt;
                    SolverOptions plan_options = options;
                    plan_options.time_limit_s = secondsSince(start) + std::min(1.0, left_s);
                    plan_options.threads = 1;  // a small MILP: CBC threads only add overhead
                    const PagingPlan plan(problem, rounded);
                    return solvePagingPlan(plan, problem, plan_options, start, INFINITY, -1, cancel, {}).best;
                };
            consider(roundRelaxation(problem, f, lp.getColSolution(), fit));
        }
        if (warm_energy_j < before_j) announceWarm();
        if (withinGapWithPlan()) return finishWithKnownBound();
    }
    takeTailsBound();  // where it proves the gap, it stopped the LP
    if (withinGapWithPlan()) return finishWithKnownBound();
    // CBC's tree starts from the LP: where that is further below the known
    // bound than the gap, its search does not prove the gap in the time
    // left, and at those budgets its incumbents never beat the plan's and
    // the local search's (resnet18_cifar on m4 at 11 to 21% and 1.5x, before
    // the window search: the best schedule within 3.5 s in every case; bert
    // at 10%: nothing better in 600 s). The window search goes on to the
    // end instead.
    const bool search_cannot_prove = warm && lp_j < known_bound_j * (1 - options.relative_gap);
    // The background plan ran beside the LP too (bert at 20%: the LP takes
    // ~50 s); CBC starts from its best schedule.
    if (background_plan) {
        background_plan->finish(
            [&](Schedule s) {
                considerAndAnnounce(std::move(s));  // each announced as it comes
                return withinGapOfKnownBound();
            },
            search_cannot_prove);
        if (withinGapOfKnownBound()) return finishWithKnownBound();
    }
    // Out of time (or cancelled) already: CBC would only misread the cut-short LP.
    if (shared.lp_stopped || outOfTime()) return finishOutOfTime();

    SolverOptions cbc_options = options;
    if (grow_tails) cbc_options.threads = options.threads - 1;
    CbcModel model(lp);
    shared.model = &model;
    configureCbc(model, cbc_options, f.objectiveOffsetJ(), f.objectiveScale(), options.time_limit_s - secondsSince(start),
                 cancel);

    if (warm) {
        const auto x = f.encode(*warm);
        const double model_objective = (f.energyJ(x.data()) - f.objectiveOffsetJ()) * f.objectiveScale();
        model.setBestSolution(x.data(), static_cast<int>(x.size()), model_objective, true);
        std::lock_guard lock(shared.mutex);
        shared.best_j = f.energyJ(x.data());
        shared.first_solution_s = result.first_solution_time_s;
    }
    {
        std::lock_guard lock(shared.mutex);
        shared.known_bound_j = std::max(shared.known_bound_j, known_bound_j);
    }
    IncumbentHandler handler(&shared);
    model.passInEventHandler(&handler);

    if (!(cancel && cancel->load())) model.branchAndBound();
    if (tails) {
        tails->stop();
        takeTailsBound();
    }

    const bool cancelled = shared.cancelled || (cancel && cancel->load());
    if (result.first_solution_time_s < 0) result.first_solution_time_s = shared.first_solution_s;
    // A search cut short proves what searchBound says, and a stop at the
    // known bound may leave CBC without a bound: only the bounds proven
    // before CBC hold then.
    const double cbc_bound = searchBound(model, shared, -INFINITY);
    const double cbc_bound_j = cbc_bound / f.objectiveScale() + f.objectiveOffsetJ();
    const double bound_j = shared.stopped_at_known_bound ? known_bound_j : std::max(known_bound_j, cbc_bound_j);
    const double* best = model.bestSolution();
    std::optional<Schedule> found;
    if (best) found = f.decode(best);

    if (found) {
        // CBC's gap stop says "proven optimal" and a stop at the known bound
        // does not: judge by the gap itself (every bound here is proven).
        const double energy = f.energyJ(best);
        const double gap = relativeGap(energy, std::min(bound_j, energy));
        const bool proven = gap <= options.relative_gap + 1e-12;
        if (bound_j <= known_bound_j) result.message = known_bound_name + " gives the lower bound";
        finishWith(proven ? SolveStatus::Optimal : SolveStatus::Feasible, &*found,
                   proven ? SolutionSource::Proven
                          : (warm && *found == *warm ? SolutionSource::Heuristic : SolutionSource::Incumbent),
                   std::min(bound_j, energy));
        if (!result.replay.valid) {
            // Should never happen: the formulation and the replay disagree.
            result.message = "internal error: the replay rejected the solver's schedule: " + result.replay.errors.front();
        }
        return result;
    }
    if (model.isProvenInfeasible() && !cancelled && !shared.lp_stopped) {  // an LP cut short proves nothing
        explainInfeasible(result, problem, time_limit, cancel);
        return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
    }
    return finishWith(cancelled ? SolveStatus::Cancelled : SolveStatus::NoSolution, nullptr, SolutionSource::None,
                      bound_j);
}

}  // namespace poet
