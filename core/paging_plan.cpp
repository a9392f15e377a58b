#include "paging_plan.h"

#include "formulation.h"
#include "replay.h"
#include "stage_bound.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_map>

namespace poet {

namespace {

// Recomputing it costs nothing and needs nothing: a network input.
bool isFreeSource(const Graph& g, int i)
{
    const Node& node = g.node(i);
    return g.predecessors(i).empty() && node.compute_energy_j == 0 && node.compute_time_s == 0;
}

// Moves each page-in to the stage before the value is next read, where
// nothing reads it in the stage after (an early page-in whose input turned
// out held, or that serves a later stage of its span): less RAM, the same
// energy, and a page-in then serves a read in the next stage, as
// formulation.h's Tight form requires of a warm start.
void pageInWhereRead(const Graph& g, Schedule& s)
{
    const int n = g.size();
    auto readAt = [&](int t, int i) {
        const auto& readers = g.successors(i);
        return std::any_of(readers.begin(), readers.end(), [&](int v) { return v <= t && s.R(t, v); });
    };
    for (int i = 0; i < n; ++i)
        for (int t = 0; t + 1 < n; ++t) {
            if (!s.M_in(t, i) || readAt(t + 1, i)) continue;
            int read = t + 2;  // the next stage that reads it while it is held
            while (read < n && s.S_RAM(read, i) && !readAt(read, i)) ++read;
            if (read >= n || !s.S_RAM(read, i)) continue;  // never read again: left as it is
            s.M_in.set(t, i, false);
            s.M_in.set(read - 1, i);
            for (int k = t + 1; k < read; ++k) {
                s.S_RAM.set(k, i, false);
                s.S_SD.set(k, i);
            }
        }
}

}  // namespace

bool PagingPlan::applies(const Problem& problem)
{
    const Graph& g = problem.graph;
    // The last node is never recomputed: no stage follows it.
    for (int i = 0; i + 1 < g.size(); ++i)
        if (recomputableInTightForm(problem, i) && !isFreeSource(g, i)) return false;
    return true;
}

PagingPlan::PagingPlan(const Problem& problem, bool stopped_chains, CoverRows cover, const std::atomic<bool>* cancel)
    : p_(problem), cover_(cover)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    offset_j_ = g.totalComputeEnergy();
    scale_ = modelUnitsPerJoule(offset_j_);
    free_source_.assign(n, 0);
    for (int i = 0; i + 1 < n; ++i) free_source_[i] = recomputableInTightForm(problem, i) && isFreeSource(g, i);

