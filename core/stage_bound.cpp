#include "stage_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"

namespace poet {

namespace {

constexpr double kInf = std::numeric_limits<double>::max();

// The MILP of stage_bound.h for one stage, in triplet form (cbc_setup.h).
class StagePeakMilp : public BinaryMilpBuilder {
public:
    StagePeakMilp(const Problem& problem, int t, double scale)
    {
        const Graph& g = problem.graph;
        const StagePeak peak = stagePeak(problem, t);
        const double budget = static_cast<double>(problem.ram_budget_bytes);
        impossible_ = peak.fixed_bytes > budget;
        over_budget_ = peak.plain_bytes > budget;
        if (impossible_ || !over_budget_) return;
        const auto& [input, read_later, matters, recomputable, fixed, plain] = peak;

        const bool paging = problem.options.paging;
        std::vector<int> here(t, -1), paged(t, -1), recomputed(t, -1);
        for (int i = 0; i < t; ++i) {
            if (!matters[i]) continue;
            const Node& node = g.node(i);
            here[i] = addColumn(0);
            if (paging) paged[i] = addColumn(scale * (node.pageout_energy_j + node.pagein_energy_j));
            if (recomputable[i]) recomputed[i] = addColumn(scale * node.compute_energy_j);
        }
        const int memory = addRow(-kInf, budget - fixed);
        const double spare = problem.spareRuntimeSeconds();
        const int time = addRow(-kInf, std::max(spare, 0.0));
        for (int i = 0; i < t; ++i) {
            if (!matters[i]) continue;
            term(memory, here[i], static_cast<double>(g.node(i).memory_bytes));
            term(time, recomputed[i], g.node(i).compute_time_s);
            // Here, or back later, and (at no loss: being here serves every
            // need) not both: for a value read later exactly one holds. The
            // LP is tighter, and CBC closes the stage sooner.
            const int back = addRow(read_later[i] ? 1 : -kInf, 1);
            term(back, here[i], 1);
            term(back, paged[i], 1);
            term(back, recomputed[i], 1);
            if (recomputed[i] < 0) continue;
            for (int u : g.predecessors(i)) {  // recomputing i needs u here or back
                if (input[u]) continue;
                const int needs = addRow(0, kInf);
                term(needs, here[u], 1);
                term(needs, paged[u], 1);
                term(needs, recomputed[u], 1);
                term(needs, recomputed[i], -1);
            }
        }
    }

    // Node t and its inputs alone exceed the budget.
    bool impossible() const { return impossible_; }
    // The plain pass exceeds the budget at this stage: it needs relief.
    bool overBudget() const { return over_budget_; }

private:
    bool impossible_ = false, over_budget_ = false;
};

}  // namespace

StagePeak stagePeak(const Problem& problem, int t)
{
    const Graph& g = problem.graph;
    StagePeak peak;
    peak.input.assign(t, 0);
    peak.read_later.assign(t, 0);
    peak.matters.assign(t, 0);
    peak.recomputable.assign(t, 0);
    peak.fixed_bytes = static_cast<double>(g.node(t).memory_bytes);
    for (int u : g.predecessors(t)) {
        peak.input[u] = 1;
        peak.fixed_bytes += static_cast<double>(g.node(u).memory_bytes);
    }
    peak.plain_bytes = peak.fixed_bytes;
    for (int i = t - 1; i >= 0; --i) {
        if (peak.input[i]) continue;
        peak.recomputable[i] = recomputableInTightForm(problem, i);
        for (int j : g.successors(i)) {
            if (j > t) peak.read_later[i] = 1;
            else if (j < t && !peak.input[j] && peak.recomputable[j] && peak.matters[j]) peak.matters[i] = 1;
        }
        if (peak.read_later[i]) {
            peak.matters[i] = 1;
            peak.plain_bytes += static_cast<double>(g.node(i).memory_bytes);
        }
    }
    return peak;
}

StageBound stagePeakBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel, double enough_j)
{
    const auto start = Clock::now();
    const auto deadline = secondsAfter(start, std::max(0.0, seconds));
    const Graph& g = problem.graph;
    const double offset_j = g.totalComputeEnergy();
    const double scale = modelUnitsPerJoule(offset_j);
    StageBound out;
    out.bound_j = offset_j;

    // Each stage's LP first: an infeasible one ends it, and the largest go
    // first so that the rest are dismissed quickly. CBC later starts from
    // the solved LP.
    std::vector<std::unique_ptr<OsiClpSolverInterface>> lps(g.size());
    std::vector<std::pair<double, int>> order;  // (LP bound, stage)
    bool lps_cut_short = false;
    for (int t = 0; t < g.size(); ++t) {
        if (isSet(cancel)) return out;
        const StagePeakMilp milp(problem, t, scale);
        if (milp.impossible()) {
            out.infeasible = true;
            out.stage = t;
            return out;
        }
        if (!milp.overBudget()) continue;
        // Past the deadline the stages are only checked as above: their LPs
        // took the 48-block bert (771 stages) 0.7 s, past a 5 s solve's
        // limit. No stage's search would begin then anyway.
        if (Clock::now() > deadline) {
            lps_cut_short = true;
            continue;
        }
        auto lp = std::make_unique<OsiClpSolverInterface>();
        loadBinaryMilp(*lp, milp);
        lp->initialSolve();
        if (lp->isProvenPrimalInfeasible()) {
            out.infeasible = true;
            out.stage = t;
            return out;
        }
        order.emplace_back(lp->isProvenOptimal() ? lp->getObjValue() : 0.0, t);
        lps[t] = std::move(lp);
    }
    std::sort(order.begin(), order.end(), std::greater<>());

    SolverOptions exact;
    exact.relative_gap = 1e-9;
    double best = 0;  // model units
    out.complete = !lps_cut_short;
    // One hard stage (a knapsack with many equal sizes) must not take all
    // the time: the next ones may bound as well.
    const auto per_stage = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds / 4));
    for (const auto& [lp_bound, t] : order) {
        if (Clock::now() > deadline || (cancel && cancel->load())) {
            out.complete = false;
            break;
        }
        if (offset_j + best / scale >= enough_j) {
            out.complete = false;
            break;
        }
        auto owned = std::make_unique<CbcModel>(*lps[t]);  // leaked where CBC faults (guardedBranchAndBound)
        CbcModel& model = *owned;
        const auto stage_deadline = std::min(deadline, Clock::now() + per_stage);
        configureCbc(model, exact, offset_j, scale,
                     std::chrono::duration<double>(stage_deadline - Clock::now()).count(), cancel);
        // A solution no dearer than the best stage so far: this stage cannot raise the bound any more.
        SearchStop stop(stage_deadline, cancel, best);
        model.passInEventHandler(&stop);
        const bool searched = guardedBranchAndBound(owned);  // where CBC faulted, the LP bound alone
        if (searched && model.isProvenInfeasible()) {
            out.infeasible = true;
            out.stage = t;
            return out;
        }
        // Solved: its optimum (less CBC's tolerance); cut short: what CBC
        // proved, and at least the LP bound.
        const auto* stopped = searched ? static_cast<const SearchStop*>(model.getEventHandler()) : nullptr;
        const double value = stopped ? provenLowerBound(model, lp_bound, stopped->cut_short) : lp_bound;
        const bool dominated = stopped && stopped->reached;
        if (!(searched && model.isProvenOptimal()) && !dominated) out.complete = false;
        if (value > best) {
            best = value;
            out.stage = t;
        }
    }
    out.bound_j = offset_j + best / scale;
    return out;
}

}  // namespace poet
