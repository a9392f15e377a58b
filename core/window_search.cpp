#include "window_search.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <thread>
#include <vector>

#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"
#include "replay.h"
#include "schedule_improvement.h"

namespace poet {

namespace {

using Var = Formulation::Var;
constexpr double kInf = std::numeric_limits<double>::max();

// The formulation's rows, term by term, and the rows of each column: built
// once for every window. Flat arrays (compressed by row and by column):
// bert's 0.7M nonzeros as 0.4M small vectors took ~0.1 s to build and
// ~0.05 s to free, at the end of a short solve too.
class RowIndex {
public:
    explicit RowIndex(const Formulation& f)
        : row_start_(f.rows() + 1, 0), column_start_(f.columns() + 1, 0), terms_(f.triplet_row.size()),
          rows_(f.triplet_row.size())
    {
        const std::size_t nonzeros = f.triplet_row.size();
        for (std::size_t k = 0; k < nonzeros; ++k) {
            ++row_start_[f.triplet_row[k] + 1];
            ++column_start_[f.triplet_col[k] + 1];
        }
        std::partial_sum(row_start_.begin(), row_start_.end(), row_start_.begin());
        std::partial_sum(column_start_.begin(), column_start_.end(), column_start_.begin());
        std::vector<int> next_term(row_start_.begin(), row_start_.end() - 1);
        std::vector<int> next_row(column_start_.begin(), column_start_.end() - 1);
        for (std::size_t k = 0; k < nonzeros; ++k) {
            terms_[next_term[f.triplet_row[k]]++] = {f.triplet_col[k], f.triplet_value[k]};
            rows_[next_row[f.triplet_col[k]]++] = f.triplet_row[k];
        }
    }
    // Row r's (column, coefficient) pairs.
    std::span<const std::pair<int, double>> terms(int r) const
    {
        return {terms_.data() + row_start_[r], terms_.data() + row_start_[r + 1]};
    }
    // The rows column c appears in.
    std::span<const int> rowsOf(int c) const
    {
        return {rows_.data() + column_start_[c], rows_.data() + column_start_[c + 1]};
    }

private:
    std::vector<int> row_start_, column_start_;
    std::vector<std::pair<int, double>> terms_;
    std::vector<int> rows_;
};

// One window's MILP (window_search.h), in the triplet form loadMilp takes:
// each of its columns is a group of the formulation's columns that take
// one value, and every other column keeps its value in `fixed`.
struct WindowMilp {
    int columns() const { return static_cast<int>(objective.size()); }
    int rows() const { return static_cast<int>(row_lower.size()); }
    std::vector<std::vector<int>> groups;
    std::vector<double> fixed;  // a full column solution: the schedule's, with the grouped page-outs dropped
    std::vector<double> objective, col_lower, col_upper, row_lower, row_upper, triplet_value;
    std::vector<int> triplet_row, triplet_col;
    std::vector<char> is_integer;
    bool consistent = true;  // every row that only fixed columns make up holds
};

// Per column: an M_out or S_SD (grouped by windowMilp, not freed by stage).
std::vector<char> pagingStateColumns(const Formulation& f, int n)
{
    std::vector<char> paging_state(f.columns(), 0);
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t; ++i)
            for (Var v : {Var::M_out, Var::S_SD})
                if (const int c = f.column(v, t, i); c >= 0) paging_state[c] = 1;
    return paging_state;
}

// The columns and rows of `m`, whose groups are chosen (`group_of` each
// column's group, or -1 for one that keeps its value in m.fixed), with
// `extra_runtime_s` more spare runtime than the problem has.
void finishMilp(const Formulation& f, const RowIndex& index, const std::vector<int>& group_of, WindowMilp& m,
                double extra_runtime_s = 0)
{
    for (const auto& group : m.groups) {
        double cost = 0;
        for (int c : group) cost += f.objective[c];
        m.objective.push_back(cost);
        const bool one = group.size() == 1;
        m.col_lower.push_back(one ? f.col_lower[group[0]] : 0.0);
        m.col_upper.push_back(one ? f.col_upper[group[0]] : 1.0);
        m.is_integer.push_back(one ? f.is_integer[group[0]] : 1);
    }
    std::vector<char> touched(f.rows(), 0);
    for (const auto& group : m.groups)
        for (int c : group)
            for (int r : index.rowsOf(c)) touched[r] = 1;
    std::map<int, double> sum;  // per group, in one row
    for (int r = 0; r < f.rows(); ++r) {
        if (!touched[r]) continue;
        sum.clear();
        double fixed_part = 0;
        for (auto [c, a] : index.terms(r)) {
            if (group_of[c] >= 0) sum[group_of[c]] += a;
            else fixed_part += a * m.fixed[c];
        }
        const double lo = f.row_lower[r] <= -kInf ? -kInf : f.row_lower[r] - fixed_part;
        const double extra = r == f.runtimeRow() ? extra_runtime_s : 0;
        const double up = f.row_upper[r] >= kInf ? kInf : f.row_upper[r] + extra - fixed_part;
        const double tolerance = 1e-7 * std::max({1.0, std::abs(lo == -kInf ? 0 : lo), std::abs(up == kInf ? 0 : up)});
        double least = 0, most = 0;  // what the groups can add up to
        int terms = 0;
        for (auto [g, a] : sum) {
            if (a == 0) continue;
            ++terms;
            least += std::min(a * m.col_lower[g], a * m.col_upper[g]);
            most += std::max(a * m.col_lower[g], a * m.col_upper[g]);
        }
        if (terms == 0) {
            if (lo > tolerance || up < -tolerance) m.consistent = false;
            continue;
        }
        if (least >= lo - tolerance && most <= up + tolerance) continue;  // holds whatever the groups do
        const int row = m.rows();
        m.row_lower.push_back(lo);
        m.row_upper.push_back(up);
        for (auto [g, a] : sum)
            if (a != 0) {
                m.triplet_row.push_back(row);
                m.triplet_col.push_back(g);
                m.triplet_value.push_back(a);
            }
    }
}

// The MILP of stages t0..t1 (window_search.h), with `extra_runtime_s` more
// spare runtime than the problem has (a time trade's first step).
WindowMilp windowMilp(const Formulation& f, const RowIndex& index, const std::vector<char>& paging_state,
                      const std::vector<double>& x, int n, int t0, int t1, double extra_runtime_s = 0)
{
    WindowMilp m;
    m.fixed = x;
    std::vector<int> group_of(f.columns(), -1);
    auto join = [&](int group, int col) {
        if (col < 0) return;
        group_of[col] = group;
        m.groups[group].push_back(col);
    };
    auto alone = [&](int col) {
        if (col < 0) return;
        m.groups.emplace_back();
        join(static_cast<int>(m.groups.size()) - 1, col);
    };
    for (int c = 0; c < f.columns(); ++c)
        if (!paging_state[c] && f.stageOf(c) >= t0 && f.stageOf(c) <= t1) alone(c);
    for (int i = 0; i < n; ++i) {
        int first_held = -1;  // the first stage before the window with i in RAM
        for (int t = i + 1; t < t0 && first_held < 0; ++t)
            if (const int c = f.column(Var::S_RAM, t, i); c >= 0 && x[c] > 0.5) first_held = t;
        const int out = first_held >= 0 ? f.column(Var::M_out, first_held, i) : Formulation::kNone;
        if (out >= 0) {  // paged out there or nowhere, on flash from then on
            m.groups.emplace_back();
            const int group = static_cast<int>(m.groups.size()) - 1;
            join(group, out);
            for (int t = first_held + 1; t < n; ++t) join(group, f.column(Var::S_SD, t, i));
            for (int t = 0; t < n; ++t)
                if (const int c = f.column(Var::M_out, t, i); c >= 0 && group_of[c] < 0) m.fixed[c] = 0;
        } else {  // made in the window or after: its own paging columns from the window on
            for (int t = t0; t < n; ++t) {
                if (t <= t1) alone(f.column(Var::M_out, t, i));
                alone(f.column(Var::S_SD, t, i));
            }
        }
    }
    finishMilp(f, index, group_of, m, extra_runtime_s);
    return m;
}

// Per column: the value whose schedule variable it is (R, S_RAM, S_SD,
// M_in, M_out of value i), or -1 (FREE and U, which the stage they
// belong to holds).
std::vector<int> columnValues(const Formulation& f, int n)
{
    std::vector<int> value_of(f.columns(), -1);
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < n; ++i)
            for (Var v : {Var::R, Var::S_RAM, Var::S_SD, Var::M_in, Var::M_out})
                if (const int c = f.column(v, t, i); c >= 0) value_of[c] = i;
    return value_of;
}

