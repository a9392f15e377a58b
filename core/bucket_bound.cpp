#include "bucket_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"
#include "knapsack_rounding.h"
#include "return_columns.h"
#include "stage_bound.h"

namespace poet {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::max();

// The MILP of bucket_bound.h, in triplet form (cbc_setup.h).
class BucketMilp : public ReturnColumns {
public:
    BucketMilp(const Problem& problem, std::vector<int> stages, double scale) : ReturnColumns(problem)
    {
        const Graph& g = problem.graph;
        const int n = g.size();
        const double budget = static_cast<double>(problem.ram_budget_bytes);
        std::sort(stages.begin(), stages.end());
        stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
        here_.assign(n, {});

        std::map<int, StagePeak> peaks;  // the chosen stages over the budget
        for (int t : stages) {
            if (t < 0 || t >= n) continue;
            StagePeak peak = stagePeak(problem, t);
            if (peak.fixed_bytes > budget) {
                impossible_ = true;
                return;
            }
            if (peak.plain_bytes <= budget) continue;
            here_[t].assign(t, -1);
            const double room = budget - peak.fixed_bytes;
            const int memory = addRow(-kInf, room);
            std::vector<int> held;
            std::vector<double> sizes;
            for (int i = 0; i < t; ++i) {
                if (!peak.matters[i]) continue;
                here_[t][i] = addColumn(0);
                term(memory, here_[t][i], static_cast<double>(g.node(i).memory_bytes));
                stretchAt(g, i, t).stages.push_back(t);  // t ascending
                held.push_back(here_[t][i]);
                sizes.push_back(static_cast<double>(g.node(i).memory_bytes));
            }
            addRoundings(held, sizes, room);
            peaks.emplace(t, std::move(peak));
        }
        for (auto& [key, stretch] : stretches_) addReturns(problem, key.first, stretch, scale);
        for (const auto& [t, peak] : peaks) addRecomputeRows(problem, t, peak);
    }

    bool impossible() const { return impossible_; }
    bool empty() const { return stretches_.empty() && !impossible_; }

private:
    // Value i between two reads (or after its last): the chosen stages where
    // it matters, and one return per bucket, returns[j] for (stages[j],
    // stages[j+1]] and the last for (stages.back(), end].
    struct Stretch {
        std::vector<int> stages;
        std::vector<Return> returns;
        int end = 0;          // the stage of the read that ends it (n: none)
        bool read = false;    // whether a read ends it
    };

    Stretch& stretchAt(const Graph& g, int i, int t)
    {
        const auto& reads = g.successors(i);  // ascending
        const auto next = std::lower_bound(reads.begin(), reads.end(), t);
        auto [it, added] = stretches_.try_emplace({i, static_cast<int>(next - reads.begin())});
        if (added) {
            it->second.read = next != reads.end();
            it->second.end = it->second.read ? *next : g.size();
        }
        return it->second;
    }

    void addReturns(const Problem& problem, int i, Stretch& s, double scale)
    {
        for (std::size_t j = 0; j < s.stages.size(); ++j) s.returns.push_back(addReturn(problem, i, scale));
        // Away at one stage and here at the next: back in between.
        for (std::size_t j = 0; j + 1 < s.stages.size(); ++j) {
            const int row = addRow(-kInf, 0);
            term(row, here_[s.stages[j + 1]][i], 1);
            term(row, here_[s.stages[j]][i], -1);
            term(row, s.returns[j].paged, -1);
            term(row, s.returns[j].recomputed, -1);
        }
        if (!s.read) return;
        const int row = addRow(1, kInf);  // in RAM for the read
        term(row, here_[s.stages.back()][i], 1);
        term(row, s.returns.back().paged, 1);
        term(row, s.returns.back().recomputed, 1);
    }

