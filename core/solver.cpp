#include "solver.h"

#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <thread>

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <ClpEventHandler.hpp>
#include <OsiClpSolverInterface.hpp>

#include "arrival_bound.h"
#include "background_plan.h"
#include "bound_schedule.h"
#include "bucket_bound.h"
#include "checkpoint_bound.h"
#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"
#include "heuristic_schedule.h"
#include "incumbent_handler.h"
#include "list_text.h"
#include "longer_tails.h"
#include "no_schedule_message.h"
#include "paging_plan.h"
#include "plan_search.h"
#include "problem_loader.h"
#include "relaxation_rounding.h"
#include "schedule_improvement.h"
#include "stage_bound.h"
#include "window_search.h"

namespace poet {

namespace {

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

// How the result names a bucket bound on the stage-peak stage and a tail.
std::string bucketBoundName(int tail, const std::vector<int>& added_stages = {}, int stride = 1)
{
    const std::string which =
        stride > 1 ? "every " +
                         (stride == 2 ? std::string("second") : stride == 3 ? "third" : std::to_string(stride) + "th") +
                         " of the last " + std::to_string(tail)
                   : "the last " + std::to_string(tail);
    if (added_stages.empty())
        return "the bucket bound (the stage-peak stage and " + which + " over the budget, with time)";
    std::vector<std::string> numbers;
    for (int t : added_stages) numbers.push_back(std::to_string(t));
    return "the bucket bound (the stage-peak stage, " + which + " over the budget and " +
           (added_stages.size() == 1 ? "stage " : "stages ") + joinAsList(numbers) + ", with time)";
}

// The share of the time limit the stage-peak stage alone (with time, cut
// off) may take: where it proves anything on resnet18_cifar it is done in
// 0.04 s, and on bert at 14.2% and 1.002x in 0.02 s (124.803 J, over the
// stage-peak bound's 124.655 J; uncut not done in 5 s).
constexpr double kPeakAloneShare = 0.02;

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

// One solve's state, shared by its steps, and the steps themselves in the
// order run() takes them: each step that may end the solve returns its
// answer (finishWith's), else nothing.
class SolveRun {
public:
    SolveRun(const Problem& problem, const SolverOptions& options, const IncumbentCallback& onIncumbent,
             const std::atomic<bool>* cancel);
    SolveResult run();

private:
    // The steps.
    std::optional<SolveResult> infeasibleAtOnce();
    void quickSchedules();
    void startBackgroundPlan();
    std::optional<SolveResult> boundsBeforeTheSearch();
    std::optional<SolveResult> localSearch();
    void planOnThisCore();
    std::optional<SolveResult> tailBounds();
    SolveResult solveAsPagingPlan();
    void startLongerTails();
    SolveResult tailsAndWindows();
    SolveResult checkpointTreeAndWindows();
    SolveResult lpAndSearch();

    // What the steps share.
    void announce(const Schedule& schedule, const ReplayReport& replay, double first_solution_s);
    std::optional<Schedule> bestShown();
    double bestShownJ() const { return announced_j.load(); }
    // What a bound must prove for the best schedule so far (this thread's or
    // one shown) to be within --gap; read again as better ones come in.
    double gapAsksOfBestJ() const { return gapAsksJ(std::min(warm_energy_j, bestShownJ()), options.relative_gap); }
    SolveResult finishWith(SolveStatus status, const Schedule* schedule, SolutionSource source, double bound_j);
    void consider(std::optional<Schedule> candidate);
    void announceWarm();
    void considerAndAnnounce(std::optional<Schedule> s);
    template <class Name>
    void raiseKnownBound(double bound_j, Name name);
    bool withinGapOfKnownBound() const;
    SolveResult finishWithKnownBound();
    SolveResult finishShortOfKnownBound();
    double secondsForAShareOfTheLimit(double share) const;
    bool outOfTime() const { return Clock::now() > time_limit || isSet(cancel); }
    SolveResult finishOutOfTime();
    bool outOfTimeBetweenBounds() const;
    SolverOptions planOptions(double until_s) const;
    bool withinGapWithPlan();
    Clock::time_point aTenthOfTheTimeAtMost() const;
    void searchFrom(const Schedule& from, Clock::time_point deadline);
    void takeTailsBound();

    const Problem& problem;
    const SolverOptions& options;
    const IncumbentCallback& onIncumbent;
    const std::atomic<bool>* cancel;
    const Clock::time_point start;
    const Clock::time_point time_limit;
    SolveResult result;
    const ReplayLimits limits;
    // formulation.md's MILP, built once the quick schedules are shown (a
    // 771-node graph's takes 2 s, which came before its first schedule),
    // stopped by a cancel or, with a schedule in hand, the time limit.
    std::optional<Formulation> formulation;
    // Builds it (once) and takes its size for the answer; false where it
    // was stopped (the answer then gives no size: 0 variables).
    bool buildFormulation();
    const Formulation& f() const { return *formulation; }

