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
        // As the Cells tab says it: freeing the input batch saved no RAM that
        // a budget asked for ("freed at stage 0 to stay under 3.30 kB", where
        // stage 0 was under it), and making it again costs nothing.
        if (g.node(i).costsNothing()) {
            c += "recompute " + g.label(i) + " at no cost: producing it takes no time and no energy.";
            break;
        }
        c += "recompute " + g.label(i);
        if (!g.predecessors(i).empty()) c += " from " + g.inputLabels(i);
        const int freed = lastFreedBefore(s, i, t);
        if (freed >= 0)
            c += ", since it was freed at stage " + std::to_string(freed) + " to stay under " + budgetText + ".";
        else
            c += ", since it is not in RAM any more.";
        break;
    }
    // A page's effect on RAM comes at a later stage, not at the op the
    // timeline's cursor is on: said in bytes and stages, not as "RAM in use"
    // (the same figure as the step before, as if nothing happened).
    case StepKind::PageOut: {
        const std::string size = formatBytes(g.node(i).memory_bytes);
        c += "page out " + g.label(i) + " (" + size + ") to flash";
        const int next = nextUseFrom(g, s, i, t + 1);
        if (next >= 0) c += "; it is needed again at stage " + std::to_string(next);
        int freed = t + 1;  // the first stage that does not hold it in RAM
        while (freed < s.size() && s.S_RAM(freed, i)) ++freed;
        c += ", so its " + size + " of RAM can be freed to stay under " + budgetText;
        c += freed < s.size() ? ": free from stage " + std::to_string(freed) + " on." : ".";
        return c;
    }
    case StepKind::PageIn:
        c += "page in " + g.label(i) + " (" + formatBytes(g.node(i).memory_bytes) +
             ") from flash: it takes that RAM again, usable from stage " + std::to_string(t + 1) + ".";
        return c;
    }
    if (t < static_cast<int>(report.ram_trace.size()) && st.op < static_cast<int>(report.ram_trace[t].size())) {
        c += " RAM in use: " + formatBytes(report.ram_trace[t][st.op]);
        if (budget > 0) c += " of " + budgetText;
        c += ".";
    }
    return c;
}

}  // namespace poet::ui
