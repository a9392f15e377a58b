#include "arrival_bound.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "cbc_setup.h"
#include "deadline.h"
#include "formulation.h"

namespace poet {

namespace {

constexpr double kInf = std::numeric_limits<double>::max();

// The rows both bounds share.
class BoundMilp : public BinaryMilpBuilder {
protected:
    // While x is recomputed during stage s (column c_x), x, its inputs, and
    // node s's inputs not recomputed in s themselves are in RAM. Over the
    // budget, enough of those must be recomputed: Σ m_y c_y ≥ (K − B) c_x.
    template <class RecomputedIn>
    void addMomentRow(const Problem& problem, int x, int s, int c_x, RecomputedIn recomputed_in_s)
    {
        const Graph& g = problem.graph;
        const auto& in_x = g.predecessors(x);
        auto bytes = [&](int i) { return static_cast<double>(g.node(i).memory_bytes); };
        double at_once = bytes(x);
        for (int u : in_x) at_once += bytes(u);
        std::vector<std::pair<int, double>> others;
        for (int y : g.predecessors(s))
            if (y != x && !std::binary_search(in_x.begin(), in_x.end(), y)) {
                at_once += bytes(y);
                others.emplace_back(recomputed_in_s(y), bytes(y));
            }
        const double over = at_once - static_cast<double>(problem.ram_budget_bytes);
        if (over <= 0) return;
        const int row = addRow(0, kInf);
        for (auto [col, m] : others) term(row, col, m);
        term(row, c_x, -over);
    }
};

// x is node t or one of its inputs: in RAM while node t runs anyway.
bool operandOf(const Graph& g, int t, int x)
{
    const auto& in = g.predecessors(t);
    return x == t || std::binary_search(in.begin(), in.end(), x);
}

// The RAM left beside node t and its inputs while it runs (negative: node t
// alone does not fit, the one-node bound's case).
double roomBeside(const Problem& problem, int t)
{
    const Graph& g = problem.graph;
    double room = static_cast<double>(problem.ram_budget_bytes - g.node(t).memory_bytes);
    for (int u : g.predecessors(t)) room -= static_cast<double>(g.node(u).memory_bytes);
    return room;
}

// Node b reads u, and node b-1 neither read nor computed it: u is new at b.
bool newAt(const Graph& g, int b, int u)
{
    const auto& before = g.predecessors(b - 1);
    return u != b - 1 && !std::binary_search(before.begin(), before.end(), u);
}

// Where each page-out is charged: in full, at the last stage where its
// value is new. A schedule pays a page-out once however often it pages the
// value back in, so charging it at one new-at stage charges it at most once
// (arrival_bound.h). The last one is where the value must come back: a
// backward node reads it, while an earlier new-at read is a forward skip
// (a residual add) that finds it still in RAM. Split evenly over the
// new-at stages instead, half of a block output's page-out went to that
// skip read and was lost there (resnet18_cifar at 12%, windows of 6: 0.7100
// J split, 0.7125 J at the last).
class PageoutCharges {
public:
    explicit PageoutCharges(const Graph& g) : graph_(g), stage_(g.size(), -1)
    {
        for (int b = 1; b < g.size(); ++b)
            for (int u : g.predecessors(b))
                if (newAt(g, b, u)) stage_[u] = b;
    }
    // What a page-out of value i adds at stage b, and at stages first..last.
    double at(int i, int b) const { return within(i, b, b); }
    double within(int i, int first, int last) const
    {
        return stage_[i] >= first && stage_[i] <= last ? graph_.node(i).pageout_energy_j : 0.0;
    }

private:
    const Graph& graph_;
    std::vector<int> stage_;  // per value: its last new-at stage, or -1
};

// Stage b's MILP of arrival_bound.h, in triplet form (cbc_setup.h).
class ArrivalMilp : public BoundMilp {
public:
    ArrivalMilp(const Problem& problem, int b, const PageoutCharges& pageout, double scale)
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
                if (paging) paged[i] = addColumn(scale * (node.pagein_energy_j + (is_new[i] ? pageout.at(i, b) : 0)));
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
        const double spare = problem.spareRuntimeSeconds();
        const int time = addRow(-kInf, std::max(spare, 0.0));
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
            addMomentRow(problem, i, b, recomputed[i], [&](int x) { return recomputed[x]; });
        }
    }

    bool needed() const { return needed_; }

private:
    bool needed_ = false;
};

