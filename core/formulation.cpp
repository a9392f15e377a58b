#include "formulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "knapsack_rounding.h"

namespace poet {

namespace {

constexpr double kInf = std::numeric_limits<double>::max();

// A linear expression over columns plus a constant (R[t,t] = 1 folds in here).
struct Expr {
    std::vector<std::pair<int, double>> terms;
    double constant = 0;
};

}  // namespace

bool runtimeBelowOnePass(const Problem& problem)
{
    return problem.spareRuntimeSeconds() < -1e-12 * std::max(1.0, problem.graph.totalComputeTime());
}

bool recomputableInTightForm(const Problem& problem, int i)
{
    if (!problem.options.remat) return false;
    const double spare = problem.spareRuntimeSeconds();
    return problem.graph.node(i).compute_time_s <= std::max(spare, 0.0) * (1 + 1e-9);
}

Formulation::Formulation(const Problem& problem, FormulationVariant variant, std::function<bool()> stop)
    : p_(problem), variant_(variant), n_(problem.graph.size()), stop_(std::move(stop))
{
    build();
    stop_ = nullptr;  // what it reads may not outlive the build
}

bool Formulation::endedByStop()
{
    if (stop_ && stop_()) stopped_ = true;
    return stopped_;
}

int Formulation::integerColumns() const
{
    return static_cast<int>(std::count(is_integer.begin(), is_integer.end(), 1));
}

int Formulation::addColumn(double lo, double up, double obj, bool integer)
{
    col_lower.push_back(lo);
    col_upper.push_back(up);
    objective.push_back(obj);
    is_integer.push_back(integer ? 1 : 0);
    column_stage_.push_back(building_stage_);
    return columns() - 1;
}

int Formulation::addRow(double lo, double up)
{
    row_lower.push_back(lo);
    row_upper.push_back(up);
    return rows() - 1;
}

void Formulation::coef(int row, int col, double value)
{
    triplet_row.push_back(row);
    triplet_col.push_back(col);
    triplet_value.push_back(value);
}

int Formulation::r(int t, int i) const { return r_[t * n_ + i]; }
int Formulation::sram(int t, int i) const { return sram_[t * n_ + i]; }
int Formulation::ssd(int t, int i) const { return ssd_[t * n_ + i]; }
int Formulation::min(int t, int i) const { return min_[t * n_ + i]; }
int Formulation::mout(int t, int i) const { return mout_[t * n_ + i]; }

void Formulation::build()
{
    const Graph& g = p_.graph;
    const int n = n_;
    const bool paging = p_.options.paging, remat = p_.options.remat;
    offset_j_ = g.totalComputeEnergy();
    scale_ = modelUnitsPerJoule(offset_j_);

    const std::size_t nn = static_cast<std::size_t>(n) * n;
    r_.assign(nn, kNone);
    sram_.assign(nn, kNone);
    ssd_.assign(nn, kNone);
    min_.assign(nn, kNone);
    mout_.assign(nn, kNone);

    // Runtime: compute time only (reference semantics). Each node's first run
    // is constant; what is left for recomputations is the spare time.
    const double spare = p_.spareRuntimeSeconds();
    // Tight: a node that takes longer than the spare time is never
    // recomputed, so its R variables (fixed at 0) are left out; at factor 1.0
    // that is every node with a cost, and the problem becomes paging only.
    std::vector<char> can_recompute(n);
    for (int i = 0; i < n; ++i)
        can_recompute[i] = variant_ == FormulationVariant::Reference ? remat : recomputableInTightForm(p_, i);
    auto recomputable = [&](int i) { return can_recompute[i] != 0; };

    // Tight: a page-in during t serves a read in stage t+1. Paging in earlier
    // only holds RAM sooner (the copy on flash stays valid), so some optimum
    // does without; and it closes an LP loophole: without it the relaxation
    // pages a value out by a sliver and in by that sliver at every stage,
    // building up its RAM presence for almost no page-out energy.
    auto pageInCanServe = [&](int t, int i) {
        if (t + 1 >= n) return false;
        for (int v : g.successors(i))
            if (v == t + 1 || (v < t + 1 && recomputable(v))) return true;
        return false;
    };

    // Frontier-advancing: stage t computes node t; nothing beyond t exists at t.
    for (int t = 0; t < n; ++t) {
        if (endedByStop()) return;
        building_stage_ = t;
        r_[t * n + t] = kOne;
        for (int i = 0; i < t; ++i) {
            const Node& node = g.node(i);
            if (recomputable(i)) r_[t * n + i] = addColumn(0, 1, scale_ * node.compute_energy_j, true);
            sram_[t * n + i] = addColumn(0, 1, 0, true);
            if (paging) {
                mout_[t * n + i] = addColumn(0, 1, scale_ * node.pageout_energy_j, true);
                // On flash at t needs a page-out at t-1 at the latest, which needs i in RAM at t-1 (i < t-1).
                if (i < t - 1) {
                    ssd_[t * n + i] = addColumn(0, 1, 0, true);
                    if (variant_ == FormulationVariant::Reference || pageInCanServe(t, i))
                        min_[t * n + i] = addColumn(0, 1, scale_ * node.pagein_energy_j, true);
                }
            }
        }
    }

    auto term = [](Expr& e, int col, double a) {
        if (col == kOne) e.constant += a;
        else if (col != kNone) e.terms.emplace_back(col, a);
    };
    auto addLeq = [&](const Expr& e, double rhs) {  // e <= rhs
        const int row = addRow(-kInf, rhs - e.constant);
        for (auto [c, a] : e.terms) coef(row, c, a);
    };

    // Dependencies: R[t,v] <= R[t,u] + S_RAM[t,u].
    for (int t = 0; t < n; ++t)
        for (int v = 0; v <= t; ++v) {
            if (r(t, v) == kNone) continue;
            for (int u : g.predecessors(v)) {
                Expr e;
                term(e, r(t, v), 1);
                term(e, r(t, u), -1);
                term(e, sram(t, u), -1);
                addLeq(e, 0);
            }
        }
    // Carries and paging sources.
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t; ++i) {
            if (t + 1 < n) {
                Expr ram;
                term(ram, sram(t + 1, i), 1);
                term(ram, sram(t, i), -1);
                term(ram, r(t, i), -1);
                term(ram, min(t, i), -1);
                addLeq(ram, 0);
                if (ssd(t + 1, i) != kNone) {
                    Expr sd;
                    term(sd, ssd(t + 1, i), 1);
                    term(sd, ssd(t, i), -1);
                    term(sd, mout(t, i), -1);
                    addLeq(sd, 0);
                }
            }
            if (min(t, i) != kNone) {
                Expr e;
                term(e, min(t, i), 1);
                term(e, ssd(t, i), -1);
                addLeq(e, 0);
                if (variant_ == FormulationVariant::Tight) {
                    // M_in[t,i] <= Σ R[t+1,v] over readers v of i (trivial when t+1 itself reads i).
                    Expr served;
                    term(served, min(t, i), 1);
                    for (int v : g.successors(i))
                        if (v <= t + 1) term(served, r(t + 1, v), -1);
                    if (served.constant == 0) addLeq(served, 0);
                }
            }
            if (mout(t, i) != kNone) {
                Expr e;
                term(e, mout(t, i), 1);
                term(e, sram(t, i), -1);
                addLeq(e, 0);
            }
        }

