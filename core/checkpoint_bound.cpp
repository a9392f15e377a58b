#include "checkpoint_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <CglGMI.hpp>
#include <CglTwomir.hpp>

#include "cbc_setup.h"
#include "deadline.h"
#include "effective_budget.h"
#include "formulation.h"
#include "return_columns.h"
#include "stage_bound.h"

namespace poet {

namespace {

constexpr double kInf = std::numeric_limits<double>::max();

// The MILP of checkpoint_bound.h, in triplet form (cbc_setup.h).
class CheckpointMilp : public ReturnColumns {
public:
    CheckpointMilp(const Problem& problem, double scale) : ReturnColumns(problem)
    {
        const Graph& g = problem.graph;
        const int n = g.size();
        // The effective budget (effective_budget.h): the same schedules fit,
        // and the LP no longer holds a fraction of a value that cannot.
        const double budget = static_cast<double>(effectiveRamBudget(g, problem.ram_budget_bytes));
        for (int t = 0; t < n; ++t) {
            const StagePeak peak = stagePeak(problem, t);
            if (peak.fixed_bytes > budget) {
                impossible_ = true;
                return;
            }
            if (peak.plain_bytes <= budget) continue;
            ++stages_;
            std::vector<int> here(t, -1);
            const int memory = addRow(-kInf, budget - peak.fixed_bytes);
            for (int i = 0; i < t; ++i) {
                if (!peak.matters[i]) continue;
                here[i] = addColumn(0);
                term(memory, here[i], static_cast<double>(g.node(i).memory_bytes));
                if (!peak.read_later[i]) continue;
                const Return back = returnOf(problem, i, t, scale);
                const int row = addRow(1, kInf);
                term(row, here[i], 1);
                term(row, back.paged, 1);
                term(row, back.recomputed, 1);
            }
            for (int i = 0; i < t; ++i) {
                if (!peak.matters[i] || !peak.recomputable[i]) continue;
                const int recomputed = returnOf(problem, i, t, scale).recomputed;
                for (int u : g.predecessors(i)) {  // recomputing i after t needs u here at t or back after it
                    if (peak.input[u]) continue;
                    const Return back = returnOf(problem, u, t, scale);
                    const int needs = addRow(0, kInf);
                    term(needs, here[i], 1);
                    term(needs, here[u], 1);
                    term(needs, back.paged, 1);
                    term(needs, back.recomputed, 1);
                    term(needs, recomputed, -1);
                }
            }
        }
    }

    bool impossible() const { return impossible_; }
    // The plain pass exceeds the budget at this many stages (none: nothing to bound).
    int stages() const { return stages_; }

private:
    // The columns for i's return after stage t, in its interval there.
    Return returnOf(const Problem& problem, int i, int t, double scale)
    {
        const auto& reads = problem.graph.successors(i);  // ascending
        const int interval = static_cast<int>(std::lower_bound(reads.begin(), reads.end(), t) - reads.begin());
        const auto it = returns_.find({i, interval});
        if (it != returns_.end()) return it->second;
        return returns_[{i, interval}] = addReturn(problem, i, scale);
    }

