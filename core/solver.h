#pragma once
// Solves a POET problem with COIN-OR CBC in-process. Reports each improving
// schedule through a callback and can be cancelled from any thread; a
// cancelled or time-limited solve keeps the best schedule found.
#include <atomic>
#include <functional>
#include <vector>

#include "formulation.h"
#include "problem.h"
#include "proven_bound.h"
#include "solve_result.h"

namespace poet {

struct SolverOptions {
    double time_limit_s = 60;   // wall clock
    // Cores to use. With 2 or more, the paging plan (a heuristic where
    // recomputation is possible) runs on a thread of its own beside the
    // bounds, the local search and the LP, and CBC's final search gets this
    // many threads. resnet18_cifar at 12 to 20% and 1.5x, 30 s: the same
    // schedules 1.8 to 7.5 times sooner (bench_solve --threads, best_s).
    // Graphs of up to kOneCoreMostNodes nodes are solved on one core
    // whatever this says (solve(), solver.cpp, says why).
    int threads = 1;
    double relative_gap = 1e-4; // stop when (incumbent - bound) / incumbent <= this
    bool log = false;           // CBC's log to stderr
    FormulationVariant variant = FormulationVariant::Tight;
    bool use_heuristics = true; // start from a fast valid schedule (heuristic_schedule.h)
    // Schedules to start from as well (a neighbouring budget's answer, a
    // cached one): each is replayed under this problem's limits and the best
    // valid one competes with the fast schedule as the warm start. A schedule
    // valid at budget B is valid at every larger B.
    std::vector<Schedule> hints;
    // Lower bounds earlier solves proved (a sweep's looser points, the
    // explorer's recent solves): the highest that holds for the problem
    // (proven_bound.h) is the solve's first known bound.
    std::vector<ProvenBound> proven_bounds;
};

// The largest graph solved on one core: the bundled linear (27 nodes) and
// transformer (19) are, vgg16_cifar (81) is not.
constexpr int kOneCoreMostNodes = 64;

// What the command line and the explorer use: 2 where the machine has two
// cores (CBC's own threads beyond that measured no gain).
int defaultSolverThreads();

// Called (from a solver thread) with each new, replay-checked incumbent.
using IncumbentCallback = std::function<void(const SolveResult& incumbent)>;

SolveResult solve(const Problem& problem, const SolverOptions& options,
                  const IncumbentCallback& onIncumbent = {},
                  const std::atomic<bool>* cancel = nullptr);

}  // namespace poet
