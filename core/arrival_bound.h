#pragma once
// A lower bound on every schedule's energy from the values each stage needs
// that the stage before did not hold: a sum over stages, where the
// stage-peak bound (stage_bound.h) takes the largest single stage.
//
// Node b reads its inputs I_b. Those that node b-1 did not read or compute
// (N_b, "new at b") must be in RAM when node b runs, so each one either
//  - was held while node b-1 ran (its RAM counts there, alongside node
//    b-1's inputs and output: h),
//  - was paged in during stage b-1 (Φin, and its page-out λ_ib: p), or
//  - is recomputed during stage b (Φc: c), which needs its inputs then:
//    held through b-1 (h), paged in during b-1 (p), or recomputed in b (c).
// While a value w is recomputed, w, its inputs and every input of node b
// not itself recomputed in b are in RAM. So, per stage b:
//
//   A_b = min Σ (Φin_i + λ_ib [i ∈ N_b]) p_i + Σ Φc_i c_i
//   h_i + p_i + c_i = 1 for i ∈ N_b (≤ 1 for the rest);  c_w ≤ h_u + p_u + c_u
//   Σ m_i h_i ≤ B − Σ_{I_{b-1} ∪ {b-1}} m
//   Σ_{x ∈ I_b \ (in(w) ∪ {w})} m_x (1 − c_x) + Σ_{in(w) ∪ {w}} m ≤ B + M (1 − c_w)
//   Σ τ c ≤ spare runtime
//
// The events A_b charges (page-ins during b-1, recomputations during b) are
// distinct for distinct b, and λ_ib = Φout_i at the last b with i ∈ N_b
// (0 at the others: the last is a backward node's read, where the value
// must come back) charges each page-out at most once, so plain-pass energy
// + Σ_b A_b bounds every schedule, and a stage with no solution proves
// that no schedule exists.
// It is strong where one extra value no longer fits beside a backward
// node's operands (resnet18_cifar below ~13% of its peak: every backward
// stage pays a page-in), and zero where it does.
//
// The carried bound solves windows of consecutive stages a..e at once, with
// presence carried from stage to stage: per value and stage, h = in RAM
// while node s runs (within the room beside node s's operands), p = paged
// in during s, c = recomputed during s. A value there for s (h at s-1, p at
// s-1, or c at s) must be there for each node or recomputation in s that
// reads it, and h at s needs it there for s. One thing the single stage
// cannot see: a value there at the start of s (p at s-1, or c at s) and
// paged in again during s stays in RAM through node s (formulation.md frees
// nothing that is in RAM at s+1), so it counts in h at s. At the tightest
// budgets this forbids bringing a conv's output in for one stage to
// recompute the batch norm after it and again for the next. A window
// starts in any state; page-ins during a-1..e-1 and recomputations during
// a..e are charged, each page-out where λ puts it: the sum over windows
// that do not overlap bounds every schedule. There is a window at every
// first stage, and the set with the largest sum is taken (a longest path
// over the stages): what a window sees depends on where a block's backward
// stages fall in it. resnet18_cifar at 12% and 1.5x: 0.6685 J per stage;
// windows of 6 stages: 0.7125 J from stage 1 on (0.45 s), 0.7174 J the
// best set (~5 s); of 7: 0.7223 J (~11 s, 0.7222 J after 6 s); of 8 no
// more (~18 s).
// Above ~13% it gives no more than the stage-peak bound: at 15%, even
// 16-stage windows (without the page-in-again rule) reached 0.601 J
// against its 0.597 J, and CBC slows down beyond that.
//
// A window that starts in any state starts with values in RAM that no
// schedule can have kept there: at 12%, the window 110..116 starts with
// layer1.1's last values, which nothing holds through the stage-peak stage
// 72 (grad layer3.1.bn3), and asks 0.0481 J where the schedule spends
// 0.0578 J (bringing them back costs 0.0094 J). So there are also windows
// that look back to a stage s before them: the piece covers s+1..e, what is
// in RAM while node s runs fits beside node s's operands, and every value
// read between s and the window, or in RAM as it starts, was in RAM at s or
// came back in between (one page-in or recomputation, as in
// bucket_bound.h's buckets; no RAM rows between). At 12%, looking back to
// stage 72, the window 110..116 proves 0.0702 J over 73..116 (the schedule
// spends 0.0705 J there; the windows 0.0483 J), and the bound rises from
// 0.7222 J to 0.7434 J (the schedule: 0.7445 J); at 11% 0.7418 J (0.68%
// below its schedule), at 13% 0.7298 J (1.33%).
#include <atomic>
#include <cmath>
#include <functional>
#include <vector>

#include "problem.h"
#include "schedule.h"

namespace poet {

// One term of the sum: stages first..last, and the energy beyond one plain
// pass that every schedule spends there as chargedIn counts it (the piece's
// MILP optimum, or the bound its search proved where cut short).
struct BoundPiece {
    int first = 0, last = 0;
    double extra_j = 0;
    bool exact = false;
    int window_first = 0;  // `first`, or a later stage for a window that looks back to first-1
    bool looser = false;   // proven at carriedBoundHereOrLooser's looser budget
};

struct ArrivalBound {
    double bound_j = 0;       // no schedule costs less
    bool infeasible = false;  // stage `stage` has no way to get its inputs within the budgets
    int stage = -1;
    // Every stage solved exactly (else a stage cut short counts with the
    // bound its search proved).
    bool complete = false;
    std::vector<BoundPiece> pieces;  // the terms of the sum (stages or windows with anything to pay)
};

// Every stage's LP, then each stage exactly for at most `seconds` in all; a
// stage cut short counts with the bound its search proved.
ArrivalBound arrivalBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel = nullptr);

