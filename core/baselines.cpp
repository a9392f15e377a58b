#include "baselines.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "graph_analysis.h"

namespace poet {

namespace {

bool betterThan(const ReplayReport& a, const ReplayReport& b) {
    if (a.total_energy_j != b.total_energy_j) return a.total_energy_j < b.total_energy_j;
    return a.peak_ram_bytes < b.peak_ram_bytes;
}

// Replays `s` under `limits`; keeps it in `best` when valid and better.
void consider(const Graph& g, Schedule s, const ReplayLimits& limits,
              std::optional<Schedule>& best, ReplayReport& best_report) {
    ReplayReport r = replaySchedule(g, s, limits);
    if (!r.valid) return;
    if (!best || betterThan(r, best_report)) {
        best = std::move(s);
        best_report = std::move(r);
    }
}

std::optional<Schedule> acceptIfValid(const Graph& g, Schedule s, const ReplayLimits& limits) {
    if (!replaySchedule(g, s, limits).valid) return std::nullopt;
    return s;
}

}  // namespace

Schedule scheduleFromRecompute(const Graph& g, const BoolMatrix& R) {
    const int n = g.size();
    if (R.size() != n) throw std::invalid_argument("scheduleFromRecompute: R has the wrong size");
    Schedule s(n);
    s.R = R;
    for (int t = 0; t < n; ++t) s.R.set(t, t);
    // For each value u and each stage t that reads u without computing it,
    // carry u from its latest computation before t up to t.
    for (int u = 0; u < n; ++u) {
        const auto& succ = g.successors(u);
        if (succ.empty()) continue;
        int last_computed = -1;
        for (int t = u; t < n; ++t) {
            bool read = false;
            if (!s.R(t, u)) {
                for (int v : succ) {
                    if (v > t) break;
                    if (s.R(t, v)) { read = true; break; }
                }
            }
            if (read) {
                if (last_computed < 0)
                    throw std::invalid_argument("scheduleFromRecompute: node " + std::to_string(u) +
                                                " is read at stage " + std::to_string(t) +
                                                " before it was computed");
                for (int k = last_computed + 1; k <= t; ++k) s.S_RAM.set(k, u);
            }
            if (s.R(t, u)) last_computed = t;
        }
    }
    return s;
}

std::int64_t stagePeakBytes(const Graph& g, int t, const std::vector<char>& resident,
                            const std::vector<char>& computed, const std::vector<char>& kept,
                            bool last_stage) {
    std::int64_t u = 0;
    for (int i = 0; i < t; ++i)
        if (resident[i]) u += g.node(i).memory_bytes;
    std::int64_t peak = u;
    for (int k = 0; k <= t; ++k) {
        if (!computed[k]) continue;
        u += g.node(k).memory_bytes;
        peak = std::max(peak, u);
        for (int i : g.predecessors(k)) {
            if (!last_stage && kept[i]) continue;
            bool later = false;
            for (int j : g.successors(i)) {
                if (j > t) break;
                if (j > k && computed[j]) { later = true; break; }
            }
            if (!later) u -= g.node(i).memory_bytes;
        }
    }
    return peak;
}

// ---------------------------------------------------------------- plain --

std::optional<Schedule> plainBaseline(const Graph& g, const ReplayLimits& limits) {
    return acceptIfValid(g, plainSchedule(g), limits);
}

// ----------------------------------------------------------------- Chen --

Schedule chenSchedule(const Graph& g, const std::vector<int>& checkpoints_in) {
    const int n = g.size();
    const int f = forwardEnd(g);
    std::vector<int> cps = checkpoints_in;
    std::sort(cps.begin(), cps.end());
    cps.erase(std::unique(cps.begin(), cps.end()), cps.end());
    const int last_cp = cps.empty() ? -1 : cps.back();

    BoolMatrix R(n);
    for (int t = 0; t < n; ++t) R.set(t, t);
    std::vector<char> is_cp(n, 0), recomputed(n, 0);
    for (int c : cps) is_cp[c] = 1;
    // Segment bounds of a droppable forward node v: (prev checkpoint, next checkpoint).
    auto segment = [&](int v) {
        auto it = std::upper_bound(cps.begin(), cps.end(), v);
        const int hi = it == cps.end() ? f : *it;
        const int lo = it == cps.begin() ? -1 : *std::prev(it);
        return std::pair<int, int>(lo, hi);
    };
    for (int t = f; t < n; ++t) {
        for (int u : g.predecessors(t)) {
            if (u >= f || is_cp[u] || u > last_cp || recomputed[u]) continue;
            const auto [lo, hi] = segment(u);
            for (int w = lo + 1; w < hi; ++w) {
                R.set(t, w);
                recomputed[w] = 1;
            }
        }
    }
    return scheduleFromRecompute(g, R);
}

std::vector<int> chenSqrtNCheckpoints(const Graph& g) {
    const int f = forwardEnd(g);
    const int k = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(f)))));
    std::vector<int> out;
    int last = 0;
    for (int c : checkpointCandidates(g)) {
        if (c - last >= k) {
            out.push_back(c);
            last = c;
        }
    }
    return out;
}

