#pragma once
// Teaching mode, the Qt-free part: a schedule as a list of steps (every
// computation in stage order, then the stage's page-outs and page-ins) and a
// caption in plain words for each step.
#include <cstdint>
#include <string>
#include <vector>

#include "graph.h"
#include "replay.h"
#include "schedule.h"

namespace poet::ui {

enum class StepKind { Compute, Recompute, PageOut, PageIn };

struct TeachingStep {
    int stage = 0;
    int node = 0;
    StepKind kind = StepKind::Compute;
    int op = 0;  // index into ram_trace[stage] this step shows (the node for computations, the stage's last op for paging)
};

std::vector<TeachingStep> teachingSteps(const Graph& g, const Schedule& s);

// e.g. "Stage 57: recompute relu3 from conv3, since it was freed at stage 12 to
// stay under 3.00 MB." `report` may have an empty ram_trace.
std::string teachingCaption(const Graph& g, const Schedule& s, const TeachingStep& step,
                            std::int64_t ram_budget_bytes, const ReplayReport& report);

}  // namespace poet::ui