// A window's first try in the carried bound: this share of its time at
// most; those it cuts short get kSecondTryShare of it on a second try,
// after every window's first (arrival_bound.cpp). Half, not 0.35 (until
// session 120): resnet18_cifar on m4 at 11% and 1.004x the look-back
// window 106..113, whose second try proves the gap, was cut short at its
// 8.4 s of the solver's 24 s beside the background plan (0.644% short at
// 30 s in 3 runs of 3; with half, proven in 18.7 to 20.0 s, 3 of 3).
inline constexpr double kFirstTryShare = 1.0 / 32;
inline constexpr double kSecondTryShare = 0.5;

// How many nonzeros of the windows' solved LPs the carried bound keeps (a
// kept LP costs ~60 B a nonzero): resnet50 at 10% has ~1,300 windows here
// and 2% looser, and with every LP kept the process peaked at 1.84 GB; with
// these, at 1.11 GB. resnet18_cifar's windows all fit (~1M nonzeros at 12%).
inline constexpr long kKeptWindowLpElements = 2'000'000;

// The carried bound over windows of `window` stages (`stage`: the first
// stage of a window with no solution; `pieces`: the windows summed). The
// pieces of the best set by their values so far (LP values where not yet
// solved) are solved exactly first (once that set is all solved, the set
// that could rise most: see arrival_bound.cpp), then the windows from stage 1 on, so
// a short `seconds` gives at least their sum, then the others, largest LP
// value first; each for kFirstTryShare of `seconds` at most, then those cut
// short for kSecondTryShare, until the best set
// reaches `enough_j()` (read after each piece: it falls as the caller's best
// schedule does). With `look_back_stage` (the stage-peak bound's stage),
// also the windows after it that look back to it (see above).
//
// The windows' LPs are solved first and kept, up to `kept_lp_elements`
// nonzeros in all, for their exact solves; past it, a window's LP is built
// and solved again for its exact solve (the same bound, a little later).
ArrivalBound carriedArrivalBound(const Problem& problem, int window, double seconds,
                                 const std::atomic<bool>* cancel = nullptr, int look_back_stage = -1,
                                 const std::function<double()>& enough_j = {},
                                 long kept_lp_elements = kKeptWindowLpElements);

// How many stages the solver's carried bound puts in a window: seven, and
// eight where the spare time is scarce (problem.h). There the runtime row
// prunes the windows' recomputations, so the eighth stage costs little and
// sees a value that must come back once more: resnet18_cifar on m4 at 11%
// and 1.002x, every window solved exactly (two cores, 2% looser beside),
// 0.757898 J with seven in 22 s, 0.762562 J with eight in 50 s (the best
// schedule known 0.762785 J); nine and ten take longer still. 30 s solves
// (bench_solve) with eight: 11 and 12% at 1.001 to 1.005x proven in 14 to
// 21 s since the two carried searches stopped redoing each other's windows
// (session 70, two runs each; before, on the edge at 24 to 25 s in 4 of 16
// runs at 1.002 and 1.005x; with seven then, 0.64 to 0.65% short);
// jetsontx2's 11% and 12% at 1.002x in 14 and 15 s; with nine (session
// 69), none.
// Beyond 1.005x eight cost too much: 11 and 12% at 1.01 to 1.03x were
// proven in 2.3 to 6.8 s with seven and are 0.66% short with eight, and at
// 1.5x 11 to 13.35% in 5.8 to 23 s with seven, only 12.5 and 13% with
// eight (in 23 s).
inline int carriedWindowStages(const Problem& problem) { return spareTimeIsScarce(problem) ? 8 : 7; }

// How much looser carriedBoundHereOrLooser's second budget is: 2% more RAM.
inline constexpr double kLooserBudgetShare = 0.02;

// carriedArrivalBound at this RAM budget and, on a second core, at one
// kLooserBudgetShare looser: a window's bound there holds here too (every
// schedule that fits here fits there), and its windows are at times far
// quicker to solve exactly (resnet18_cifar on m4 at 1.5x and 11.5%: ~40 s
// on one core to what a 0.5% gap asks, 6.5 s at 11.73%). The two share
// their windows' values and split the windows between them (where the
// looser budget's stages pay less than these, its windows would prove less:
// the second core then searches this budget too); the sum takes each
// window from whichever proved more. Both stop once the sum proves
// `enough_j()` or either proves that nothing fits (the looser one's proof
// holds here too); `looser` says whether a window of the sum, or the
// proof, is the looser budget's. With one thread, this budget's alone.
ArrivalBound carriedBoundHereOrLooser(const Problem& problem, int window, double seconds, const std::atomic<bool>* cancel,
                                      int look_back_stage, const std::function<double()>& enough_j, int threads = 2,
                                      bool* looser = nullptr);

// What `schedule` spends in stages first..last as both bounds count it:
// page-ins during first-1..last-1, recomputations during first..last, and,
// each page-out of a value whose last new-at stage (read there, not read
// or computed by the node before: λ above) is there. Every
// piece of a bound is at most this for every valid schedule, and the sum
// over a partition of the stages at most the schedule's energy beyond one
// plain pass: where a schedule pays more than a piece says is where its
// gap lies (tests/bench/gap_map).
double chargedIn(const Problem& problem, const Schedule& schedule, int first, int last);

}  // namespace poet