std::optional<Schedule> chenSqrtN(const Graph& g, const ReplayLimits& limits) {
    return acceptIfValid(g, chenSchedule(g, chenSqrtNCheckpoints(g)), limits);
}

std::vector<int> chenGreedyCheckpoints(const Graph& g, std::int64_t b) {
    const int f = forwardEnd(g);
    const std::vector<int> cand = checkpointCandidates(g);
    std::vector<char> is_cand(f, 0);
    for (int c : cand) is_cand[c] = 1;
    std::vector<int> out;
    std::int64_t temp = 0;
    for (int v = 0; v < f; ++v) {
        temp += g.node(v).memory_bytes;
        if (is_cand[v] && temp > b) {
            out.push_back(v);
            temp = 0;
        }
    }
    return out;
}

std::optional<Schedule> chenGreedy(const Graph& g, const ReplayLimits& limits) {
    const int f = forwardEnd(g);
    std::int64_t total = 0, smallest = std::numeric_limits<std::int64_t>::max();
    for (int v = 0; v < f; ++v) {
        total += g.node(v).memory_bytes;
        smallest = std::min(smallest, std::max<std::int64_t>(1, g.node(v).memory_bytes));
    }
    if (f == 0) return plainBaseline(g, limits);
    // Segment budgets b on a geometric grid from the smallest output to the
    // whole forward pass (Chen et al. search b around sqrt(x*y) the same way).
    std::set<std::vector<int>> tried;
    std::optional<Schedule> best;
    ReplayReport best_report;
    const int steps = 48;
    const double lo = std::log(static_cast<double>(smallest)) - 1e-9;
    const double hi = std::log(static_cast<double>(std::max<std::int64_t>(total, smallest + 1)));
    for (int i = 0; i <= steps; ++i) {
        const auto b = static_cast<std::int64_t>(std::exp(lo + (hi - lo) * i / steps));
        std::vector<int> cps = chenGreedyCheckpoints(g, b);
        if (!tried.insert(cps).second) continue;
        consider(g, chenSchedule(g, cps), limits, best, best_report);
    }
    std::vector<int> sq = chenSqrtNCheckpoints(g);
    if (tried.insert(sq).second) consider(g, chenSchedule(g, sq), limits, best, best_report);
    return best;
}

// -------------------------------------------------------------- revolve --

namespace {

struct RevolveTable {
    // cost[m][c]: forward steps to visit x_m, x_m-1, ..., x_0 in that order
    // from x_0 (held) with c free checkpoint slots; choice[m][c]: the first
    // advance j (j == m: straight to x_m without taking a slot).
    std::vector<std::vector<long long>> cost;
    std::vector<std::vector<int>> choice;

    RevolveTable(int max_m, int max_c) {
        cost.assign(max_m + 1, std::vector<long long>(max_c + 1, 0));
        choice.assign(max_m + 1, std::vector<int>(max_c + 1, 0));
        for (int m = 1; m <= max_m; ++m) {
            for (int c = 0; c <= max_c; ++c) {
                long long best = m + cost[m - 1][c];
                int arg = m;
                if (c >= 1) {
                    for (int j = 1; j < m; ++j) {
                        const long long v = j + cost[m - j][c - 1] + cost[j - 1][c];
                        if (v < best) { best = v; arg = j; }
                    }
                }
                cost[m][c] = best;
                choice[m][c] = arg;
            }
        }
    }

