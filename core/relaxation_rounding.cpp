#include "relaxation_rounding.h"

#include <algorithm>

#include "baselines.h"
#include "heuristic_schedule.h"
#include "replay.h"

namespace poet {

namespace {

// R for a rounded residency: each stage computes its own node, every value
// the rounding keeps for the next stage but does not hold now, and
// (recursively) every input of those that is not held.
BoolMatrix recomputationsFor(const Graph& g, const std::vector<std::vector<char>>& held)
{
    const int n = g.size();
    BoolMatrix R(n);
    for (int t = 0; t < n; ++t) {
        std::vector<char> computed(static_cast<std::size_t>(n), 0);
        std::vector<int> stack{t};
        for (int i = 0; i < t; ++i)
            if (t + 1 < n && held[t + 1][i] && !held[t][i]) stack.push_back(i);
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            if (computed[v]) continue;
            computed[v] = 1;
            for (int u : g.predecessors(v))
                if (!held[t][u]) stack.push_back(u);
        }
        for (int v = 0; v <= t; ++v)
            if (computed[v]) R.set(t, v);
    }
    return R;
}

}  // namespace

std::optional<Schedule> roundRelaxation(const Problem& problem, const Formulation& f, const double* x,
                                        const FitToBudget& fit)
{
    if (!problem.options.remat) return std::nullopt;
    const Graph& g = problem.graph;
    const int n = g.size();
    const ReplayLimits limits = limitsOf(problem);
    using Var = Formulation::Var;
    // In RAM at the start of t, or arriving there by a page-in during t-1.
    std::vector<std::vector<double>> presence(n, std::vector<double>(n, 0.0));
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t; ++i)
            presence[t][i] = f.value(Var::S_RAM, x, t, i) + (t > 0 ? f.value(Var::M_in, x, t - 1, i) : 0.0);

    // Values the relaxation pages in: recomputing one means recomputing its
    // chain back to a held value, so one rounding keeps them instead (and
    // leaves it to the fitting to page them out where RAM is short).
    std::vector<char> paged(n, 0);
    for (int i = 0; i < n && problem.options.paging; ++i) {
        double page_ins = 0;
        for (int t = 0; t < n; ++t) page_ins += f.value(Var::M_in, x, t, i);
        paged[i] = page_ins >= 0.25 && !g.successors(i).empty();
    }
    const bool any_paged = std::find(paged.begin(), paged.end(), 1) != paged.end();

    std::vector<std::optional<Schedule>> candidates;
    for (bool keep_paged : {false, true}) {
        if (keep_paged && !any_paged) break;
        for (double threshold : {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}) {
            std::vector<std::vector<char>> held(n, std::vector<char>(n, 0));
            for (int t = 0; t < n; ++t)
                for (int i = 0; i < t; ++i)
                    held[t][i] = presence[t][i] >= threshold || (keep_paged && paged[i] && t <= g.successors(i).back());
            const Schedule rounded = scheduleFromRecompute(g, recomputationsFor(g, held));
            candidates.push_back(relieveToFit(g, rounded, limits));
            if (fit) candidates.push_back(fit(rounded));
        }
    }
    return leastEnergyValid(g, limits, std::move(candidates));
}

}  // namespace poet
