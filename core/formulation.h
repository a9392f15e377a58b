#pragma once
// POET's MILP (formulation.md) as column/row arrays, built directly for the
// Osi/CBC API: only the variables that can be non-zero exist.
//
// Two variants with the same optimum:
//  - Reference: formulation.md as written (binary FREE with the aggregated
//    κ-linearization).
//  - Tight (default): FREE is continuous with one upper bound per hazard
//    (FREE ≤ R[t,k], FREE ≤ 1 − S_RAM[t+1,i], FREE ≤ 1 − R[t,j]). FREE only
//    ever releases memory, so an optimum exists with FREE at its largest
//    allowed value, which is the reference's binary value; the disaggregated
//    bounds make the LP relaxation tighter. Also: no R variables for nodes
//    slower than the spare runtime, and a page-in during t must serve a read
//    in stage t+1 (some optimum pages in just in time; without this the
//    relaxation pages a sliver in at every stage and hardly pays page-outs),
//    and knapsack cover cuts on the RAM held while each node runs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "problem.h"
#include "schedule.h"

namespace poet {

enum class FormulationVariant { Reference, Tight };

// Whether the Tight form lets node i be recomputed: rematerialization is on
// and its compute time fits in the spare runtime (the Reference form lets
// every node be, and the runtime row decides).
bool recomputableInTightForm(const Problem& problem, int i);

// Whether the runtime budget is below one plain pass (factor under 1.0):
// every node runs at least once, so no schedule fits.
bool runtimeBelowOnePass(const Problem& problem);

// Model units per joule for every MILP here: one plain pass (`plain_pass_j`)
// is ~1e6 units, so CBC's absolute tolerances (cutoff increment 1e-5) sit far
// below any real energy difference.
inline double modelUnitsPerJoule(double plain_pass_j) { return plain_pass_j > 0 ? 1e6 / plain_pass_j : 1.0; }

class Formulation {
public:
    // `stop`, where given, is asked between stages and ends the build once
    // it says so: a 771-node graph's takes 2 s (2.3M columns), and a solve
    // waited for it past its time limit. The formulation is then incomplete
    // (stopped()) and must not be used.
    Formulation(const Problem& problem, FormulationVariant variant = FormulationVariant::Tight,
                std::function<bool()> stop = {});
    bool stopped() const { return stopped_; }

    int columns() const { return static_cast<int>(col_lower.size()); }
    int rows() const { return static_cast<int>(row_lower.size()); }
    int integerColumns() const;

    // Column data.
    std::vector<double> col_lower, col_upper, objective;
    std::vector<char> is_integer;
    // Row data in triplet form.
    std::vector<double> row_lower, row_upper;
    std::vector<int> triplet_row, triplet_col;
    std::vector<double> triplet_value;

    double objectiveScale() const { return scale_; }       // model objective = scale * joules
    double objectiveOffsetJ() const { return offset_j_; }  // constant Σ Φc (each node once)
    // Energy in joules of a column solution.
    double energyJ(const double* x) const;

    // Decodes a column solution (rounded) into a schedule.
    Schedule decode(const double* x) const;
    // Encodes a schedule into a full column solution (FREE and U derived),
    // for warm starts. The vector is feasible iff the schedule is valid.
    std::vector<double> encode(const Schedule& s) const;

    // The row that holds the recomputations' time within the spare runtime
    // (seconds on both sides), or -1 where nothing can be recomputed.
    int runtimeRow() const { return runtime_row_; }

    // The value of one schedule variable in a column solution (an LP
    // relaxation's included): 0 for variables that do not exist, 1 for R[t,t].
    enum class Var { R, S_RAM, S_SD, M_in, M_out };
    double value(Var which, const double* x, int t, int i) const;
    // The column of one schedule variable: kNone where it does not exist,
    // kOne for R[t,t] (fixed 1).
    static constexpr int kNone = -1;
    static constexpr int kOne = -2;
    int column(Var which, int t, int i) const;
    // The stage each column belongs to (FREE[t,·] and U[t,·] included): what
    // window_search.h frees, stage by stage.
    int stageOf(int column) const { return column_stage_[column]; }
    // A name per column for files another solver reads (milp_export.h):
    // R_t_i, SRAM_t_i, SSD_t_i, MIN_t_i, MOUT_t_i, FREE_t_i_k (i released
    // after k runs in stage t), U_t_k (RAM in use after k runs in stage t).
    std::vector<std::string> columnNames() const;

private:
    int addColumn(double lo, double up, double obj, bool integer);
    int addRow(double lo, double up);
    void coef(int row, int col, double value);

    int r(int t, int i) const;
    int sram(int t, int i) const;
    int ssd(int t, int i) const;
    int min(int t, int i) const;
    int mout(int t, int i) const;

    void build();
    void buildMemory();
    void addRamCoverCuts(int t);

    const Problem& p_;
    FormulationVariant variant_;
    int n_;
    double scale_ = 1;
    double offset_j_ = 0;
    std::function<bool()> stop_;  // asked between stages while building
    bool stopped_ = false;
    bool endedByStop();  // sets stopped_ where stop_ says so
    int runtime_row_ = -1;
    std::vector<int> r_, sram_, ssd_, min_, mout_;  // n*n index maps
    std::vector<int> free_;                          // t * E + e
    std::vector<int> u_;                             // t * n + k
    std::vector<int> column_stage_;                  // per column
    int building_stage_ = 0;                         // the stage addColumn tags its columns with
};

}  // namespace poet