    // Emits the advances and visits of reversing x_b..x_e with c free slots.
    void generate(int b, int e, int c, const std::function<void(int)>& advance,
                  const std::function<void(int)>& visit) const {
        while (true) {
            if (e == b) { visit(b); return; }
            const int j = choice[e - b][c];
            for (int i = b + 1; i <= b + j; ++i) advance(i);
            if (b + j == e) {
                visit(e);
                e = e - 1;  // then the rest with the same slots
                continue;
            }
            generate(b + j, e, c - 1, advance, visit);
            e = b + j - 1;
        }
    }
};

}  // namespace

std::vector<int> revolveStates(const Graph& g) {
    const int f = forwardEnd(g);
    std::vector<int> x{0};
    for (int c : checkpointCandidates(g))
        if (c > 0 && c < f - 1) x.push_back(c);
    return x;
}

long long revolveForwardSteps(int steps, int checkpoints) {
    if (steps <= 0) return 0;
    if (checkpoints < 1) throw std::invalid_argument("revolve needs at least one checkpoint");
    RevolveTable table(steps - 1, checkpoints - 1);
    return table.cost[steps - 1][checkpoints - 1];
}

long long revolveForwardStepsClosedForm(int l, int s) {
    // Griewank (1992) / Griewank & Walther (2000): with beta(s, r) = C(s + r, s)
    // and r the unique integer with beta(s, r - 1) < l <= beta(s, r),
    // t(l, s) = r * l - beta(s + 1, r - 1).
    auto binom = [](long long a, long long b) {
        long double v = 1;
        for (long long i = 1; i <= b; ++i) v = v * (a - b + i) / i;
        return static_cast<long long>(std::llround(v));
    };
    auto beta = [&](long long ss, long long r) { return r < 0 ? 0 : binom(ss + r, ss); };
    if (l <= 1) return 0;
    long long r = 0;
    while (beta(s, r) < l) ++r;
    return r * l - beta(s + 1, r - 1);
}

std::optional<Schedule> revolveSchedule(const Graph& g, int checkpoints) {
    const int n = g.size();
    const int f = forwardEnd(g);
    const std::vector<int> x = revolveStates(g);
    const int m = static_cast<int>(x.size()) - 1;
    if (m < 1 || checkpoints < 1) return std::nullopt;
    // Which state's visit needs forward node v: x_k itself, or the inside
    // of segment k+1 (the nodes after x_m, up to the loss: k = m).
    std::vector<int> state_of(f, 0);
    for (int k = 0, v = 0; v < f; ++v) {
        while (k < m && x[k + 1] <= v) ++k;
        state_of[v] = k;
    }
    // Stage of the first backward node needing state k: it must decrease
    // as k grows (the backward walks the segments in reverse).
    std::vector<int> visit_stage(m + 1, -1);
    for (int t = f; t < n; ++t)
        for (int u : g.predecessors(t))
            if (u < f && visit_stage[state_of[u]] < 0) visit_stage[state_of[u]] = t;
    for (int k = 0; k <= m; ++k) {
        if (visit_stage[k] < 0) return std::nullopt;
        if (k > 0 && visit_stage[k] >= visit_stage[k - 1]) return std::nullopt;
    }
    // An advance to x_i needs only x_i's ancestors in its segment: a state,
    // or a node with a forward successor that is one (the forward
    // successors of a node inside a segment lie in it or are x_i).
    std::vector<char> feeds_state(f, 0);
    for (int v = f - 1; v >= 0; --v) {
        feeds_state[v] = std::binary_search(x.begin(), x.end(), v);
        for (int w : g.successors(v))
            if (w < f && feeds_state[w]) feeds_state[v] = 1;
    }
    auto firstBackwardRead = [&](int v) {
        for (int w : g.successors(v))
            if (w >= f) return w;
        return n;
    };
    const int c = std::min(checkpoints - 1, m);
    RevolveTable table(m, c);
    BoolMatrix R(n);
    for (int t = 0; t < n; ++t) R.set(t, t);
    bool first_sweep = true;
    std::vector<int> pending;
    table.generate(
        0, m, c, [&](int i) { if (!first_sweep) pending.push_back(i); },
        [&](int k) {
            const int at = visit_stage[k];
            if (first_sweep) {  // the last segment's inside is still there from the forward pass
                first_sweep = false;
                return;
            }
            for (int i : pending)
                for (int v = x[i - 1] + 1; v <= x[i]; ++v)
                    if (feeds_state[v]) R.set(at, v);
            pending.clear();
            // Segment k+1's inside, each node at its first backward read or
            // as its first reader in the segment is recomputed, whichever
            // comes first: held from then on, not from `at`. A node that
            // nothing reads later (when = n) is not recomputed.
            std::vector<int> stage(f, n);
            for (int v = x[k + 1] - 1; v > x[k]; --v) {
                int when = firstBackwardRead(v);
                for (int w : g.successors(v))
                    if (w < x[k + 1]) when = std::min(when, stage[w]);
                if (when >= n) continue;
                stage[v] = std::max(when, at);
                R.set(stage[v], v);
            }
        });
    return scheduleFromRecompute(g, R);
}

