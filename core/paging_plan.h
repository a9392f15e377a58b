#pragma once
// POET as a small covering MILP over the idle spans of values.
//
// A value i must be in RAM at the start of stage i+1 (to be kept or paged
// out) and of each stage that reads it; between two such anchor stages a < b
// with b ≥ a + 2 it may be away for stages a+1..b-1, bridged either
//  - by paging: out at a (once per value: the flash copy stays valid), in at
//    b-1; or
//  - by recomputing it in stage b from inputs held there (inputs cheaper to
//    compute than to page in are recomputed along with it). An input u
//    that is away at b may be paged in early for it: u's span is then paged
//    in at b-1 instead of at its end, and u is held from b on (an "early"
//    column e_cb of u's span c). This is how a schedule pages out a conv's
//    output only and recomputes the cheap batchnorm and ReLU after it from
//    the paged-in copy, in the backward stage that reads them. Where u
//    cannot stay in RAM until it is read (the tightest budgets), it may
//    instead visit: paged in at b-1 for the recomputation only, released
//    after it, and paged in again for its own read (a column v_ku).
//    A chain may start from a cost-free input (the network's input), and
//    where a cheap input may be held at b anyway a second chain treats it
//    as held, and where the chain would need an input to visit a third one
//    stops at a value above it that can be paged in early and held (each an
//    alternative span: one way across at most). A transient
//    whose own span ends at b may stay in RAM for its read at b+1: the
//    chain's copy bridges that span (a carry w_kc, free: its compute energy
//    is in the chain's).
//
//   min Σ Φout_i y_i + Σ Φin_i (x_ig + Σ_b e_igb) + Σ Φc(closure) r_ig
//   x_ig, e_igb ≤ y_i;  x_ig + r_ig + Σ_b e_igb ≤ 1;
//   r_kb + x_c + r_c + Σ_{b' > b} e_cb' − v_kc ≤ 1 for each input of k away at b (span c);
//     ≤ 2 with the same terms of span c' added where only a transient u read it (u's span c'
//     covers b: where u is held, the chain stops there);
//   v_kc ≤ r_kb, v_kc ≤ y_u; v_kc + e_c,b+1 ≤ 1 and v_kc + v_k'c ≤ 1 (k' recomputed at b+1);
//   per stage t: cover_t − Σ m_u κ_ku ≥ need_t − B,
//     per k recomputed in t, per step j of its chain (its transients, then k, in index order):
//                cover_t − (L_kj − m_k) r_k − Σ_{c read at j or later} m_c v_kc − Σ_{u kept, done by j} m_u κ_ku
//                        − Σ_{k' ≠ k recomputed in t} (m(transients of k') r_k' + Σ_c m_c v_k'c)
//                        ≥ need_t − m_t − B − M_k (1 − r_k),  M_k the largest the k' terms take off
//     with cover_t = Σ_{spans covering t} m_i (x_ig + r_ig + Σ_k w_kg) + Σ_{b > t} m_i e_igb (alternatives are spans)
//   κ_ku ≥ r_k + (x_c or e_c,t+1 or v_k'c or w_k'c) − 1 for each transient u of k that arrives for t+1
//   Σ τ(closure) r_ig ≤ spare runtime
//
// where need_t is stage t's RAM with everything kept (node t's output plus
// the values held at its start), and L_kj the bytes of k's chain in RAM as
// node j is computed (j, and the chain's values computed before it that a
// later step reads or that may be kept). Transients are released before
// node t runs (the step rows bound their own peak, where k itself is not
// there yet), except those paged in for t+1: the recomputed copy is kept
// instead (κ, the first row). A cost-free input is recomputed at each
// reader instead of being held, so it counts only in the stages that read it.
//
// When nothing but cost-free inputs can be recomputed (a runtime factor of
// 1.0 leaves no spare time for any node that takes time; or
// rematerialization is off), every node runs once, in order, and this is
// exact: paging out later or in earlier only holds RAM longer, and a second
// page-out only costs energy, so some optimum of formulation.md's MILP has
// this form (applies(), tst_paging_plan). Sizes: resnet18_cifar ~100 columns
// instead of ~35,000. Otherwise it is a restriction (no recomputation chains
// through held values, overlapping transients over-counted): every plan is a valid
// schedule, a good one at tight budgets, but its optimum is no bound.
//
// On a fixed compute plan (the second constructor) the anchors are the stages
// where that plan reads a held value or starts holding it, need_t comes from
// its replay, and spans are paged only.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "problem.h"
#include "schedule.h"

