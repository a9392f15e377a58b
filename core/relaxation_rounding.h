#pragma once
// A primal heuristic from the LP relaxation (Checkmate's two-phase rounding,
// extended to paging): round what the relaxation keeps in RAM at a
// threshold, recompute whatever a stage then lacks, and relieve what is left
// over the RAM budget by paging or recomputing (relieveToFit). Where cheap
// recomputations are what the optimum is made of, this finds schedules the
// eviction heuristics miss.
#include <functional>
#include <optional>

#include "formulation.h"
#include "problem.h"
#include "schedule.h"

namespace poet {

// Brings a rounded schedule (valid but for its RAM peak) within the budget.
using FitToBudget = std::function<std::optional<Schedule>(const Schedule&)>;

// The least-energy valid schedule over a range of thresholds; nullopt when
// none is valid (or rematerialization is off: the rounding recomputes).
// `x` is a column solution of `f`, built for `problem`. Each rounding is
// fitted by relieveToFit and, when given, by `fit` as well. Besides the plain
// rounding, one more keeps the values the relaxation pages in (rather than
// recomputing their chains) from their computation to their last read.
std::optional<Schedule> roundRelaxation(const Problem& problem, const Formulation& f, const double* x,
                                        const FitToBudget& fit = {});

}  // namespace poet