std::optional<Schedule> revolve(const Graph& g, const ReplayLimits& limits) {
    std::optional<Schedule> best;
    ReplayReport best_report;
    const int states = static_cast<int>(revolveStates(g).size());  // more slots change nothing
    for (int s = 1; s <= states; ++s) {
        auto sched = revolveSchedule(g, s);
        if (!sched) return std::nullopt;
        consider(g, std::move(*sched), limits, best, best_report);
    }
    return best;
}

// ------------------------------------------------------------------ DTR --

std::optional<Schedule> dtr(const Graph& g, const ReplayLimits& limits) {
    const int n = g.size();
    if (n == 0) return Schedule(0);
    const std::int64_t budget =
        limits.ram_budget_bytes < 0 ? std::numeric_limits<std::int64_t>::max() : limits.ram_budget_bytes;

    // Nodes computed at stage t given the values carried into it: t itself
    // and, on demand, every missing input (recursively).
    auto onDemand = [&](int t, const std::vector<char>& carried) {
        std::vector<char> computed(n, 0);
        std::vector<int> stack{t};
        while (!stack.empty()) {
            const int v = stack.back();
            bool ready = true;
            for (int u : g.predecessors(v)) {
                if (!carried[u] && !computed[u]) {
                    ready = false;
                    stack.push_back(u);
                }
            }
            if (ready) {
                computed[v] = 1;
                stack.pop_back();
            }
        }
        return computed;
    };

    const std::vector<char> nothing(n, 0);
    BoolMatrix R(n);
    std::vector<int> last_access(n, 0);
    std::vector<char> carried(n, 0);  // S_RAM[t]
    std::vector<char> computed = onDemand(0, carried);
    if (stagePeakBytes(g, 0, carried, computed, nothing, n == 1) > budget) return std::nullopt;
    for (int t = 0; t < n; ++t) {
        for (int v = 0; v <= t; ++v) {
            if (!computed[v]) continue;
            R.set(t, v);
            last_access[v] = t;
            for (int u : g.predecessors(v)) last_access[u] = t;
        }
        if (t == n - 1) break;
        // Tentatively carry every value a later frontier node reads.
        std::vector<char> next(n, 0);
        for (int i = 0; i <= t; ++i) {
            if (!(carried[i] || computed[i])) continue;
            const auto& succ = g.successors(i);
            if (!succ.empty() && succ.back() > t) next[i] = 1;
        }
        std::vector<char> next_computed;
        while (true) {
            next_computed = onDemand(t + 1, next);
            const std::int64_t here = stagePeakBytes(g, t, carried, computed, next, false);
            const std::int64_t there =
                stagePeakBytes(g, t + 1, next, next_computed, nothing, t + 1 == n - 1);
            if (here <= budget && there <= budget) break;
            // Evict the carried value with the least cost / (bytes * staleness).
            int victim = -1;
            double victim_score = 0;
            std::int64_t victim_bytes = 0;
            for (int i = 0; i <= t; ++i) {
                if (!next[i]) continue;
                double cost = g.node(i).compute_energy_j;
                for (int u : g.predecessors(i))
                    if (!next[u]) cost += g.node(u).compute_energy_j;
                const double bytes = std::max<double>(1.0, static_cast<double>(g.node(i).memory_bytes));
                const double staleness = std::max(1, t + 1 - last_access[i]);
                const double score = cost / (bytes * staleness);
                if (victim < 0 || score < victim_score ||
                    (score == victim_score && g.node(i).memory_bytes > victim_bytes)) {
                    victim = i;
                    victim_score = score;
                    victim_bytes = g.node(i).memory_bytes;
                }
            }
            if (victim < 0) return std::nullopt;
            next[victim] = 0;
        }
        carried = std::move(next);
        computed = std::move(next_computed);
    }
    Schedule s = scheduleFromRecompute(g, R);
    return acceptIfValid(g, std::move(s), limits);
}

}  // namespace poet