namespace poet {

// How many repeated cover terms make a plan share them (PagingPlan::CoverRows::BySize).
inline constexpr double kSharedCoverFromTerms = 4e6;

class PagingPlan {
public:
    // Whether the plan is exact (the Tight formulation's rule for which nodes
    // can be recomputed, with only cost-free sources among them).
    static bool applies(const Problem& problem);

    // With `stopped_chains`, the third chain too (where the first would
    // need two visits or more): more columns, which slow CBC's search where
    // they do not pay (resnet50 at 10%: no schedule in 25 s instead of one
    // in 11 s), so the solver tries it second, and only where some first
    // chain needs three visits or more (mostVisits: bert at 8.2 to 8.6% of
    // its peak, eleven; resnet18_cifar and resnet50, two at most).
    //
    // `cover`: how each stage's rows count the bytes spans take away over it
    // (cover_t above, in the stage's own row and in each step row of each
    // chain recomputed there). Repeated: its terms in each row, as written
    // above. Shared: where a stage has more than one such row, one
    // continuous column z_t ≤ cover_t that they read instead: the same MILP,
    // with the same LP relaxation (tst_paging_plan), and far fewer terms.
    // BySize: shared where more than kSharedCoverFromTerms terms would be
    // repeated, which no bundled model's plan has (bert's, the largest, 1.3M
    // at 8.2%), so their searches keep their paths; a 48-block copy of bert
    // (771 nodes) at 20% has 162M (20 s to build, 3.1 GB: a 30 s solve took
    // 87 s and 8.8 GB), 4.5M shared (1 s).
    //
    // Shared everywhere, the plan alone is far faster (to 0.5% on one core,
    // a scratch driver): bert at 10% and 1.5x 121k terms instead of 1.27M,
    // its LP in 0.11 s instead of 1.43 s; resnet18_cifar at 20% and 1.5x
    // proven in 0.45 s instead of 3.1 s, resnet50 at 10% in 2.0 s instead of
    // 12.5 s. But CBC's search takes other paths, and the solve's results on
    // bert moved both ways (120 s, one run each): at 27.3% and 1.04x proven
    // in 33 s (101.594597 J; 0.707% short before), at 39.3% and 1.025x
    // 1.233% short (0.900% before), at 30% and 1.003x proven in 63 s (8 s
    // before); resnet18_cifar's 30 s cells were even. Not chosen.
    enum class CoverRows { BySize, Shared, Repeated };
    //
    // `cancel`, where set, ends the build between spans and between stages:
    // a 771-node graph's plan takes 0.6 s to build, and a solve's time limit
    // waited for up to two of them. The plan is then incomplete
    // (cancelled()): only a search that sees `cancel` set, and so returns at
    // once (solvePagingPlan), may be given it.
    explicit PagingPlan(const Problem& problem, bool stopped_chains = false, CoverRows cover = CoverRows::BySize,
                        const std::atomic<bool>* cancel = nullptr);
    bool cancelled() const { return cancelled_; }
    int stoppedChains() const { return stopped_chains_; }
    int mostVisits() const { return most_visits_; }

    // Paging only, for a fixed compute plan: `base` (no paging; valid but for
    // its RAM peak) keeps its computations, and the plan chooses which idle
    // spans of its held values go to flash instead. Each stage's RAM drops by
    // what is away over it, so this finds the least paging that fits `base`
    // into the budget (LP roundings, relaxation_rounding.h).
    PagingPlan(const Problem& problem, const Schedule& base, CoverRows cover = CoverRows::BySize);

    int columns() const { return static_cast<int>(objective.size()); }
    int rows() const { return static_cast<int>(row_lower.size()); }
    // The shared cover columns: the plan's only continuous ones.
    int sharedCoverColumns() const { return static_cast<int>(std::count(is_integer.begin(), is_integer.end(), 0)); }

    // Every column is binary but the shared cover columns; rows in triplet
    // form, as in formulation.h.
    std::vector<double> objective;  // model units: objectiveScale() per joule
    std::vector<double> col_lower, col_upper;
    std::vector<char> is_integer;
    std::vector<double> row_lower, row_upper;
    std::vector<int> triplet_row, triplet_col;
    std::vector<double> triplet_value;

