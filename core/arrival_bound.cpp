#include "arrival_bound.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <vector>

#include "cbc_setup.h"
#include "formulation.h"

namespace poet {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::max();

// Stage b's MILP of arrival_bound.h, in triplet form (cbc_setup.h).
class ArrivalMilp : public BinaryMilpBuilder {
public:
    ArrivalMilp(const Problem& problem, int b, const std::vector<double>& pageout_share, double scale)
    {
        const Graph& g = problem.graph;
        const int n = g.size();
        auto bytes = [&](int i) { return static_cast<double>(g.node(i).memory_bytes); };
        // In RAM while node b-1 runs anyway: held on into b at no extra RAM.
        std::vector<char> was_here(n, 0);
        was_here[b - 1] = 1;
        for (int u : g.predecessors(b - 1)) was_here[u] = 1;
        double room = static_cast<double>(problem.ram_budget_bytes);
        for (int i = 0; i < n; ++i)
            if (was_here[i]) room -= bytes(i);
        std::vector<char> is_new(n, 0);
        double new_bytes = 0;
        for (int u : g.predecessors(b)) {
            is_new[u] = !was_here[u];
            if (is_new[u]) new_bytes += bytes(u);
        }
        // Nothing new, all of it fits beside node b-1 (A_b = 0), or node b-1
        // alone does not fit (the one-node bound's case).
        if (new_bytes == 0 || new_bytes <= room || room < 0) return;
        needed_ = true;

        // The values that may take part: b's inputs, and the inputs of each
        // one that may be recomputed, down to what was here anyway.
        const bool paging = problem.options.paging;
        std::vector<int> here(n, -1), paged(n, -1), recomputed(n, -1);
        std::vector<int> order;  // every value with a column, in the order found
        std::vector<char> seen(n, 0);
        std::vector<int> todo(g.predecessors(b).begin(), g.predecessors(b).end());
        for (int u : todo) seen[u] = 1;
        while (!todo.empty()) {
            const int i = todo.back();
            todo.pop_back();
            const Node& node = g.node(i);
            if (!was_here[i]) {
                here[i] = addColumn(0);
                if (paging) paged[i] = addColumn(scale * (node.pagein_energy_j + (is_new[i] ? pageout_share[i] : 0)));
            }
            if (recomputableInTightForm(problem, i)) {
                recomputed[i] = addColumn(scale * node.compute_energy_j);
                for (int u : g.predecessors(i))
                    if (!was_here[u] && !seen[u]) {
                        seen[u] = 1;
                        todo.push_back(u);
                    }
            }
            order.push_back(i);
        }

        const int memory = addRow(-kInf, room);  // held beside node b-1
        const double spare = (problem.runtime_budget_factor - 1.0) * g.totalComputeTime();
        const int time = addRow(-kInf, std::max(spare, 0.0));
        const double budget = static_cast<double>(problem.ram_budget_bytes);
        for (int i : order) {
            term(memory, here[i], bytes(i));
            term(time, recomputed[i], g.node(i).compute_time_s);
            if (!was_here[i]) {  // how it is here for node b (a new input) or for a recomputation
                const int ways = addRow(is_new[i] ? 1 : -kInf, 1);
                term(ways, here[i], 1);
                term(ways, paged[i], 1);
                term(ways, recomputed[i], 1);
            }
            if (recomputed[i] < 0) continue;
            for (int u : g.predecessors(i)) {  // recomputing i needs u then
                if (was_here[u]) continue;
                const int needs = addRow(0, kInf);
                term(needs, here[u], 1);
                term(needs, paged[u], 1);
                term(needs, recomputed[u], 1);
                term(needs, recomputed[i], -1);
            }
            // While i is recomputed: i, its inputs, and node b's inputs that
            // are not recomputed in b themselves. Over the budget, enough of
            // those must be recomputed: Σ m_x c_x ≥ (K − B) c_i.
            std::vector<char> with_i(n, 0);
            with_i[i] = 1;
            double at_once = bytes(i);
            for (int u : g.predecessors(i)) {
                with_i[u] = 1;
                at_once += bytes(u);
            }
            std::vector<std::pair<int, double>> others;
            for (int x : g.predecessors(b)) {
                if (with_i[x]) continue;
                at_once += bytes(x);
                others.emplace_back(recomputed[x], bytes(x));
            }
            if (at_once <= budget) continue;
            const int peak = addRow(0, kInf);
            for (auto [col, m] : others) term(peak, col, m);
            term(peak, recomputed[i], -(at_once - budget));
        }
    }

    bool needed() const { return needed_; }

private:
    bool needed_ = false;
};

}  // namespace

ArrivalBound arrivalBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel)
{
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(std::max(0.0, seconds)));
    const Graph& g = problem.graph;
    const int n = g.size();
    const double offset_j = g.totalComputeEnergy();
    const double scale = offset_j > 0 ? 1e6 / offset_j : 1.0;  // model units as in formulation.h
    ArrivalBound out;
    out.bound_j = offset_j;

    // Each page-out is shared among the stages where its value is new.
    std::vector<int> new_at(n, 0);
    for (int b = 1; b < n; ++b)
        for (int u : g.predecessors(b)) {
            const auto& before = g.predecessors(b - 1);
            if (u != b - 1 && !std::binary_search(before.begin(), before.end(), u)) ++new_at[u];
        }
    std::vector<double> share(n, 0);
    for (int i = 0; i < n; ++i)
        if (new_at[i] > 0) share[i] = g.node(i).pageout_energy_j / new_at[i];

    // Every stage's LP first (their sum is already a bound), then each
    // stage exactly while the time lasts.
    struct Stage {
        int b;
        std::unique_ptr<OsiClpSolverInterface> lp;
        double value = 0;  // model units
    };
    std::vector<Stage> stages;
    double total = 0;
    for (int b = 1; b < n; ++b) {
        const ArrivalMilp milp(problem, b, share, scale);
        if (!milp.needed()) continue;
        Stage s{b, nullptr};
        s.lp = std::make_unique<OsiClpSolverInterface>();
        loadBinaryMilp(*s.lp, milp);
        s.lp->initialSolve();
        if (s.lp->isProvenPrimalInfeasible()) {
            out.infeasible = true;
            out.stage = b;
            return out;
        }
        s.value = s.lp->isProvenOptimal() ? std::max(0.0, s.lp->getObjValue()) : 0.0;
        total += s.value;
        stages.push_back(std::move(s));
    }
    SolverOptions exact;
    exact.relative_gap = 1e-9;
    out.complete = true;
    for (Stage& s : stages) {
        if (Clock::now() > deadline || (cancel && cancel->load()) || !s.lp->isProvenOptimal()) {
            out.complete = false;
            continue;
        }
        CbcModel model(*s.lp);
        configureCbc(model, exact, offset_j, scale, std::chrono::duration<double>(deadline - Clock::now()).count());
        SearchStop stop(deadline, cancel);
        model.passInEventHandler(&stop);
        model.branchAndBound();
        if (model.isProvenInfeasible()) {
            out.infeasible = true;
            out.stage = s.b;
            return out;
        }
        // Cut short, only the LP counts: CBC stopped during its root cuts may
        // report its incumbent as its bound.
        if (!model.isProvenOptimal()) {
            out.complete = false;
            continue;
        }
        const double value = model.getObjValue() - model.getAllowableGap();
        if (value > s.value) {
            total += value - s.value;
            s.value = value;
        }
    }
    out.bound_j = offset_j + total / scale;
    return out;
}

}  // namespace poet