// Stages a..e of the carried bound (arrival_bound.h), in triplet form:
// per value x and stage s, h = in RAM while node s runs, p = paged in during
// s (there for s+1), c = recomputed during s. Without a look-back stage the
// window may start in any state: what is held while node a-1 runs is free.
// With one (`look_back` < a-1), see addLookBack.
class CarriedMilp : public BoundMilp {
public:
    CarriedMilp(const Problem& problem, int a, int e, const PageoutCharges& pageout, double scale,
                int look_back = -1)
    {
        const Graph& g = problem.graph;
        const int n = g.size();
        auto bytes = [&](int i) { return static_cast<double>(g.node(i).memory_bytes); };
        auto operand = [&](int s, int x) { return operandOf(g, s, x); };
        if (look_back >= a - 1) look_back = -1;
        first_ = look_back >= 0 ? look_back + 1 : a;
        // The inputs of the window (and of the stages after the look-back
        // stage), and the inputs of each that may be recomputed.
        std::vector<char> used(n, 0), recomputable(n, 0);
        std::vector<int> todo;
        for (int b = first_; b <= e; ++b)
            for (int u : g.predecessors(b))
                if (!used[u]) used[u] = 1, todo.push_back(u);
        while (!todo.empty()) {
            const int x = todo.back();
            todo.pop_back();
            recomputable[x] = recomputableInTightForm(problem, x);
            if (!recomputable[x]) continue;
            for (int u : g.predecessors(x))
                if (!used[u]) used[u] = 1, todo.push_back(u);
        }
        const bool paging = problem.options.paging;
        const int stages = e - a + 2;  // a-1..e
        auto at = [&](int s) { return s - (a - 1); };
        std::vector<std::vector<int>> held(n, std::vector<int>(stages, -1)), paged = held, recomputed = held;
        std::vector<int> paged_out(n, -1);
        for (int x = 0; x < n; ++x) {
            if (!used[x]) continue;
            const int out = paging ? addColumn(scale * pageout.within(x, first_, e)) : -1;
            paged_out[x] = out;
            for (int s = std::max(a - 1, x + 1); s <= e; ++s) {
                if (s < e && !operand(s, x)) held[x][at(s)] = addColumn(0);
                if (paging && s < e) {
                    paged[x][at(s)] = addColumn(scale * g.node(x).pagein_energy_j);
                    const int needs_out = addRow(-kInf, 0);
                    term(needs_out, paged[x][at(s)], 1);
                    term(needs_out, out, -1);
                }
                if (s >= a && recomputable[x]) recomputed[x][at(s)] = addColumn(scale * g.node(x).compute_energy_j);
            }
        }
        // x is in RAM for stage s: held through node s-1, paged in during s-1, or recomputed in s.
        auto there = [&](int row, int x, int s) {
            term(row, held[x][at(s - 1)], 1);
            term(row, paged[x][at(s - 1)], 1);
            term(row, recomputed[x][at(s)], 1);
        };
        for (int b = a; b <= e; ++b)  // node b's inputs
            for (int x : g.predecessors(b))
                if (!operand(b - 1, x)) there(addRow(1, kInf), x, b);
        for (int x = 0; x < n; ++x) {
            if (!used[x]) continue;
            for (int s = std::max(a, x + 1); s <= e; ++s) {
                const int h = s < e ? held[x][at(s)] : -1;
                if (h >= 0 && !operand(s - 1, x)) {  // held through node s: it was there for s
                    const int row = addRow(0, kInf);
                    there(row, x, s);
                    term(row, h, -1);
                }
                // There at the start of s (paged in during s-1, or recomputed
                // in s) and paged in again during s: it stays through node s.
                const int again = s < e ? paged[x][at(s)] : -1;
                if (again >= 0 && !operand(s, x))
                    for (int before : {paged[x][at(s - 1)], recomputed[x][at(s)]}) {
                        if (before < 0) continue;
                        const int row = addRow(-kInf, 1);
                        term(row, before, 1);
                        term(row, again, 1);
                        term(row, h, -1);
                    }
                const int c = recomputed[x][at(s)];
                if (c < 0) continue;
                for (int u : g.predecessors(x))  // recomputing x needs its inputs then
                    if (!operand(s - 1, u)) {
                        const int row = addRow(0, kInf);
                        there(row, u, s);
                        term(row, c, -1);
                    }
                addMomentRow(problem, x, s, c, [&](int y) { return recomputed[y][at(s)]; });
            }
        }
        for (int s = a - 1; s < e; ++s) {  // while node s runs
            const double room = roomBeside(problem, s);
            if (room < 0) return;  // not this bound's to prove
            const int memory = addRow(-kInf, room);
            for (int x = 0; x < n; ++x)
                if (used[x]) term(memory, held[x][at(s)], bytes(x));
        }
        std::vector<int> held_at_start(n, -1);
        for (int x = 0; x < n; ++x) held_at_start[x] = held[x][at(a - 1)];
        std::vector<int> recomputed_before;  // per value, in the look-back's bucket
        if (look_back >= 0 &&
            !addLookBack(problem, look_back, a, used, recomputable, held_at_start, paged_out, scale, recomputed_before))
            return;
        const double spare = problem.spareRuntimeSeconds();
        const int time = addRow(-kInf, std::max(spare, 0.0));
        for (int x = 0; x < n; ++x)
            if (used[x]) {
                for (int s = a; s <= e; ++s) term(time, recomputed[x][at(s)], g.node(x).compute_time_s);
                if (!recomputed_before.empty()) term(time, recomputed_before[x], g.node(x).compute_time_s);
            }
        needed_ = true;
    }