    if (remat) {
        Expr e;
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < t; ++i) term(e, r(t, i), g.node(i).compute_time_s);
        runtime_row_ = rows();
        addLeq(e, std::max(spare, 0.0));
    }
    buildMemory();
}

void Formulation::buildMemory()
{
    const Graph& g = p_.graph;
    const int n = n_;
    const int E = static_cast<int>(g.edges().size());
    const double budget = static_cast<double>(p_.ram_budget_bytes);
    const bool reference = variant_ == FormulationVariant::Reference;
    free_.assign(static_cast<std::size_t>(n) * E, kNone);
    u_.assign(static_cast<std::size_t>(n) * n, kNone);

    auto addRowFrom = [&](const std::vector<std::pair<int, double>>& terms, double lo, double up) {
        const int row = addRow(lo, up);
        for (auto [c, a] : terms) coef(row, c, a);
    };

    for (int t = 0; t < n; ++t) {
        if (endedByStop()) return;
        building_stage_ = t;
        // FREE[t,(i,k)]: i's RAM is released right after k runs in stage t.
        // Releases after node t itself only lower RAM after the stage's last
        // op, below U[t,t]: they bound nothing, so they get no variable.
        for (int k = 0; k < t; ++k) {
            if (r(t, k) == kNone) continue;
            for (int e : g.inEdges(k)) {
                const int i = g.edges()[e].first;
                // Hazards that keep i: k not run, i kept for t+1, a later reader j of i run in stage t.
                std::vector<int> hazard_vars;  // each term "x" counts 1 when x = 1
                double hazard_const = 0;
                bool not_run_can_hold = false;
                if (r(t, k) != kOne) not_run_can_hold = true;  // term (1 - R[t,k])
                if (t + 1 < n) hazard_vars.push_back(sram(t + 1, i));
                for (int j : g.successors(i)) {
                    if (j <= k || j > t) continue;
                    const int rj = r(t, j);
                    if (rj == kOne) hazard_const += 1;
                    else if (rj != kNone) hazard_vars.push_back(rj);
                }
                if (hazard_const > 0) continue;  // a later reader always runs: never freed here
                const int kappa = static_cast<int>(hazard_vars.size()) + (not_run_can_hold ? 1 : 0);
                if (kappa == 0) {
                    free_[static_cast<std::size_t>(t) * E + e] = kOne;  // always freed
                    continue;
                }
                const int f = addColumn(0, 1, 0, reference);
                free_[static_cast<std::size_t>(t) * E + e] = f;
                if (reference) {
                    // h = (1 - R[t,k]) + Σ hazard_vars;  1 - FREE <= h;  κ(1 - FREE) >= h.
                    std::vector<std::pair<int, double>> lo{{f, 1}}, hi{{f, -kappa}};
                    double c = 0;
                    if (not_run_can_hold) {
                        lo.emplace_back(r(t, k), -1);
                        hi.emplace_back(r(t, k), 1);
                        c = 1;
                    }
                    for (int v : hazard_vars) {
                        lo.emplace_back(v, 1);
                        hi.emplace_back(v, -1);
                    }
                    addRowFrom(lo, 1 - c, kInf);    // FREE + h >= 1
                    addRowFrom(hi, c - kappa, kInf);  // -κ FREE - h >= -κ
                } else {
                    if (not_run_can_hold) addRowFrom({{f, 1}, {r(t, k), -1}}, -kInf, 0);
                    for (int v : hazard_vars) addRowFrom({{f, 1}, {v, 1}}, -kInf, 1);
                }
            }
        }
        // U[t,k]: RAM in use after k runs in stage t; only k <= t matter for the peak.
        for (int k = 0; k <= t; ++k) u_[static_cast<std::size_t>(t) * n + k] = addColumn(0, budget, 0, false);
        std::vector<std::pair<int, double>> row{{u_[static_cast<std::size_t>(t) * n], 1}};
        double rhs = 0;
        if (r(t, 0) == kOne) rhs += g.node(0).memory_bytes;
        else if (r(t, 0) != kNone) row.emplace_back(r(t, 0), -static_cast<double>(g.node(0).memory_bytes));
        for (int i = 0; i < t; ++i) row.emplace_back(sram(t, i), -static_cast<double>(g.node(i).memory_bytes));
        addRowFrom(row, rhs, rhs);
        for (int k = 1; k <= t; ++k) {
            std::vector<std::pair<int, double>> rec{{u_[static_cast<std::size_t>(t) * n + k], 1},
                                                     {u_[static_cast<std::size_t>(t) * n + k - 1], -1}};
            double c = 0;
            const double mk = static_cast<double>(g.node(k).memory_bytes);
            if (r(t, k) == kOne) c += mk;
            else if (r(t, k) != kNone) rec.emplace_back(r(t, k), -mk);
            for (int e : g.inEdges(k - 1)) {
                const int f = free_[static_cast<std::size_t>(t) * E + e];
                const double mi = static_cast<double>(g.node(g.edges()[e].first).memory_bytes);
                if (f == kOne) c -= mi;
                else if (f != kNone) rec.emplace_back(f, mi);
            }
            addRowFrom(rec, c, c);
        }
        if (!reference) addRamCoverCuts(t);
    }
}

