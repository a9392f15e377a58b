#pragma once
// What the solver's CBC searches share with the solve: each incumbent,
// replayed and announced as it comes, a cancel, the time limit and a bound
// proven elsewhere that ends a search (IncumbentHandler); Clp's simplex
// stopped on the same (LpDeadline); and the gap arithmetic.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <ClpEventHandler.hpp>

#include "cbc_setup.h"
#include "deadline.h"
#include "problem.h"
#include "relative_gap.h"
#include "replay.h"
#include "solver.h"

namespace poet {

// A schedule found during a search, with its replay, as onIncumbent receives it.
inline SolveResult incumbentResult(Schedule schedule, ReplayReport replay, double energy_j, Clock::time_point start)
{
    SolveResult r;
    r.schedule = std::move(schedule);
    r.replay = std::move(replay);
    r.status = SolveStatus::Feasible;
    r.source = SolutionSource::Incumbent;
    r.objective_j = energy_j;
    r.solve_time_s = secondsSince(start);
    return r;
}

// The bound a search must prove for `best_j` to be within `relative_gap` of
// it, a hair above the exact figure so that rounding cannot leave the
// proof short (infinite without a schedule: nothing proves that).
inline double gapAsksJ(double best_j, double relative_gap)
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
        // Asked at each LP iteration where set: whether a schedule shown
        // meanwhile (by the background plan) is within the gap of the bound
        // known as the LP began. The LP stops then too.
        std::function<bool()> shown_within_gap;
        // The search, and whether its tree has begun: a cancel in its root
        // ends it there (RootLpStop's `model`).
        CbcModel* model = nullptr;
        std::thread::id search_thread = std::this_thread::get_id();
        std::atomic<bool> in_tree{false};
        std::atomic<bool>* tree_begun = nullptr;  // set too, where given, for a caller on another thread
        std::mutex mutex;
        double best_j = INFINITY;
        double first_solution_s = -1;
        bool cancelled = false;
    };

    explicit IncumbentHandler(Shared* shared) : shared_(shared) {}
    CbcEventHandler* clone() const override { return new IncumbentHandler(*this); }

    CbcAction event(CbcEvent which) override
    {
        if (which == node || which == treeStatus) {
            shared_->in_tree = true;
            if (shared_->tree_begun) *shared_->tree_begun = true;
        }
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
        const bool within_gap = shared_->known_bound_j > 0 &&
                                withinGap(shared_->best_j, shared_->known_bound_j, shared_->relative_gap);
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
        Schedule schedule = shared_->decode(x);
        ReplayReport replay = replaySchedule(shared_->problem->graph, schedule, limitsOf(*shared_->problem));
        if (!replay.valid) return;  // never show what the replay rejects
        SolveResult r = incumbentResult(std::move(schedule), std::move(replay), energy, shared_->start);
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
                          shared_->known_bound_proves_gap ||
                          (shared_->shown_within_gap && shared_->shown_within_gap());
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
double searchBound(const CbcModel& model, const IncumbentHandler::Shared& shared, double floor);

}  // namespace poet
