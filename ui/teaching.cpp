#include "teaching.h"

#include "cell_category.h"
#include "units.h"

namespace poet::ui {

std::vector<TeachingStep> teachingSteps(const Graph& g, const Schedule& s) {
    std::vector<TeachingStep> out;
    const int n = std::min(g.size(), s.size());
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (int t = 0; t < n; ++t) {
        for (int k = 0; k <= t; ++k) {
            if (!s.R(t, k)) continue;
            out.push_back({t, k, seen[k] ? StepKind::Recompute : StepKind::Compute, k});
            seen[k] = true;
        }
        for (int i = 0; i < n; ++i)
            if (s.M_out(t, i)) out.push_back({t, i, StepKind::PageOut, t});
        for (int i = 0; i < n; ++i)
            if (s.M_in(t, i)) out.push_back({t, i, StepKind::PageIn, t});
    }
    return out;
}

std::string teachingCaption(const Graph& g, const Schedule& s, const TeachingStep& st, std::int64_t budget,
                            const ReplayReport& report) {
    const int t = st.stage, i = st.node;
    std::string c = "Stage " + std::to_string(t) + ": ";
    const std::string budgetText = budget > 0 ? formatBytes(budget) : std::string("the budget");
    switch (st.kind) {
    case StepKind::Compute:
        c += "compute " + g.label(i);
        if (!g.predecessors(i).empty()) c += " from " + g.inputLabels(i);
        c += " for the first time";
        if (g.node(i).kind == NodeKind::Loss) c += " (the loss)";
        c += ".";
        break;
    case StepKind::Recompute: {
        c += "recompute " + g.label(i);
        if (!g.predecessors(i).empty()) c += " from " + g.inputLabels(i);
        const int freed = lastFreedBefore(s, i, t);
        if (freed >= 0)
            c += ", since it was freed at stage " + std::to_string(freed) + " to stay under " + budgetText + ".";
        else
            c += ", since it is not in RAM any more.";
        break;
    }
    case StepKind::PageOut: {
        c += "page out " + g.label(i) + " (" + formatBytes(g.node(i).memory_bytes) + ") to flash";
        const int next = nextUseFrom(g, s, i, t + 1);
        if (next >= 0) c += "; it is needed again at stage " + std::to_string(next);
        c += ", so its RAM can be freed to stay under " + budgetText + ".";
        break;
    }
    case StepKind::PageIn:
        c += "page in " + g.label(i) + " (" + formatBytes(g.node(i).memory_bytes) +
             ") from flash, usable from stage " + std::to_string(t + 1) + ".";
        break;
    }
    if (t < static_cast<int>(report.ram_trace.size()) && st.op < static_cast<int>(report.ram_trace[t].size())) {
        c += " RAM in use: " + formatBytes(report.ram_trace[t][st.op]);
        if (budget > 0) c += " of " + budgetText;
        c += ".";
    }
    return c;
}

}  // namespace poet::ui
