#pragma once
// Baselines POET is compared against. Each turns a graph (and budgets) into a
// stage schedule of the same form the solver produces, so the same replay
// checks and measures it. None of them pages; all rematerialize.
//
// Stage semantics: at stage t node t is computed (frontier); a baseline only
// chooses which earlier nodes are recomputed at which stage (the R matrix).
// What stays in RAM follows from R (`scheduleFromRecompute`): a value is
// carried from its latest computation to every stage that reads it and does
// not compute it, and nowhere else.
//
// Functions taking ReplayLimits return std::nullopt when the baseline cannot
// produce a schedule that the replay accepts under those limits (RAM budget
// and, when set, runtime budget).
#include <cstdint>
#include <optional>
#include <vector>

#include "graph.h"
#include "replay.h"
#include "schedule.h"

namespace poet {

// The minimal-RAM schedule for a given choice of computations: R must have
// R[t][t] = 1; S_RAM is the least that makes every read valid; no paging.
// Throws std::invalid_argument when a node is read before it was ever computed.
Schedule scheduleFromRecompute(const Graph& g, const BoolMatrix& R);

// ---- plain pass -----------------------------------------------------------
std::optional<Schedule> plainBaseline(const Graph& g, const ReplayLimits& limits);

// ---- Chen et al. 2016, "Training deep nets with sublinear memory cost" -----
// Checkpoints are kept in RAM from their computation to their last use; every
// other forward value before the last checkpoint is dropped after the forward
// pass and its whole segment (the nodes between two checkpoints) is recomputed
// from the checkpoint before it at the first backward stage that reads one of
// them. Values after the last checkpoint are kept.
// `checkpoints` must be among checkpointCandidates(g).
Schedule chenSchedule(const Graph& g, const std::vector<int>& checkpoints);

// Chen's sqrt(n) rule: among the candidates, a checkpoint every
// ceil(sqrt(n)) forward nodes (n = number of forward nodes).
std::vector<int> chenSqrtNCheckpoints(const Graph& g);
std::optional<Schedule> chenSqrtN(const Graph& g, const ReplayLimits& limits);

// Chen's greedy rule (their Algorithm 2 with a segment budget b): walk the
// forward pass summing output bytes; at a candidate where the sum exceeds b,
// checkpoint it and restart the sum. Searches b and keeps the least-energy
// schedule the replay accepts under `limits`.
std::vector<int> chenGreedyCheckpoints(const Graph& g, std::int64_t segment_budget_bytes);
std::optional<Schedule> chenGreedy(const Graph& g, const ReplayLimits& limits);

// ---- Griewank & Walther, revolve (binomial checkpointing) ---------------------
// Over the chain of states x_0..x_m: the input and the checkpoint candidates
// before the loss (revolveStates; on a forward chain, every node before the
// loss), as Chen's rules cut a network into segments. Step i recomputes
// segment i (the nodes after x_{i-1} up to x_i) at the first backward stage
// that needs x_i; reversing step k+1 recomputes segment k+1's inside, each
// node no sooner than its first backward read needs it. `checkpoints` counts
// the slots including the one holding x_0 (Griewank's s >= 1). std::nullopt
// when there is no chain to reverse: no checkpoint candidate, or a backward
// that does not need the states in reverse order.
std::optional<Schedule> revolveSchedule(const Graph& g, int checkpoints);
std::vector<int> revolveStates(const Graph& g);
// Tries every number of checkpoints; keeps the least energy the replay accepts.
std::optional<Schedule> revolve(const Graph& g, const ReplayLimits& limits);

// Minimal number of forward steps to reverse `steps` steps with `checkpoints`
// checkpoints (x_0's included), by the program's dynamic programme.
// Griewank's t(l, s): the first sweep is included, the steps done inside the
// adjoint steps are not.
long long revolveForwardSteps(int steps, int checkpoints);
// The same from Griewank's closed form r*l - C(s+r, s+1)... (for tests).
long long revolveForwardStepsClosedForm(int steps, int checkpoints);

// ---- DTR-style online eviction (Kirisame et al. 2021) --------------------------
// Simulates the stages in order; when the RAM budget would be exceeded,
// evicts the carried value with the least cost / (bytes * staleness), where
// cost is the energy of recomputing it (and its evicted inputs); evicted
// values are recomputed on demand. std::nullopt when it cannot fit.
std::optional<Schedule> dtr(const Graph& g, const ReplayLimits& limits);

// Peak RAM of one stage under the formulation's accounting (Checkmate's):
// `resident` = S_RAM[t], `computed` = R[t], `kept` = S_RAM[t+1] (ignored when
// `last_stage`). Exposed for tests.
std::int64_t stagePeakBytes(const Graph& g, int t, const std::vector<char>& resident,
                            const std::vector<char>& computed, const std::vector<char>& kept,
                            bool last_stage);

}  // namespace poet
