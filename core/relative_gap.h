#pragma once
// How far a schedule's energy is from a lower bound, and when a bound
// proves it: one rule for the solve, its searches and the solve cache.
#include <algorithm>
#include <cmath>

namespace poet {

// The gap between a schedule's energy and a bound, relative to the energy:
// infinite without a schedule (an infinite energy), which nothing proves.
inline double relativeGap(double objective, double bound)
{
    if (!(objective < INFINITY)) return INFINITY;  // (inf - bound) / inf would be NaN, and max() 0
    if (objective <= 0) return 0;
    return std::max(0.0, (objective - bound) / objective);
}

// Whether `bound` proves `objective` within `relative_gap`. The bounds'
// own MILPs stop within a relative gap of 1e-9 of their optimum (below it
// by that much, by design: cbc_setup.cpp), so a proof carries that much
// rounding, counted twice for the sums around it. Without it, --gap 0
// never ended before the time limit where a bound met the schedule
// (linear on m4 at 3,850 B and 1.001x: a gap of 9.995e-10, 5 s, "feasible").
constexpr double kBoundRounding = 2e-9;
inline bool withinGap(double objective, double bound, double relative_gap)
{
    return relativeGap(objective, bound) <= relative_gap + kBoundRounding;
}

}  // namespace poet