// Tight: knapsack cuts on the RAM in use while node t runs.
//
// Then t's output and inputs are in RAM, and so is every value i in A_t (read
// after t, not by t) unless it is "out": not held at the start of t, or
// released within t after a recomputed reader k < t. So out_i ≤ z_i =
// (1 − S_RAM[t,i]) + Σ_{readers k < t} R[t,k], and with binary out_i,
// Σ_{A_t} m_i out_i ≥ e = Σ_{A_t} m_i + m_t + Σ_{inputs} m − B: the values out
// must cover the excess. Its roundings (knapsack_rounding.h) hold for binary
// out_i, and then for z_i ≥ out_i, as every coefficient is ≥ 0.
void Formulation::addRamCoverCuts(int t)
{
    const Graph& g = p_.graph;
    const auto& inputs = g.predecessors(t);
    double must_hold = static_cast<double>(g.node(t).memory_bytes);
    for (int u : inputs) must_hold += static_cast<double>(g.node(u).memory_bytes);
    struct Held {
        int sram;                  // S_RAM[t,i]
        std::vector<int> release;  // R[t,k] of the readers k < t that can run in t
    };
    std::vector<Held> held;
    std::vector<double> sizes;
    double held_bytes = 0;
    for (int i = 0; i < t; ++i) {
        if (std::find(inputs.begin(), inputs.end(), i) != inputs.end() || sram(t, i) < 0) continue;
        const double m = static_cast<double>(g.node(i).memory_bytes);
        if (m <= 0) continue;
        Held h{sram(t, i), {}};
        bool read_after_t = false;
        for (int j : g.successors(i)) {
            if (j > t) read_after_t = true;
            else if (j < t && r(t, j) >= 0) h.release.push_back(r(t, j));
        }
        if (!read_after_t) continue;
        held.push_back(std::move(h));
        sizes.push_back(m);
        held_bytes += m;
    }
    const double excess = held_bytes + must_hold - static_cast<double>(p_.ram_budget_bytes);

    // Σ c_i z_i ≥ rhs, written as Σ c_i S_RAM[t,i] − Σ c_i R[t,k] ≤ Σ c_i − rhs.
    for (const KnapsackRounding& cut : knapsackRoundings(sizes, excess)) {
        std::map<int, double> row_terms;
        double total = 0;
        for (std::size_t h = 0; h < held.size(); ++h) {
            const double c = cut.coefficient[h];
            if (c == 0) continue;
            total += c;
            row_terms[held[h].sram] += c;
            for (int k : held[h].release) row_terms[k] -= c;
        }
        const int row = addRow(-kInf, total - cut.rhs);
        for (auto [col, c] : row_terms) coef(row, col, c);
    }
}