    std::map<std::pair<int, int>, Return> returns_;  // (value, interval)
    int stages_ = 0;
    bool impossible_ = false;
};

// SearchStop that keeps its tree's bound (model units) as of each node
// before the deadline, in `kept`: the tree's LPs stopped after it
// (RootLpStop's `tree_deadline`) may have pruned nodes they did not solve,
// so nothing CBC reports after that holds.
class TreeBoundKeeper : public SearchStop {
public:
    TreeBoundKeeper(Clock::time_point deadline, const std::atomic<bool>* cancel, RootLpStop::State* root,
                    double* kept)
        : SearchStop(deadline, cancel, -INFINITY, root), kept_(kept)
    {
    }
    CbcEventHandler* clone() const override { return new TreeBoundKeeper(*this); }
    CbcAction event(CbcEvent which) override
    {
        const CbcAction action = SearchStop::event(which);
        if (action == noAction && which == node && model_) {
            const double bound = model_->getBestPossibleObjValue();
            if (bound < 1e300) *kept_ = std::max(*kept_, bound);
        }
        return action;
    }

private:
    double* kept_;
};

}  // namespace

CheckpointBound checkpointBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel,
                                double enough_j, bool exact, double cutoff_j)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    const double offset_j = problem.graph.totalComputeEnergy();
    const double scale = modelUnitsPerJoule(offset_j);
    CheckpointBound out;
    out.bound_j = offset_j;
    const CheckpointMilp milp(problem, scale);
    if (milp.impossible()) {
        out.infeasible = true;
        return out;
    }
    if (milp.stages() == 0) {
        out.complete = out.lp_solved = true;  // nothing to solve
        return out;
    }
    OsiClpSolverInterface lp;
    loadBinaryMilp(lp, milp);
    // The whole search's LPs stop on the deadline or a cancel too, its first
    // one among them (a solve cancelled as this began waited for it), its
    // root's cut passes and its strong branching, which raise no CBC event
    // for seconds (bert at 10%: 1.8 s past a 120 s solve's end). So stopped,
    // it proves what its tree did at its last node before the deadline.
    // The root alone (not `exact`) stops its LPs on a cancel only: at its
    // deadline it runs its cut passes to their end, and the solve uses the
    // bound they give.
    RootLpStop::State root{exact ? deadline : Clock::time_point::max(), cancel};
    root.tree_deadline = deadline;
    RootLpStop root_stop(&root);
    lp.getModelPtr()->passInEventHandler(&root_stop);
    // Within the time given (resnet50: ~1 s for 12,000 columns); cut short, it bounds nothing.
    lp.getModelPtr()->setMaximumSeconds(std::max(0.01, seconds));
    lp.initialSolve();
    if (lp.isProvenPrimalInfeasible()) {
        out.infeasible = true;
        return out;
    }
    if (!lp.isProvenOptimal()) return out;
    out.lp_solved = true;
    // Clp counts CPU seconds, of every thread: left on, its limit would stop
    // CBC's LPs early beside another solve, and CBC take the root as fathomed
    // (its incumbent "proven optimal"). CBC's own clock and SearchStop stop it.
    lp.getModelPtr()->setMaximumSeconds(-1);
    const double lp_j = offset_j + lp.getObjValue() / scale;
    out.bound_j = lp_j;
    if (lp_j >= enough_j || Clock::now() > deadline || (cancel && cancel->load())) return out;

    double tree_bound = -INFINITY;  // model units
    auto owned = std::make_unique<CbcModel>(lp);  // leaked where CBC faults (guardedBranchAndBound)
    CbcModel& model = *owned;
    root.model = &model;
    SolverOptions options;
    options.relative_gap = 1e-9;
    configureCbc(model, options, offset_j, scale, std::chrono::duration<double>(deadline - Clock::now()).count(),
                 cancel);
    // Its bound comes from the root's cuts; branching then moved it by no
    // more than 1e-5 J in 100 s. Two-step MIR and GMI cuts beside the usual
    // set: bert on m4 at 1.5x, root bound at 20% 103.292 to 103.381 J in ~6
    // s (103.346 J with two-step MIR alone), at 10% 108.621 to 108.944 J.
    // Zero-half, residual capacity and lift-and-project cuts added nothing.
    CglTwomir twomir;
    addCutGenerator(model, twomir, -98, "Twomir", cancel);
    CglGMI gmi;
    addCutGenerator(model, gmi, -98, "GMI", cancel);
    if (!exact) model.setMaximumNodes(0);
    const bool cut_off = exact && std::isfinite(cutoff_j);
    if (cut_off) model.setCutoff((cutoff_j - offset_j) * scale);
    TreeBoundKeeper stop(deadline, cancel, exact ? &root : nullptr, &tree_bound);
    model.passInEventHandler(&stop);
    if (!guardedBranchAndBound(owned)) return out;  // the LP's bound alone
    if (root.stopped) {
        if (std::isfinite(tree_bound))
            out.bound_j = std::max(lp_j, offset_j + std::min(tree_bound, (cutoff_j - offset_j) * scale) / scale);
        return out;
    }
    if (model.isProvenInfeasible()) {
        // Under a cutoff: nothing below it (an infeasible MILP proves it too).
        if (cut_off) {
            out.complete = true;
            out.bound_j = std::max(lp_j, cutoff_j - model.getDblParam(CbcModel::CbcCutoffIncrement) / scale);
        } else {
            out.infeasible = true;
        }
        return out;
    }
    out.complete = model.isProvenOptimal();
    const double value = provenLowerBound(model, lp.getObjValue(),
                                          static_cast<const TreeBoundKeeper*>(model.getEventHandler())->cut_short);
    out.bound_j = std::max(lp_j, offset_j + value / scale);
    // Branches pruned at the cutoff prove no more than it.
    if (cut_off) out.bound_j = std::min(out.bound_j, std::max(lp_j, cutoff_j));
    return out;
}

}  // namespace poet