    // The plain pass, everything kept; a cost-free input is recomputed at each reader.
    base_ = Schedule(n);
    for (int t = 0; t < n; ++t) base_.R.set(t, t);
    for (int i = 0; i + 1 < n; ++i) {
        const auto& readers = g.successors(i);
        if (readers.empty()) continue;
        for (int t : readers)
            if (free_source_[i]) base_.R.set(t, i);
        for (int t = i + 1; t <= readers.back() && !free_source_[i]; ++t) base_.S_RAM.set(t, i);
    }
    const std::vector<double> need = spansAndNeed();
    // Where value u is away at stage t: the span of u that covers t, or -1
    // (an original span: alternatives are appended after them).
    auto spanCovering = [&](int u, int t) {
        for (int k = 0; k < static_cast<int>(spans_.size()); ++k)
            if (spans_[k].value == u && spans_[k].from <= t && t <= spans_[k].to) return k;
        return -1;
    };
    // Recomputing i in its reader's stage b needs each input in RAM there:
    // held (a live value not away at b: its covering span is a blocker), a
    // cost-free input (recomputed for it at no cost where b does not read it
    // anyway), or, for an input cheaper to compute than to page in,
    // recomputed in stage b as well (transient: it is released once i is
    // computed). A cheap input that may be held at b (it has a span there) is
    // a transient in one chain, and a blocker in a second chain, added as a
    // second span (`alternative`) where it differs: the plan picks per span.
    // (resnet's conv-bn-relu: recompute the relu from a bn paged in, or from
    // a bn held anyway, freeing the relu's RAM at no page-in.) A third chain
    // stops where the first would need a visit (cutsOf, below).
    struct Chain {
        bool ok = true;
        std::vector<int> transient;  // ascending
        std::vector<Blocker> blockers;
        std::vector<int> kept;
    };
    // Input u of a chain recomputed in stage b: live (not a cost-free source,
    // and read at or after b), the span of it that covers b (-1: held there
    // or not live), and whether it is cheaper to recompute than to page in.
    struct Input {
        bool live;
        int span;
        bool cheap;
    };
    auto inputAt = [&](int u, int b) {
        const bool live = !free_source_[u] && b >= u + 1 && b <= g.successors(u).back();
        return Input{live, live ? spanCovering(u, b) : -1,
                     recomputableInTightForm(problem, u) && g.node(u).compute_energy_j <= g.node(u).pagein_energy_j};
    };
    // The RAM a stage has beside node t and its inputs.
    std::vector<double> room(n);
    for (int t = 0; t < n; ++t)
        room[t] = static_cast<double>(problem.ram_budget_bytes) - stagePeak(problem, t).fixed_bytes;
    // Whether value u, paged in for stage b, could stay in RAM beside every
    // node until its span c ends (so that page-in serves its own read too).
    auto holdable = [&](int u, int c, int b) {
        for (int t = b + 1; t <= spans_[c].to; ++t)
            if (room[t] < static_cast<double>(g.node(u).memory_bytes)) return false;
        return true;
    };
    // Where the first chain would run through a value that must come in
    // only for it and cannot stay (a visit), the lowest value above that
    // which could be paged in early and held instead: the third chain stops
    // there. (Which chains are offered is a guess from each stage's room
    // beside its node; the plan's rows decide what fits.)
    // bert at its tightest budgets: add2 of block j is recomputed from add1
    // paged in, not from add2 of block j-1, which no backward stage of block
    // j-1's attention has room for.
    auto cutsOf = [&](int k) {
        const int b = spans_[k].to + 1;
        std::vector<char> cut(n, 0);
        std::vector<signed char> visits(n, -1);  // per node: whether its inputs, as the chain takes them, need a visit
        std::function<bool(int)> needsVisit = [&](int v) -> bool {
            if (visits[v] >= 0) return visits[v] != 0;
            visits[v] = 0;
            bool needs = false;
            for (int u : g.predecessors(v)) {
                const Input in = inputAt(u, b);
                if (free_source_[u] || (in.live && in.span < 0)) continue;
                if (in.cheap) {
                    const bool below = needsVisit(u);
                    cut[u] = below && in.live && holdable(u, in.span, b);
                    needs = needs || (below && !cut[u]);
                } else if (in.live) {
                    needs = needs || !holdable(u, in.span, b);
                }
            }
            visits[v] = needs ? 1 : 0;
            return needs;
        };
        needsVisit(spans_[k].value);
        return cut;
    };
    auto chainOf = [&](int k, bool hold_live, const std::vector<char>* cut) {
        Chain chain;
        const int b = spans_[k].to + 1;
        std::vector<int> todo{spans_[k].value};
        std::vector<char> seen(n, 0);
        while (chain.ok && !todo.empty()) {
            const int v = todo.back();
            todo.pop_back();
            for (int u : g.predecessors(v)) {
                if (seen[u]) continue;
                seen[u] = 1;
                const auto& ur = g.successors(u);
                const Input in = inputAt(u, b);
                if (free_source_[u]) {
                    if (!std::binary_search(ur.begin(), ur.end(), b)) chain.transient.push_back(u);
                } else if (in.live && in.span < 0) {
                    continue;  // always held at b
                } else if (!(in.live && hold_live) && !(cut && (*cut)[u]) && in.cheap) {
                    chain.transient.push_back(u);
                    todo.push_back(u);
                    if (in.span >= 0) chain.kept.push_back(in.span);
                } else if (in.live) {
                    chain.blockers.push_back({in.span, v == spans_[k].value ? -1 : spanCovering(v, b)});
                } else {
                    chain.ok = false;
                }
            }
        }
        std::sort(chain.transient.begin(), chain.transient.end());
        return chain;
    };
    // The inputs of a chain that must visit.
    auto visitsOf = [&](const Chain& chain, int k) {
        const int b = spans_[k].to + 1;
        return std::count_if(chain.blockers.begin(), chain.blockers.end(),
                             [&](const Blocker& x) { return !holdable(spans_[x.span].value, x.span, b); });
    };
    std::vector<Chain> chains, alternatives;  // per span, per alternative span
    std::vector<int> alternative_of;          // per alternative span: the span it is an alternative to
    const std::size_t originals = spans_.size();
    for (std::size_t k = 0; k < originals; ++k) {
        if (endedBy(cancel)) return;
        if (!recomputableInTightForm(problem, spans_[k].value)) {
            chains.push_back({false, {}, {}, {}});
            continue;
        }
        chains.push_back(chainOf(static_cast<int>(k), false, nullptr));
        // The other chains, where they differ: every live input held (paged
        // in early where away), and (if asked) the chain stopped where it
        // would need a visit, where the first needs two or more (bert: a
        // block's output recomputed from two blocks before it and more).
        Chain held = chainOf(static_cast<int>(k), true, nullptr);
        Chain stopped{false, {}, {}, {}};
        const int visits = chains[k].ok ? static_cast<int>(visitsOf(chains[k], static_cast<int>(k))) : 0;
        most_visits_ = std::max(most_visits_, visits);
        if (stopped_chains && (!chains[k].ok || visits >= 2)) {
            const std::vector<char> cut = cutsOf(static_cast<int>(k));
            stopped = chainOf(static_cast<int>(k), false, &cut);
        }
        std::vector<std::vector<int>> taken;
        if (chains[k].ok) taken.push_back(chains[k].transient);
        for (Chain* variant : {&held, &stopped}) {
            if (!variant->ok || std::find(taken.begin(), taken.end(), variant->transient) != taken.end()) continue;
            taken.push_back(variant->transient);
            if (variant == &stopped) ++stopped_chains_;
            alternatives.push_back(std::move(*variant));
            alternative_of.push_back(static_cast<int>(k));
        }
    }
    // Alternative spans follow the originals; each span links to the next
    // way of recomputing it (`alternative`), the original to the first.
    for (std::size_t a = 0; a < alternatives.size(); ++a) {
        const Span& of = spans_[alternative_of[a]];
        const int index = static_cast<int>(spans_.size());
        if (a > 0 && alternative_of[a - 1] == alternative_of[a])
            spans_[index - 1].alternative = index;
        else
            spans_[alternative_of[a]].alternative = index;
        spans_.push_back({of.value, of.from, of.to, -1, true});
    }
    std::move(alternatives.begin(), alternatives.end(), std::back_inserter(chains));
    std::vector<std::vector<Blocker>> blockers(spans_.size());
    std::vector<std::vector<int>> transient(spans_.size());
    std::vector<char> can_recompute(spans_.size(), 0);
    kept_.assign(spans_.size(), {});
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const int b = spans_[k].to + 1;
        can_recompute[k] = chains[k].ok;
        transient[k] = std::move(chains[k].transient);
        blockers[k] = std::move(chains[k].blockers);
        kept_[k] = std::move(chains[k].kept);
        // A blocker may instead be paged in early, for stage b, where its
        // span has begun; or visit stage b only, where it is read after b+1.
        if (can_recompute[k] && problem.options.paging)
            for (const auto [c, via] : blockers[k])
                if (b > spans_[c].from) {
                    early_.push_back({c, b, -1});
                    if (spans_[c].to > b) visits_.push_back({static_cast<int>(k), c, -1});
                }
    }
    transient_ = std::move(transient);
    auto key = [](const Early& e) { return std::pair(e.span, e.stage); };
    std::sort(early_.begin(), early_.end(), [&](const Early& a, const Early& b) { return key(a) < key(b); });
    early_.erase(std::unique(early_.begin(), early_.end(), [&](const Early& a, const Early& b) { return key(a) == key(b); }),
                 early_.end());

    if (endedBy(cancel)) return;
    addColumnsAndRows(need, can_recompute, blockers, cancel);
}

