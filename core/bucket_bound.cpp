#include "bucket_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
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

constexpr double kInf = std::numeric_limits<double>::max();

// growBucketBound's tails with the one busiest stage (after the first
// tail, where the schedule has two): each gets kOneBusiestPace times what
// the tail before it took, kOneBusiestLeastS at least; cut short there,
// it comes again with both, and so do the tails after it. resnet18_cifar
// on m4 at 17% and 1.005x, alone: the last nine and ten with stage 110
// take 2.7 and 6.3 s (with 90 and 110 5.3 and 20.1 s); at 22% and 1.002x
// the last eight with 110 are not done in 5 s, with 90 and 110 the gap
// is proven in 4.5 s (first); bert at 12% and 1.005x the last eight with
// 116 are not done in 100 s, with 116 and 164 proven in 0.34 s (first).
constexpr double kOneBusiestLeastS = 1, kOneBusiestPace = 4;

// A recompute-moment row's name, the same in every MILP of one problem:
// (stage, the value recomputed in it).
using MomentKey = std::pair<int, int>;

// The MILP of bucket_bound.h, in triplet form (cbc_setup.h).
class BucketMilp : public ReturnColumns {
public:
    // With `moments`, the recompute-moment rows are described
    // (describeRecomputeMoments) and those it names added.
    BucketMilp(const Problem& problem, std::vector<int> stages, double scale, const std::set<MomentKey>* moments)
        : ReturnColumns(problem)
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
        if (!moments) return;
        for (const auto& [t, peak] : peaks)
            if (const auto before = peaks.find(t - 1); before != peaks.end())
                describeRecomputeMoments(problem, t, before->second, peak);
        for (std::size_t k = 0; k < moments_.size(); ++k)
            if (moments->count(moments_[k].key)) addMomentRow(problem, k, scale);
    }

    bool impossible() const { return impossible_; }
    // The recompute-moment rows that solution x breaks (read with the rows
    // added as if none of their "again" columns were set).
    std::vector<MomentKey> brokenMoments(const double* x, const Problem& problem) const
    {
        std::vector<MomentKey> broken;
        for (std::size_t k = 0; k < moments_.size(); ++k)
            if (breaks(k, x, static_cast<double>(problem.ram_budget_bytes))) broken.push_back(moments_[k].key);
        return broken;
    }
    bool empty() const { return stretches_.empty() && !impossible_; }
    // The returns that solution x makes by recomputation, with their buckets.
    std::vector<BoundRecomputation> recomputations(const double* x) const
    {
        std::vector<BoundRecomputation> out;
        for (const auto& [key, s] : stretches_)
            for (std::size_t j = 0; j < s.returns.size(); ++j) {
                const int column = s.returns[j].recomputed;
                if (column >= 0 && x[column] > 0.5)
                    out.push_back({key.first, s.stages[j], j + 1 < s.stages.size() ? s.stages[j + 1] : s.end});
            }
        return out;
    }

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

    // Σ coefficient · column + constant: what a value's presence is at
    // least. `again` terms name columns "v arrives again in this stage"
    // (value * 2 + 1 for a page-in, value * 2 for a recomputation), made
    // only where the row is added (and read as 0 until then).
    struct AtLeast {
        std::vector<std::pair<int, double>> terms, again;
        double constant = 0;
        void add(int column, double a)
        {
            if (column >= 0) terms.emplace_back(column, a);
        }
    };
    // Memory while a value is recomputed inside `stage` (its return column
    // `recomputed`): its operands' bytes where it is, and per other value
    // its bytes where it is there (each presence at least each of its
    // lower bounds).
    struct MomentRow {
        MomentKey key;  // (stage, the value recomputed)
        int recomputed = -1;
        double operand_bytes = 0;
        std::vector<std::pair<double, std::vector<AtLeast>>> present;
    };

    // Memory while a value is recomputed inside stage s, where nodes s - 1
    // and s are both chosen (the tail's stages are consecutive). A bucket's
    // return counts only the last arrival of a value in it, and the memory
    // rows hold only while chosen nodes run; so a recomputation's own
    // operands are never counted beside what stays in RAM through the
    // stage. Where i (with two inputs or more: an add) is recomputed in
    // stage s, at that moment RAM holds i, its inputs, and
    //  - each value in RAM while nodes s - 1 and s run, unless it arrived
    //    in between (its return here, which any arrival sets, as it counts
    //    the last; where it has none, a column "arrives again", at the cost
    //    of its cheaper way back alone);
    //  - each input w of a chain i <- a_1 <- ... <- a_k in RAM while s runs,
    //    where each a_j was away while s - 1 ran and was not paged in in
    //    this stage (its return, or again): so it was recomputed before
    //    its reader, a_k from w. Unless w left and came back after that:
    //    again, or its return here where w was in RAM while s - 1 ran (else
    //    it arrived twice: again).
    // resnet18_cifar on m4 at 17% and 1.5x: recomputing layer1.0.add at
    // grad layer1.0.relu3 from bn2 (from relu2, from conv2) leaves no room
    // for conv2 beside the gradient, layer1.1.conv1 and conv3, so conv2
    // comes back twice: the last ten stages rise from 0.593607 J to
    // 0.597988 J, eleven from 0.596339 J to 0.600890 J (the best schedule
    // known is 0.602575 J). The same rows for one-input values change no
    // bound measured and slow the MILP 1.5 to 4x.
    void describeRecomputeMoments(const Problem& problem, int s, const StagePeak& before, const StagePeak& at)
    {
        const Graph& g = problem.graph;
        const double budget = static_cast<double>(problem.ram_budget_bytes);
        constexpr int kChain = 4;  // the longest chain followed (resnet: add <- relu <- bn, from conv, is 2)
        auto inRamBefore = [&](int v) { return v == s - 1 || before.input[v]; };
        auto hereBefore = [&](int v) { return v < s - 1 ? here_[s - 1][v] : -1; };
        auto subtractAgain = [](AtLeast& a, int v, bool paged_only) {
            a.again.emplace_back(2 * v + 1, -1.0);
            if (!paged_only) a.again.emplace_back(2 * v, -1.0);
        };
        auto subtractArrivals = [&](AtLeast& a, int v) {
            const int paged = returnInStage(g, v, s, false), recomputed = returnInStage(g, v, s, true);
            if (paged < 0 && recomputed < 0) return subtractAgain(a, v, false);
            a.add(paged, -1);
            a.add(recomputed, -1);
        };
        for (int i = 0; i < s - 1; ++i) {
            MomentRow row;
            row.key = {s, i};
            row.recomputed = returnInStage(g, i, s, true);
            if (row.recomputed < 0 || g.predecessors(i).size() < 2) continue;
            std::vector<char> operand(s, 0);
            operand[i] = 1;
            row.operand_bytes = static_cast<double>(g.node(i).memory_bytes);
            for (int u : g.predecessors(i)) {
                operand[u] = 1;
                row.operand_bytes += static_cast<double>(g.node(u).memory_bytes);
            }
            std::map<int, std::vector<AtLeast>> present;
            // In RAM while s - 1 and s run (1 or the column: all one gives one).
            for (int v = 0; v < s; ++v) {
                const int was = hereBefore(v), is = here_[s][v];
                if (operand[v] || !(inRamBefore(v) || was >= 0) || !(at.input[v] || is >= 0)) continue;
                AtLeast a;
                a.add(row.recomputed, 1);
                a.add(was, 1);
                a.add(is, 1);
                a.constant = static_cast<double>(inRamBefore(v) + at.input[v]) - 2;
                subtractArrivals(a, v);
                present[v].push_back(std::move(a));
            }
            // The chains: a = a_k; `chain` holds i's recomputation and a_1..a_k-1's terms.
            std::function<void(int, AtLeast, int)> follow = [&](int a, AtLeast chain, int k) {
                const int a_before = hereBefore(a);
                if (a_before < 0) return;  // where a was while s - 1 ran is not known
                chain.constant += 1;
                chain.add(a_before, -1);
                chain.add(returnInStage(g, a, s, false), -1);
                subtractAgain(chain, a, true);
                for (int w : g.predecessors(a)) {
                    if (w >= s || operand[w]) continue;
                    if (at.input[w] || here_[s][w] >= 0) {
                        AtLeast root = chain;
                        root.add(here_[s][w], 1);
                        // i's recomputation, a_1..a_k and w at s: k + 2 ones give one.
                        root.constant += (at.input[w] ? 1.0 : 0.0) - (k + 1);
                        subtractAgain(root, w, false);
                        // Less the lower of: in RAM while s - 1 ran, its return here.
                        if (const int was = hereBefore(w); was >= 0) {
                            AtLeast returned = root;
                            returned.add(returnInStage(g, w, s, false), -1);
                            returned.add(returnInStage(g, w, s, true), -1);
                            present[w].push_back(std::move(returned));
                            root.add(was, -1);
                        }
                        present[w].push_back(std::move(root));
                    }
                    if (k < kChain) follow(w, chain, k + 1);
                }
            };
            AtLeast start;
            start.add(row.recomputed, 1);
            for (int a : g.predecessors(i)) follow(a, start, 1);

            double most = row.operand_bytes;
            for (auto& [v, lows] : present) {
                most += static_cast<double>(g.node(v).memory_bytes);
                row.present.emplace_back(static_cast<double>(g.node(v).memory_bytes), std::move(lows));
            }
            if (most > budget) moments_.push_back(std::move(row));
        }
    }

    // Adds moments_[k]: q_v >= each lower bound of v's (and >= 0), so the
    // row holds where the value is not recomputed there (every q_v 0).
    void addMomentRow(const Problem& problem, std::size_t k, double scale)
    {
        const MomentRow& moment = moments_[k];
        const int row = addRow(-kInf, static_cast<double>(problem.ram_budget_bytes));
        term(row, moment.recomputed, moment.operand_bytes);
        for (const auto& [bytes, lows] : moment.present) {
            const int q = addColumn(0);
            term(row, q, bytes);
            for (const AtLeast& low : lows) {
                const int r = addRow(low.constant, kInf);  // q - Σ terms >= constant
                term(r, q, 1);
                for (const auto& [column, a] : low.terms) term(r, column, -a);
                for (const auto& [key, a] : low.again) term(r, arrivesAgain(problem, moment.key.first, key, scale), -a);
            }
        }
    }

    // Value key / 2's column "arrives again in `stage`" (paged in where key
    // is odd, after its one page-out; else recomputed), at that way's cost
    // alone; -1 where that way is closed.
    int arrivesAgain(const Problem& problem, int stage, int key, double scale)
    {
        if (const auto it = again_.find({stage, key}); it != again_.end()) return it->second;
        const int v = key / 2;
        const Node& node = problem.graph.node(v);
        int column = -1;
        if (key % 2 == 1 && problem.options.paging) {
            const int out = pagedOut(v);
            column = addColumn(scale * (node.pagein_energy_j + (out < 0 ? node.pageout_energy_j : 0)));
            if (out >= 0) {
                const int source = addRow(0, kInf);
                term(source, out, 1);
                term(source, column, -1);
            }
        } else if (key % 2 == 0 && recomputableInTightForm(problem, v)) {
            column = addColumn(scale * node.compute_energy_j);
        }
        return again_[{stage, key}] = column;
    }

    // Whether solution x (of this MILP, its "again" columns read as 0)
    // breaks moments_[k].
    bool breaks(std::size_t k, const double* x, double budget) const
    {
        const MomentRow& moment = moments_[k];
        double bytes = moment.operand_bytes * x[moment.recomputed];
        for (const auto& [size, lows] : moment.present) {
            double q = 0;
            for (const AtLeast& low : lows) {
                double at_least = low.constant;
                for (const auto& [column, a] : low.terms) at_least += a * x[column];
                q = std::max(q, at_least);
            }
            bytes += size * q;
        }
        return bytes > budget * (1 + 1e-9) + 0.5;
    }

    // The value returned in the bucket that is stage s alone, (s - 1, s]
    // (both chosen), a page-in or a recomputation: its column, or -1.
    int returnInStage(const Graph& g, int i, int s, bool recomputed)
    {
        if (i >= s - 1 || here_[s - 1][i] < 0) return -1;
        const Stretch& st = stretchAt(g, i, s - 1);
        const std::size_t j = std::find(st.stages.begin(), st.stages.end(), s - 1) - st.stages.begin();
        const int next = j + 1 < st.stages.size() ? st.stages[j + 1] : st.end;
        if (next != s) return -1;
        return recomputed ? st.returns[j].recomputed : st.returns[j].paged;
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
    std::vector<MomentRow> moments_;
    std::map<std::pair<int, int>, int> again_;  // (stage, key) -> column (arrivesAgain)
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
    CutoffFollower(Clock::time_point deadline, const std::atomic<bool>* cancel, std::function<double()> cutoff,
                   RootLpStop::State* root)
        : SearchStop(deadline, cancel, -INFINITY, root), cutoff_(std::move(cutoff))
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

// `stages` with `peak_stage` (-1: none) once, in stage order.
std::vector<int> withPeakStage(std::vector<int> stages, int peak_stage)
{
    if (peak_stage >= 0 && std::find(stages.begin(), stages.end(), peak_stage) == stages.end())
        stages.push_back(peak_stage);
    std::sort(stages.begin(), stages.end());
    return stages;
}

}  // namespace