    double objectiveScale() const { return scale_; }
    double objectiveOffsetJ() const { return offset_j_; }  // compute energy of the plain pass (or of `base`)
    double energyJ(const double* x) const;
    Schedule decode(const double* x) const;

    // The smallest RAM budget at which the plan has a schedule (every span
    // bridged); where applies(), the smallest at which any schedule exists.
    std::int64_t smallestFeasibleBudget() const { return smallest_budget_; }

private:
    struct Span {
        int value, from, to;    // away from RAM at the starts of stages from..to; read at to+1
        int alternative = -1;   // the next way of recomputing the same span (spans_ index: another chain), or -1
        bool is_alternative = false;
        int out_at = -1;        // where its page-out is, if not at from-1 (a later run's: in the first run)
    };
    // An input of a recomputation's chain that is held over the span `span`
    // (a blocker: it must not be away then). Read by a transient whose own
    // span `via` covers the stage (-1: by the value itself, or by a transient
    // that is never held there), it is needed only where that transient is
    // away too: where it is held, the chain stops at it.
    struct Blocker {
        int span, via;
    };
    int addColumn(double energy_j);
    int addSharedCoverColumn();
    // From base_: spans_, and each stage's RAM with everything kept (need_t).
    // Also, where base_ computes several nodes in one stage (a fixed compute
    // plan's recomputations), release_points_.
    std::vector<double> spansAndNeed();
    // Columns and rows from need_t (each stage's RAM with everything kept)
    // and spans_; per span whether and how it can be recomputed.
    void addColumnsAndRows(const std::vector<double>& need, const std::vector<char>& can_recompute,
                           const std::vector<std::vector<Blocker>>& blockers,
                           const std::atomic<bool>* cancel = nullptr);
    bool endedBy(const std::atomic<bool>* cancel);  // sets cancelled_ where `cancel` is set
    struct Early {
        int span, stage, col;  // away at from..stage-1, in RAM from `stage` on
    };
    struct Visit {
        int recompute, input, col;  // span `input` paged in for span `recompute`'s recomputation only
    };
    struct Carry {
        int recompute, span, col;  // span `span` bridged by span `recompute`'s chain, whose copy stays
    };
    // Span k's recomputation, one node at a time: the bytes its chain has
    // in RAM as each node is computed, and which of its visits (indices
    // into visits_) are still to be read then.
    struct ChainStep {
        double bytes = 0;
        std::vector<int> visits;
        std::vector<int> kept;  // computed earlier, read no more, held only if kept (indices into kept_[k])
    };
    std::vector<ChainStep> chainSteps(int k, const std::vector<int>& visits) const;

    // A value read in stage t whose span starts at t+1 leaves RAM after its
    // last reader there (the replay's release), so the steps of t after that
    // need less: per stage, from each such step on, the fullest step's RAM
    // with everything kept and the spans whose values have left by then.
    // Empty where each stage computes one node (its read is the stage's
    // last step).
    struct ReleasePoint {
        double need_from = 0;    // the fullest step from here to the next point
        std::vector<int> spans;  // spans whose values have left by this step (cumulative)
    };
    std::vector<std::vector<ReleasePoint>> release_points_;

    const Problem& p_;
    CoverRows cover_ = CoverRows::BySize;
    double scale_ = 1, offset_j_ = 0;
    bool cancelled_ = false;  // the build was ended by its cancel: incomplete
    int stopped_chains_ = 0;  // alternative spans from the third chain
    int most_visits_ = 0;     // the most inputs a first chain needs to visit
    std::int64_t smallest_budget_ = 0;
    std::vector<Span> spans_;
    std::vector<int> out_col_;                   // per value: its page-out, or -1
    std::vector<int> page_col_, recompute_col_;  // per span: its page-in / its recomputation, or -1
    std::vector<std::vector<int>> transient_;    // per span: inputs recomputed along with it
    std::vector<std::vector<int>> kept_;         // per span: its transients' spans that may arrive during its stage
    std::vector<Early> early_;                   // sorted by (span, stage)
    std::vector<Visit> visits_;
    std::vector<Carry> carries_;
    std::vector<char> free_source_;              // recomputed at each reader for free
    Schedule base_;                              // everything kept; decode() takes spans off it
};

}  // namespace poet
