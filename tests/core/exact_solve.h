#pragma once
// Solving a small test problem to optimality (gap 1e-9) with one build of
// the MILP: formulation.md's Reference build runs bare (no warm start), as
// the reference would; the Tight build runs the whole pipeline.
#include "solver.h"

namespace poet::test {

inline SolveResult solveExactly(const Problem& p, FormulationVariant v)
{
    SolverOptions o;
    // A solve proven sooner ends sooner; the limit is for the slowest: the
    // Reference build on tst_solver's 23-node "checkpoint tree" row (the
    // row takes 50 s here) ran past 60 s once in a fresh clone's run.
    o.time_limit_s = 180;
    o.relative_gap = 1e-9;
    o.variant = v;
    o.use_heuristics = v == FormulationVariant::Tight;
    return solve(p, o);
}

}  // namespace poet::test