    bool needed() const { return needed_; }
    int first() const { return first_; }  // the first stage the piece covers

private:
    // The look-back stage s: the piece covers stages s+1..e (page-ins during
    // s..e-1, recomputations during s+1..e). What is in RAM while node s
    // runs fits beside node s's operands; each value made by then that a
    // node of s+1..a-1 reads (node a-1's operands among them), or that is
    // held into the window, was in RAM at s or arrived since: one page-in
    // during s..a-2 or one recomputation during s+1..a-1 (columns of their
    // own: one bucket, as in bucket_bound.h), and such a recomputation
    // needs its inputs the same way. The stages
    // between have no RAM rows (any set of stages bounds). Why: see
    // arrival_bound.h. False if node s does not fit at all (not this
    // bound's to prove).
    bool addLookBack(const Problem& problem, int s, int a, const std::vector<char>& used,
                     const std::vector<char>& recomputable, const std::vector<int>& held_at_start,
                     const std::vector<int>& paged_out, double scale, std::vector<int>& recomputed_before)
    {
        const Graph& g = problem.graph;
        const int n = g.size();
        auto bytes = [&](int i) { return static_cast<double>(g.node(i).memory_bytes); };
        const double room = roomBeside(problem, s);
        if (room < 0) return false;
        // Values made after s, or in RAM at s anyway, need nothing here.
        std::vector<char> free_at_s(n, 1);
        std::vector<int> held_at_s(n, -1), paged_before(n, -1);
        recomputed_before.assign(n, -1);
        const int memory = addRow(-kInf, room);
        for (int x = 0; x <= s; ++x) {
            if (!used[x] || operandOf(g, s, x)) continue;
            free_at_s[x] = 0;
            held_at_s[x] = addColumn(0);
            term(memory, held_at_s[x], bytes(x));
            if (problem.options.paging) {
                paged_before[x] = addColumn(scale * g.node(x).pagein_energy_j);
                const int needs_out = addRow(-kInf, 0);
                term(needs_out, paged_before[x], 1);
                term(needs_out, paged_out[x], -1);
            }
            if (recomputable[x]) recomputed_before[x] = addColumn(scale * g.node(x).compute_energy_j);
        }
        auto there = [&](int row, int x) {  // in RAM at s, or arrived since
            term(row, held_at_s[x], 1);
            term(row, paged_before[x], 1);
            term(row, recomputed_before[x], 1);
        };
        for (int t = s + 1; t < a; ++t)
            for (int x : g.predecessors(t))
                if (!free_at_s[x]) there(addRow(1, kInf), x);
        for (int x = 0; x <= s; ++x) {
            if (free_at_s[x]) continue;
            if (held_at_start[x] >= 0) {
                const int row = addRow(0, kInf);
                there(row, x);
                term(row, held_at_start[x], -1);
            }
            if (recomputed_before[x] < 0) continue;
            for (int u : g.predecessors(x))
                if (!free_at_s[u]) {
                    const int row = addRow(0, kInf);
                    there(row, u);
                    term(row, recomputed_before[x], -1);
                }
        }
        return true;
    }

    bool needed_ = false;
    int first_ = 0;
};

// The sum over pieces (stages, or windows named by their first stage):
// every piece's LP first (their sum is already a bound), then each piece
// exactly while the time lasts; a piece cut short counts with the bound its
// search proved. The `early` pieces are solved exactly first, then the
// others by their LP value, largest first: a window whose LP is near zero
// often takes longest to prove that it is (resnet18_cifar at 12%, windows
// of 7: 2.2 s for 0.0001 J, where others take 0.05 s).
struct Piece {
    int stage, last, window_first;
    BinaryMilpBuilder milp;
    bool early = false;
};