    // Each schedule better than every one announced before goes to
    // onIncumbent, from this thread or the background plan's; the best one
    // is kept.
    std::mutex announce_mutex;
    std::optional<Schedule> announced;
    ReplayReport announced_replay;
    // The announced energy (infinite before any), read without the mutex:
    // the LP asks it at every iteration (LpDeadline), and the mutex is held
    // while onIncumbent runs.
    std::atomic<double> announced_j{INFINITY};
    // Set once a schedule is shown: nothing then needs the explanation of
    // a solve without one (NoScheduleExplanation, below).
    std::atomic<bool> explanation_stop{false};
    // The paging plan on a second core (startBackgroundPlan). Declared after
    // what it announces through, so it is stopped first.
    std::optional<BackgroundPlan> background_plan;
    std::optional<NoScheduleExplanation> explanation;  // where no quick schedule was found
    // The best schedule this thread has taken (replayed): the answer, unless
    // a better one was shown (finishWith), and CBC's first cutoff.
    std::optional<Schedule> warm;
    double warm_energy_j = INFINITY;
    ReplayReport warm_replay;
    // This thread's own best, before the background plan's come in (the
    // local search may run on it).
    std::optional<Schedule> own_warm;
    double own_energy_j = INFINITY;
    // Every node runs at least once and paging costs >= 0, so one plain pass's
    // compute energy bounds every schedule: a warm start within the gap of it
    // needs no LP (resnet50 at 60% and 1.5x: 0.05% over it at once). The
    // stage-peak bound below may raise it.
    const double trivial_bound_j;
    double known_bound_j;
    std::string known_bound_name = "the plain-pass energy bound";
    // Nothing to recompute: the paging plan's MILP is exact (solveAsPagingPlan).
    const bool plan_is_exact;
    // Where recomputation is possible the paging plan is a restriction (each
    // value kept, paged, or recomputed from held inputs across each idle
    // span), so a heuristic: not a bound, but the best schedule at tight
    // budgets, where the LP and CBC after it rarely improve on it. Its own
    // optimum is solved as closely as its time allows (resnet18_cifar at 12%: 0.7471 J at a gap of 0.5%,
    // 0.7445 J closed). On one core it runs after the bounds and the local
    // search, for a quarter of the time at most (resnet18_cifar at 12 to
    // 16%: 4 to 6 s to its optimum); on two, beside them and the LP from
    // the start, until half the time limit, or where it has no schedule by
    // then, or its own plan is still in CBC's root then (background_plan.h,
    // since the tight plan hands over schedules within seconds), until
    // eight tenths: resnet50 on m4 at 10% and 1.5x (30 s), beside a busy
    // loop, has the plan's 48.284 J at 16.6 to 19.6 s in 5 runs of 8 (1.5
    // and 2x) where it used to end at 58.993 J (4 runs of 4; the plan finds
    // nothing until CBC's root cut passes end, ~11 s of one core).
    // The window search after it, from the quick schedule, finds nothing
    // better there. Without paging (resnet18_cifar at 14 to 20%, bert and
    // resnet50 at 11 and 13%) the solves end as before.
    const bool plan_as_heuristic;
    // The stage of the stage-peak bound where that bound binds (the others
    // below add little to it), for the bucket bound after the local search.
    int peak_stage = -1;
    // The checkpoint bound's root, where it was cut short (its tree may
    // prove more: see where it runs in the LP's place, below).
    double checkpoint_root_j = 0;
    bool checkpoint_cut_short = false;
    // How long the checkpoint bound's root took, where its LP was not
    // solved in its time (see where the LP or the tree would start).
    std::optional<double> checkpoint_lp_unsolved_s;
    // What CBC's incumbent handler, the LP's deadline and the longer tails
    // share (incumbent_handler.h), from startLongerTails on.
    IncumbentHandler::Shared shared;
    // Longer tails on the second core from the tails' step on, beside the
    // short tails and the window search (or, with no schedule yet, the LP
    // and CBC), where there are two threads and a stage-peak stage.
    std::optional<LongerTails> tails;
};

SolveRun::SolveRun(const Problem& problem, const SolverOptions& options, const IncumbentCallback& onIncumbent,
                   const std::atomic<bool>* cancel)
    : problem(problem),
      options(options),
      onIncumbent(onIncumbent),
      cancel(cancel),
      start(Clock::now()),
      time_limit(secondsAfter(start, options.time_limit_s)),
      limits(limitsOf(problem)),
      trivial_bound_j(problem.graph.totalComputeEnergy()),
      known_bound_j(trivial_bound_j),
      plan_is_exact(options.variant == FormulationVariant::Tight && PagingPlan::applies(problem)),
      plan_as_heuristic(options.use_heuristics && options.variant == FormulationVariant::Tight && !plan_is_exact)
{
}

bool SolveRun::buildFormulation()
{
    if (formulation) return !formulation->stopped();
    // Past the time limit only with a schedule in hand: without one, the
    // bounds that follow may still prove that none exists (as between them).
    formulation.emplace(problem, options.variant,
                        [this] { return isSet(cancel) || (warm && Clock::now() > time_limit); });
    if (formulation->stopped()) return false;
    result.variables = formulation->columns();
    result.constraints = formulation->rows();
    return true;
}

SolveResult SolveRun::run()
{
    if (auto done = infeasibleAtOnce()) return std::move(*done);
    // A fast valid schedule first: an instant answer and CBC's first cutoff.
    quickSchedules();
    if (const auto carried = strongestBoundFor(options.proven_bounds, problem))
        raiseKnownBound(carried->bound_j, [&] { return provenBoundName(*carried); });
    if (!buildFormulation()) return withinGapOfKnownBound() ? finishWithKnownBound() : finishOutOfTime();
    if (withinGapOfKnownBound()) return finishWithKnownBound();
    startBackgroundPlan();
    if (auto done = boundsBeforeTheSearch()) return std::move(*done);
    if (auto done = localSearch()) return std::move(*done);
    if (plan_as_heuristic && !background_plan) planOnThisCore();
    if (withinGapOfKnownBound()) return finishWithKnownBound();
    if (auto done = tailBounds()) return std::move(*done);
    if (plan_is_exact) return solveAsPagingPlan();
    startLongerTails();
    if (tails && warm) return tailsAndWindows();
    // Out of time (or cancelled) already: the LP's first factorization
    // alone would run past the limit (resnet50: 0.4M columns).
    if (outOfTime()) return finishOutOfTime();
    // Nearly so, where the checkpoint bound's LP was not solved in its
    // share: the checkpoint tree, or the LP relaxation (larger still), then
    // takes longer than that to load and presolve alone, which no stop
    // reaches. The 48-block bert at 20% and 1.5x with 5 s (its checkpoint
    // LP needs ~100 s, the root gave up after 1.1 s) got here with a second
    // left once its quick schedules came sooner: the tree ended at 5.4 to
    // 6.4 s, the LP at 8.5 to 10.6 s.
    if (warm && checkpoint_lp_unsolved_s &&
        std::chrono::duration<double>(time_limit - Clock::now()).count() < 2 * *checkpoint_lp_unsolved_s)
        return finishShortOfKnownBound();
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
    if (background_plan && warm && !tails && checkpoint_cut_short && checkpoint_root_j >= known_bound_j)
        return checkpointTreeAndWindows();
    return lpAndSearch();
}

void SolveRun::announce(const Schedule& schedule, const ReplayReport& replay, double first_solution_s)
{
    explanation_stop = true;
    std::lock_guard lock(announce_mutex);
    if (announced && !(replay.total_energy_j < announced_replay.total_energy_j)) return;
    announced = schedule;
    announced_replay = replay;
    announced_j = replay.total_energy_j;
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
}

std::optional<Schedule> SolveRun::bestShown()
{
    std::lock_guard lock(announce_mutex);
    return announced;
}

SolveResult SolveRun::finishWith(SolveStatus status, const Schedule* schedule, SolutionSource source, double bound_j)
{
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
    // A bound a hair above the schedule (raiseKnownBound lets in 1e-9 of
    // rounding) read as a contradiction: 0.10484881227577966 J under
    // 0.10484881227577965 J. The schedule's energy bounds its optimum too.
    result.best_bound_j = schedule ? std::min(bound_j, result.objective_j) : bound_j;
    result.gap = schedule ? relativeGap(result.objective_j, bound_j) : 0;
    // Said, as every answer without a schedule is: a script read no message.
    if (status == SolveStatus::Cancelled && !schedule && result.message.empty())
        result.message = "cancelled before any schedule was found";
    if (status == SolveStatus::NoSolution && result.message.empty()) {
        if (!explanation) explanation.emplace(problem, &explanation_stop);
        explanation->explain(result, time_limit, cancel);
    }
    explanation.reset();
    result.solve_time_s = secondsSince(start);
    return result;
}

void SolveRun::consider(std::optional<Schedule> candidate)
{
    if (!candidate) return;
    ReplayReport rep = replaySchedule(problem.graph, *candidate, limits);
    if (!rep.valid || !(rep.total_energy_j < warm_energy_j)) return;
    warm = std::move(candidate);
    warm_energy_j = rep.total_energy_j;
    warm_replay = std::move(rep);
}

void SolveRun::announceWarm()
{
    if (result.first_solution_time_s < 0) result.first_solution_time_s = secondsSince(start);
    announce(*warm, warm_replay, result.first_solution_time_s);
}

// Shows a schedule at once where it beats the best so far.
void SolveRun::considerAndAnnounce(std::optional<Schedule> s)
{
    const double before_j = warm_energy_j;
    consider(std::move(s));
    if (warm_energy_j < before_j) announceWarm();
}

// A bound above a replayed schedule's energy cannot be: a fault (CBC's
// cuts, say), never to be shown as a proof.
template <class Name>
void SolveRun::raiseKnownBound(double bound_j, Name name)
{
    if (warm && bound_j > warm_energy_j * (1 + 1e-9)) return;
    if (bound_j <= known_bound_j) return;
    known_bound_j = bound_j;
    known_bound_name = name();
}

bool SolveRun::withinGapOfKnownBound() const
{
    return warm && withinGap(warm_energy_j, known_bound_j, options.relative_gap);
}

SolveResult SolveRun::finishWithKnownBound()
{
    result.message =
        known_bound_name + (warm_energy_j <= known_bound_j * (1 + 1e-12) ? " is met" : " proves it within the gap");
    return finishWith(SolveStatus::Optimal, &*warm, SolutionSource::Heuristic, known_bound_j);
}

// The best schedule, not proven within the gap: the known bound is all there is.
SolveResult SolveRun::finishShortOfKnownBound()
{
    result.message = known_bound_name + " gives the lower bound";
    return finishWith(SolveStatus::Feasible, &*warm, SolutionSource::Heuristic, known_bound_j);
}

// The seconds a step may take: `share` of the time limit, never past it.
double SolveRun::secondsForAShareOfTheLimit(double share) const
{
    return std::min(share * options.time_limit_s, options.time_limit_s - secondsSince(start));
}

SolveResult SolveRun::finishOutOfTime()
{
    if (warm) return finishShortOfKnownBound();
    return finishWith(isSet(cancel) ? SolveStatus::Cancelled : SolveStatus::NoSolution, nullptr, SolutionSource::None,
                      known_bound_j);
}

// Between the bounds: out of time with a schedule in hand (without one,
// a bound may still prove that none exists), the bounds left would only
// make the answer late: resnet50 at 10% with a 0.5 s limit has its first
// schedule at 1.3 s, and the checkpoint bound then built its MILP and
// solved its LP to 1.7 s.
bool SolveRun::outOfTimeBetweenBounds() const
{
    return outOfTime() && (warm || isSet(cancel));
}

SolverOptions SolveRun::planOptions(double until_s) const
{
    SolverOptions plan_options = options;
    plan_options.time_limit_s = std::min(options.time_limit_s, until_s);
    plan_options.relative_gap = 1e-6;
    return plan_options;
}

// Takes the background plan's newest schedule where it beats the best so
// far (it may end the solve at the next bound).
bool SolveRun::withinGapWithPlan()
{
    if (background_plan) considerAndAnnounce(background_plan->take());
    return withinGapOfKnownBound();
}

Clock::time_point SolveRun::aTenthOfTheTimeAtMost() const
{
    return std::min(secondsAfter(Clock::now(), 0.1 * options.time_limit_s), time_limit);
}

// The local search on `from`, shown where it beats the best so far.
void SolveRun::searchFrom(const Schedule& from, Clock::time_point deadline)
{
    considerAndAnnounce(dropRecomputations(problem.graph, from, limits, deadline, cancel));
}

void SolveRun::takeTailsBound()
{
    if (!tails) return;
    double bound_j = 0;
    int tail = 0, stride = 1;
    std::vector<int> added_stages;
    {
        std::lock_guard lock(shared.mutex);
        bound_j = tails->boundJ();
        tail = tails->tail();
        stride = tails->stride();
        added_stages = tails->addedStages();
    }
    raiseKnownBound(bound_j, [tail, added_stages, stride] { return bucketBoundName(tail, added_stages, stride); });
}

std::optional<SolveResult> SolveRun::infeasibleAtOnce()
{
    // Computing a node holds its output and all its inputs at once: a proof of
    // infeasibility without a solve.
    const std::int64_t lower = minimumFeasibleBudgetLowerBound(problem.graph);
    // The runtime first: below one plain pass no RAM budget helps, and the
    // RAM's message named only the RAM (vgg16_cifar on m4 at 40% and 0.99x).
    if (runtimeBelowOnePass(problem)) {
        result.message = "the runtime budget is below one plain pass (factor 1.0): every node must run at least once";
        if (problem.ram_budget_bytes < lower)
            result.message += "; the RAM budget is also below " + std::to_string(lower) +
                              " B, the smallest that holds one node with all its inputs";
        buildFormulation();  // its size, as every answer gives
        return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
    }
    if (problem.ram_budget_bytes < lower) {
        explainInfeasible(result, problem, time_limit, cancel);
        buildFormulation();
        return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
    }
    return std::nullopt;
}

void SolveRun::quickSchedules()
{
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
    own_warm = warm;
    own_energy_j = warm_energy_j;
    if (!warm) explanation.emplace(problem, &explanation_stop);
}

void SolveRun::startBackgroundPlan()
{
    // On two cores, from the start. It does not touch `result`: the quick
    // schedule is announced first, with the time of the first schedule.
    if (plan_as_heuristic && options.threads >= 2)
        background_plan.emplace(
            problem, planOptions(0.8 * options.time_limit_s), start, 0.5 * options.time_limit_s,
            0.1 * options.time_limit_s, options.time_limit_s,
            [this, first_s = result.first_solution_time_s](const Schedule& s, const ReplayReport& replay) {
                announce(s, replay, first_s);
            },
            [this] { return bestShown(); }, cancel);
}

std::optional<SolveResult> SolveRun::boundsBeforeTheSearch()
{
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
        const auto checkpoint_start = Clock::now();
        const CheckpointBound checkpoints =
            checkpointBound(problem, 0.1 * options.time_limit_s, cancel, enough_j);
        if (!checkpoints.lp_solved) checkpoint_lp_unsolved_s = secondsSince(checkpoint_start);
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
        // Where the arrival bound binds but the bounds so far are already
        // more than kCarriedReach times its extra energy, the windows below
        // have not passed them in any case measured, and their two threads
        // starve the background plan: bert on m4 at 8.2 to 8.6% and 1.5x
        // (6.9 times; the windows, solved to their end, reach 109.908 J,
        // 6.1 times, against the full stages' 111.733 J), resnet50 at 10.7
        // to 12% (4.2 to 4.6 times; at 11% the windows reach the stage peak
        // and no more). Without them, 120 s: bert at 31,460,000 B proven in
        // 65 s (0.71% at 120 s with them), 8.3% in 22 s (30 s), 8.5% in 21 s
        // (34 s); resnet50 at 1.5x, 30 s: 11% 1.31% (2.17%), 12% 1.00%
        // (1.84%). Where the windows pass the bounds so far, those are close
        // to the arrival bound: resnet50 at 10%, 1.8 times (the windows reach
        // 2.0 times: 44.945 J against the stage peak's 44.730 J), and
        // resnet18_cifar at 11 to 13%, where it is the best (they reach 1.6
        // times).
        // With time to recompute (the spare time not scarce) the reach is
        // kCarriedReachWithTime: at resnet50's 10% the bucket bound's tails
        // after the stage-peak stage, which run where the windows do not,
        // prove more than the windows (m4, 30 s: 45.759 J, a gap of 5.1 to
        // 5.2% at 1.2 to 2x, against the windows' 45.11 J, 6.4 to 6.6%).
        // Where it is scarce the runtime row prunes the windows'
        // recomputations and they rise further: resnet18_cifar on jetsontx2
        // at 11 to 13% and 1.001x, 1.7 to 1.8 times, is proven by the
        // windows in 22 to 24 s (12%: 1.07% short), and with the tails
        // instead ends 1.3 to 2.6% short. Every other case measured with
        // time to recompute is at 1.5 times or less (resnet18_cifar on a72,
        // m0 and a72nocache at 11 to 13%), or past 3 (resnet50 at 10.4% and
        // up).
        constexpr double kCarriedReach = 3, kCarriedReachWithTime = 1.75;
        const double reach = spareTimeIsScarce(problem) ? kCarriedReach : kCarriedReachWithTime;
        const double arrival_extra_j = arrival.bound_j - trivial_bound_j;
        if (arrival_extra_j > 0 && known_bound_j - trivial_bound_j <= reach * arrival_extra_j) {
            // Where it binds, windows of seven stages (eight where the spare
            // time is scarce: carriedWindowStages) carry what is in RAM
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
                const double asks_j = gapAsksOfBestJ();
                return known_bound_j >= asks_j ? -INFINITY : asks_j;
            };
            bool looser = false;
            // Never past the time limit (resnet50 at 10%: it begins at 6 s).
            const double carried_s = secondsForAShareOfTheLimit(0.8);
            const int window = carriedWindowStages(problem);
            const ArrivalBound carried = carriedBoundHereOrLooser(problem, window, carried_s, cancel, stage.stage,
                                                                  gap_asks_j, options.threads, &looser);
            if (provesInfeasible(
                    carried.infeasible, carried.bound_j,
                    [&] {
                        return ": from stage " + std::to_string(carried.stage) +
                               " on, " + std::to_string(window) + " stages cannot get their inputs within the budgets" +
                               (looser ? " (even with " + looserBudgetText() + " more RAM)" : "");
                    },
                    [&] {
                        return "the carried arrival bound (what each window of " + std::to_string(window) +
                               " stages needs" +
                               (looser ? ", with " + looserBudgetText() + " more RAM)" : ")");
                    }))
                return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
            if (withinGapWithPlan()) return finishWithKnownBound();
            if (outOfTimeBetweenBounds()) return finishOutOfTime();
        }
        // The checkpoint bound's root cuts may pass the stage peak by a
        // hair: resnet18_cifar at 30 s, 0.125 to 0.165% at 17% and 1.005
        // to 1.03x, 19% at 1.05x, 21% at 1.02x and 24% at 1.05 to 1.2x,
        // 0.20 and 0.36% at 20% and 1.05 and 1.03x, else under 0.02%;
        // bert's by 0.31 to 0.33% at 9 to 16% and 1.5x, 2% at 8.5%, and by
        // 0.001 to 0.17% at 1.03x. Within kCheckpointPassesPeakByAHair the
        // tails run: at 17% and 1.01 to 1.04x (0.84 to 1.11% short at 30 s
        // with a margin of 0.1%) they prove the gap in 5 to 13 s; the other
        // resnet18_cifar cases it moves are proven either way (19% at
        // 1.05x in 13 to 26 s, was 9 to 12.5 s; 21% at 1.02x 3 s, 9 s and
        // 3.2 s over runs; 24% 3.5 s, was 4 s), and bert at 11% and 1.03x
        // ends ~0.96% short either way.
        // Where the spare time is scarce the bucket bound, which shares it
        // between the peak stage and the last ones, rises further anyway:
        // resnet18_cifar at 16% and 1.003x, the checkpoint bound's 0.611758
        // J is 0.36% over the stage peak, and tail 19 proves 0.623356 J
        // (proven in 13.2 s, was 2.35% short at 30 s); at 20% and 1.002x
        // 1.58% short, was 1.98%.
        // Where the stage-peak bound was cut short, its figure is below the
        // stage's own optimum, so the checkpoint bound stands in for it:
        // resnet18_cifar on m4 at 16% and 1.06x, stage 72 cut short (after
        // its quarter of a tenth of the time) gives 0.597077 J and solved
        // exactly (~6 s alone) 0.599301 J, the checkpoint bound to the last
        // digit. Without the tails that solve ended 3.09% short at 30 s (the
        // checkpoint bound), at 1.07x 3.33%; with them proven in 29 and 25 s.
        // Not where a bound beside them passes both (the arrival bound at
        // vgg16_cifar, resnet18 and transformer at 20 and 30%, whose stage
        // bounds are cut short too): nothing there says that the stage-peak
        // stage is where the bound binds.
        constexpr double kCheckpointPassesPeakByAHair = 2e-3;
        const double stage_peak_j = stage.complete ? stage.bound_j : std::max(stage.bound_j, checkpoints.bound_j);
        if (known_bound_j <= stage_peak_j * (1 + kCheckpointPassesPeakByAHair) || spareTimeIsScarce(problem))
            peak_stage = stage.stage;
    }
    return std::nullopt;
}

