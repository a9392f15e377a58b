#pragma once
// What a schedule does with node i at stage t, as one category per cell of the
// layer-by-timestep heatmap, and the plain words for it. Qt-free: the heatmap,
// its item model, the teaching captions and the tests share this one truth.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "graph.h"
#include "schedule.h"

namespace poet::ui {

// In the order of the legend. Priority when several apply to a cell:
// computed > paged in > paged out > in RAM and on flash > in RAM > on flash.
enum class CellCategory : std::uint8_t {
    ComputedFirst,   // R[t,i] and i was never computed before t
    Recomputed,      // R[t,i] and i was computed at an earlier stage
    InRam,           // S_RAM[t,i] only
    OnFlash,         // S_SD[t,i] only
    InRamAndFlash,   // S_RAM[t,i] and S_SD[t,i]
    PagedOut,        // M_out[t,i]: written to flash during t
    PagedIn,         // M_in[t,i]: read back during t, usable from t+1
    Absent,          // nothing
};
constexpr int kCellCategoryCount = 8;

const char* categoryName(CellCategory c);         // "computed", "recomputed", ... (legend text)
const char* categoryKey(CellCategory c);          // "computed_first", ... (stable, for exports/tests)
const char* categoryExplanation(CellCategory c);  // one sentence for the legend's tooltip

// Rows are nodes, columns are stages: at(i, t).
// Each category's count is kept as cells are set: the heatmap's legend asks
// for all of them at every paint, and a scan of every cell per category cost
// a 771-node graph's repaints ~0.35 s of CPU while its solve ran.
class CategoryGrid {
public:
    CategoryGrid() = default;
    explicit CategoryGrid(int n) : n_(n), cells_(static_cast<std::size_t>(n) * n, CellCategory::Absent) {
        counts_[index(CellCategory::Absent)] = static_cast<int>(cells_.size());
    }
    int size() const { return n_; }
    CellCategory at(int node, int stage) const { return cells_[static_cast<std::size_t>(node) * n_ + stage]; }
    void set(int node, int stage, CellCategory c) {
        CellCategory& cell = cells_[static_cast<std::size_t>(node) * n_ + stage];
        --counts_[index(cell)];
        ++counts_[index(c)];
        cell = c;
    }
    int count(CellCategory c) const { return counts_[index(c)]; }

private:
    static std::size_t index(CellCategory c) { return static_cast<std::size_t>(c); }
    int n_ = 0;
    std::vector<CellCategory> cells_;
    std::array<int, kCellCategoryCount> counts_{};
};

CellCategory classifyCell(const Schedule& s, int stage, int node);
CategoryGrid classifySchedule(const Schedule& s);

// Where a cell's words are read: the heatmap frames the loss's stage with
// dashed lines, the Cells table has none to point at.
enum class CellView { Heatmap, Table };

// Plain words for one cell, e.g. "Stage 57, relu3 (forward, 64.0 kB): recomputed.
// Its output was freed at stage 12 and is needed again." Graph and schedule
// must have the same size.
std::string describeCell(const Graph& g, const Schedule& s, int stage, int node, CellView view);

// Last stage before `stage` during which node's output left RAM (it was in RAM
// or computed at s and not in RAM at s+1); -1 if none.
int lastFreedBefore(const Schedule& s, int node, int stage);
// Next stage >= from at which `node` is computed or read by a computed node; -1 if none.
int nextUseFrom(const Graph& g, const Schedule& s, int node, int from);

std::string kindName(NodeKind k);  // "forward", "loss", "backward"

}  // namespace poet::ui