// How a caller steers the exact solves, from every piece's value so far
// (both optional): `prefer` names pieces (indices) to solve before the
// others, and `enough` ends the solves (the caller's bound proves what it
// needs).
struct Steering {
    std::function<std::vector<int>(const std::vector<BoundPiece>&)> prefer;
    std::function<bool(const std::vector<BoundPiece>&)> enough;
    // Beside a search of the same pieces at another budget: `share`
    // publishes this search's values and returns them raised to the best
    // either has proven (those only the other has after this one's own);
    // `claim` says which piece this search solves now, `cut_short` which
    // piece's first try ended unsolved, and `taken` whether the other search
    // solves that piece now, has solved it exactly or has cut its first try
    // short (such pieces wait until this search has no other try left).
    std::function<std::vector<BoundPiece>(std::vector<BoundPiece>)> share;
    std::function<void(const BoundPiece&)> claim;
    std::function<void(const BoundPiece&)> cut_short;
    std::function<bool(const BoundPiece&)> taken;
};

// The best value proven for each piece by two carried bounds run side by
// side (carriedBoundHereOrLooser), one at this budget and the second at a
// looser one or at this one too: a piece's bound at a looser budget holds
// at this one (every schedule that fits here fits there), so each piece of
// the sum may come from either. Each search leaves the pieces the other
// solves now, has solved exactly or has cut short on its first try (left
// to the other's second try) until it has no try of its own left, so the
// two share the work. resnet18_cifar at 11.4% and 1.5x: the windows prove
// the same values at both budgets, one in 1.9 s here and 0.2 s 2% looser,
// another in 0.5 s here and 3.5 s there; each search alone does not reach
// what the gap asks in 21 s, the two sharing do in 13 s.
class SharedPieces {
public:
    // `second_looser`: the second search's budget is the looser one (its
    // pieces are marked `looser`).
    explicit SharedPieces(bool second_looser) : second_looser_(second_looser) {}

    std::vector<BoundPiece> share(std::vector<BoundPiece> mine, bool second)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (BoundPiece& piece : mine) {
            piece.looser = second && second_looser_;
            BoundPiece& best = best_[key(piece)];
            if (best.last == 0 || piece.extra_j > best.extra_j ||
                (piece.extra_j == best.extra_j && piece.exact && !best.exact))
                best = piece;
        }
        std::set<Key> seen;
        for (BoundPiece& piece : mine) {
            seen.insert(key(piece));
            piece = best_[key(piece)];
        }
        for (const auto& [k, best] : best_)
            if (!seen.count(k)) mine.push_back(best);
        return mine;
    }
    void claim(const BoundPiece& piece, bool second)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        solving_[second] = key(piece);
    }
    void cutShort(const BoundPiece& piece, bool second)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        cut_short_[second].insert(key(piece));
    }
    bool taken(const BoundPiece& piece, bool second) const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (solving_[!second] == key(piece) || cut_short_[!second].count(key(piece))) return true;
        const auto best = best_.find(key(piece));
        return best != best_.end() && best->second.exact;
    }
    std::vector<BoundPiece> all() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<BoundPiece> out;
        for (const auto& [k, best] : best_) out.push_back(best);
        return out;
    }

private:
    using Key = std::tuple<int, int, int>;
    static Key key(const BoundPiece& p) { return {p.window_first, p.first, p.last}; }
    mutable std::mutex mutex_;
    std::map<Key, BoundPiece> best_;
    Key solving_[2];              // by the first search and the second
    std::set<Key> cut_short_[2];  // whose first try each search cut short
    const bool second_looser_;
};

