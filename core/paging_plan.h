#pragma once
// POET without rematerialization, as a small covering MILP.
//
// When nothing can be recomputed except cost-free network inputs (a runtime
// factor of 1.0 leaves no spare time for any node that takes time; or
// rematerialization is switched off), every node runs once, in order, and
// the only choice left is which idle spans of which values to spend on flash.
// A value i must be in RAM at the start of stage i+1 (to be kept or paged
// out) and of each stage that reads it; between two such anchor stages a < b
// with b ≥ a + 2 it may be away for stages a+1..b-1: paged out at a (once
// per value: the flash copy stays valid) and in at b-1. Paging out later or
// in earlier only holds RAM longer, and a second page-out only costs energy,
// so some optimum of formulation.md's MILP has this form, and this problem
// has that MILP's optimum:
//
//   min Σ Φout_i y_i + Σ Φin_i x_ig
//   x_ig ≤ y_i;  per stage t: Σ_{spans g of i covering t} m_i x_ig ≥ need_t − B
//
// where need_t is stage t's RAM with everything kept (node t's output plus
// the values held at its start). A cost-free input is recomputed at each
// reader instead of being held, so it counts only in the stages that read it.
// Sizes: resnet18_cifar ~100 columns instead of ~35,000.
#include <cstdint>
#include <vector>

#include "problem.h"
#include "schedule.h"

namespace poet {

class PagingPlan {
public:
    // Whether the problem has this form (the Tight formulation's rule for
    // which nodes can be recomputed, with only cost-free sources among them).
    static bool applies(const Problem& problem);

    explicit PagingPlan(const Problem& problem);

    int columns() const { return static_cast<int>(objective.size()); }
    int rows() const { return static_cast<int>(row_lower.size()); }

    // Every column is binary; rows in triplet form, as in formulation.h.
    std::vector<double> objective;  // model units: objectiveScale() per joule
    std::vector<double> row_lower, row_upper;
    std::vector<int> triplet_row, triplet_col;
    std::vector<double> triplet_value;

    double objectiveScale() const { return scale_; }
    double objectiveOffsetJ() const { return offset_j_; }  // the plain pass's compute energy
    double energyJ(const double* x) const;
    Schedule decode(const double* x) const;

    // The smallest RAM budget at which a schedule exists: every span paged.
    std::int64_t smallestFeasibleBudget() const { return smallest_budget_; }

private:
    struct Span {
        int value, from, to;  // away from RAM at the starts of stages from..to
    };
    const Problem& p_;
    double scale_ = 1, offset_j_ = 0;
    std::int64_t smallest_budget_ = 0;
    std::vector<int> out_col_;      // y_i per value, -1 when it has no span
    std::vector<Span> spans_;       // x columns follow the y columns, in this order
    std::vector<char> free_source_; // recomputed at each reader for free
};

}  // namespace poet