    // Recomputing i in its bucket after t, (t, e], reads each input u in
    // RAM: here at t, back in a bucket of u that meets (t, e], or here at
    // one of u's stages inside it. Inputs of t, and inputs read inside the
    // bucket (u is in RAM then anyway), get no row.
    void addRecomputeRows(const Problem& problem, int t, const StagePeak& peak)
    {
        const Graph& g = problem.graph;
        for (int i = 0; i < t; ++i) {
            if (here_[t][i] < 0 || !peak.recomputable[i]) continue;
            const Stretch& si = stretchAt(g, i, t);
            const std::size_t j = std::find(si.stages.begin(), si.stages.end(), t) - si.stages.begin();
            const int recomputed = si.returns[j].recomputed;
            if (recomputed < 0) continue;
            const int e = j + 1 < si.stages.size() ? si.stages[j + 1] : si.end;
            for (int u : g.predecessors(i)) {
                if (peak.input[u] || here_[t][u] < 0) continue;
                const auto& reads = g.successors(u);
                const auto next = std::upper_bound(reads.begin(), reads.end(), t);
                if (next != reads.end() && *next < e) continue;
                const Stretch& su = stretchAt(g, u, t);
                const int row = addRow(0, kInf);
                term(row, recomputed, -1);
                term(row, here_[t][i], 1);
                term(row, here_[t][u], 1);
                for (std::size_t q = 0; q < su.stages.size(); ++q) {
                    const int from = su.stages[q];
                    const int to = q + 1 < su.stages.size() ? su.stages[q + 1] : su.end;
                    if (from < e && to > t) {
                        term(row, su.returns[q].paged, 1);
                        term(row, su.returns[q].recomputed, 1);
                    }
                    if (from > t && from < e) term(row, here_[from][u], 1);
                }
            }
        }
    }

    // The memory row's roundings (knapsack_rounding.h), on the values away:
    // Σ c_i (1 − here_i) ≥ rhs, i.e. Σ c_i here_i ≤ Σ c_i − rhs. CBC's own
    // cuts miss them where many values of one size compete for the room.
    void addRoundings(const std::vector<int>& here, const std::vector<double>& sizes, double room)
    {
        double all = 0;
        for (double m : sizes) all += m;
        for (const KnapsackRounding& cut : knapsackRoundings(sizes, all - room)) {
            double total = 0;
            for (double c : cut.coefficient) total += c;
            const int row = addRow(-kInf, total - cut.rhs);
            for (std::size_t k = 0; k < here.size(); ++k)
                if (cut.coefficient[k] != 0) term(row, here[k], cut.coefficient[k]);
        }
    }

    std::vector<std::vector<int>> here_;  // [t][i], for the chosen stages over the budget
    std::map<std::pair<int, int>, Stretch> stretches_;  // (value, read interval)
    bool impossible_ = false;
};

// SearchStop, and CBC's cutoff lowered to the caller's (model units) as that
// falls while the search runs: read when it starts and between nodes (the
// tree's status, every node with a print frequency of 1). Not in the node
// event: CBC asserts after it that the node it made is under the cutoff.
// Lowered here, it still fails an assertion in CbcModel::addCuts a node
// later now and then (resnet18_cifar on m4 at 20 and 21% and 1.5x, 2 of 6
// solves): fault_guard.h catches that.
class CutoffFollower : public SearchStop {
public:
    CutoffFollower(Clock::time_point deadline, const std::atomic<bool>* cancel, std::function<double()> cutoff)
        : SearchStop(deadline, cancel), cutoff_(std::move(cutoff))
    {
    }
    CbcEventHandler* clone() const override { return new CutoffFollower(*this); }
    CbcAction event(CbcEvent which) override
    {
        const CbcAction action = SearchStop::event(which);
        if (action == noAction && which == treeStatus && model_) follow(*model_);
        return action;
    }
    // Reads the caller's cutoff and lowers `model`'s to it.
    void follow(CbcModel& model)
    {
        if (!cutoff_) return;
        const double cutoff = cutoff_();
        if (!(cutoff < lowest_)) return;
        lowest_ = cutoff;
        if (cutoff < model.getCutoff()) model.setCutoff(cutoff);
    }
    // The lowest cutoff read (infinite without one).
    double lowest() const { return lowest_; }

private:
    std::function<double()> cutoff_;
    double lowest_ = INFINITY;
};

}  // namespace

std::vector<int> bucketBoundStages(const Problem& problem, int peak_stage, int tail)
{
    std::vector<int> stages;
    const double budget = static_cast<double>(problem.ram_budget_bytes);
    for (int t = problem.graph.size() - 1; t >= 0 && static_cast<int>(stages.size()) < tail; --t)
        if (stagePeak(problem, t).plain_bytes > budget) stages.push_back(t);
    if (peak_stage >= 0 && std::find(stages.begin(), stages.end(), peak_stage) == stages.end())
        stages.push_back(peak_stage);
    std::sort(stages.begin(), stages.end());
    return stages;
}