std::vector<int> bucketBoundStages(const Problem& problem, int peak_stage, int tail)
{
    std::vector<int> stages;
    const double budget = static_cast<double>(problem.ram_budget_bytes);
    for (int t = problem.graph.size() - 1; t >= 0 && static_cast<int>(stages.size()) < tail; --t)
        if (stagePeak(problem, t).plain_bytes > budget) stages.push_back(t);
    return withPeakStage(std::move(stages), peak_stage);
}

std::vector<int> stridedTailStages(const Problem& problem, int peak_stage, int span, int stride, int offset)
{
    const std::vector<int> tail = bucketBoundStages(problem, -1, span);
    std::vector<int> stages;
    for (int k = static_cast<int>(tail.size()) - 1 - offset; k >= 0; k -= std::max(1, stride)) stages.push_back(tail[k]);
    return withPeakStage(std::move(stages), peak_stage);
}

std::vector<int> busiestRecomputingStages(const Problem& problem, const Schedule& schedule, int peak_stage, int before,
                                          int count)
{
    const Graph& g = problem.graph;
    if (schedule.size() != g.size()) return {};
    std::vector<std::pair<double, int>> busy;  // (seconds recomputing, stage)
    for (int t : bucketBoundStages(problem, peak_stage, g.size())) {
        if (t <= peak_stage || t >= before) continue;
        double seconds = 0;
        for (int i = 0; i < t; ++i)
            if (schedule.R(t, i)) seconds += g.node(i).compute_time_s;
        if (seconds > 0) busy.emplace_back(seconds, t);
    }
    // The most seconds first, the earlier stage among equals: resnet18_cifar
    // on m4 at 20% and 1.005x its schedule recomputes 0.0091 s at 90 and at
    // 100 (layer2.1's and layer2.0's second halves); with 110, the last ten
    // and 90 prove the gap in 3.2 s alone, with 100 they stay under it.
    std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<int> stages;
    for (std::size_t k = 0; k < busy.size() && static_cast<int>(k) < count; ++k) stages.push_back(busy[k].second);
    std::sort(stages.begin(), stages.end());
    return stages;
}