ArrivalBound sumOfPieces(const Problem& problem, const std::vector<Piece>& pieces, double scale, double seconds,
                         const std::atomic<bool>* cancel, const Steering& steering = {},
                         long kept_lp_elements = kKeptWindowLpElements)
{
    const auto deadline = secondsAfter(Clock::now(), std::max(0.0, seconds));
    const double offset_j = problem.graph.totalComputeEnergy();
    ArrivalBound out;
    out.bound_j = offset_j;
    out.complete = true;
    // The solved LPs are kept for the exact solves while their nonzeros
    // stay within `kept_lp_elements`; past it, a piece's LP is built and
    // solved again for its exact solve (resnet18_cifar at 12%, every LP so:
    // 9.1 s against 8.6 s for the same bound; starting from the LP's kept
    // basis instead changes CBC's search: 9.8 s).
    long kept_elements = 0;
    struct Solved {
        int stage, last, window_first;
        std::unique_ptr<OsiClpSolverInterface> lp;  // null past kept_lp_elements
        bool lp_optimal = false;
        double value = 0;  // model units
        bool exact = false;
    };
    std::vector<Solved> solved;
    double total = 0;
    for (const Piece& piece : pieces) {
        // Past the time, the pieces left count nothing (every piece's extra
        // is at least 0): resnet50's LPs alone take 6 s or more.
        if (Clock::now() > deadline || (cancel && cancel->load())) {
            solved.push_back({piece.stage, piece.last, piece.window_first, nullptr});
            out.complete = false;
            continue;
        }
        auto lp = std::make_unique<OsiClpSolverInterface>();
        loadBinaryMilp(*lp, piece.milp);
        lp->initialSolve();
        if (lp->isProvenPrimalInfeasible()) {
            out.infeasible = true;
            out.stage = piece.stage;
            return out;
        }
        Solved s{piece.stage, piece.last, piece.window_first, nullptr, lp->isProvenOptimal()};
        s.value = s.lp_optimal ? std::max(0.0, lp->getObjValue()) : 0.0;
        total += s.value;
        kept_elements += lp->getNumElements();
        if (kept_elements <= kept_lp_elements) s.lp = std::move(lp);
        solved.push_back(std::move(s));
    }
    SolverOptions exact;
    exact.relative_gap = 1e-9;
    std::vector<int> order(solved.size());  // solved[k] is pieces[k]'s
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return pieces[a].early != pieces[b].early ? pieces[a].early : solved[a].value > solved[b].value;
    });
    auto values = [&] {
        std::vector<BoundPiece> v;
        for (const Solved& s : solved) v.push_back({s.stage, s.last, s.value / scale, s.exact, s.window_first});
        return steering.share ? steering.share(std::move(v)) : v;
    };
    // One piece may take far longer than its like (resnet18_cifar at 12%,
    // a look-back window: 75 s once, 1.5 s alone), so none gets more than
    // kSecondTryShare of the time, and that only on a second try: the first
    // is short, and the pieces it cut short are tried again once every
    // piece has had its first. resnet18_cifar at 11% and 1.001x (a quarter
    // then, windows of seven, each search redoing the other's windows):
    // eight look-back windows ending at stages 124 to 132 (LP values of
    // 0.11 to 0.17 J, hoped higher) took the quarter each and were not
    // done, 60 s of the two threads' 60 s, and the look-back window
    // 106..112, which the 1.002x sum has, was never reached. At 11% and
    // 1.002x the look-back window 106..113 needs ~4 s on its second try
    // alone, more than a quarter (6 s in a 30 s solve) beside the solver's
    // background plan.
    const auto piece_time = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(kSecondTryShare * std::max(0.0, seconds)));
    const auto first_try = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(kFirstTryShare * std::max(0.0, seconds)));
    enum class Next : char { First, Second, None };  // each piece's next try
    std::vector<Next> next(solved.size(), Next::First);
    auto pick = [&]() -> int {
        const std::vector<BoundPiece> now = values();
        std::vector<int> first;
        if (steering.prefer)
            for (int k : steering.prefer(now))
                if (k < static_cast<int>(solved.size())) first.push_back(k);
        // The pieces the other search has taken come after this search's own
        // second tries, and those solved exactly at this budget never again:
        // resnet18_cifar at 11% and 1.002x (windows of eight, 24 s alone),
        // the two searches each solved 217 windows the other had solved or
        // cut short (half of the 28 s of the two threads before the second
        // tries began), and the look-back window whose second try proves the
        // gap came at 18 s, now at 12 s.
        for (bool any_taken : {false, true})
            for (Next want : {Next::First, Next::Second})
                for (const std::vector<int>* in : {&first, &order})
                    for (int k : *in)
                        if (next[k] == want && !(now[k].exact && !now[k].looser) &&
                            (any_taken || !steering.taken || !steering.taken(now[k])))
                            return k;
        return -1;
    };
    for (int k = pick(); k >= 0; k = pick()) {
        Solved& s = solved[k];
        const bool again = next[k] == Next::Second;
        next[k] = Next::None;
        const BoundPiece which{s.stage, s.last, 0, false, s.window_first};  // names it to the other search
        if (steering.claim) steering.claim(which);
        if (Clock::now() > deadline || (cancel && cancel->load())) {
            // Not a `continue` through the pieces left: each pick shares
            // every piece's value (resnet50: ~1,300 pieces, 1 s and more).
            out.complete = false;
            break;
        }
        if (!s.lp_optimal) {
            out.complete = false;
            continue;
        }
        // A second try needs more time than the first had.
        if (again && deadline - Clock::now() <= first_try) break;
        const auto piece_deadline =
            std::min(deadline, Clock::now() + (again ? piece_time : std::min(piece_time, first_try)));
        const bool kept = s.lp != nullptr;
        std::unique_ptr<OsiClpSolverInterface> lp = std::move(s.lp);  // freed once solved
        if (!lp) {
            lp = std::make_unique<OsiClpSolverInterface>();
            loadBinaryMilp(*lp, pieces[k].milp);
            lp->initialSolve();
        }
        auto owned = std::make_unique<CbcModel>(*lp);  // leaked where CBC faults (guardedBranchAndBound)
        CbcModel& model = *owned;
        configureCbc(model, exact, offset_j, scale,
                     std::chrono::duration<double>(piece_deadline - Clock::now()).count(), cancel);
        SearchStop stop(piece_deadline, cancel);
        model.passInEventHandler(&stop);
        if (!guardedBranchAndBound(owned)) {  // this piece keeps its LP value, not tried again
            s.exact = false;
            continue;
        }
        if (model.isProvenInfeasible()) {
            out.infeasible = true;
            out.stage = s.stage;
            return out;
        }
        // Cut short, its tree's bound counts (the LP's where CBC stopped in
        // its root cuts: it may report its incumbent as its bound then). At
        // 13% and 1.5x the look-back window 106..112 is exact in 2.6 s at
        // 318,988 B and 4.6 s at 318,989 B, past its 3 s.
        const double value = provenLowerBound(model, s.value, stop.cut_short);
        s.exact = model.isProvenOptimal();
        if (!s.exact && !again && first_try < piece_time) {
            if (steering.cut_short) steering.cut_short(which);
            next[k] = Next::Second;
            if (kept) s.lp = std::move(lp);  // CbcModel searched a copy: kept for the second try
        }
        if (value > s.value) {
            total += value - s.value;
            s.value = value;
        }
        if (steering.enough && steering.enough(values())) break;  // `complete` is settled below
    }
    out.complete = out.complete && std::all_of(solved.begin(), solved.end(), [](const Solved& x) { return x.exact; });
    out.bound_j = offset_j + total / scale;
    out.pieces = values();
    return out;
}