namespace {

// One search of bucketBound's until `deadline`.
BucketBound solveOnce(const Problem& problem, const std::vector<int>& stages, Clock::time_point deadline,
                      const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j)
{
    const double offset_j = problem.graph.totalComputeEnergy();
    const double scale = modelUnitsPerJoule(offset_j);
    BucketBound out;
    out.bound_j = offset_j;
    const BucketMilp milp(problem, stages, scale);
    if (milp.impossible()) {
        out.infeasible = true;
        return out;
    }
    if (milp.empty()) {
        out.complete = true;
        return out;
    }
    OsiClpSolverInterface lp;
    loadBinaryMilp(lp, milp);
    // On the heap: leaked where CBC faults (guardedBranchAndBound).
    auto owned_model = std::make_unique<CbcModel>(lp);
    CbcModel& model = *owned_model;
    SolverOptions options;
    options.relative_gap = 1e-9;
    configureCbc(model, options, offset_j, scale,
                 std::max(0.01, std::chrono::duration<double>(deadline - Clock::now()).count()));
    std::function<double()> cutoff_units;
    if (cutoff_j) {
        cutoff_units = [&] { return (cutoff_j() - offset_j) * scale; };
        model.setPrintFrequency(1);  // the tree's status, where the cutoff is read, after every node
    }
    CutoffFollower stop(deadline, cancel, cutoff_units);
    stop.follow(model);
    model.passInEventHandler(&stop);
    if (!guardedBranchAndBound(owned_model)) {  // this tail proves nothing
        out.faulted = true;
        return out;
    }
    const auto* follower = static_cast<const CutoffFollower*>(model.getEventHandler());
    // Every branch pruned was at or above the cutoff of its time, and so at
    // or above the lowest one (less CBC's increment, to be safe).
    const double cut_off_j =
        offset_j + (follower->lowest() - model.getDblParam(CbcModel::CbcCutoffIncrement)) / scale;
    if (model.isProvenInfeasible()) {
        if (std::isfinite(follower->lowest())) {
            out.complete = true;
            out.bound_j = cut_off_j;
        } else {
            out.infeasible = true;
        }
        return out;
    }
    out.complete = model.isProvenOptimal();
    out.bound_j = std::max(offset_j, offset_j + provenLowerBound(model, 0.0, follower->cut_short) / scale);
    out.bound_j = std::min(out.bound_j, cut_off_j);
    return out;
}

}  // namespace

// Solved again where CBC faulted after the cutoff fell: CBC 2.10.8 fails an
// assertion now and then right after CutoffFollower lowers it mid-search,
// and a search that starts from the lower cutoff seldom does.
// resnet18_cifar on jetsontx2 at 14% and 1.5x: tail 10 faulted 0.9 s in,
// as the plan's first schedule came, and ended the tails' growth (0.59% at
// 30 s); solved again it proves the gap at once. A fault at a cutoff that
// did not move would only come again.
BucketBound bucketBound(const Problem& problem, const std::vector<int>& stages, double seconds,
                        const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    constexpr int kRetries = 2;  // each fault leaks its CbcModel (fault_guard.h)
    auto cutoffNow = [&] { return cutoff_j ? cutoff_j() : INFINITY; };
    for (int retry = 0;; ++retry) {
        const double cutoff_at_start = cutoffNow();
        BucketBound bound = solveOnce(problem, stages, deadline, cancel, cutoff_j);
        if (!bound.faulted || retry == kRetries || !(cutoffNow() < cutoff_at_start) || Clock::now() >= deadline ||
            (cancel && cancel->load()))
            return bound;
    }
}

void growBucketBound(const Problem& problem, int peak_stage, int first_tail, double seconds,
                     const std::atomic<bool>* cancel, const std::function<void(const BucketBound&, int tail)>& found,
                     const std::function<double()>& enough_j)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    const std::vector<int> all = bucketBoundStages(problem, peak_stage, problem.graph.size());
    std::vector<int> last;
    for (int tail = first_tail; last != all; ++tail) {
        const double left_s = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (left_s <= 0 || (cancel && cancel->load())) return;
        std::vector<int> stages = bucketBoundStages(problem, peak_stage, tail);
        if (stages == last) continue;  // the tail took in the stage-peak stage
        const BucketBound bound = bucketBound(problem, stages, left_s, cancel, enough_j);
        found(bound, tail);
        // The cutoff only falls: a bound at the one read now proves it.
        if (!bound.complete || bound.infeasible || (enough_j && bound.bound_j >= enough_j() * (1 - 1e-12))) return;
        last = std::move(stages);
    }
}

}  // namespace poet
