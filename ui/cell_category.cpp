#include "cell_category.h"

#include "units.h"

namespace poet::ui {

const char* categoryName(CellCategory c) {
    switch (c) {
    case CellCategory::ComputedFirst: return "computed";
    case CellCategory::Recomputed: return "recomputed";
    case CellCategory::InRam: return "in RAM";
    case CellCategory::OnFlash: return "on flash only";
    case CellCategory::InRamAndFlash: return "in RAM and on flash";
    case CellCategory::PagedOut: return "paged out";
    case CellCategory::PagedIn: return "paged in";
    case CellCategory::Absent: return "absent";
    }
    return "?";
}

const char* categoryKey(CellCategory c) {
    switch (c) {
    case CellCategory::ComputedFirst: return "computed_first";
    case CellCategory::Recomputed: return "recomputed";
    case CellCategory::InRam: return "in_ram";
    case CellCategory::OnFlash: return "on_flash";
    case CellCategory::InRamAndFlash: return "in_ram_and_flash";
    case CellCategory::PagedOut: return "paged_out";
    case CellCategory::PagedIn: return "paged_in";
    case CellCategory::Absent: return "absent";
    }
    return "?";
}

const char* categoryExplanation(CellCategory c) {
    switch (c) {
    case CellCategory::ComputedFirst: return "The layer is computed for the first time in this stage.";
    case CellCategory::Recomputed:
        return "The layer is computed again in this stage: its output was freed earlier to save RAM "
               "(rematerialization).";
    case CellCategory::InRam: return "The layer's output is kept in RAM at the start of this stage.";
    case CellCategory::OnFlash:
        return "The layer's output is only on flash (secondary storage) at the start of this stage, not in RAM.";
    case CellCategory::InRamAndFlash: return "The layer's output is in RAM and also has a copy on flash.";
    case CellCategory::PagedOut: return "The layer's output is written from RAM to flash during this stage.";
    case CellCategory::PagedIn:
        return "The layer's output is read back from flash during this stage; it is usable from the next stage.";
    case CellCategory::Absent: return "The layer's output is neither in RAM nor on flash.";
    }
    return "";
}

std::string kindName(NodeKind k) {
    switch (k) {
    case NodeKind::Forward: return "forward";
    case NodeKind::Loss: return "loss";
    case NodeKind::Backward: return "backward";
    }
    return "?";
}

CellCategory classifyCell(const Schedule& s, int t, int i) {
    if (s.R(t, i)) {
        for (int u = 0; u < t; ++u)
            if (s.R(u, i)) return CellCategory::Recomputed;
        return CellCategory::ComputedFirst;
    }
    if (s.M_in(t, i)) return CellCategory::PagedIn;
    if (s.M_out(t, i)) return CellCategory::PagedOut;
    const bool ram = s.S_RAM(t, i), sd = s.S_SD(t, i);
    if (ram && sd) return CellCategory::InRamAndFlash;
    if (ram) return CellCategory::InRam;
    if (sd) return CellCategory::OnFlash;
    return CellCategory::Absent;
}

CategoryGrid classifySchedule(const Schedule& s) {
    const int n = s.size();
    CategoryGrid grid(n);
    for (int i = 0; i < n; ++i) {
        bool computed = false;
        for (int t = 0; t < n; ++t) {
            CellCategory c;
            if (s.R(t, i)) {
                c = computed ? CellCategory::Recomputed : CellCategory::ComputedFirst;
                computed = true;
            } else {
                c = classifyCell(s, t, i);
            }
            grid.set(i, t, c);
        }
    }
    return grid;
}

int lastFreedBefore(const Schedule& s, int node, int stage) {
    for (int t = stage - 1; t >= 0; --t) {
        const bool held = s.S_RAM(t, node) || s.R(t, node) || (t > 0 && s.M_in(t - 1, node));
        const bool kept = t + 1 < s.size() && s.S_RAM(t + 1, node);
        if (held && !kept) return t;
    }
    return -1;
}

int nextUseFrom(const Graph& g, const Schedule& s, int node, int from) {
    for (int t = from; t < s.size(); ++t) {
        if (s.R(t, node)) return t;
        for (int v : g.successors(node))
            if (s.R(t, v)) return t;
    }
    return -1;
}

std::string describeCell(const Graph& g, const Schedule& s, int t, int i, CellView view) {
    const auto& n = g.node(i);
    std::string head = "Stage " + std::to_string(t) + ", " + g.label(i) + " (" + kindName(n.kind) + ", " +
                       formatBytes(n.memory_bytes) + "): ";
    const CellCategory c = classifyCell(s, t, i);
    std::string body;
    switch (c) {
    case CellCategory::ComputedFirst:
        body = "computed for the first time";
        if (!g.predecessors(i).empty()) body += ", reading " + g.inputLabels(i);
        body += ".";
        break;
    case CellCategory::Recomputed: {
        // A node that costs nothing (the input batch) is remade at will: its
        // leaving RAM saved none, so no reason is given (the replay counts
        // these as free recomputations).
        if (n.costsNothing()) {
            body = "recomputed at no cost: producing it takes no time and no energy.";
            break;
        }
        body = "recomputed";
        if (!g.predecessors(i).empty()) body += " from " + g.inputLabels(i);
        const int freed = lastFreedBefore(s, i, t);
        if (freed >= 0)
            body += ". Its output was freed at stage " + std::to_string(freed) + " to save RAM and is needed again.";
        else
            body += ".";
        break;
    }
    case CellCategory::InRam: body = "kept in RAM from the previous stage."; break;
    case CellCategory::OnFlash: {
        body = "on flash only; it does not use RAM now.";
        break;
    }
    case CellCategory::InRamAndFlash: body = "in RAM, with a copy on flash."; break;
    case CellCategory::PagedOut: body = "written out to flash during this stage, so its RAM can be freed."; break;
    case CellCategory::PagedIn:
        body = "read back from flash during this stage; usable from stage " + std::to_string(t + 1) + ".";
        break;
    case CellCategory::Absent:
        body = i > t ? "not computed yet." : "neither in RAM nor on flash.";
        break;
    }
    if (c != CellCategory::PagedIn && c != CellCategory::PagedOut) {
        if (s.M_in(t, i)) body += " Also paged in during this stage.";
        if (s.M_out(t, i)) body += " Also paged out during this stage.";
    }
    // The heatmap's dashed lines frame this stage; nothing else said why.
    if (g.node(t).kind == NodeKind::Loss)
        body += " Stage " + std::to_string(t) + " computes the loss" +
                (view == CellView::Heatmap ? " (between the dashed lines)" : "") +
                ": the forward pass runs before it, the backward pass after.";
    return head + body;
}

}  // namespace poet::ui