PagingPlan::PagingPlan(const Problem& problem, const Schedule& base, CoverRows cover)
    : p_(problem), cover_(cover), base_(base)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    for (int t = 0; t < n; ++t)  // its compute energy: paging is all the plan adds
        for (int i = 0; i <= t; ++i)
            if (base.R(t, i)) offset_j_ += g.node(i).compute_energy_j;
    scale_ = modelUnitsPerJoule(offset_j_);
    free_source_.assign(n, 0);
    const std::vector<double> need = spansAndNeed();
    transient_.assign(spans_.size(), {});
    kept_.assign(spans_.size(), {});
    addColumnsAndRows(need, std::vector<char>(spans_.size(), 0), std::vector<std::vector<Blocker>>(spans_.size()));
}

std::vector<double> PagingPlan::spansAndNeed()
{
    const Graph& g = p_.graph;
    const int n = g.size();
    const ReplayReport kept = replaySchedule(g, base_, ReplayLimits{-1, -1, false, true});
    std::vector<double> need(n, 0);
    release_points_.assign(n, {});
    if (!kept.valid) return need;  // no spans: the plan decodes to base_, which the caller's replay rejects
    for (int t = 0; t < n; ++t) need[t] = static_cast<double>(kept.stage_peak_bytes[t]);
    // Each run of stages that holds a value: it must be there where a node
    // computed in that stage reads it, and at the run's first stage (to be
    // paged out); between two such anchors it may be on flash instead. A
    // later run (the value recomputed) may be away from its first stage on:
    // its page-in reads the copy written in the first run. Measured: the
    // 12% resnet18_cifar schedule pages layer1.1.bn2 out in the forward
    // pass, recomputes it at 110 for a read there, and pages it in at 114.
    for (int i = 0; i + 1 < n; ++i) {
        if (g.node(i).memory_bytes <= 0) continue;
        std::vector<int> anchors;
        std::vector<char> run_start;  // per anchor: the run starts there and nothing reads it then
        for (int t = i + 1; t < n; ++t) {
            if (!base_.S_RAM(t, i)) continue;
            bool read = false;
            for (int v : g.successors(i)) read = read || (v <= t && base_.R(t, v));
            const bool starts = !base_.S_RAM(t - 1, i);
            if (read || starts) {
                anchors.push_back(t);
                run_start.push_back(starts && !read);
            }
        }
        for (std::size_t k = 0; k + 1 < anchors.size(); ++k) {
            bool held_between = true;
            for (int t = anchors[k]; t <= anchors[k + 1]; ++t) held_between = held_between && base_.S_RAM(t, i);
            if (!held_between) continue;
            if (k > 0 && run_start[k])
                spans_.push_back({i, anchors[k], anchors[k + 1] - 1, -1, false, anchors.front()});
            else if (anchors[k + 1] >= anchors[k] + 2)
                spans_.push_back({i, anchors[k] + 1, anchors[k + 1] - 1});
        }
    }
    // Where a span's value is last read before its anchor stage's last step,
    // it leaves RAM then (not kept for the next stage). Measured: without
    // this, a fixed compute plan's own paging did not fit at resnet18_cifar
    // at 16% (its recomputation stages read a paged-in value early on).
    std::vector<std::vector<std::pair<int, int>>> leaving(n);  // per stage: (first step without it, span)
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const int a = spans_[k].from - 1, i = spans_[k].value;
        int last_reader = -1;
        for (int v : g.successors(i))
            if (v <= a && base_.R(a, v)) last_reader = std::max(last_reader, v);
        if (last_reader >= 0 && last_reader < a) leaving[a].emplace_back(last_reader + 1, static_cast<int>(k));
    }
    for (int t = 0; t < n; ++t) {
        if (leaving[t].empty()) continue;
        std::sort(leaving[t].begin(), leaving[t].end());
        const auto& trace = kept.ram_trace[t];
        auto fullest = [&](int from, int to) {  // steps from..to-1
            double most = 0;
            for (int j = from; j < to; ++j) most = std::max(most, static_cast<double>(trace[j]));
            return most;
        };
        std::vector<ReleasePoint>& points = release_points_[t];
        points.push_back({fullest(0, leaving[t].front().first), {}});
        for (std::size_t q = 0; q < leaving[t].size(); ++q) {
            ReleasePoint point{0, points.back().spans};
            point.spans.push_back(leaving[t][q].second);
            const int to = q + 1 < leaving[t].size() ? leaving[t][q + 1].first : t + 1;
            point.need_from = fullest(leaving[t][q].first, to);
            points.push_back(std::move(point));
        }
    }
    return need;
}

