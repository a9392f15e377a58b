#pragma once
// A lower bound from every stage's peak at once, where the stage-peak bound
// (stage_bound.h) takes the largest single stage.
//
// Value i's reads (its successors, in order) cut time into intervals: k is
// the k-th read's interval, from just after read k-1 to read k. A value
// away at stage t (not in RAM while node t runs) and read after t must
// come back in t's interval, after t: one page-in or one recomputation
// serves every stage of that interval at which it is away. So one MILP
// holds each over-budget stage's knapsack (as in the stage-peak bound: a
// here-column per value that matters there, the RAM beside node t and its
// inputs) with return columns per value and interval, shared by the stages
// of that interval:
//
//   min Σ Φout_i o_i + Σ Φin_i p_ik + Σ Φc_i c_ik
//   Σ m_i h_ti ≤ B − m_t − Σ_{inputs of t} m           for each stage t
//   h_ti + p_ik + c_ik ≥ 1    i read after t, k = its interval at t
//   p_ik + c_ik ≤ 1;  p_ik ≤ o_i (one page-out serves every page-in)
//   c_ik ≤ h_ti + h_tu + p_uk' + c_uk'   for each input u of i (not an input of t), k' = u's interval at t
//   Σ τ_i c_ik ≤ spare runtime
//
// Why it is a relaxation: map a schedule's last return of i in interval k
// (the first after the last stage of k where i is away) to p_ik or c_ik.
// If that is a recomputation after t, each input u is in RAM then, so u is
// here at t or came back after t, in u's interval at t (or, if later, it
// came back in that interval too, for its read there). Returns in distinct
// intervals are distinct events, and share the runtime.
//
// What it sees that one stage does not: a layer's values are away at the
// peaks of the backward stages before their reads, and an interval is
// charged once for all of them. bert on m4 at 20% and 1.5x: 102.934 J from
// the stage peak, 103.025 J from this LP (0.2 s) and 103.292 J after CBC's
// root cuts (~1 s), against a best schedule of 103.859 J. On resnet18_cifar
// at 12 to 20% it gives no more than the stage peak.
#include <atomic>
#include <cmath>

#include "problem.h"

namespace poet {

struct CheckpointBound {
    double bound_j = 0;       // no schedule costs less
    bool infeasible = false;  // the stages cannot all fit within the budgets (e.g. the runtime they share)
    bool complete = false;    // the MILP was solved exactly (else: its LP, or CBC's bound when cut short)
    bool lp_solved = false;   // its LP relaxation was solved, or had no stage (else bound_j is the plain pass's)
};

// Solves the LP and, where that is short of `enough_j`, CBC's root with
// its cuts, for at most `seconds`, or with `exact` the whole search (the
// tests' strongest claim). With `exact` and a finite `cutoff_j`, CBC prunes
// every branch whose bound reaches it: a search that ends finding nothing
// below it proves that value (less CBC's cutoff increment), `complete`.
CheckpointBound checkpointBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel = nullptr,
                                double enough_j = INFINITY, bool exact = false, double cutoff_j = INFINITY);

}  // namespace poet