// A local search on the best schedule so far, a tenth of the time at
// most each time, and never past the time limit (resnet50 at 10% and
// 1.5x: the bounds before it ran 2 s over, and it went on to 35 s of
// 30). It runs on the quick schedule first: resnet18_cifar at 25% and
// 1.5x reaches 0.5675 J from it, within the gap of the stage-peak bound
// at 0.5 s, and the plan below is not needed.
std::optional<SolveResult> SolveRun::localSearch()
{
    // Where the best so far is the background plan's, the search then runs
    // on this thread's own best too (a hint or the quick schedule), in a
    // tenth of its own: bert on m4 at 11% and 1.02x, 120 s, the relief's
    // 119.796142 J gains nothing, the quick schedule's 121.903298 J becomes
    // 119.574878 J, within the gap (proven in 13 to 22 s; from the relief's
    // alone the solve ended 0.51 to 0.65% short). It runs whatever the first
    // search found: session 80 ran it only where that gained nothing, and
    // one run of nine ended 0.511% short. A tenth of its own, not what is
    // left of the first's: with that, the case above took 15 to 19.5 s alone
    // and 35 s with two solves at once (14.6 to 14.9 and 28 s with its own).
    // Not on the own schedule alone: where the plan's first schedule came
    // before it (resnet18_cifar at 1.2 to 2x), the search on it gains, and
    // on the own schedule alone 11 to 17% were 1 to 4 s slower.
    if (options.use_heuristics && warm) {
        const bool best_is_the_plans = own_warm && warm_energy_j < own_energy_j;
        searchFrom(*warm, aTenthOfTheTimeAtMost());
        if (best_is_the_plans && !withinGapWithPlan()) searchFrom(*own_warm, aTenthOfTheTimeAtMost());
    }
    if (withinGapWithPlan()) return finishWithKnownBound();
    return std::nullopt;
}