double Formulation::energyJ(const double* x) const
{
    double s = 0;
    for (int c = 0; c < columns(); ++c) s += objective[c] * x[c];
    return s / scale_ + offset_j_;
}

int Formulation::column(Var which, int t, int i) const
{
    switch (which) {
    case Var::R: return r(t, i);
    case Var::S_RAM: return sram(t, i);
    case Var::S_SD: return ssd(t, i);
    case Var::M_in: return min(t, i);
    case Var::M_out: return mout(t, i);
    }
    return kNone;
}

std::vector<std::string> Formulation::columnNames() const
{
    std::vector<std::string> names(columns());
    auto name = [&](int col, const std::string& text) {
        if (col >= 0) names[col] = text;
    };
    auto pair = [](int a, int b) { return std::to_string(a) + "_" + std::to_string(b); };
    const auto& edges = p_.graph.edges();
    const int E = static_cast<int>(edges.size());
    for (int t = 0; t < n_; ++t) {
        for (int i = 0; i < n_; ++i) {
            name(r(t, i), "R_" + pair(t, i));
            name(sram(t, i), "SRAM_" + pair(t, i));
            name(ssd(t, i), "SSD_" + pair(t, i));
            name(min(t, i), "MIN_" + pair(t, i));
            name(mout(t, i), "MOUT_" + pair(t, i));
        }
        for (int e = 0; e < E; ++e)
            name(free_[static_cast<std::size_t>(t) * E + e],
                 "FREE_" + pair(t, edges[e].first) + "_" + std::to_string(edges[e].second));
        for (int k = 0; k <= t; ++k) name(u_[static_cast<std::size_t>(t) * n_ + k], "U_" + pair(t, k));
    }
    return names;
}