// A value set's MILP (window_search.h): every column of its values free at
// every stage, and the RAM's columns (FREE, U) of stages lo..hi; the rest
// keeps the schedule's values (`x`). With `extra_runtime_s` more spare
// runtime than the problem has (a time trade's first step).
WindowMilp valueSetMilp(const Formulation& f, const RowIndex& index, const std::vector<int>& value_of,
                        const std::vector<double>& x, int n, const ValueSet& set, double extra_runtime_s = 0)
{
    WindowMilp m;
    m.fixed = x;
    std::vector<char> chosen(n, 0);
    for (int v : set.values) chosen[v] = 1;
    std::vector<int> group_of(f.columns(), -1);
    for (int c = 0; c < f.columns(); ++c) {
        const int v = value_of[c];
        const bool freed = v >= 0 ? chosen[v] != 0 : f.stageOf(c) >= set.lo && f.stageOf(c) <= set.hi;
        if (!freed) continue;
        group_of[c] = static_cast<int>(m.groups.size());
        m.groups.push_back({c});
    }
    finishMilp(f, index, group_of, m, extra_runtime_s);
    return m;
}

// The window's optimum if it is below the schedule's (`x`), as a full
// column solution; `exact` says whether the search finished by `deadline`
// (the window's). Its tree's LPs stop at `search_deadline` or on `cancel`.
std::optional<std::vector<double>> solveWindow(const WindowMilp& m, const std::vector<double>& x,
                                               Clock::time_point deadline, Clock::time_point search_deadline,
                                               const std::atomic<bool>* cancel, bool& exact)
{
    exact = false;
    OsiClpSolverInterface lp;
    loadMilp(lp, m, m.col_lower.data(), m.col_upper.data(), m.is_integer);
    lp.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    // Its LPs (this one, the one that checks the start below, CBC's root)
    // stop at the deadline too: resnet50 on m4 at 10% and 1.5x, the check's
    // LP was still running 30.05 s into a 30 s solve, which ended at 30.40 s
    // (30.08 to 30.12 s with this and the solver's own check before its LP).
    // So do the tree's, at the search's end or on a cancel, not at the
    // window's (a window a little over its time may still pay): bert on m4
    // at 11% and 1.5x, an LP checking a solution CBC's heuristics found
    // (setBestSolution) was still running in a page-out window 15 s past
    // its 2 s (gdb).
    RootLpStop::State root{deadline, cancel};
    root.tree_deadline = search_deadline;
    RootLpStop root_stop(&root);
    lp.getModelPtr()->passInEventHandler(&root_stop);
    lp.initialSolve();
    if (!lp.isProvenOptimal() || root.stopped) return std::nullopt;
    std::vector<double> start(m.columns(), 0.0);
    double start_cost = 0;
    for (int g = 0; g < m.columns(); ++g) {
        for (int c : m.groups[g]) start[g] = std::max(start[g], x[c]);
        start_cost += m.objective[g] * start[g];
    }
    // A bare CbcModel: the windows' root cuts took longer than their search.
    // On the heap: leaked where CBC faults (guardedBranchAndBound).
    auto owned_model = std::make_unique<CbcModel>(lp);
    CbcModel& model = *owned_model;
    root.model = &model;
    model.setLogLevel(0);
    model.setAllowableFractionGap(1e-9);
    model.setMaximumSeconds(std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count()));
    SearchStop stop(deadline, cancel, -INFINITY, &root);
    model.passInEventHandler(&stop);
    model.setBestSolution(start.data(), m.columns(), start_cost, true);
    if (!guardedBranchAndBound(owned_model)) return std::nullopt;  // CBC faulted: as if cut short
    exact = model.isProvenOptimal() && !stop.cut_short && !root.stopped;
    const double* best = model.bestSolution();
    // Model units are ~1e6 per plain pass: a micro-unit is no saving.
    if (!best || model.getObjValue() >= start_cost - 1e-6) return std::nullopt;
    std::vector<double> y = m.fixed;
    for (int g = 0; g < m.columns(); ++g)
        for (int c : m.groups[g]) y[c] = m.is_integer[g] ? std::round(best[g]) : best[g];
    return y;
}

