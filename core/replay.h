#pragma once
// The independent check: walks a schedule stage by stage, runs the computed
// nodes, frees what is no longer needed, pages in and out, and measures
// energy, runtime and RAM. It shares no code with the formulation.
//
// Memory accounting (Checkmate's, which the formulation encodes): at stage t
// RAM holds every value resident at the start of the stage; computing node k
// allocates its output while its inputs are still held; right after k runs,
// each input i of k is released when no later node of stage t reads it and it
// is not kept for stage t+1. A value paged in during stage t occupies RAM from
// stage t+1 on.
#include <cstdint>
#include <string>
#include <vector>

#include "graph.h"
#include "schedule.h"

namespace poet {

struct ReplayLimits {
    std::int64_t ram_budget_bytes = -1;  // < 0: not checked
    double runtime_budget_s = -1;        // < 0: not checked
    bool paging = true;                  // false: any paging is an error
    bool remat = true;                   // false: any recomputation is an error
};

// The most compute time the replay accepts under `limits`: the runtime
// budget with a relative tolerance, as the budget is a product of
// floating-point figures. (Meaningless where the runtime is not checked.)
inline double acceptedRuntimeS(const ReplayLimits& limits) { return limits.runtime_budget_s * (1 + 1e-9); }

struct ReplayReport {
    bool valid = false;
    // Empty when valid. Each names its stage and node, except a fault of the
    // whole schedule (its runtime), listed first; a run of stages over the
    // RAM budget is one error, naming its worst op. At most 50 are listed:
    // errors_not_listed counts the rest.
    std::vector<std::string> errors;
    int errors_not_listed = 0;

    double compute_energy_j = 0;
    double paging_energy_j = 0;
    double total_energy_j = 0;
    double runtime_s = 0;               // compute time
    std::int64_t peak_ram_bytes = 0;
    int peak_stage = -1;                // where the peak happens
    int peak_node = -1;
    int recomputations = 0;             // computations beyond the first of each node
    // Of those, the ones of a node that costs neither time nor energy (the
    // input, read again): a runtime factor of 1.0 allows them.
    int free_recomputations = 0;
    int page_ins = 0;
    int page_outs = 0;

    // The most RAM in use at any op of each stage (empty where the schedule
    // has the wrong size).
    std::vector<std::int64_t> stage_peak_bytes;
    // RAM in use after each op: ram_trace[t][k] for k = 0..t (formulation's
    // U[t,k]); empty where the replay was asked for StagePeaks.
    std::vector<std::vector<std::int64_t>> ram_trace;
};

// What a replay records of the RAM beside its peaks: every op (the memory
// timeline, the paging plan, the teaching captions), or each stage's peak
// alone, for the schedule searches that replay each step (relieveToFit):
// writing the n(n+1)/2 figures of the trace and reading them back for the
// peaks was a fifth of the relief of a 771-node graph.
enum class ReplayDetail { EveryOp, StagePeaks };

ReplayReport replaySchedule(const Graph& g, const Schedule& s, const ReplayLimits& limits = {},
                            ReplayDetail detail = ReplayDetail::EveryOp);

// The limits a problem sets: its RAM budget, runtime budget and switches.
struct Problem;
ReplayLimits limitsOf(const Problem& problem);

}  // namespace poet