std::vector<int> busiestRecomputingStagesBefore(const Problem& problem, const Schedule& schedule, int peak_stage,
                                                const std::vector<int>& stages, int count)
{
    const auto first = std::find_if(stages.begin(), stages.end(), [&](int t) { return t != peak_stage; });
    if (first == stages.end()) return {};
    return busiestRecomputingStages(problem, schedule, peak_stage, *first, count);
}

std::vector<int> fullStages(const Problem& problem)
{
    std::vector<int> stages;
    const Graph& g = problem.graph;
    const double budget = static_cast<double>(problem.ram_budget_bytes);
    for (int t = 0; t < g.size(); ++t) {
        const StagePeak peak = stagePeak(problem, t);
        if (peak.plain_bytes <= budget) continue;
        bool any_fits = false;
        for (int i = 0; i < t && !any_fits; ++i)
            any_fits = peak.matters[i] && peak.fixed_bytes + static_cast<double>(g.node(i).memory_bytes) <= budget;
        if (!any_fits) stages.push_back(t);
    }
    return stages;
}

namespace {

// How CBC picks the variable to branch on: its default, strong branching
// until pseudo-costs are trusted (CbcNode::chooseDynamicBranch), or strong
// branching alone (CbcNode::chooseBranch), where the former faulted.
enum class Branching { Dynamic, StrongOnly };

// One search of bucketBound's until `deadline`, on the MILP with the
// recompute-moment rows `moments` names (none without); with them, the
// rows its optimum breaks go to `broken`.
BucketBound searchOnce(const Problem& problem, const std::vector<int>& stages, Clock::time_point deadline,
                       const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j,
                       const std::set<MomentKey>* moments, std::vector<MomentKey>* broken, Branching branching)
{
    const double offset_j = problem.graph.totalComputeEnergy();
    const double scale = modelUnitsPerJoule(offset_j);
    BucketBound out;
    out.bound_j = offset_j;
    const BucketMilp milp(problem, stages, scale, moments);
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
    RootLpStop::State root{deadline, cancel};
    RootLpStop root_stop(&root);
    lp.getModelPtr()->passInEventHandler(&root_stop);
    // On the heap: leaked where CBC faults (guardedBranchAndBound).
    auto owned_model = std::make_unique<CbcModel>(lp);
    CbcModel& model = *owned_model;
    root.model = &model;
    SolverOptions options;
    options.relative_gap = 1e-9;
    configureCbc(model, options, offset_j, scale,
                 std::max(0.01, std::chrono::duration<double>(deadline - Clock::now()).count()), cancel);
    if (branching == Branching::StrongOnly) model.setNumberBeforeTrust(0);
    std::function<double()> cutoff_units;
    if (cutoff_j) {
        cutoff_units = [&] { return (cutoff_j() - offset_j) * scale; };
        model.setPrintFrequency(1);  // the tree's status, where the cutoff is read, after every node
    }
    CutoffFollower stop(deadline, cancel, cutoff_units, &root);
    stop.follow(model);
    model.passInEventHandler(&stop);
    if (!guardedBranchAndBound(owned_model)) {  // this tail proves nothing
        out.faulted = true;
        return out;
    }
    if (root.stopped) return out;  // nor does a root cut short
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
    if (model.bestSolution()) out.recomputations = milp.recomputations(model.bestSolution());
    if (moments && out.complete && model.bestSolution()) *broken = milp.brokenMoments(model.bestSolution(), problem);
    return out;
}

// bucketBound's search, with the recompute-moment rows `moments` (where
// on) and those the optimum breaks, added to `moments` and solved again,
// until it breaks none (or the time is up). resnet18_cifar on m4 at 1.5x,
// the last ten stages, alone: at 14, 16, 19 and 20% it breaks none (all of
// them would slow the MILP up to 5x, for nothing); at 21% one, for no gain
// (14.5 s, not 7.5 s); at 17 and 18% two, which raise it by 4.4 mJ (5.9
// and 7.7 s, not 2.5). Each search is a relaxation of the next, so the
// higher bound holds.
BucketBound solveOnce(const Problem& problem, const std::vector<int>& stages, Clock::time_point deadline,
                      const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j,
                      const RecomputeMoments& recompute_moments, std::set<MomentKey>& moments, Branching branching)
{
    BucketBound best;
    for (int round = 0;; ++round) {
        std::vector<MomentKey> broken;
        BucketBound bound = searchOnce(problem, stages, deadline, cancel, cutoff_j,
                                       recompute_moments.on ? &moments : nullptr, &broken, branching);
        if (round > 0) bound.bound_j = std::max(bound.bound_j, best.bound_j);
        best = bound;
        const std::size_t before = moments.size();
        moments.insert(broken.begin(), broken.end());
        if (moments.size() == before || Clock::now() >= deadline || (cancel && cancel->load())) return best;
        if (before == 0 && recompute_moments.broken) recompute_moments.broken();
    }
}

// bucketBound, starting from the recompute-moment rows `moments` and
// adding to them those its optima break.
// Solved again where CBC faulted after the cutoff fell: CBC 2.10.8 fails an
// assertion now and then right after CutoffFollower lowers it mid-search,
// and a search that starts from the lower cutoff seldom does.
// resnet18_cifar on jetsontx2 at 14% and 1.5x: tail 10 faulted 0.9 s in,
// as the plan's first schedule came, and ended the tails' growth (0.59% at
// 30 s); solved again it proves the gap at once. A fault at a cutoff that
// did not move comes again with the same search: the other kind CBC
// 2.10.8 has, a garbage read in CbcNode::chooseDynamicBranch (gdb), every
// time on some MILPs, goes with strong branching alone. resnet18_cifar on
// m4 at 15% and 1.5x, tail 18 cut off 0.5% under 0.630206 J: 13 s in, then
// 0.6036 J at 60 s, where it proved nothing; a copy of bert with three
// blocks at 34,540,093 B, all 37 over-budget stages: 6.5 s in, then
// 26.836307 J, its best schedule's energy (so that schedule is optimal).
BucketBound bucketBoundFrom(const Problem& problem, const std::vector<int>& stages, double seconds,
                            const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j,
                            const RecomputeMoments& recompute_moments, std::set<MomentKey>& moments)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    constexpr int kRetries = 2;  // each fault leaks its CbcModel (fault_guard.h)
    auto cutoffNow = [&] { return cutoff_j ? cutoff_j() : INFINITY; };
    Branching branching = Branching::Dynamic;
    for (int retry = 0;; ++retry) {
        const double cutoff_at_start = cutoffNow();
        BucketBound bound =
            solveOnce(problem, stages, deadline, cancel, cutoff_j, recompute_moments, moments, branching);
        if (!bound.faulted || retry == kRetries || Clock::now() >= deadline || (cancel && cancel->load()))
            return bound;
        if (!(cutoffNow() < cutoff_at_start)) {
            if (branching == Branching::StrongOnly) return bound;
            branching = Branching::StrongOnly;
        }
    }
}

}  // namespace