void PagingPlan::addColumnsAndRows(const std::vector<double>& need, const std::vector<char>& can_recompute,
                                   const std::vector<std::vector<Blocker>>& blockers, const std::atomic<bool>* cancel)
{
    const Problem& problem = p_;
    const Graph& g = problem.graph;
    const int n = g.size();
    std::vector<double> coverable(n, 0);
    // Columns: y_i (a page-out of value i), then per span its page-in and its recomputation.
    out_col_.assign(n, -1);
    page_col_.assign(spans_.size(), -1);
    recompute_col_.assign(spans_.size(), -1);
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const Span& s = spans_[k];
        const Node& node = g.node(s.value);
        const bool bridged = problem.options.paging || can_recompute[k];
        if (bridged && !s.is_alternative)
            for (int t = s.from; t <= s.to; ++t) coverable[t] += static_cast<double>(node.memory_bytes);
        if (problem.options.paging && !s.is_alternative) {
            if (out_col_[s.value] < 0) out_col_[s.value] = addColumn(node.pageout_energy_j);
            page_col_[k] = addColumn(node.pagein_energy_j);
        }
        if (can_recompute[k]) {
            double energy = node.compute_energy_j;
            for (int u : transient_[k]) energy += g.node(u).compute_energy_j;
            recompute_col_[k] = addColumn(energy);
        }
    }
    for (Early& e : early_) e.col = addColumn(g.node(spans_[e.span].value).pagein_energy_j);
    // Per recomputed span, and per input span: indices into visits_.
    std::vector<std::vector<int>> visits_of(spans_.size()), visits_by_input(spans_.size());
    for (std::size_t v = 0; v < visits_.size(); ++v) {
        visits_[v].col = addColumn(g.node(spans_[visits_[v].input].value).pagein_energy_j);
        visits_of[visits_[v].recompute].push_back(static_cast<int>(v));
        visits_by_input[visits_[v].input].push_back(static_cast<int>(v));
    }
    // A transient whose own span ends where it is recomputed (read in the
    // next stage) may stay: the chain's copy bridges that span (a carry).
    std::vector<std::vector<int>> carries_of(spans_.size());  // per carried span: indices into carries_
    for (std::size_t k = 0; k < spans_.size(); ++k)
        for (int c : kept_[k])
            if (recompute_col_[k] >= 0 && spans_[c].to == spans_[k].to + 1) {
                carries_of[c].push_back(static_cast<int>(carries_.size()));
                carries_.push_back({static_cast<int>(k), c, addColumn(0)});
            }
    auto earlyOf = [&](int c) {  // span c's early page-ins, by stage
        auto lo = std::lower_bound(early_.begin(), early_.end(), c, [](const Early& e, int v) { return e.span < v; });
        auto hi = std::upper_bound(lo, early_.end(), c, [](int v, const Early& e) { return v < e.span; });
        return std::pair(lo, hi);
    };
    // The columns that bring span c's value into RAM during stage b, for
    // b+1: its page-in at the span's end, an early page-in, a visit, or a
    // carry.
    auto arrivesDuring = [&](int c, int b) {
        std::vector<int> cols;
        for (int w : carries_of[c])
            if (spans_[carries_[w].recompute].to + 1 == b) cols.push_back(carries_[w].col);
        if (spans_[c].to == b && page_col_[c] >= 0) cols.push_back(page_col_[c]);
        const auto [lo, hi] = earlyOf(c);
        for (auto e = lo; e != hi; ++e)
            if (e->stage == b + 1) cols.push_back(e->col);
        for (int v : visits_by_input[c])
            if (spans_[visits_[v].recompute].to == b) cols.push_back(visits_[v].col);
        return cols;
    };
    // Per recomputation, per transient of it that may arrive during the
    // same stage: a flag, free, that is 1 where both are chosen (the copy is
    // then kept through the stage's node). Transients that cannot be are
    // dropped from kept_.
    std::vector<std::vector<int>> kept_col(spans_.size());
    std::vector<std::vector<std::vector<int>>> kept_by(spans_.size());  // per kept transient: what brings it in
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        std::vector<int> kept;
        for (int c : kept_[k]) {
            std::vector<int> cols = arrivesDuring(c, spans_[k].to + 1);
            if (recompute_col_[k] < 0 || cols.empty()) continue;
            kept.push_back(c);
            kept_col[k].push_back(addColumn(0));
            kept_by[k].push_back(std::move(cols));
        }
        kept_[k] = std::move(kept);
    }

    const double budget = static_cast<double>(problem.ram_budget_bytes);
    double smallest = 0;
    for (int t = 0; t < n; ++t) {
        if (release_points_[t].empty()) smallest = std::max(smallest, need[t] - coverable[t]);
        for (const ReleasePoint& point : release_points_[t]) {
            double left = 0;
            for (int k : point.spans) left += static_cast<double>(g.node(spans_[k].value).memory_bytes);
            smallest = std::max(smallest, point.need_from - coverable[t] - left);
        }
    }
    smallest_budget_ = static_cast<std::int64_t>(smallest);

    constexpr double kInf = std::numeric_limits<double>::max();
    auto row = [&](double lo, double up, const std::vector<std::pair<int, double>>& terms) {
        row_lower.push_back(lo);
        row_upper.push_back(up);
        for (auto [col, v] : terms) {
            if (col < 0) continue;
            triplet_row.push_back(rows() - 1);
            triplet_col.push_back(col);
            triplet_value.push_back(v);
        }
    };
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const int page = page_col_[k], recompute = recompute_col_[k];
        const auto [early_lo, early_hi] = earlyOf(static_cast<int>(k));
        if (page >= 0) row(-kInf, 0, {{page, 1}, {out_col_[spans_[k].value], -1}});  // a page-in needs the page-out
        std::vector<std::pair<int, double>> ways{{page, 1}, {recompute, 1}};  // one way across
        for (int a = spans_[k].alternative; a >= 0; a = spans_[a].alternative) ways.emplace_back(recompute_col_[a], 1);
        for (int w : carries_of[k]) ways.emplace_back(carries_[w].col, 1);
        for (auto e = early_lo; e != early_hi; ++e) {
            row(-kInf, 0, {{e->col, 1}, {out_col_[spans_[k].value], -1}});
            ways.emplace_back(e->col, 1);
        }
        if (std::count_if(ways.begin(), ways.end(), [](auto w) { return w.first >= 0; }) > 1) row(-kInf, 1, ways);
        for (std::size_t j = 0; j < kept_[k].size(); ++j) {
            std::vector<std::pair<int, double>> terms{{recompute, 1}, {kept_col[k][j], -1}};
            for (int col : kept_by[k][j]) terms.emplace_back(col, 1);
            row(-kInf, 1, terms);
        }
        // An input away at b cannot feed the recomputation, unless paged in
        // by then; one that only a transient reads is needed only where that
        // transient is away at b as well.
        const int b = spans_[k].to + 1;
        auto addAwayAt = [&](std::vector<std::pair<int, double>>& terms, int c) {  // span c away at b
            terms.emplace_back(page_col_[c], 1);
            terms.emplace_back(recompute_col_[c], 1);
            for (int a = spans_[c].alternative; a >= 0; a = spans_[a].alternative) terms.emplace_back(recompute_col_[a], 1);
            for (int w : carries_of[c]) terms.emplace_back(carries_[w].col, 1);
            const auto [lo, hi] = earlyOf(c);
            for (auto e = lo; e != hi; ++e)
                if (e->stage > b) terms.emplace_back(e->col, 1);
        };
        for (const auto [c, via] : blockers[k]) {
            std::vector<std::pair<int, double>> terms{{recompute, 1}};
            addAwayAt(terms, c);
            if (via >= 0) addAwayAt(terms, via);
            for (int v : visits_of[k])
                if (visits_[v].input == c) terms.emplace_back(visits_[v].col, -1);
            row(-kInf, via >= 0 ? 2 : 1, terms);
        }
    }
    for (const Carry& w : carries_) row(-kInf, 0, {{w.col, 1}, {recompute_col_[w.recompute], -1}});
    for (const Visit& v : visits_) {  // only for a recomputation, from the flash copy
        row(-kInf, 0, {{v.col, 1}, {recompute_col_[v.recompute], -1}});
        row(-kInf, 0, {{v.col, 1}, {out_col_[spans_[v.input].value], -1}});
        // Paged in again during the stage it visits, the input would stay in
        // RAM through that stage instead of leaving after the recomputation.
        const int b = spans_[v.recompute].to + 1;
        const auto [lo, hi] = earlyOf(v.input);
        for (auto e = lo; e != hi; ++e)
            if (e->stage == b + 1) row(-kInf, 1, {{v.col, 1}, {e->col, 1}});
        for (int next : visits_by_input[v.input])
            if (spans_[visits_[next].recompute].to == b) row(-kInf, 1, {{v.col, 1}, {visits_[next].col, 1}});
    }
    // Per stage: what spans take off must cover the excess, while node t
    // runs and at each step of the recomputations before it. An input
    // recomputed along with a value is released before node t runs, unless
    // it arrives for t+1 (paged in or carried: the copy is then kept): the first
    // row counts those (the kept flags) as held through node t. The step
    // rows count what is held at the stage's start, less the value being
    // recomputed (not there yet), plus what its chain has live at that step
    // (visiting inputs included) and every other chain's transients and
    // visits (an over-estimate where chains do not overlap).
    auto bytesOf = [&](int value) { return static_cast<double>(g.node(value).memory_bytes); };
    // Per stage: its cover terms (the columns that take a value away over
    // it, each with its bytes), and the spans recomputed in it.
    std::vector<std::vector<std::pair<int, double>>> cover(n);  // infeasible rows stay: CBC proves it
    std::vector<std::vector<int>> recomputed_in(n);
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const double m = bytesOf(spans_[k].value);
        for (int t = spans_[k].from; t <= spans_[k].to; ++t) {
            if (page_col_[k] >= 0) cover[t].emplace_back(page_col_[k], m);
            if (recompute_col_[k] >= 0) cover[t].emplace_back(recompute_col_[k], m);
            for (int w : carries_of[k]) cover[t].emplace_back(carries_[w].col, m);
            const auto [lo, hi] = earlyOf(static_cast<int>(k));
            for (auto e = lo; e != hi; ++e)
                if (t < e->stage) cover[t].emplace_back(e->col, m);
        }
        if (recompute_col_[k] >= 0 && spans_[k].to + 1 < n)
            recomputed_in[spans_[k].to + 1].push_back(static_cast<int>(k));
    }
    // The rows of stage t that hold its cover terms, at most: the stage's
    // own (or one per release point), and one per step of each chain.
    auto coverRowsAt = [&](int t) {
        std::size_t rows_at = std::max<std::size_t>(1, release_points_[t].size());
        for (int k : recomputed_in[t]) rows_at += transient_[k].size() + 1;
        return rows_at;
    };
    bool share_cover = cover_ == CoverRows::Shared;
    if (cover_ == CoverRows::BySize) {
        double repeated = 0;  // terms the shared columns would save
        for (int t = 0; t < n; ++t) repeated += static_cast<double>(cover[t].size() * (coverRowsAt(t) - 1));
        share_cover = repeated > kSharedCoverFromTerms;
    }
    for (int t = 0; t < n; ++t) {
        if (endedBy(cancel)) return;
        const std::vector<int>& recomputed = recomputed_in[t];
        std::vector<std::pair<int, double>> covered = std::move(cover[t]);
        if (share_cover && covered.size() > 1 && coverRowsAt(t) > 1) {
            covered.emplace_back(addSharedCoverColumn(), -1);
            row(0, kInf, covered);  // z_t ≤ cover_t
            covered = {{columns() - 1, 1}};
        }
        std::vector<std::pair<int, double>> held_transient;
        for (int k : recomputed)
            for (std::size_t j = 0; j < kept_[k].size(); ++j)
                held_transient.emplace_back(kept_col[k][j], -bytesOf(spans_[kept_[k][j]].value));
        const double excess = need[t] - budget;
        held_transient.insert(held_transient.end(), covered.begin(), covered.end());
        if (!release_points_[t].empty()) {
            // One row per release point instead (no chain runs here: a fixed compute plan).
            for (const ReleasePoint& point : release_points_[t]) {
                if (point.need_from <= budget) continue;
                std::vector<std::pair<int, double>> terms = held_transient;
                for (int k : point.spans) terms.emplace_back(page_col_[k], bytesOf(spans_[k].value));
                row(point.need_from - budget, kInf, terms);
            }
        } else if (excess > 0 || held_transient.size() > covered.size()) {
            row(excess, kInf, held_transient);
        }
        // A step row binds only where its chain runs: where k is not
        // recomputed, the others' terms (at most `others` bytes) are lifted.
        for (int k : recomputed)
            for (const ChainStep& step : chainSteps(k, visits_of[k])) {
                std::vector<std::pair<int, double>> terms = covered;
                for (int v : step.visits) terms.emplace_back(visits_[v].col, -bytesOf(spans_[visits_[v].input].value));
                for (int j : step.kept) terms.emplace_back(kept_col[k][j], -bytesOf(spans_[kept_[k][j]].value));
                double others = 0;
                for (int other : recomputed) {
                    if (other == k) continue;
                    double bytes = 0;
                    for (int u : transient_[other]) bytes += bytesOf(u);
                    terms.emplace_back(recompute_col_[other], -bytes);
                    others += bytes;
                    for (int v : visits_of[other]) {
                        terms.emplace_back(visits_[v].col, -bytesOf(spans_[visits_[v].input].value));
                        others += bytesOf(spans_[visits_[v].input].value);
                    }
                }
                terms.emplace_back(recompute_col_[k], bytesOf(spans_[k].value) - step.bytes - others);
                row(excess - bytesOf(t) - others, kInf, terms);
            }
    }
    if (problem.options.remat) {
        std::vector<std::pair<int, double>> terms;
        for (std::size_t k = 0; k < spans_.size(); ++k) {
            double time = g.node(spans_[k].value).compute_time_s;
            for (int u : transient_[k]) time += g.node(u).compute_time_s;
            terms.emplace_back(recompute_col_[k], time);
        }
        const double spare = problem.spareRuntimeSeconds();
        row(-kInf, std::max(spare, 0.0), terms);
    }
}