// What a schedule spends in stages t0..t1 beyond one plain pass, but its
// page-outs: where a window may save something.
double spentIn(const Graph& g, const Schedule& s, int t0, int t1)
{
    double spent = 0;
    for (int t = t0; t <= t1; ++t)
        for (int i = 0; i < t; ++i) {
            if (s.M_in(t, i)) spent += g.node(i).pagein_energy_j;
            if (s.R(t, i)) spent += g.node(i).compute_energy_j;
        }
    return spent;
}

// Per stage: whether two schedules compute, hold or page anything
// differently there.
std::vector<char> stagesThatDiffer(const Schedule& a, const Schedule& b, int n)
{
    std::vector<char> differ(n, 0);
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t && !differ[t]; ++i)
            differ[t] = a.R(t, i) != b.R(t, i) || a.S_RAM(t, i) != b.S_RAM(t, i) || a.M_in(t, i) != b.M_in(t, i) ||
                        a.M_out(t, i) != b.M_out(t, i);
    return differ;
}

// Per value: whether `s` pages it out at some stage.
std::vector<char> pagedOutValues(const Schedule& s, int n)
{
    std::vector<char> paged_out(n, 0);
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t; ++i)
            if (s.M_out(t, i)) paged_out[i] = 1;
    return paged_out;
}

}  // namespace