// The pieces that do not overlap with the largest sum (stages in no piece
// count nothing), by a longest path over the stages: their indices, in
// stage order.
std::vector<int> bestPartition(const std::vector<BoundPiece>& pieces, int stages)
{
    std::vector<double> best(stages, 0.0);  // over stages 1..e
    std::vector<int> chosen(stages, -1);    // the piece ending at e in best[e], or -1
    std::vector<std::vector<int>> ending(stages);
    for (int k = 0; k < static_cast<int>(pieces.size()); ++k) ending[pieces[k].last].push_back(k);
    for (int e = 1; e < stages; ++e) {
        best[e] = best[e - 1];
        for (int k : ending[e]) {
            const double sum = best[pieces[k].first - 1] + pieces[k].extra_j;
            if (sum > best[e]) best[e] = sum, chosen[e] = k;
        }
    }
    std::vector<int> out;
    for (int e = stages - 1; e >= 1;) {
        if (chosen[e] < 0) {
            --e;
            continue;
        }
        out.insert(out.begin(), chosen[e]);
        e = pieces[chosen[e]].first - 1;
    }
    return out;
}

double sumOf(const std::vector<BoundPiece>& pieces, const std::vector<int>& which)
{
    double sum = 0;
    for (int k : which) sum += pieces[k].extra_j;
    return sum;
}

}  // namespace

ArrivalBound arrivalBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel)
{
    const PageoutCharges pageout(problem.graph);
    const double scale = modelUnitsPerJoule(problem.graph.totalComputeEnergy());
    std::vector<Piece> pieces;
    for (int b = 1; b < problem.graph.size(); ++b) {
        ArrivalMilp milp(problem, b, pageout, scale);
        if (milp.needed()) pieces.push_back({b, b, b, std::move(milp)});
    }
    return sumOfPieces(problem, pieces, scale, seconds, cancel);
}