std::vector<PagingPlan::ChainStep> PagingPlan::chainSteps(int k, const std::vector<int>& visits) const
{
    const Graph& g = p_.graph;
    std::vector<int> chain = transient_[k];  // ascending: the order the replay computes them in
    chain.push_back(spans_[k].value);
    std::vector<int> kept_values;
    for (int c : kept_[k]) kept_values.push_back(spans_[c].value);
    // The last step that reads each value (-1: none), so that "read at this
    // step or later" is one look, not a scan of the chain's inputs per step
    // (a quarter of a 771-node graph's plan build).
    std::unordered_map<int, int> last_read;
    for (std::size_t s = 0; s < chain.size(); ++s)
        for (int u : g.predecessors(chain[s])) last_read[u] = static_cast<int>(s);
    auto readFrom = [&](int value, std::size_t step) {  // by the chain at this step or later
        const auto it = last_read.find(value);
        return it != last_read.end() && it->second >= static_cast<int>(step);
    };
    std::vector<ChainStep> steps;
    for (std::size_t s = 0; s < chain.size(); ++s) {
        ChainStep step;
        step.bytes = static_cast<double>(g.node(chain[s]).memory_bytes);
        for (std::size_t i = 0; i < s; ++i) {
            const auto kept = std::ranges::find(kept_values, chain[i]);
            if (readFrom(chain[i], s)) step.bytes += static_cast<double>(g.node(chain[i]).memory_bytes);
            else if (kept != kept_values.end()) step.kept.push_back(static_cast<int>(kept - kept_values.begin()));
        }
        for (int v : visits)
            if (readFrom(spans_[visits_[v].input].value, s)) step.visits.push_back(v);
        steps.push_back(std::move(step));
    }
    return steps;
}