double Formulation::value(Var which, const double* x, int t, int i) const
{
    const int col = column(which, t, i);
    return col == kOne ? 1.0 : col == kNone ? 0.0 : x[col];
}

Schedule Formulation::decode(const double* x) const
{
    Schedule s(n_);
    auto on = [&](int col) { return col == kOne || (col >= 0 && x[col] > 0.5); };
    for (int t = 0; t < n_; ++t)
        for (int i = 0; i <= t; ++i) {
            s.R.set(t, i, on(r(t, i)));
            s.S_RAM.set(t, i, on(sram(t, i)));
            s.S_SD.set(t, i, on(ssd(t, i)));
            s.M_in.set(t, i, on(min(t, i)));
            s.M_out.set(t, i, on(mout(t, i)));
        }
    return s;
}

std::vector<double> Formulation::encode(const Schedule& s) const
{
    const Graph& g = p_.graph;
    const int n = n_;
    const int E = static_cast<int>(g.edges().size());
    std::vector<double> x(columns(), 0.0);
    auto put = [&](int col, bool v) {
        if (col >= 0) x[col] = v ? 1.0 : 0.0;
    };
    for (int t = 0; t < n; ++t)
        for (int i = 0; i < t; ++i) {
            put(r(t, i), s.R(t, i));
            put(sram(t, i), s.S_RAM(t, i));
            put(ssd(t, i), s.S_SD(t, i));
            put(min(t, i), s.M_in(t, i));
            put(mout(t, i), s.M_out(t, i));
        }
    for (int t = 0; t < n; ++t) {
        double used = 0;
        for (int i = 0; i < t; ++i)
            if (s.S_RAM(t, i)) used += static_cast<double>(g.node(i).memory_bytes);
        for (int k = 0; k <= t; ++k) {
            if (k > 0)
                for (int e : g.inEdges(k - 1)) {
                    const int f = free_[static_cast<std::size_t>(t) * E + e];
                    if (f == kNone) continue;  // never freed here
                    const int i = g.edges()[e].first;
                    bool hazard = !s.R(t, k - 1) || (t + 1 < n && s.S_RAM(t + 1, i));
                    for (int j : g.successors(i))
                        if (j > k - 1 && j <= t && s.R(t, j)) hazard = true;
                    put(f, !hazard);
                    if (!hazard) used -= static_cast<double>(g.node(i).memory_bytes);
                }
            if (s.R(t, k)) used += static_cast<double>(g.node(k).memory_bytes);
            x[u_[static_cast<std::size_t>(t) * n + k]] = used;
        }
    }
    return x;
}

}  // namespace poet