namespace {

// `bound` with, as its pieces and its sum, the pieces of `all` that do not
// overlap with the largest sum.
ArrivalBound withBestSet(ArrivalBound bound, const std::vector<BoundPiece>& all, const Problem& problem)
{
    const std::vector<int> best = bestPartition(all, problem.graph.size());
    bound.pieces.clear();
    for (int k : best) bound.pieces.push_back(all[k]);
    bound.bound_j = problem.graph.totalComputeEnergy() + sumOf(all, best);
    return bound;
}

// carriedArrivalBound, its pieces' values shared with a second search
// through `shared` (`second`: this is the second search).
ArrivalBound carriedBound(const Problem& problem, int window, double seconds, const std::atomic<bool>* cancel,
                          int look_back_stage, const std::function<double()>& enough_j, SharedPieces* shared,
                          bool second, long kept_lp_elements = kKeptWindowLpElements)
{
    const auto begun = Clock::now();  // the windows' MILPs count in the time (resnet50: ~1 s)
    const PageoutCharges pageout(problem.graph);
    const double scale = modelUnitsPerJoule(problem.graph.totalComputeEnergy());
    const int n = problem.graph.size();
    // A window at every first stage (and the shorter ones that start the
    // graph): where block boundaries fall decides what a window sees, so
    // the partition is chosen afterwards, not fixed in advance. The windows
    // of the partition from stage 1 are marked early, so that they are
    // solved exactly soon when time is short. A window holding all stages
    // needs no other: what fits in one window costs no more there.
    std::vector<Piece> pieces;
    // Cancelled, the windows left are not built (resnet50's took ~0.9 s
    // after a cancel), and the bound proves nothing. Past its time, neither:
    // the windows built are solved as far as they go (a set of them that
    // misses stages still bounds, each window's extra being at least 0);
    // resnet50 at 10% with a 2 s limit answered after 3.1 s, building them.
    auto add = [&](int a, int e, bool early, int look_back) {
        if (isSet(cancel) || secondsSince(begun) >= seconds) return;
        CarriedMilp milp(problem, a, e, pageout, scale, look_back);
        if (!milp.needed()) return;
        milp.shrinkToFit();
        pieces.push_back({milp.first(), e, a, std::move(milp), early});
    };
    window = std::max(1, window);
    for (int a = 1; a < n; a += window) add(a, std::min(n - 1, a + window - 1), true, -1);
    if (window < n - 1) {
        for (int e = 1; e < window; ++e) add(1, e, false, -1);
        for (int a = 2; a < n; ++a)
            if ((a - 1) % window != 0) add(a, std::min(n - 1, a + window - 1), false, -1);
    }
    if (look_back_stage >= 1)
        for (int a = look_back_stage + 2; a < n; ++a) add(a, std::min(n - 1, a + window - 1), false, look_back_stage);
    if (isSet(cancel)) return {};
    // The pieces of the best set so far (by their LP values where not yet
    // solved) are solved before those above: their values are the bound's.
    // Once that set is all solved, the best set where each piece not yet
    // solved counts as its LP value times the most that solving raised the
    // LP value of a piece of its kind (windows that look back, and the
    // others, apart; pieces with a tenth of their kind's largest LP value
    // at least) is solved next, not the others in LP order: resnet18_cifar
    // at 11.4% and 1.5x solves its windows after the look-back stage to
    // twice their LP values (0.033 to 0.067 J, 0.1 s each) and the
    // look-back windows to 1.3 to 1.8 times (0.08 to 0.11 J, 0.3 to 6 s
    // each); in LP order, 24 look-back windows came one after another (32 s
    // of the 35 s on two cores), and the four windows of the bound
    // (look-back 73..116, 117..123, 124..130, 131..132) last, at 19 s. With
    // those raised values first instead, 12.5 and 13% took twice as long.
    // An order by what the quick schedule spends in each piece (tried) did
    // worse, as it spends much where no piece proves much.
    const double plain_j = problem.graph.totalComputeEnergy();
    Steering steering;
    // Each piece's LP value: its value at the first call (or what the other
    // budget's search had proven by then, a ratio of 1 for that piece).
    std::vector<double> lp_j;
    steering.prefer = [&, lp_j](const std::vector<BoundPiece>& now) mutable {
        if (lp_j.empty())
            for (std::size_t k = 0; k < pieces.size(); ++k) lp_j.push_back(now[k].extra_j);
        std::vector<int> best = bestPartition(now, n);
        if (std::any_of(best.begin(), best.end(), [&](int k) { return !now[k].exact; })) return best;
        auto looksBack = [&](std::size_t k) { return now[k].window_first != now[k].first; };
        double raised[2] = {1, 1}, largest_lp_j[2] = {0, 0};
        for (std::size_t k = 0; k < pieces.size(); ++k)
            largest_lp_j[looksBack(k)] = std::max(largest_lp_j[looksBack(k)], lp_j[k]);
        for (std::size_t k = 0; k < pieces.size(); ++k)
            if (now[k].exact && lp_j[k] > 0 && lp_j[k] >= 0.1 * largest_lp_j[looksBack(k)])
                raised[looksBack(k)] = std::max(raised[looksBack(k)], now[k].extra_j / lp_j[k]);
        std::vector<BoundPiece> hoped = now;
        for (std::size_t k = 0; k < pieces.size(); ++k)
            if (!now[k].exact) hoped[k].extra_j = std::max(now[k].extra_j, lp_j[k] * raised[looksBack(k)]);
        return bestPartition(hoped, n);
    };
    if (shared) {
        steering.share = [=](std::vector<BoundPiece> mine) { return shared->share(std::move(mine), second); };
        steering.claim = [=](const BoundPiece& piece) { shared->claim(piece, second); };
        steering.cut_short = [=](const BoundPiece& piece) { shared->cutShort(piece, second); };
        steering.taken = [=](const BoundPiece& piece) { return shared->taken(piece, second); };
    }
    steering.enough = [&](const std::vector<BoundPiece>& now) {
        return enough_j && plain_j + sumOf(now, bestPartition(now, n)) >= enough_j();
    };
    const double seconds_left = seconds - secondsSince(begun);
    const ArrivalBound all = sumOfPieces(problem, pieces, scale, seconds_left, cancel, steering, kept_lp_elements);
    if (all.infeasible) return all;
    return withBestSet(all, all.pieces, problem);
}

}  // namespace