BucketBound bucketBound(const Problem& problem, const std::vector<int>& stages, double seconds,
                        const std::atomic<bool>* cancel, const std::function<double()>& cutoff_j,
                        const RecomputeMoments& recompute_moments)
{
    std::set<MomentKey> moments;
    return bucketBoundFrom(problem, stages, seconds, cancel, cutoff_j, recompute_moments, moments);
}

void growBucketBound(const Problem& problem, int peak_stage, int first_tail, double seconds,
                     const std::atomic<bool>* cancel, const std::function<void(const BucketBound&, int tail)>& found,
                     const std::function<double()>& enough_j, const RecomputeMoments& recompute_moments,
                     int look_back, const std::function<Schedule()>& busiest)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    auto left_s = [&] { return std::chrono::duration<double>(deadline - Clock::now()).count(); };
    auto over = [&] { return left_s() <= 0 || (cancel && cancel->load()); };
    const std::vector<int> all = bucketBoundStages(problem, peak_stage, problem.graph.size());
    // The rows one tail's optima broke, from the next tail's first search
    // (they name the same stages and values in it).
    std::set<MomentKey> moments;
    // `stages` with `added`, in order: a MILP's stages.
    auto withAdded = [](std::vector<int> stages, const std::vector<int>& added) {
        stages.insert(stages.end(), added.begin(), added.end());
        std::sort(stages.begin(), stages.end());
        stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
        return stages;
    };
    std::set<std::vector<int>> solved;  // the MILPs solved exactly
    // `stages` with `added` before its tail, solved and found as the tail's.
    auto solveWith = [&](const std::vector<int>& stages, const std::vector<int>& added, double seconds_given,
                         int tail) {
        const std::vector<int> all_stages = withAdded(stages, added);
        BucketBound bound =
            bucketBoundFrom(problem, all_stages, seconds_given, cancel, enough_j, recompute_moments, moments);
        bound.added_stages = added;
        found(bound, tail);
        if (bound.complete) solved.insert(all_stages);
        return bound;
    };
    // The cutoff only falls: a bound at the one read now proves it.
    auto proves = [&](const BucketBound& b) { return enough_j && b.bound_j >= enough_j() * (1 - 1e-12); };
    auto ends = [&](const BucketBound& b) { return !b.complete || b.infeasible || proves(b); };
    std::vector<int> last;
    bool one_first = true;    // after the first tail, the one busiest stage first (while it keeps up)
    double last_bound_j = 0;  // the last tail's (solved exactly; 0 before the first)
    double last_took_s = 0;   // how long its last search took
    struct Tail {
        int tail;
        std::vector<int> stages;
    };
    std::optional<Tail> skipped;  // the tail before, where skipped (below)
    for (int tail = first_tail; last != all; ++tail) {
        if (over()) return;
        std::vector<int> stages = bucketBoundStages(problem, peak_stage, tail);
        if (stages == last) continue;  // the tail took in the stage-peak stage
        // The tail's first stage (the stage-peak stage aside).
        const auto first = std::find_if(all.begin(), all.end(), [&](int t) {
            return t != peak_stage && std::binary_search(stages.begin(), stages.end(), t);
        });
        // Read again each time: the best schedule changes while tails run.
        auto busiestBefore = [&](int count) {
            return busiestRecomputingStages(problem, busiest(), peak_stage, *first, count);
        };
        std::vector<int> added;
        if (busiest && first != all.end()) added = busiestBefore(kBusiestStages);
        auto solveTimed = [&](const std::vector<int>& with, double seconds_given) {
            const auto started = Clock::now();
            const BucketBound bound = solveWith(stages, with, seconds_given, tail);
            last_took_s = std::chrono::duration<double>(Clock::now() - started).count();
            return bound;
        };
        // After the first tail, with the busiest alone first (while it keeps up).
        const bool one = one_first && last_bound_j > 0 && added.size() > 1;
        if (one) added = busiestBefore(1);
        if (solved.count(withAdded(stages, added))) {
            // The tail grew into a stage added to the tail before: with the
            // stages added now it is that one, solved already. The next
            // tail, then, and where that is with the busiest alone and cut
            // short or no higher, this one with both (bucket_bound.h).
            skipped = Tail{tail, stages};
            last = stages;
            continue;
        }
        BucketBound bound;
        if (one) {
            bound = solveTimed(added, std::min(left_s(), std::max(kOneBusiestLeastS, kOneBusiestPace * last_took_s)));
            if (!bound.infeasible && !proves(bound) &&
                (!bound.complete || bound.bound_j <= last_bound_j * (1 + 1e-9))) {
                // Cut short, or no higher than the shorter tail: with both from now on.
                one_first = false;
                if (over()) return;
                if (skipped) {
                    const std::vector<int> both = busiestRecomputingStagesBefore(problem, busiest(), peak_stage,
                                                                                 skipped->stages, kBusiestStages);
                    if (!solved.count(withAdded(skipped->stages, both)) &&
                        (ends(solveWith(skipped->stages, both, left_s(), skipped->tail)) || over()))
                        return;
                }
                added = busiestBefore(kBusiestStages);
                bound = solveTimed(added, left_s());
            }
        } else {
            bound = solveTimed(added, left_s());
        }
        skipped.reset();
        if (ends(bound)) return;
        last_bound_j = bound.bound_j;
        last = stages;
        if (look_back <= 0 || !added.empty()) continue;
        // The one `look_back` over-budget stages before the tail's first.
        if (first - all.begin() < look_back) continue;
        const int before = *(first - look_back);
        if (before == peak_stage) continue;
        if (over()) return;
        if (ends(solveWith(stages, {before}, left_s(), tail))) return;
    }
}

}  // namespace poet
