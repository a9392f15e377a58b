#pragma once
// Lower bounds carried from one solve to the next. A bound proven for a
// problem holds for every problem it relaxes: the same graph at a budget no
// looser in RAM or runtime, with nothing allowed that it forbids (each such
// problem's schedules are schedules of the first). So a runtime sweep, run
// loosest first, and the explorer after a slider move towards a tighter
// budget start from what the looser solve proved. resnet18_cifar on m4 at
// 11% of its peak: the carried arrival bound's windows, 24 s at 1.002x,
// prove 0.757898 J, and at 1.001x, whose own windows are solved in another
// order, 0.750746 J (1.58% under the 0.762785 J schedule; 0.64% with the
// 1.002x bound).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "problem.h"

namespace poet {

struct ProvenBound {
    std::string graph_key;  // hashGraph's (the same costs and edges)
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 1.0;
    ProblemOptions options;
    double bound_j = 0;
};

// `bound_j`, proven for `problem`.
ProvenBound provenBoundOf(const Problem& problem, double bound_j);

// Appends provenBoundOf(problem, bound_j) to `bounds` where it says
// anything (finite and above zero: a solve without one reports 0 or NaN).
void keepProvenBound(std::vector<ProvenBound>& bounds, const Problem& problem, double bound_j);
void keepProvenBound(std::vector<ProvenBound>& bounds, ProvenBound bound);

// Whether `bound` holds for `problem`: it was proven for the same graph at
// budgets no tighter, allowing at least what `problem` allows.
bool holdsFor(const ProvenBound& bound, const Problem& problem);

// The highest of `bounds` that holds for `problem`, if any does.
std::optional<ProvenBound> strongestBoundFor(const std::vector<ProvenBound>& bounds, const Problem& problem);

// How a message names it: "the bound proven at 294451 B and 1.002x".
std::string provenBoundName(const ProvenBound& bound);

}  // namespace poet
