#pragma once
// A lower bound on every schedule's energy from one stage's peak.
//
// When node t first runs (stage t), its output and inputs are in RAM, and
// so is each other value that is "here" then. A value read after t that is
// away at that moment must come back later: paged in (which needs a page-out
// too: Φout + Φin), or recomputed (Φc, and then each of its inputs must be
// here at t or come back as well, recursively; recomputations share the
// spare runtime). Being here costs nothing in this bound. So, per stage t:
//
//   min Σ (Φout_i + Φin_i) p_i + Σ Φc_i c_i
//   Σ m_i h_i ≤ B − m_t − Σ_{inputs u of t} m_u
//   h_i + p_i + c_i = 1          for each i < t read after t (≤ 1 for the rest)
//   c_j ≤ h_u + p_u + c_u        for each input u of j (not an input of t)
//   Σ τ_i c_i ≤ spare runtime;   h, p, c binary
//
// is a relaxation of the schedule problem: any schedule gives a solution
// (h: here at that moment; p, c: its first way back after t), and its cost
// counts distinct page-ins, page-outs and recomputations. Plus the plain
// pass's compute energy (every node runs once), each stage's optimum is a
// bound, and so is the largest. A stage that cannot fit at all proves the
// budgets infeasible (e.g. rematerialization without paging).
//
// Why: the full MILP's LP relaxation meets a stage's peak with a mix of
// half-kept values and fractional recomputations whose costs it shares with
// the neighbouring stages; this MILP is small (a few hundred binaries) and
// CBC solves it exactly in milliseconds. On resnet18_cifar at 736,128 B and
// 1.5x it raises the bound from 0.548355 J (LP) to 0.553091 J, 0.02% under
// the best schedule.
#include <atomic>
#include <cmath>
#include <vector>

#include "problem.h"

namespace poet {

// What stage t's peak holds (over indices < t): node t and its inputs in any
// case (`fixed_bytes`), and the values that matter there: those read after
// t, and the inputs of a value that matters and may be recomputed (the
// rest can go for free). `plain_bytes`: the peak when every value read
// after t is held.
struct StagePeak {
    std::vector<char> input, read_later, matters, recomputable;
    double fixed_bytes = 0, plain_bytes = 0;
};
StagePeak stagePeak(const Problem& problem, int t);

struct StageBound {
    double bound_j = 0;       // no schedule costs less
    int stage = -1;           // the stage whose peak gives it (-1: the plain pass's energy)
    bool infeasible = false;  // `stage` cannot fit within the budgets at all
    bool complete = false;    // every stage over the budget was solved exactly (else: a weaker bound)
};

// Solves the stages over the budget, those with the largest LP bound first,
// for at most `seconds` in total and a quarter of that per stage (a stage
// cut short counts with CBC's bound; past `seconds` no stage's LP is solved,
// and each is only checked for room for its node and inputs). Stops once
// the bound reaches `enough_j` (a schedule's energy within the gap asked
// for: nothing more is needed), and at once on a cancel.
StageBound stagePeakBound(const Problem& problem, double seconds, const std::atomic<bool>* cancel = nullptr,
                          double enough_j = INFINITY);

}  // namespace poet