// On one core, the paging plan after the bounds and the local search, for
// a quarter of the time at most (plan_as_heuristic says why).
void SolveRun::planOnThisCore()
{
    const double before_j = warm_energy_j;
    const SolverOptions plan_options = planOptions(secondsSince(start) + 0.25 * options.time_limit_s);
    const PlansFound plans = solvePlans(problem, plan_options, start, cancel, {});
    consider(plans.best);
    if (warm_energy_j < before_j) {
        announceWarm();
        if (options.use_heuristics && plans.to_search) searchFrom(*plans.to_search, aTenthOfTheTimeAtMost());
    }
}

std::optional<SolveResult> SolveRun::tailBounds()
{
    if (peak_stage >= 0 && warm && spareTimeIsScarce(problem)) {
        // The stage-peak stage alone, with time in it (bucket_bound.h), cut off
        // at what the gap asks: where the spare time is scarce its time row
        // lifts it over the stage-peak bound, and with one stage and a cutoff
        // CBC is done at once. resnet18_cifar on m4 at 26% and 1.001x: it
        // proves the 0.659444 J schedule in 0.04 s alone, and the solve is
        // proven at 4.8 s (without it 0.584% short at 30 s: the stage with
        // the last nine below is not done); at 25% at 5.6 s, was 29.5 s.
        // Uncut it is not done in 30 s.
        const BucketBound alone =
            bucketBound(problem, {peak_stage}, secondsForAShareOfTheLimit(kPeakAloneShare), cancel,
                        [&] { return gapAsksJ(warm_energy_j, options.relative_gap); });
        if (!alone.infeasible)
            raiseKnownBound(alone.bound_j,
                            [] { return std::string("the bucket bound (the stage-peak stage alone, with time)"); });
        if (withinGapOfKnownBound()) return finishWithKnownBound();
    }
    if (peak_stage >= 0) {
        // The stage-peak stage and the last nine over the budget, with time in
        // them (bucket_bound.h): the values away at the peak come back one
        // by one for the last gradients. resnet18_cifar at 15% and 1.5x:
        // 0.5972 J to 0.6066 J (solved exactly in ~2 s). After the local
        // search, which often closes the gap alone; a fifth of the time at
        // most. Cut off at what the gap asks of the best schedule shown: CBC
        // prunes only branches whose bound reaches that, so an optimum under
        // it is still found (and its schedule, below), sooner, and one
        // over it proves the gap. resnet18_cifar on m4 (30 s solves, with
        // and without, alternated): solved exactly at 20% and 1.5x in 0.9 s
        // (was 4.2 s), at 21% in 1.0 s (4.1 s); at 17% and 1.002x in 1.7 s
        // (uncut, stopped at 6 s; the solve proven in 23.0 s, was 29.4 s),
        // at 14% and 1.001x in 3.4 s (stopped at 6 s). Where it is stopped
        // first, CBC kept no solution over the cutoff, so none makes a
        // schedule: at 17% and 1.001x, short either way, the solve ended
        // 0.89% short in 4 of 18 runs (11 of 17 uncut), else 1.235%.
        const BucketBound buckets =
            bucketBound(problem, bucketBoundStages(problem, peak_stage, 9), secondsForAShareOfTheLimit(0.2), cancel,
                        [&] { return gapAsksOfBestJ(); });
        if (buckets.infeasible) {
            explainInfeasible(result, problem, time_limit, cancel,
                              ": the stage-peak stage and the last nine cannot all fit within the runtime "
                              "budget they share");
            return finishWith(SolveStatus::Infeasible, nullptr, SolutionSource::None, 0);
        }
        raiseKnownBound(buckets.bound_j, [] { return bucketBoundName(9); });
        // With scarce spare time its solution is nearly a schedule (bound_schedule.h);
        // none where CBC found nothing under the cutoff.
        if (spareTimeIsScarce(problem) && !buckets.recomputations.empty())
            considerAndAnnounce(scheduleFromBound(problem, buckets.recomputations, aTenthOfTheTimeAtMost(), cancel));
        if (withinGapWithPlan()) return finishWithKnownBound();
    }
    return std::nullopt;
}

