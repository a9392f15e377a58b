#include "paging_plan.h"

#include <algorithm>
#include <limits>

namespace poet {

namespace {

// Recomputing it costs nothing and needs nothing: a network input.
bool isFreeSource(const Graph& g, int i)
{
    const Node& node = g.node(i);
    return g.predecessors(i).empty() && node.compute_energy_j == 0 && node.compute_time_s == 0;
}

// The Tight formulation's rule (formulation.cpp): a node can be recomputed
// when rematerialization is on and it fits in the spare runtime.
bool recomputable(const Problem& p, int i)
{
    if (!p.options.remat) return false;
    const double spare = (p.runtime_budget_factor - 1.0) * p.graph.totalComputeTime();
    return p.graph.node(i).compute_time_s <= std::max(spare, 0.0) * (1 + 1e-9);
}

}  // namespace

bool PagingPlan::applies(const Problem& problem)
{
    const Graph& g = problem.graph;
    // The last node is never recomputed: no stage follows it.
    for (int i = 0; i + 1 < g.size(); ++i)
        if (recomputable(problem, i) && !isFreeSource(g, i)) return false;
    return true;
}

PagingPlan::PagingPlan(const Problem& problem) : p_(problem)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    offset_j_ = g.totalComputeEnergy();
    scale_ = offset_j_ > 0 ? 1e6 / offset_j_ : 1.0;
    free_source_.assign(n, 0);
    for (int i = 0; i + 1 < n; ++i) free_source_[i] = recomputable(problem, i) && isFreeSource(g, i);

    // RAM of each stage with everything kept, and what paging could take off it.
    std::vector<double> need(n, 0), coverable(n, 0);
    for (int t = 0; t < n; ++t) need[t] = static_cast<double>(g.node(t).memory_bytes);
    std::vector<Span> spans;
    for (int i = 0; i + 1 < n; ++i) {
        const auto& readers = g.successors(i);
        if (readers.empty()) continue;
        const double m = static_cast<double>(g.node(i).memory_bytes);
        if (free_source_[i]) {
            for (int t : readers) need[t] += m;
            continue;
        }
        for (int t = i + 1; t <= readers.back(); ++t) need[t] += m;
        if (!problem.options.paging || m <= 0) continue;
        std::vector<int> anchors{i + 1};
        for (int t : readers)
            if (t != anchors.back()) anchors.push_back(t);
        for (std::size_t k = 0; k + 1 < anchors.size(); ++k)
            if (anchors[k + 1] >= anchors[k] + 2) {
                spans.push_back({i, anchors[k] + 1, anchors[k + 1] - 1});
                for (int t = anchors[k] + 1; t < anchors[k + 1]; ++t) coverable[t] += m;
            }
    }

    const double budget = static_cast<double>(problem.ram_budget_bytes);
    double smallest = 0;
    for (int t = 0; t < n; ++t) smallest = std::max(smallest, need[t] - coverable[t]);
    smallest_budget_ = static_cast<std::int64_t>(smallest);

    // Columns: y_i (a page-out of value i), then x per span (a page-in).
    out_col_.assign(n, -1);
    for (const Span& s : spans) {
        if (out_col_[s.value] >= 0) continue;
        out_col_[s.value] = columns();
        objective.push_back(scale_ * g.node(s.value).pageout_energy_j);
    }
    const int first_span_col = columns();
    spans_ = spans;
    for (const Span& s : spans_) objective.push_back(scale_ * g.node(s.value).pagein_energy_j);

    auto addRow = [&](double lo, double up) {
        row_lower.push_back(lo);
        row_upper.push_back(up);
        return rows() - 1;
    };
    auto coef = [&](int row, int col, double v) {
        triplet_row.push_back(row);
        triplet_col.push_back(col);
        triplet_value.push_back(v);
    };
    constexpr double kInf = std::numeric_limits<double>::max();
    for (std::size_t k = 0; k < spans_.size(); ++k) {  // x_ig ≤ y_i
        const int row = addRow(-kInf, 0);
        coef(row, first_span_col + static_cast<int>(k), 1);
        coef(row, out_col_[spans_[k].value], -1);
    }
    for (int t = 0; t < n; ++t) {
        const double excess = need[t] - budget;
        if (excess <= 0) continue;
        const int row = addRow(excess, kInf);  // infeasible rows stay: CBC proves it
        for (std::size_t k = 0; k < spans_.size(); ++k)
            if (spans_[k].from <= t && t <= spans_[k].to)
                coef(row, first_span_col + static_cast<int>(k),
                     static_cast<double>(g.node(spans_[k].value).memory_bytes));
    }
}

double PagingPlan::energyJ(const double* x) const
{
    double model = 0;
    for (int c = 0; c < columns(); ++c)
        if (x[c] > 0.5) model += objective[c];
    return offset_j_ + model / scale_;
}

Schedule PagingPlan::decode(const double* x) const
{
    const Graph& g = p_.graph;
    const int n = g.size();
    Schedule s(n);
    for (int t = 0; t < n; ++t) s.R.set(t, t);
    const int first_span_col = columns() - static_cast<int>(spans_.size());
    std::vector<std::vector<const Span*>> chosen(n);
    for (std::size_t k = 0; k < spans_.size(); ++k)
        if (x[first_span_col + static_cast<int>(k)] > 0.5) chosen[spans_[k].value].push_back(&spans_[k]);

    for (int i = 0; i + 1 < n; ++i) {
        const auto& readers = g.successors(i);
        if (readers.empty()) continue;
        if (free_source_[i]) {
            for (int t : readers) s.R.set(t, i);
            continue;
        }
        for (int t = i + 1; t <= readers.back(); ++t) s.S_RAM.set(t, i);
        if (chosen[i].empty()) continue;
        // Spans are in stage order: page out before the first, in at the end of each.
        const int out_stage = chosen[i].front()->from - 1;
        s.M_out.set(out_stage, i);
        for (int t = out_stage + 1; t <= chosen[i].back()->to; ++t) s.S_SD.set(t, i);
        for (const Span* span : chosen[i]) {
            for (int t = span->from; t <= span->to; ++t) s.S_RAM.set(t, i, false);
            s.M_in.set(span->to, i);
        }
    }
    return s;
}

}  // namespace poet