ArrivalBound carriedArrivalBound(const Problem& problem, int window, double seconds, const std::atomic<bool>* cancel,
                                 int look_back_stage, const std::function<double()>& enough_j,
                                 long kept_lp_elements)
{
    return carriedBound(problem, window, seconds, cancel, look_back_stage, enough_j, nullptr, false,
                        kept_lp_elements);
}

ArrivalBound carriedBoundHereOrLooser(const Problem& problem, int window, double seconds, const std::atomic<bool>* cancel,
                                      int look_back_stage, const std::function<double()>& enough_j, int threads,
                                      bool* looser)
{
    if (looser) *looser = false;
    if (threads < 2) return carriedArrivalBound(problem, window, seconds, cancel, look_back_stage, enough_j);
    const auto begun = Clock::now();
    Problem relaxed = problem;
    relaxed.ram_budget_bytes = std::llround((1 + kLooserBudgetShare) * static_cast<double>(problem.ram_budget_bytes));
    // Where the looser budget's stages pay less, its windows may prove far
    // less than these: resnet18_cifar at 13.35% and 1.5x (327,576 B), every
    // stage pays here and none 2% looser (layer1's backward can recompute
    // there), and a window that proves 0.0558 J here proves 0.0296 J there;
    // left to the looser search, the sum stayed 2.7% below the schedule.
    // There the second search is at this budget too, the two splitting its
    // windows. Both at their own budgets, each solved most windows once more
    // than needed (resnet18_cifar at 12% and 1.002x: 199 windows, 38 s of
    // the two threads' 50 s; the look-back window 106..113 proves 0.0293 J
    // 2% looser, 0.0413 J here), and at 1.001 to 1.005x the sum was 0.65
    // to 0.97% short at 30 s. At 11.4% the stages pay alike and so do the
    // windows.
    const double stage_share = 0.02 * seconds;
    const bool looser_alike =
        arrivalBound(relaxed, stage_share, cancel).bound_j >= arrivalBound(problem, stage_share, cancel).bound_j;
    const Problem& second = looser_alike ? relaxed : problem;
    seconds -= secondsSince(begun);
    SharedPieces shared(looser_alike);
    std::atomic<bool> settled{false};
    auto settle = [&](const ArrivalBound& b) {
        if (b.infeasible || (enough_j && b.bound_j >= enough_j())) settled = true;
    };
    ArrivalBound here, there;
    runUntil([&] { return settled || (cancel && cancel->load()); },
             [&](const std::atomic<bool>* stop) {
                 std::thread other([&] {
                     there = carriedBound(second, window, seconds, stop, look_back_stage, enough_j, &shared, true);
                     settle(there);
                 });
                 here = carriedBound(problem, window, seconds, stop, look_back_stage, enough_j, &shared, false);
                 settle(here);
                 other.join();
             });
    if (here.infeasible) return here;
    if (there.infeasible) {
        if (looser) *looser = looser_alike;
        return there;
    }
    // Each piece as the better of the two proved it, whichever finished last.
    ArrivalBound out = withBestSet(here, shared.all(), problem);
    out.complete = std::all_of(out.pieces.begin(), out.pieces.end(), [](const BoundPiece& p) { return p.exact; });
    if (looser)
        *looser = std::any_of(out.pieces.begin(), out.pieces.end(), [](const BoundPiece& p) { return p.looser; });
    return out;
}

double chargedIn(const Problem& problem, const Schedule& schedule, int first, int last)
{
    const Graph& g = problem.graph;
    const int n = g.size();
    const PageoutCharges pageout(g);
    std::vector<char> paged_out(n, 0);
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < n; ++i)
            if (schedule.M_out(t, i)) paged_out[i] = 1;
    double spent = 0;
    for (int t = std::max(0, first - 1); t < last; ++t)
        for (int i = 0; i < n; ++i)
            if (schedule.M_in(t, i)) spent += g.node(i).pagein_energy_j;
    for (int t = first; t <= last; ++t)
        for (int i = 0; i < t; ++i)  // node i's first run is at stage i
            if (schedule.R(t, i)) spent += g.node(i).compute_energy_j;
    for (int i = 0; i < n; ++i)
        if (paged_out[i]) spent += pageout.within(i, first, last);
    return spent;
}

}  // namespace poet
