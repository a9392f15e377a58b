#pragma once
// The checkpoint bound (checkpoint_bound.h) with time in it, on a chosen
// set of over-budget stages.
//
// The checkpoint bound lets one return of a value serve every stage of its
// read interval: a layer's values paged in once for a recomputation can
// then be away again at the next tight stage for free. Here the chosen
// stages S_1 < … < S_m of value i's interval (those where it matters) cut
// the interval into buckets (S_j, S_j+1] and a last one (S_m, read]; each
// bucket has its own return columns, and a value away at S_j and here at
// S_j+1 came back in between:
//
//   min Σ Φout_i o_i + Σ Φin_i p_ib + Σ Φc_i c_ib
//   Σ m_i h_ti ≤ B − m_t − Σ_{inputs of t} m              for each chosen stage t
//   h_(S_j+1),i ≤ h_(S_j),i + p_ib + c_ib                 b = (S_j, S_j+1]
//   h_(S_m),i + p_ib + c_ib ≥ 1                           b = (S_m, read], i read after S_m
//   p_ib + c_ib ≤ 1;  p_ib ≤ o_i;  Σ τ_i c_ib ≤ spare runtime
//   c_ib ≤ h_ti + h_tu + Σ_{u's buckets b' meeting (t, e]} (p_ub' + c_ub') + Σ_{u's stages a in (t, e)} h_au
//          for each input u of i (not an input of t, not read inside b = (t, e])
//
// Why it is a relaxation: h_ti is whether i is in RAM while node t runs, and
// p_ib / c_ib whether the last arrival of i in bucket b (a page-in usable
// from a stage in b, or a recomputation in a stage of b) is a page-in or a
// recomputation. A value away at S_j and in RAM at S_j+1 arrived in
// between; one away at S_m arrived before its read; a recomputation reads
// each input u in RAM then, so u stayed from t, or arrived after t (the last
// arrival of the bucket it fell in counts, and that bucket meets (t, e]), or
// is here at one of its stages in between. Distinct buckets are distinct
// events. Leaving stages out only drops rows, so any set of stages bounds.
//
// Where it pays: resnet18_cifar on m4 at 14 to 17% and 1.5x, where the
// stage-peak stage (values of layer1 away while layer3's gradients run)
// and the last stages (the same values back for layer1's gradients, one
// after another, in a budget of six of them) both cost. Its LP is weak
// (below the stage peak), so it is CBC's search that raises it.
#include <atomic>
#include <functional>
#include <vector>

#include "problem.h"
#include "schedule.h"

