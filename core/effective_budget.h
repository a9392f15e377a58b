#pragma once
// The RAM a schedule can use under a budget. Every RAM figure the replay
// measures (replay.h) is a sum of node sizes, each counted at most twice (a
// value in RAM since the stage before and computed again in this one), so
// a budget B admits exactly the schedules that the largest such sum not
// above B admits: budgets with the same effective budget are one problem,
// with one optimum. bert on m4: every value but two (2,048 B each) is a
// multiple of 1,572,864 B, so its budgets from 21 such blocks up to 26
// (8.61 to 10.66% of its peak) are five problems, but for the first 8 KB
// above each block's edge. Problem keys hash it (problem_key.h), and the
// checkpoint bound's RAM rows hold it.
#include <cstdint>

#include "graph.h"

namespace poet {

// The largest sum of node sizes, each counted at most twice, that is not
// above `budget` (itself where it is not positive). Where that sum would
// take more than four million steps of the node sizes' greatest common
// divisor to find, `budget` rounded down to a multiple of that divisor
// (every sum is one). Milliseconds: resnet50 at its plain-pass peak, 4 ms.
std::int64_t effectiveRamBudget(const Graph& g, std::int64_t budget);

}  // namespace poet
