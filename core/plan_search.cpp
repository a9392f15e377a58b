#include "plan_search.h"

#include <memory>
#include <stdexcept>

#include <OsiClpSolverInterface.hpp>

#include "baselines.h"
#include "cbc_setup.h"
#include "heuristic_schedule.h"
#include "incumbent_handler.h"
#include "replay.h"
#include "schedule_improvement.h"

namespace poet {

std::optional<PagedPlan> pagedExactly(const Problem& problem, const BoolMatrix& R, Clock::time_point deadline,
                                      const std::atomic<bool>* cancel)
{
    Schedule base;
    try {
        base = scheduleFromRecompute(problem.graph, R);
    } catch (const std::invalid_argument&) {
        return std::nullopt;  // a value read before any computation of it
    }
    const PagingPlan plan(problem, base);
    SolverOptions options;
    options.time_limit_s = std::chrono::duration<double>(deadline - Clock::now()).count();
    options.relative_gap = 1e-6;
    const PlanOutcome out = solvePagingPlan(plan, problem, options, Clock::now(), INFINITY, -1, cancel, {});
    if (!out.best) return std::nullopt;
    return PagedPlan{*out.best, out.best_j};
}

PlanOutcome solvePagingPlan(const PagingPlan& plan, const Problem& problem, const SolverOptions& options,
                            Clock::time_point start, double warm_energy_j, double first_solution_s,
                            const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent,
                            bool strong_branching, std::atomic<bool>* tree_begun)
{
    // A cancel is looked at between the steps before the search, which
    // take ~1.4 s in all at bert on m4 at 10% (loading the MILP ~0.3 s,
    // CBC's cut generators ~0.8 s): the solve waits for this to end.
    PlanOutcome out;
    out.cancelled = isSet(cancel);
    if (out.cancelled) return out;
    OsiClpSolverInterface lp;
    loadMilp(lp, plan, plan.col_lower.data(), plan.col_upper.data(), plan.is_integer);
    out.cancelled = isSet(cancel);
    if (out.cancelled) return out;

    IncumbentHandler::Shared shared;
    describeSolve(shared, plan, problem, options, start, cancel, onIncumbent);
    shared.best_j = warm_energy_j;  // report only what beats the warm start
    shared.first_solution_s = first_solution_s;
    shared.tree_begun = tree_begun;

    // Its root LP stops on the deadline or a cancel too (bert at 30%: 0.4 s;
    // a background plan must stop at once when the solve answers).
    LpDeadline lp_deadline(&shared);
    lp.getModelPtr()->passInEventHandler(&lp_deadline);

    // CBC 2.10.8 faults now and then in its dynamic branching (fault_guard.h;
    // six-block bert on m4 at 54,573,347 B and 1.01x, one fixed compute plan:
    // an assertion in CbcBranchDynamicDecision::betterBranch, every time).
    // The search is then made again with strong branching alone, and where
    // that faults too the plan gives nothing. On the heap: a model CBC
    // faulted in is leaked (guardedBranchAndBound).
    IncumbentHandler handler(&shared);
    std::unique_ptr<CbcModel> owned;
    for (int attempt = 0; attempt < 2 && !owned; ++attempt) {
        owned = std::make_unique<CbcModel>(lp);
        CbcModel& model = *owned;
        shared.model = &model;
        configureCbc(model, options, plan.objectiveOffsetJ(), plan.objectiveScale(),
                     options.time_limit_s - secondsSince(start), cancel);
        if (attempt > 0) model.setNumberBeforeTrust(0);
        else if (!strong_branching) model.setNumberStrong(0);
        model.passInEventHandler(&handler);
        if (cancel && cancel->load()) break;
        if (!guardedBranchAndBound(owned)) out.faulted = true;  // and `owned` released
    }
    if (!owned) {
        shared.model = nullptr;
        return out;
    }
    const CbcModel& model = *owned;

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

namespace {

// Where the spare time is scarce (spareTimeIsScarce), CBC's search of the
// plan stalls on its runtime row (resnet18_cifar on m4 at 20% of its peak
// and 1.002x: 0.621437 J, 0.36% over the plan's own bound after 120 s, with
// 493 columns). The plans at a looser runtime budget (the spare time this
// many times over), relieved to this one (relieveRuntime), find schedules
// outside the plan: 0.609374 J there.
constexpr double kRuntimeReliefMultiples[] = {2.0, 4.0, 10.0};

// Above 1.01x, the plan at 1.01x first, for a tenth of the plan's time at
// most: its runtime row prunes CBC's search, and the best schedules of
// these budgets use little of the spare time (resnet18_cifar on m4 at 16%:
// the 1.5x solve's 0.620817 J runs at 1.0059x). The plan alone, one core,
// 16%: its optimum 0.620817 J at 1.01x in 1.3 s, at 1.05x in 9.6 s, at
// 1.1x in 12 s (at 1.005x 0.649 J: too tight); at 14 to 22% its 1.01x
// schedules are as good as its 1.5x ones or better (20%: 0.589676 J
// against 0.592065 J). 30 s solves, both arms interleaved: 16% at 1.04,
// 1.05 and 1.055x proven in 19 to 25 s (were 2.04 to 2.41% short), 20% at
// 1.5x in 13.5 s (0.56% short); bert at 12% and 1.05x, 120 s, proven in
// 40 s (was 30 s: the tight plan had 9.6 s of its core). Not where the
// plan's chains need stopping (chainsNeedStopping): there the schedules
// recompute whole chains, which 1.01x has no time for (bert on m4 at 8.5%
// and 1.5x: its first schedule 127.56 J, where the stopped chains' first
// is under 116 J).
constexpr double kTightPlanFactor = 1.01, kTightPlanShare = 0.1;

// Up to 1.05x, not only where the spare time is scarce, the quick schedule
// at the first looser budget is relieved to this one (solvePlans): at these
// factors too this plan's search stalls above it. bert on m4 at 120 s (one
// run each, against the build before): at 12% and 1.04x 110.883206 J,
// 0.79% short (was 1.59%); at 14.2% and 1.03x proven in 11.7 s (was 0.84%
// short); at 16% and 1.03 and 1.04x proven in 34.7 and 10.2 s (were 0.88
// and 1.08% short); at 14.2% and 1.01x 0.75% short (was 1.16%); at 12%
// and 1.03x 0.66% (0.85%); at 16% and 1.02x proven in 4.6 s (11.1 s).
// resnet18_cifar on m4 at 16% and 1.05x: proven in 20.2 s of 30 (was
// 2.04% short). bert at 11% and 1.02x, proven at 18 s before, ended 0.51%
// short: the main thread's local search, which found its optimum from the
// quick schedule, ran on the relief's schedule instead and gained nothing
// there; it now tries the quick schedule too, proven in 13 to 22 s
// (solver.cpp; docs/solver.md, sessions 79 to 81).
bool reliefOfLooserQuickSchedulePays(const Problem& problem)
{
    return problem.options.remat && problem.runtime_budget_factor > 1 && problem.runtime_budget_factor <= 1.05;
}

// Some chain of the plan needs three visits or more: searchPlan solves the
// plan with stopped chains instead, and the tight plan is skipped.
bool chainsNeedStopping(const PagingPlan& plan) { return plan.mostVisits() >= 3; }

// The plan, or where some chain of it needs three visits or more, the plan
// with stopped chains alone: it only adds alternative spans to the first
// (each span is still bridged one way at most), so it holds every schedule
// of the first, and it finds bert's better ones (on m4 at 8.2 to 8.6% and
// 1.5x, 112.3729 J at 11 to 17 s on one core, against 116.0988 J). It used
// to follow the first plan once that was proven, ~20 s on: at 31,460,000 B
// the first plan's tree stays at 116.098093 J against 116.098750 J for more
// than 60 s, so the second never started.
PlanOutcome searchPlan(const Problem& problem, const SolverOptions& options, Clock::time_point start,
                       double warm_energy_j, const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent,
                       std::atomic<bool>* tree_begun = nullptr)
{
    // Built with the cancel: an incomplete plan goes to solvePagingPlan, which returns at once.
    const PagingPlan plan(problem, false, PagingPlan::CoverRows::BySize, cancel);
    if (chainsNeedStopping(plan) && !plan.cancelled())
        if (const PagingPlan stopping(problem, true, PagingPlan::CoverRows::BySize, cancel);
            stopping.stoppedChains() > 0)
            return solvePagingPlan(stopping, problem, options, start, warm_energy_j, -1, cancel, onIncumbent, true,
                                   tree_begun);
    return solvePagingPlan(plan, problem, options, start, warm_energy_j, -1, cancel, onIncumbent, true, tree_begun);
}

}  // namespace

PlansFound solvePlans(const Problem& problem, const SolverOptions& options, Clock::time_point start,
                      const std::atomic<bool>* cancel, const IncumbentCallback& onIncumbent, PlanProgress* progress)
{
    std::optional<Schedule> best;
    double best_j = INFINITY;
    bool best_searched = false;  // the local search has run on `best` to its end
    std::optional<Schedule> best_source;  // the looser plan's schedule `best` was relieved from
    const double relief_s = 0.25 * (options.time_limit_s - secondsSince(start));
    const auto relief_end = secondsAfter(Clock::now(), relief_s);
    const ReplayLimits limits = limitsOf(problem);
    // Keeps and announces a relieved schedule that beats the best so far.
    auto take = [&](std::optional<Schedule> fitted, const Schedule* source = nullptr) {
        if (!fitted) return;
        ReplayReport replay = replaySchedule(problem.graph, *fitted, limits);
        if (!(replay.total_energy_j < best_j)) return;
        best_j = replay.total_energy_j;
        best = std::move(fitted);
        best_source = source ? std::optional<Schedule>(*source) : std::nullopt;
        if (onIncumbent) onIncumbent(incumbentResult(*best, std::move(replay), best_j, start));
    };
    // The hints this budget rejects first (the explorer's schedules at the
    // budgets a slider just left, a sweep's last point), in half the
    // relief's time at most: a schedule solved at a looser runtime budget
    // often keeps more of what that search found than a looser plan or this
    // one. resnet18_cifar on m4 at 16% and 1.002x, relieved from a 1.003x
    // solve: 0.642844 J, where the solve alone ends at 0.647659 J. Not only
    // where the spare time is scarce: bert at 12% and 1.04x, relieved from
    // the 1.05x solve's schedule in 2 s, 110.999860 J, where the solve alone
    // ends at 111.774836 J after 300 s (at 16% the relief, 109.383972 J, is
    // above the solve's own 108.943735 J: the best of both is kept).
    take(relieveHints(problem, options.hints, secondsAfter(Clock::now(), 0.5 * relief_s), cancel));
    // The plan at the tight runtime budget, where this one is looser: its
    // schedules fit here as they are, each taken as it comes
    // (kTightPlanFactor).
    if (problem.options.remat && problem.runtime_budget_factor > kTightPlanFactor) {
        Problem tight = problem;
        tight.runtime_budget_factor = kTightPlanFactor;
        if (const PagingPlan plan(tight, false, PagingPlan::CoverRows::BySize, cancel); !chainsNeedStopping(plan)) {
            SolverOptions tight_options = options;
            tight_options.time_limit_s = secondsSince(start) + kTightPlanShare * options.time_limit_s;
            solvePagingPlan(plan, tight, tight_options, start, INFINITY, -1, cancel,
                            [&](const SolveResult& r) { take(*r.schedule); });
        }
    }
    if (reliefOfLooserQuickSchedulePays(problem)) {
        // This problem with `times` its spare time.
        auto looserBy = [&](double times) {
            Problem looser = problem;
            looser.runtime_budget_factor = 1 + times * (problem.runtime_budget_factor - 1);
            return looser;
        };
        // First the quick schedules (heuristic_schedule.h) at the first
        // looser budget, relieved: where this budget's plan and the looser
        // plans stall above them. bert on m4 at 12% and 1.002x: the plans'
        // 126.631500 J (0.54% over the stage-peak bound at 120 and 300 s);
        // the 1.004x quick schedule (125.455945 J) relieved gives 126.413256
        // J, within the gap (at 63 s of a 120 s solve; as a hint, proven at
        // 48.8 s). resnet18_cifar on m4 at 22% and 1.002x: proven in 17.8 to
        // 18.4 s (3 of 3), was 0.788% short at 30 s.
        // The best of them goes through the local search at that budget
        // first (dropRecomputations, a quarter of the relief's time at
        // most), as a solve there would do: bert at 11% and 1.002x, the
        // 1.004x quick schedule's 127.949616 J dropped is 125.905561 J in
        // 1.5 s, and relieved, swapped and dropped again (below) 127.091305
        // J, proven at 6.3 s of a 30 s solve (the plans alone: 128.467609
        // J, 0.98% short at 120 s); at 12% proven at 6.4 s (was 18.6 s).
        QuickScheduleOptions quick;
        quick.until = relief_end;
        const Problem first_looser = looserBy(kRuntimeReliefMultiples[0]);
        if (std::optional<Schedule> loose = bestQuickSchedule(first_looser, cancel, quick)) {
            const Schedule dropped =
                dropRecomputations(first_looser.graph, *loose, limitsOf(first_looser),
                                   std::min(relief_end, secondsAfter(Clock::now(), 0.25 * relief_s)), cancel);
            take(relieveRuntime(problem, dropped, relief_end, cancel), &dropped);
        }
        // The looser plans where the spare time is scarce (each a CBC
        // search: not tried above 1.005x).
        if (spareTimeIsScarce(problem)) {
            for (double times : kRuntimeReliefMultiples) {
                if (Clock::now() >= relief_end || isSet(cancel)) break;
                const Problem looser = looserBy(times);
                // Half of what is left for each looser plan, and as long again for its relief.
                SolverOptions looser_options = options;
                looser_options.time_limit_s =
                    secondsSince(start) + 0.5 * std::chrono::duration<double>(relief_end - Clock::now()).count();
                const PlanOutcome loose = searchPlan(looser, looser_options, start, INFINITY, cancel, {});
                if (!loose.best) continue;
                // Within the runtime budget already, the looser plan's optimum is this plan's.
                if (loose.proven && replaySchedule(problem.graph, *loose.best, limits).valid) {
                    if (loose.best_j < best_j) best = loose.best;
                    return {best, best};
                }
                take(relieveRuntime(problem, *loose.best, relief_end, cancel), &*loose.best);
            }
        }
        // The swaps (swapRecomputations) on the best of them alone, once all
        // are relieved, until the reliefs' end or for half their time,
        // whichever is later: run after each relief, they left the next
        // looser plan too little (resnet18_cifar on m4 at 16% and 1.001x:
        // 0.707661 J, 1.58% short at 30 s, where the schedules relieved
        // from the 1.004x plan on are proven in 13 s).
        if (best && best_source)
            take(swapRecomputations(problem, *best_source, *best,
                                    std::max(relief_end, secondsAfter(Clock::now(), 0.5 * relief_s)), cancel));
        // Then the local search that keeps values rather than recompute
        // them (dropRecomputations) on the best, before this plan's search,
        // not after it: bert on m4 at 12% and 1.002x, without the drop
        // above, the relief's 126.757173 J at 9.6 s of a 30 s solve,
        // dropped, is 126.413256 J (within the gap of the stage-peak bound)
        // in 3 s, and this plan's search finds nothing better; after it
        // that came at 18.6 s, and in a 120 s solve (the plan's time four
        // times as long) at 64 s.
        if (best)
            take(dropRecomputations(problem.graph, *best, limits, secondsAfter(Clock::now(), 0.5 * relief_s), cancel,
                                    &best_searched));
    }
    if (progress) progress->own_plan = true;
    PlanOutcome out =
        searchPlan(problem, options, start, best_j, cancel, onIncumbent, progress ? &progress->branching : nullptr);
    if (out.best && out.best_j < best_j) return {out.best, out.best};
    return {best, best_searched ? std::move(out.best) : best};
}

}  // namespace poet