// Why these windows: resnet18_cifar on m4 at 1.5x, 16.5 to 20%, the plan
// pages layer1.0.conv1 out at stage 4 and in at 126; the window 126..130
// recomputes it there, and the stem's values for 130 with it, saving 0.1
// to 0.2% (solved in 0.3 to 1.3 s), and at 19% 116..119 then saves 0.2%
// more in the same way. Passes by width reached them after every window of
// 3 and 4 stages at every cap, 9 to 12 s in (at 16.5%, 126..130 only at
// cap 2 s, 45 s into a 60 s solve). Where an input is paged too (at 13%
// every value of layer1 is), recomputing the value pays that input's
// page-in instead: 56 windows there, none better. The last stages first:
// by what the schedule spends in them, 126..130 came after six windows at
// 116 and 119 that each ran to their cap.
std::vector<std::pair<int, int>> pageOutWindows(const Graph& g, const Schedule& s)
{
    constexpr int kPageInSpread = 2;
    const int n = g.size();
    const std::vector<char> paged_out = pagedOutValues(s, n);
    std::vector<std::pair<int, int>> windows;
    for (int i = 0; i < n; ++i) {
        int page_outs = 0, first_in = -1, last_in = -1;
        for (int t = i + 1; t < n; ++t) {
            page_outs += s.M_out(t, i);
            if (s.M_in(t, i)) {
                if (first_in < 0) first_in = t;
                last_in = t;
            }
        }
        if (page_outs != 1 || first_in < 0 || last_in - first_in > kPageInSpread) continue;
        const auto& inputs = g.predecessors(i);
        if (std::any_of(inputs.begin(), inputs.end(), [&](int u) { return paged_out[u]; })) continue;
        for (int width = 4; width <= 6 && first_in + width - 1 < n; ++width)
            windows.emplace_back(first_in, first_in + width - 1);
    }
    std::sort(windows.begin(), windows.end(),
              [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

std::vector<ValueSet> swapValueSets(const Graph& g, const Schedule& s)
{
    const int n = g.size();
    const std::vector<char> paged = pagedOutValues(s, n);
    std::vector<char> recomputed(n, 0);
    std::vector<int> first_return(n, -1);  // the first stage where a value comes back
    for (int i = 0; i < n; ++i)
        for (int t = i + 1; t < n; ++t) {
            recomputed[i] |= s.R(t, i);
            if (first_return[i] < 0 && (s.R(t, i) || s.M_in(t, i))) first_return[i] = t;
        }
    std::vector<ValueSet> sets;
    for (int distance = 1; distance <= kSwapDistance; ++distance)
        for (int a = 0; a + distance < n; ++a) {
            const int b = a + distance;
            if (!(paged[a] && recomputed[b]) && !(recomputed[a] && paged[b])) continue;
            const int paged_one = paged[a] && recomputed[b] ? a : b;
            ValueSet set;
            set.values = {a, b};
            for (int u : g.predecessors(paged_one)) set.values.push_back(u);
            std::sort(set.values.begin(), set.values.end());
            set.values.erase(std::unique(set.values.begin(), set.values.end()), set.values.end());
            int first = n - 1, last = 0;
            for (int v : set.values) {
                const auto& reads = g.successors(v);
                const int last_read = reads.empty() ? v : reads.back();
                first = std::min(first, first_return[v] >= 0 ? first_return[v] : last_read);
                last = std::max(last, last_read);
            }
            set.lo = std::max(0, first - kSetLookBack);
            set.hi = std::min(n - 1, last + 2);
            sets.push_back(std::move(set));
        }
    return sets;
}

Schedule improveByWindows(const Problem& problem, const Schedule& s, Clock::time_point deadline,
                          const std::atomic<bool>* cancel, const std::function<void(const Schedule&)>& improved,
                          const std::atomic<int>* threads, WindowPasses passes)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    const ReplayLimits limits = limitsOf(problem);
    const bool swap_sets_only = passes == WindowPasses::SwapSetsOnly;
    const ReplayReport first = replaySchedule(g, s, limits);
    // Building the MILP and its index (and freeing them) takes bert ~0.3 s.
    if (!first.valid || Clock::now() >= deadline || isSet(cancel)) return s;
    auto over = [&] { return Clock::now() >= deadline || (cancel && cancel->load()); };
    const Formulation f(problem, FormulationVariant::Tight, over);
    if (f.stopped()) return s;
    const RowIndex index(f);
    const std::vector<char> paging_state = pagingStateColumns(f, n);
    // The best schedule, its column values and how often it changed; the
    // workers read and replace them under the mutex.
    std::mutex mutex;
    Schedule best = s;
    double best_j = first.total_energy_j;
    std::vector<double> x = f.encode(best);
    long changes = 0;
    // Solves `windows` (first and last stage), each cut short after `cap_s`,
    // on `threads` threads, and says whether the schedule changed. Each
    // window is built on the schedule of the moment; one found better than
    // a schedule that has changed since is still taken if it beats it. With
    // `settled` (by first stage, for windows of `width`), a window solved
    // exactly against the schedule of the moment is marked, and a better
    // schedule unmarks the windows that meet or touch a stage where it
    // changed: the others' MILPs differ at most in paging far away.
    // resnet18_cifar on m4 at 20% and 1.5x, after the window of four stages
    // at 116 saved 0.2%: the other 60 windows of four, solved again, took
    // 4.4 s and saved nothing; now 8 of them, 1.5 s.
    // `count` neighbourhoods, each searched by `search` (its index, the
    // column values of the moment, its deadline; it says whether its search
    // was exact); `settled` is by a window's first stage (`windows`), so
    // none for value sets.
    using Search = std::function<std::optional<Schedule>(std::size_t, const std::vector<double>&,
                                                         Clock::time_point, bool&)>;
    auto solveEach = [&](std::size_t count, const Search& search, const std::vector<std::pair<int, int>>& windows,
                         double cap_s, std::vector<char>* settled, int width,
                         Clock::time_point start_by = Clock::time_point::max()) {
        const long changes_before = changes;
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (std::size_t k; !over() && Clock::now() < start_by && (k = next++) < count;) {
                const int t0 = k < windows.size() ? windows[k].first : 0;
                std::vector<double> x_then;
                long changes_then = 0;
                {
                    std::lock_guard lock(mutex);
                    x_then = x;
                    changes_then = changes;
                }
                bool exact = false;
                std::optional<Schedule> found =
                    search(k, x_then, std::min(deadline, secondsAfter(Clock::now(), cap_s)), exact);
                if (!found) {
                    std::lock_guard lock(mutex);
                    if (settled && changes == changes_then) (*settled)[t0] = exact;
                    continue;
                }
                Schedule candidate = std::move(*found);
                const ReplayReport replay = replaySchedule(g, candidate, limits);
                std::lock_guard lock(mutex);
                if (!replay.valid || !(replay.total_energy_j < best_j)) continue;
                if (settled) {
                    const std::vector<char> differ = stagesThatDiffer(best, candidate, n);
                    for (int first = 0; first < n; ++first)
                        for (int t = std::max(0, first - 1); t <= std::min(n - 1, first + width); ++t)
                            if (differ[t]) (*settled)[first] = 0;
                }
                best = std::move(candidate);
                best_j = replay.total_energy_j;
                x = f.encode(best);
                ++changes;
                if (improved) improved(best);
            }
        };
        std::vector<std::thread> helpers;
        for (int i = 1; threads && i < threads->load(); ++i) helpers.emplace_back(work);
        work();
        for (std::thread& helper : helpers) helper.join();
        return changes != changes_before;
    };
    // A neighbourhood's MILP solved (solveWindow) by `until`: its optimum,
    // where below the schedule's (`x_then`).
    auto solveMilp = [&](const WindowMilp& m, const std::vector<double>& x_then, Clock::time_point until,
                         bool& exact) -> std::optional<Schedule> {
        exact = false;
        if (!m.consistent) return std::nullopt;
        const std::optional<std::vector<double>> y = solveWindow(m, x_then, until, deadline, cancel, exact);
        if (!y) return std::nullopt;
        return f.decode(y->data());
    };
    auto solvePass = [&](const std::vector<std::pair<int, int>>& windows, double cap_s, std::vector<char>* settled,
                         int width, Clock::time_point start_by = Clock::time_point::max()) {
        return solveEach(
            windows.size(),
            [&](std::size_t k, const std::vector<double>& x_then, Clock::time_point until, bool& exact) {
                return solveMilp(
                    windowMilp(f, index, paging_state, x_then, n, windows[k].first, windows[k].second), x_then,
                    until, exact);
            },
            windows, cap_s, settled, width, start_by);
    };
    // The page-out windows first, once, each given up to 2 s (those that
    // paid took 0.3 to 1.3 s), none started after 8 s or half the time
    // left: bert on m4 at 10% and 1.5x has 37 of them, which took 26 s of
    // its 60 and saved nothing.
    const auto now = Clock::now();
    if (!swap_sets_only)
        solvePass(pageOutWindows(g, best), 2.0, nullptr, 0,
                  std::min(secondsAfter(now, 8.0), now + (deadline - now) / 2));
    // Where the spare time is scarce, the swap sets next, each a time trade
    // first (window_search.h), none started after kValueSetsS or a quarter
    // of the time left; after a pass that found a better schedule, that
    // schedule's sets.
    if (spareTimeIsScarce(problem)) {
        const std::vector<int> value_of = columnValues(f, n);
        const double trade_s = kTradeRuntimeShare * problem.spareRuntimeSeconds();
        ReplayLimits any_runtime = limits;
        any_runtime.runtime_budget_s = -1;
        // Many sets' optima with more runtime are one schedule (resnet18_cifar
        // at 17% and 1.001x: 0.688387 J from 40 of 101 sets): each relieved
        // once only (a relief cut short too), keyed by its energy and
        // compute time.
        std::set<std::pair<double, double>> relieved;
        auto capped = [&] { return std::min(deadline, secondsAfter(Clock::now(), kValueSetCapS)); };
        // A neighbourhood's MILP (`milp`, given the spare runtime it adds)
        // with more runtime relaxes its own: where it finds nothing cheaper,
        // solved exactly, neither would that, and where its optimum fits the
        // budget, that is its own. Else the trade's relief, and where that
        // costs more than the schedule, its own MILP (`own_after`).
        using Milp = std::function<WindowMilp(double)>;
        auto searchTrade = [&](const Milp& milp, bool own_after, const std::vector<double>& x_then,
                               Clock::time_point until, bool& exact) -> std::optional<Schedule> {
            std::optional<Schedule> traded = solveMilp(milp(trade_s), x_then, until, exact);
            if (!traded && exact) return std::nullopt;
            if (traded) {
                const ReplayReport replay = replaySchedule(g, *traded, any_runtime);
                if (replay.valid && replay.runtime_s <= acceptedRuntimeS(limits)) return traded;
                bool first_time = false;
                {
                    std::lock_guard lock(mutex);
                    first_time = relieved.emplace(replay.total_energy_j, replay.runtime_s).second;
                }
                // A relief back to the schedule's own energy is no saving: the
                // set's own MILP then gets its turn.
                if (replay.valid && first_time)
                    if (std::optional<Schedule> fitted = relieveRuntime(problem, *traded, capped(), cancel);
                        fitted &&
                        replaySchedule(g, *fitted, limits).total_energy_j < f.energyJ(x_then.data()) * (1 - 1e-9))
                        return fitted;
            }
            if (!own_after) return std::nullopt;
            return solveMilp(milp(0), x_then, capped(), exact);
        };
        const auto sets_now = Clock::now();
        const auto sets_end = swap_sets_only ? deadline
                                             : std::min(secondsAfter(sets_now, kValueSetsS),
                                                        sets_now + (deadline - sets_now) / 4);
        for (bool changed = true; changed && !over() && Clock::now() < sets_end;) {
            std::vector<ValueSet> sets;
            {
                std::lock_guard lock(mutex);
                sets = swapValueSets(g, best);
            }
            changed = solveEach(
                sets.size(),
                [&](std::size_t k, const std::vector<double>& x_then, Clock::time_point until, bool& exact) {
                    return searchTrade(
                        [&](double extra_s) { return valueSetMilp(f, index, value_of, x_then, n, sets[k], extra_s); },
                        true, x_then, until, exact);
                },
                {}, kValueSetCapS, nullptr, 0, sets_end);
        }
        // Then, once, windows of kTradeWidth stages from the first backward
        // one on, in stage order, each a time trade alone (its own MILP is
        // the width passes', below), none started after kTradeWindowsS or
        // half the time left (window_search.h).
        if (!swap_sets_only) {
            std::vector<std::pair<int, int>> trade_windows;
            for (int t0 = g.forwardCount(); t0 + kTradeWidth - 1 < n; ++t0)
                trade_windows.emplace_back(t0, t0 + kTradeWidth - 1);
            const auto windows_now = Clock::now();
            solveEach(
                trade_windows.size(),
                [&](std::size_t k, const std::vector<double>& x_then, Clock::time_point until, bool& exact) {
                    return searchTrade(
                        [&](double extra_s) {
                            return windowMilp(f, index, paging_state, x_then, n, trade_windows[k].first,
                                              trade_windows[k].second, extra_s);
                        },
                        false, x_then, until, exact);
                },
                trade_windows, kValueSetCapS, nullptr, 0,
                std::min(secondsAfter(windows_now, kTradeWindowsS), windows_now + (deadline - windows_now) / 2));
        }
    }
    // Per width, passes over the windows not yet solved exactly against the
    // current schedule, each cut short at a limit that doubles from pass
    // to pass (up to 2 s); a better schedule starts the width over.
    for (int width = 3; width < n && !over() && !swap_sets_only; ++width) {
        std::vector<char> settled(n, 0);  // by first stage: solved exactly, nothing better
        for (double cap_s = 0.25; !over();) {
            std::vector<std::pair<double, int>> order;  // spent, first stage
            for (int t0 = 1; t0 + width - 1 < n; ++t0)
                if (const double spent = spentIn(g, best, t0, t0 + width - 1); spent > 0 && !settled[t0])
                    order.emplace_back(spent, t0);
            if (order.empty()) break;
            std::stable_sort(order.begin(), order.end(), [](auto a, auto b) { return a.first > b.first; });
            std::vector<std::pair<int, int>> windows;
            for (const auto& o : order) windows.emplace_back(o.second, o.second + width - 1);
            if (solvePass(windows, cap_s, &settled, width)) {
                cap_s = 0.25;
                continue;
            }
            if (cap_s >= 2.0) break;  // the rest are too hard at this width
            cap_s *= 2;
        }
    }
    return best;
}

}  // namespace poet