namespace poet {

// A return that a bucket bound's solution makes by recomputation: `value`,
// recomputed in its bucket (after, stage]: `stage` the chosen stage or the
// read that ends it, or the graph's size where no read does (an input
// recomputed only for another recomputation).
struct BoundRecomputation {
    int value = -1, after = -1, stage = -1;
};

struct BucketBound {
    double bound_j = 0;       // no schedule costs less
    bool infeasible = false;  // the chosen stages cannot all fit within the budgets
    bool complete = false;    // the MILP was solved exactly (else: CBC's bound when its time ran out)
    bool faulted = false;     // CBC faulted (fault_guard.h): the bound is the compute energy alone
    // growBucketBound's stages added before the tail: its look-back stage,
    // or the busiest recomputing stages (none: the tail alone).
    std::vector<int> added_stages;
    // The recomputations of the best solution CBC found (the optimum where
    // complete), where it found one: what bound_schedule.h builds a
    // schedule from.
    std::vector<BoundRecomputation> recomputations;
};

// Rows for the memory while an add is recomputed between two chosen
// stages (bucket_bound.cpp), where `on`: added where the MILP's optimum
// breaks them, and solved again. `broken` (if set) is called, from the
// searching thread, when an optimum first breaks them.
struct RecomputeMoments {
    bool on = false;
    std::function<void()> broken;
};

// The stages worth the MILP's time: `peak_stage` (the stage-peak bound's
// stage; -1 for none) and the last `tail` stages over the budget.
std::vector<int> bucketBoundStages(const Problem& problem, int peak_stage, int tail);

// `peak_stage` and every `stride`-th of the last `span` stages over the
// budget, from the last one less `offset` back. Where the spare time is
// scarce, a few stages spread over the tail prove what many consecutive
// ones do, in a fraction of the time: each bucket then spans `stride`
// stages, and a value away at both its ends still comes back within it.
// resnet18_cifar on m4 at 1.002x, every third of the last 19, cut off at
// what a 0.5% gap asks, one core: at 17% from the third last (111, 114,
// ..., 126) proven in 3 to 5 s (the last 18: 84 s), at 25 and 30% (111
// to 123) in 1.1 and 1.0 s; at 14% and 1.001x from the last (111 to 129)
// 0.7084 J in 10 s (the last ten: 0.7052 J).
std::vector<int> stridedTailStages(const Problem& problem, int peak_stage, int span, int stride, int offset);

// The stages over the budget where nothing that matters there fits beside
// the node and its inputs: every such value is away, so the MILP on them
// alone is mostly its return columns, and CBC solves it at once. bert on m4
// at 8.2 to 8.6% of its peak and 1.5x (each gradient of a query-key-value
// product): the twelve such stages give 111.733 J in 0.01 s, where the
// checkpoint bound gives 109.897 J.
std::vector<int> fullStages(const Problem& problem);

// Solves the MILP on `stages` (those over the budget among them) for at
// most `seconds`. With `cutoff_j` (read when the search starts and
// between nodes, so it may fall as the caller's best schedule does), CBC
// prunes every branch whose bound reaches the lowest value read: a search
// that finds nothing below it proves that value (less CBC's cutoff
// increment), and one that does finds the optimum, or that value if lower.
// resnet18_cifar on m4 at 16% and 1.5x, the last 18 stages and the
// stage-peak stage: 27 s to its optimum (0.618311 J), 10 s to prove 0.5%
// under the best schedule (0.615482 J); at 15% 13 s to prove 0.617756 J.
// Where CBC faults (fault_guard.h) after the cutoff fell, the search starts
// again from the cutoff of then (twice at most); where it faults otherwise,
// the bound is the compute energy alone (`faulted`).
BucketBound bucketBound(const Problem& problem, const std::vector<int>& stages, double seconds,
                        const std::atomic<bool>* cancel = nullptr, const std::function<double()>& cutoff_j = {},
                        const RecomputeMoments& moments = {});

// bucketBound on ever longer tails (bucketBoundStages): `first_tail` stages,
// then one more each time the last was solved exactly, until `seconds`
// pass, `cancel` is set or the tail holds every over-budget stage (a tail
// that adds nothing, having reached the stage-peak stage, is skipped). Each
// bound goes to `found` as it is proven, with its tail; an infeasible one
// too. Longer is not always stronger (a tail cut short proves less), so
// the caller keeps the best. resnet18_cifar on m4 at 1.5x, 20 s on a
// loaded core: tail 9 gives 0.6043 J at 16% (exact), tail 10 0.6090 J
// (exact, 13 s); at 15% 0.6066, 0.6113 (7 s) and 0.6113 J (11, 17 s).
//
// With `enough_j` (what the caller needs proven), each tail is solved with
// that as its cutoff, and the growth ends at the first that proves it.
// With `moments`, each tail starts with the rows the tails before it added
// (the same stages are in it), so it is not solved first without them:
// resnet18_cifar on m4 at 17% and 1.5x, alone, tail 11 took 25 s after
// tail 10, not 30 s.
//
// With `look_back`, each tail solved exactly that does not prove `enough_j`
// is solved again with one more stage, `look_back` over-budget stages
// before its first (its `look_back_stage`), before the next tail: a gap
// that a value's bucket spans. resnet18_cifar on m4 at 1.5x, the last ten
// stages and stage 115 (grad layer1.1.bn2, four before them), cut off at
// what the window search's schedules ask, alone on a loaded machine: 20%
// proven in 3.3 s (any of 110 to 115 in 2 to 4 s; 116 or 117 not: the last
// 12 stages solved exactly are under it), 19% in 1.2 s (the last 13 are
// under it, and the last 14 took 175 s), 17% in 12 s (the last 11: 21 s).
//
// With `busiest` (a schedule's source, read before each tail), each tail
// comes with the busiest recomputing stages before it in that schedule
// (busiestRecomputingStages: kBusiestStages of them; where it has any, no
// look-back stage); each tail after the first with the busiest alone first,
// and with both again, for good, where that one is cut short
// (bucket_bound.cpp) or rises no higher than the tail before. A tail
// whose MILP, with the stages added now, was solved before is skipped (it
// grew into a stage added to the tail before): the next comes, and where
// that comes with the busiest alone and is cut short or no higher, the
// skipped one with both before the next with both. resnet18_cifar on m4
// at 18% and 1.004x, cut off at what a 0.5% gap asks of the 0.609485 J
// schedule (the last eight with 110 and 120, 5.7 s in a solve): the last
// ten with 110 prove it in 4.2 s alone, the last nine with 90 and 110
// fall short (8.2 s in the solve; the last ten with them 16.9 s alone); at
// 19% and 1.005x the last nine with 90 and 110 prove it in 6.2 s in a
// solve, and the last ten with 110 are not done in 5.9 s.
// Where the spare time is scarce, a tail's time row sees only the
// recomputations in its own stages, while a schedule spends its spare time
// over the whole backward pass: resnet18_cifar on m4 at 20% and 1.002x, the
// last ten stages prove 0.604473 J (300 s), and with stages 100 and 110
// (the 0.609367 J schedule recomputes most at 110, then equally at 90 and
// 100) 0.606964 J (47 s alone; cut off at what a 0.5% gap asks, 6.4 s; the
// last eight with them 3.5 s, with 90 and 110 1.8 s); at 18% and 1.005x the
// last ten with 90 and 110 prove the 0.606119 J schedule within 0.5% in 6.6
// s (the tails alone: 0.80% at 30 s in one run, proven at 29.7 s in
// another). The busiest alone after the first, as a second can cost time
// where one suffices: at 17% and 1.005x, cut off at what a 0.5% gap asks of
// the 0.610977 J schedule, alone, the last eight with 90 and 110 take 2.0
// s, then the last nine and ten with 110 2.7 and 6.3 s, the last proving it
// (with 90 and 110 5.3 and 20.1 s; a 30 s solve was 0.585% short, and is
// proven in 22 to 24 s). Not first: at 20% and 1.005x the last eight and
// nine with 110 stall at 0.594079 J where the last eight with 90 and 110
// prove the gap; bert at 12% and 1.005x the last eight with 116 are not
// done in 100 s, with 116 and 164 proven in 0.34 s.
void growBucketBound(const Problem& problem, int peak_stage, int first_tail, double seconds,
                     const std::atomic<bool>* cancel, const std::function<void(const BucketBound&, int tail)>& found,
                     const std::function<double()>& enough_j = {}, const RecomputeMoments& moments = {},
                     int look_back = 0, const std::function<Schedule()>& busiest = {});

// How many stages busiestRecomputingStages adds to a tail. resnet18_cifar
// on m4 at 20% and 1.005x, the last ten stages (0.589358 J, 3.3 s alone)
// with stage 110 were not solved in 60 s, with 100 gave 0.589373 J, with
// both 0.594093 J in 4 to 9 s, and with 90 besides, or four, were not
// solved in 60 s.
inline constexpr int kBusiestStages = 2;

// The `count` over-budget stages after `peak_stage` and before `before`
// where `schedule` spends the most time recomputing (the earlier first
// among equals; none where it recomputes nothing), in stage order.
std::vector<int> busiestRecomputingStages(const Problem& problem, const Schedule& schedule, int peak_stage, int before,
                                          int count);

// busiestRecomputingStages before the first of `stages` (ascending; the
// stage-peak stage aside): the stages added before a strided tail
// (longer_tails.h) and by `bucket_probe --busiest`. None where `stages`
// holds no other stage.
std::vector<int> busiestRecomputingStagesBefore(const Problem& problem, const Schedule& schedule, int peak_stage,
                                                const std::vector<int>& stages, int count);

}  // namespace poet