// Nothing to recompute: paging_plan.h's covering MILP has the same
// optimum, with ~100 columns where this formulation has ~35,000.
SolveResult SolveRun::solveAsPagingPlan()
{
    const PagingPlan plan(problem);
    result.variables = plan.columns();
    result.constraints = plan.rows();
    const PlanOutcome out = solvePagingPlan(plan, problem, options, start, warm_energy_j, result.first_solution_time_s,
                                            cancel, onIncumbent);
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
    const bool proven = out.proven && withinGap(energy, bound, options.relative_gap);
    if (proven)
        // Exact as a formulation, not as a solve: proven within --gap.
        result.message = std::string("solved as a paging plan, the same problem here (") +
                         (problem.options.remat ? "nothing with a cost can be recomputed; a cost-free input is "
                                                  "read again where needed)"
                                                : "recomputation is off)");
    finishWith(proven ? SolveStatus::Optimal : SolveStatus::Feasible, best,
               proven ? SolutionSource::Proven
                      : (plan_wins ? SolutionSource::Incumbent : SolutionSource::Heuristic),
               bound);
    if (!result.replay.valid)  // should never happen: the plan and the replay disagree
        result.message = "internal error: the replay rejected the paging plan's schedule: " +
                         result.replay.errors.front();
    return result;
}