bool PagingPlan::endedBy(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load()) cancelled_ = true;
    return cancelled_;
}

int PagingPlan::addColumn(double energy_j)
{
    objective.push_back(scale_ * energy_j);
    col_lower.push_back(0);
    col_upper.push_back(1);
    is_integer.push_back(1);
    return columns() - 1;
}

int PagingPlan::addSharedCoverColumn()
{
    objective.push_back(0);
    col_lower.push_back(0);
    col_upper.push_back(std::numeric_limits<double>::max());
    is_integer.push_back(0);
    return columns() - 1;
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
    const int n = p_.graph.size();
    Schedule s = base_;
    auto on = [&](int col) { return col >= 0 && x[col] > 0.5; };
    // Spans are in stage order per value: page out before the first paged
    // span, in at the end of each; or recompute in the reader's stage.
    std::vector<int> out_stage(n, -1), last_in(n, -1);
    auto pagedIn = [&](const Span& span, int stage) {  // out before the span, in during `stage`
        s.M_in.set(stage, span.value);
        int& out = out_stage[span.value];
        const int at = span.out_at >= 0 ? span.out_at : span.from - 1;
        out = out < 0 ? at : std::min(out, at);
        last_in[span.value] = std::max(last_in[span.value], stage);
    };
    std::vector<std::pair<int, int>> recompute_transient;  // (stage, value)
    for (std::size_t k = 0; k < spans_.size(); ++k) {
        const Span& span = spans_[k];
        const bool paged = on(page_col_[k]), recomputed = on(recompute_col_[k]);
        if (!paged && !recomputed) continue;
        for (int t = span.from; t <= span.to; ++t) s.S_RAM.set(t, span.value, false);
        if (recomputed) {  // computed in the reader's stage, not held into it
            s.R.set(span.to + 1, span.value);
            s.S_RAM.set(span.to + 1, span.value, false);
            for (int u : transient_[k]) recompute_transient.emplace_back(span.to + 1, u);
            continue;
        }
        pagedIn(span, span.to);
    }
    std::vector<std::pair<int, int>> carried;  // (stage, value): recomputed there and kept for the next
    for (const Carry& w : carries_) {
        if (!on(w.col)) continue;
        const Span& span = spans_[w.span];
        for (int t = span.from; t <= span.to; ++t) s.S_RAM.set(t, span.value, false);
        carried.emplace_back(span.to, span.value);
    }
    for (const Early& e : early_) {  // away until e.stage, then held to the span's end
        if (!on(e.col)) continue;
        const Span& span = spans_[e.span];
        for (int t = span.from; t < e.stage; ++t) s.S_RAM.set(t, span.value, false);
        pagedIn(span, e.stage - 1);
    }
    // Inputs recomputed along with a value, where they are not held anyway
    // and something recomputed in that stage reads them: latest first, so a
    // chain stops at a held value (a value computed but never read would
    // stay in RAM through the stage's node).
    std::sort(recompute_transient.begin(), recompute_transient.end(), std::greater<>());
    for (auto [t, u] : recompute_transient) {
        const auto& readers = p_.graph.successors(u);
        const bool read = std::any_of(readers.begin(), readers.end(), [&](int v) { return v < t && s.R(t, v); });
        if (!s.S_RAM(t, u) && (read || std::ranges::find(carried, std::pair(t, u)) != carried.end())) s.R.set(t, u);
    }
    // Inputs paged in for a recomputation only, where it reads them (its
    // transients may be held anyway) and they are not held anyway.
    for (const Visit& v : visits_) {
        const int b = spans_[v.recompute].to + 1, u = spans_[v.input].value;
        const auto& readers = p_.graph.successors(u);
        const bool read = std::any_of(readers.begin(), readers.end(), [&](int r) { return r < b && s.R(b, r); });
        if (!on(v.col) || !read || s.S_RAM(b, u)) continue;
        s.S_RAM.set(b, u);
        pagedIn(spans_[v.input], b - 1);
    }
    for (int i = 0; i < n; ++i) {
        if (out_stage[i] < 0) continue;
        s.M_out.set(out_stage[i], i);
        for (int t = out_stage[i] + 1; t <= last_in[i]; ++t) s.S_SD.set(t, i);
    }
    pageInWhereRead(p_.graph, s);
    return s;
}

}  // namespace poet