void SolveRun::startLongerTails()
{
    describeSolve(shared, f(), problem, options, start, cancel, onIncumbent);
    shared.best_j = warm_energy_j;
    shared.known_bound_j = known_bound_j;
    if (options.threads >= 2 && peak_stage >= 0) {
        if (background_plan) background_plan->stopWindows();
        tails.emplace(
            problem, peak_stage, options.time_limit_s - secondsSince(start), shared, [this] { return bestShownJ(); },
            [this] { return bestShown().value_or(Schedule{}); },
            [this, first_s = result.first_solution_time_s](const Schedule& s) {
                const ReplayReport replay = replaySchedule(problem.graph, s, limits);
                if (replay.valid) announce(s, replay, first_s);
            });
    }
}

SolveResult SolveRun::tailsAndWindows()
{
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
    auto searchWindows = [&](Clock::time_point until, WindowPasses passes) {
        for (bool plan_showed_better = true; plan_showed_better && !over();
             plan_showed_better = bestShownJ() < windows_from_j) {
            considerAndAnnounce(bestShown());
            windows_from_j = warm_energy_j;
            runUntil([&] { return over() || bestShownJ() < windows_from_j; },
                     [&](const std::atomic<bool>* stop) {
                         improveByWindows(problem, *warm, until, stop,
                                          [&](const Schedule& better) {
                                              considerAndAnnounce(better);
                                              windows_from_j = warm_energy_j;
                                              takeTailsBound();
                                              within_gap = withinGapOfKnownBound();
                                              // Else the short tails beside run on to their end:
                                              // resnet18_cifar at 14% and 1.001x, 0.710050 J came
                                              // within the gap at 24 s, the answer at 30 s.
                                              if (within_gap) tails->provenElsewhere();
                                          },
                                          &window_threads, passes);
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
    // Where the spare time is scarce, the swap sets' time trades
    // (window_search.h) before the second plan, for kTradesFirstS at
    // most: after it and the page-out windows they came 17 to 19 s in.
    // resnet18_cifar on m4 at 1.001x, 30 s: at 18% the trade to
    // 0.690792 J now comes 9 to 10 s in and is proven at once (9.6 to
    // 11.6 s in 8 runs of 8; was proven in 3 runs of 5 at 17 to 21.5 s,
    // else 0.574% short); at 17%, from the plan's 0.700275 J, 0.697959 J
    // at 12.4 s (was 17.5 to 18.4 s), proven at 17.1 s. Where they find
    // nothing (14% at 1.001x, 16 and 18% at 1.002x, 17% at 1.005x) the
    // gaps at 30 s are as before.
    constexpr double kTradesFirstS = 3;
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
                if (spareTimeIsScarce(problem))
                    searchWindows(std::min(time_limit, secondsAfter(Clock::now(), kTradesFirstS)),
                                  WindowPasses::SwapSetsOnly);
                secondPlan();
                searchWindows(time_limit, WindowPasses::All);
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
        searchWindows(time_limit, WindowPasses::All);
    }
    // Out of windows (small graphs): the long tails may still prove the
    // gap, and the plan, where it still searches, show a schedule within it.
    auto working = [&] { return tails->searching() || (background_plan && background_plan->running()); };
    while (!over() && working()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const bool bounds_spent = !over();  // nothing runs, nothing proved it, time is left
    // Over (a proof, the time limit or a cancel): the plan, where it
    // still searches, is stopped, not waited for.
    if (background_plan) {
        background_plan->stopAll();
        background_plan->finish([&](Schedule s) {
            considerAndAnnounce(std::move(s));
            return false;
        });
    }
    tails->stop();
    takeTailsBound();
    considerAndAnnounce(bestShown());  // the tails' schedules are shown, not taken
    if (withinGapOfKnownBound()) return finishWithKnownBound();
    // Tails, windows and plan spent short of the gap with time left: the LP
    // and CBC's search have the rest, on both cores, as on one thread. This
    // thread slept to the time limit, "feasible" 7.5% short on a 7-node
    // graph that one thread proves in 0.03 s (a differential test, 3 of
    // 2,600 random graphs of 4 to 12 nodes).
    if (bounds_spent) {
        background_plan.reset();
        tails.reset();
        return lpAndSearch();
    }
    return finishShortOfKnownBound();
}

SolveResult SolveRun::checkpointTreeAndWindows()
{
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
        return tree_done && tree.complete && withinGap(bestShownJ(), tree.bound_j, options.relative_gap);
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
    // The tree solved to its end short of the gap, and the windows spent,
    // with time left (a graph of a dozen nodes, whose checkpoint bound is
    // 4.4% under the optimum): the LP and CBC's search have the rest, as on
    // one thread. The solve ended there at 4 s of 20, "feasible", where one
    // thread proves the optimum in 2 s. (A tree cut short at the windows'
    // end, as on bert, ends the solve as before.)
    if (tree.complete && !outOfTime()) {
        background_plan.reset();
        return lpAndSearch();
    }
    return finishShortOfKnownBound();
}

SolveResult SolveRun::lpAndSearch()
{
    OsiClpSolverInterface lp;
    loadMilp(lp, f(), f().col_lower.data(), f().col_upper.data(), f().is_integer);
    lp.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    LpDeadline lp_deadline(&shared);
    lp.getModelPtr()->passInEventHandler(&lp_deadline);
    // The LP stops where the background plan's schedule meets the gap of
    // the bounds so far: bert on m4 at 31,460,000 B and 1.5x (the LP takes
    // ~50 s; the carried windows skipped, above), the plan's 112.2326 J came
    // at 66 s, within 0.45% of the full stages' bucket bound, and the solve
    // ended at 118 s, with the LP.
    shared.shown_within_gap = [&, bound_j = known_bound_j] {
        return withinGap(bestShownJ(), bound_j, options.relative_gap);  // none shown: infinite gap
    };

    // The LP relaxation first: its rounding is a second fast schedule, and its
    // value a bound that may already prove the best schedule within the gap
    // (CBC's root cuts and heuristics take much longer on large graphs).
    if (warm) {
        // Primal simplex from the warm schedule (a values pass: pivots from a
        // feasible point, not from a slack basis). Measured against Clp's
        // dual: resnet18_cifar 1.0 s vs 3.0 s, bert at 40% and 1.5x 8.1 s vs
        // 78 s (bench_solve's lp_s column shows the time to this bound).
        const auto x = f().encode(*warm);
        lp.getModelPtr()->setLogLevel(0);
        lp.getModelPtr()->setColSolution(x.data());
        lp.getModelPtr()->primal(1);
    } else {
        lp.initialSolve();
    }
    double lp_j = -INFINITY;
    if (lp.isProvenOptimal() && !shared.lp_stopped) {
        result.lp_bound_time_s = secondsSince(start);
        lp_j = lp.getObjValue() / f().objectiveScale() + f().objectiveOffsetJ();
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
            consider(roundRelaxation(problem, f(), lp.getColSolution(), fit));
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
    if (tails) cbc_options.threads = options.threads - 1;
    shared.shown_within_gap = nullptr;  // the plan has finished: CBC alone finds schedules now
    auto owned = std::make_unique<CbcModel>(lp);  // leaked where CBC faults (guardedBranchAndBound)
    CbcModel& model = *owned;
    shared.model = &model;
    configureCbc(model, cbc_options, f().objectiveOffsetJ(), f().objectiveScale(),
                 options.time_limit_s - secondsSince(start), cancel);

    if (warm) {
        const auto x = f().encode(*warm);
        const double model_objective = (f().energyJ(x.data()) - f().objectiveOffsetJ()) * f().objectiveScale();
        model.setBestSolution(x.data(), static_cast<int>(x.size()), model_objective, true);
        std::lock_guard lock(shared.mutex);
        shared.best_j = f().energyJ(x.data());
        shared.first_solution_s = result.first_solution_time_s;
    }
    {
        std::lock_guard lock(shared.mutex);
        shared.known_bound_j = std::max(shared.known_bound_j, known_bound_j);
    }
    IncumbentHandler handler(&shared);
    model.passInEventHandler(&handler);

    const bool faulted = !(cancel && cancel->load()) && !guardedBranchAndBound(owned);
    if (tails) {
        tails->stop();
        takeTailsBound();
    }
    if (faulted) {
        // CBC's search found and proved nothing: what came before it stands.
        {
            std::lock_guard lock(shared.mutex);
            shared.model = nullptr;
        }
        considerAndAnnounce(bestShown());
        if (withinGapOfKnownBound()) return finishWithKnownBound();
        return finishOutOfTime();
    }

    const bool cancelled = shared.cancelled || (cancel && cancel->load());
    if (result.first_solution_time_s < 0) result.first_solution_time_s = shared.first_solution_s;
    // A search cut short proves what searchBound says, and a stop at the
    // known bound may leave CBC without a bound: only the bounds proven
    // before CBC hold then.
    const double cbc_bound = searchBound(model, shared, -INFINITY);
    const double cbc_bound_j = cbc_bound / f().objectiveScale() + f().objectiveOffsetJ();
    const double bound_j = shared.stopped_at_known_bound ? known_bound_j : std::max(known_bound_j, cbc_bound_j);
    const double* best = model.bestSolution();
    std::optional<Schedule> found;
    if (best) found = f().decode(best);

    if (found) {
        // CBC's gap stop says "proven optimal" and a stop at the known bound
        // does not: judge by the gap itself (every bound here is proven).
        const double energy = f().energyJ(best);
        const bool proven = withinGap(energy, bound_j, options.relative_gap);
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

}  // namespace

int defaultSolverThreads()
{
    return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

SolveResult solve(const Problem& problem, const SolverOptions& options, const IncumbentCallback& onIncumbent,
                  const std::atomic<bool>* cancel)
{
    // A small graph is solved as on one core: the LP and CBC's search prove
    // its MILP in seconds (2,500 columns at most for the bundled linear, 27
    // nodes), where the two-core pipeline handed the rest of the time to the
    // window search beside the paging plan, or to the checkpoint bound's
    // tree, and never ran CBC: "feasible" at the time limit, 0.6 to 5.6%
    // short, on 10 of 3,261 random graphs of 20 to 24 nodes, each proven on
    // one core in 0.4 to 4.1 s (a differential test, session 108). CBC's own
    // second thread also once idled 10 s at its end on such a graph. Up to
    // 64 nodes, as measured on 60 random graphs of 33 to 64 (seeds 40000 on,
    // gap 0, 20 s): one core proved 57, two threads 53, and the four more
    // one core proved (in 0.05 to 13.3 s) two threads left 0.1 to 2% short
    // at 20 s; 83 s in all on one core, 155 s on two. From 65 to 96 nodes
    // (seeds 41000 on) the two were even: one stall each way in 40.
    if (options.threads > 1 && problem.graph.size() <= kOneCoreMostNodes) {
        SolverOptions one_core = options;
        one_core.threads = 1;
        return SolveRun(problem, one_core, onIncumbent, cancel).run();
    }
    return SolveRun(problem, options, onIncumbent, cancel).run();
}

}  // namespace poet
