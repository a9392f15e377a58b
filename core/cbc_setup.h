#pragma once
// Loading a MILP in triplet form into Clp and setting CBC up the same way for
// every MILP the solver runs (formulation.h, paging_plan.h, stage_bound.h).
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CglCutGenerator.hpp>
#include <ClpEventHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include "deadline.h"
#include "solver.h"

namespace poet {

// Adds `generator` to `model` (CbcModel::addCutGenerator); with `cancel`,
// a cancel in the root ends the search before it (see there).
void addCutGenerator(CbcModel& model, CglCutGenerator& generator, int how_often, const char* name,
                     const std::atomic<bool>* cancel);

// The cbc binary's usual cuts and heuristics: a bare CbcModel has none.
// With `cancel`, a cancel in the root ends the search before the next cut
// generator.
void addCutsAndHeuristics(CbcModel& model, const std::atomic<bool>* cancel);

// Limits, tolerances and threads; model units are `scale` per joule, and
// the objective leaves out the constant `offset_j`. `cancel` (may be null)
// as for addCutsAndHeuristics.
void configureCbc(CbcModel& model, const SolverOptions& options, double offset_j, double scale, double seconds_left,
                  const std::atomic<bool>* cancel);

// CBC's search under a fault guard (fault_guard.h). False where CBC
// faulted: the model is then released and leaked, as its state is not
// safe to free, and the search proved and found nothing.
bool guardedBranchAndBound(std::unique_ptr<CbcModel>& model);

// The constraint matrix of a MILP in triplet form (columns(), rows(),
// triplet_*), column-ordered.
template <class Milp>
CoinPackedMatrix tripletMatrix(const Milp& milp)
{
    CoinPackedMatrix matrix(false, milp.triplet_row.data(), milp.triplet_col.data(), milp.triplet_value.data(),
                            static_cast<CoinBigIndex>(milp.triplet_value.size()));
    matrix.setDimensions(milp.rows(), milp.columns());
    return matrix;
}

// Loads a MILP in triplet form (tripletMatrix, objective, row bounds) into
// Clp, with its integer columns marked.
template <class Milp>
void loadMilp(OsiClpSolverInterface& lp, const Milp& milp, const double* col_lower, const double* col_upper,
              const std::vector<char>& is_integer)
{
    const CoinPackedMatrix matrix = tripletMatrix(milp);
    lp.loadProblem(matrix, col_lower, col_upper, milp.objective.data(), milp.row_lower.data(),
                   milp.row_upper.data());
    for (int c = 0; c < milp.columns(); ++c)
        if (is_integer[c]) lp.setInteger(c);
    lp.messageHandler()->setLogLevel(0);
}

// The same for a MILP whose columns are all binary (stage_bound.h, arrival_bound.h, bucket_bound.h).
template <class Milp>
void loadBinaryMilp(OsiClpSolverInterface& lp, const Milp& milp)
{
    const std::vector<double> lower(milp.columns(), 0.0), upper(milp.columns(), 1.0);
    loadMilp(lp, milp, lower.data(), upper.data(), std::vector<char>(milp.columns(), 1));
}

// Makes CBC end its search at its next look at its own clock, as on its
// time limit. In the root that look comes between cut generators, cut
// passes and heuristics, which raise no event that can stop it: a cancel
// 2.5 s into bert at 11% waited 4 to 8 s for the roots of the checkpoint
// bound and the paging plan (gdb: Gomory cuts, the feasibility pump).
// For cancels only: a root so cut short at a deadline would prove less
// than the one that ran its passes to their end.
inline void endAtCbcClock(CbcModel* model)
{
    if (model) model->setMaximumSeconds(0);
}

// Past its deadline in the root, a search with CBC threads still copies
// the model once per thread before its tree first looks at the clock (bert
// on m4 at 9%, 1.5x, without paging: ~88,000 columns, the copies and
// their cut generators' set-up took the solve from its 45 s limit to 46.5
// s). Called from the thread that runs branchAndBound (`search_thread`)
// while that has not yet started its threads, this leaves the tree on one
// thread, where it stops at its first look. Elsewhere it does nothing: in
// the tree CBC's own threads call event handlers too.
inline void singleThreadedTreeFrom(CbcModel* model, std::thread::id search_thread)
{
    if (model && std::this_thread::get_id() == search_thread && !model->masterThread())
        model->setNumberThreads(0);
}

// Stops Clp's simplex while CBC is in a MILP's root (its LP, cut passes and
// heuristics, which raise no CBC event) at a deadline or on cancel: a
// bucket bound on the last 19 stages (resnet18_cifar on m4 at 17% and
// 1.5x) went on for 6 s after its cancel, on a core the solver had given
// to something else. In the tree (SearchStop marks it) the search stops at
// the next node. A root so stopped proves nothing, not even infeasibility
// (CBC may take a stopped LP for an infeasible one): `stopped` says so.
// With a `tree_deadline`, it stops the tree's LPs as well, at that time or
// on a cancel (strong branching and the LPs that check a solution raise no
// CBC event for seconds): the tree then proves nothing after it either.
// Given the search's `model`, a cancel in the root ends it too
// (endAtCbcClock): its cut generators and heuristics go on otherwise.
class RootLpStop : public ClpEventHandler {
public:
    // Shared by the handler's clones (CBC's solvers, cut generators and
    // heuristics each have one).
    struct State {
        Clock::time_point deadline;
        const std::atomic<bool>* cancel = nullptr;
        std::atomic<bool> in_tree{false}, stopped{false};
        std::optional<Clock::time_point> tree_deadline = std::nullopt;
        CbcModel* model = nullptr;
    };
    explicit RootLpStop(State* state) : state_(state) {}
    ClpEventHandler* clone() const override { return new RootLpStop(*this); }
    int event(Event which) override
    {
        if (which != endOfIteration || (state_->in_tree && !state_->tree_deadline)) return -1;
        const auto deadline = state_->in_tree ? *state_->tree_deadline : state_->deadline;
        const bool cancelled = state_->cancel && state_->cancel->load();
        if (Clock::now() <= deadline && !cancelled) return -1;
        state_->stopped = true;
        // The root runs on one thread; the tree's LPs may not be on the model's.
        if (cancelled && !state_->in_tree) endAtCbcClock(state_->model);
        return 0;  // status "stopped by event"
    }

private:
    State* state_;
};

// Stops a small exact MILP's search (stage_bound.h, arrival_bound.h) at a
// deadline or on cancel (`cut_short` then says so), and, where `enough_at`
// is given, once it finds a solution no dearer than that (model units;
// `reached` then says so). With `root`, it marks the tree's start there
// (the first event of the tree: RootLpStop stops no LP from then on).
class SearchStop : public CbcEventHandler {
public:
    SearchStop(Clock::time_point deadline, const std::atomic<bool>* cancel,
               double enough_at = -INFINITY, RootLpStop::State* root = nullptr)
        : deadline_(deadline), cancel_(cancel), enough_at_(enough_at), root_(root)
    {
    }
    CbcEventHandler* clone() const override { return new SearchStop(*this); }
    CbcAction event(CbcEvent which) override
    {
        if (root_ && (which == node || which == treeStatus)) root_->in_tree = true;
        const bool cancelled = cancel_ && cancel_->load();
        if (Clock::now() > deadline_ || cancelled) {
            cut_short = true;
            if (cancelled) endAtCbcClock(model_);
            return stop;
        }
        if ((which == solution || which == heuristicSolution) && model_ && model_->getObjValue() <= enough_at_) {
            reached = true;
            return stop;
        }
        return noAction;
    }
    bool reached = false;
    bool cut_short = false;  // stopped by the deadline or a cancel

private:
    Clock::time_point deadline_;
    const std::atomic<bool>* cancel_;
    double enough_at_;
    RootLpStop::State* root_;
};

// The lower bound a search of `model` proved (model units): its optimum less
// CBC's tolerance where it finished, else its tree's bound (or its root LP
// with the cuts so far), and at least `root_lp` (its LP relaxation's value).
// A search stopped in its root (by its own clock, or by an event handler:
// `cut_short`) may report its incumbent as its bound: that is no bound.
double provenLowerBound(const CbcModel& model, double root_lp, bool cut_short);

// A MILP of binary columns built column by column and row by row, in the
// triplet form loadBinaryMilp takes (stage_bound.h, arrival_bound.h).
class BinaryMilpBuilder {
public:
    int columns() const { return static_cast<int>(objective.size()); }
    int rows() const { return static_cast<int>(row_lower.size()); }
    std::vector<double> objective, row_lower, row_upper;
    std::vector<int> triplet_row, triplet_col;
    std::vector<double> triplet_value;
    // Frees what the vectors grew beyond their size: for MILPs kept by the
    // thousand (arrival_bound.cpp's windows).
    void shrinkToFit()
    {
        for (auto* v : {&objective, &row_lower, &row_upper, &triplet_value}) v->shrink_to_fit();
        for (auto* v : {&triplet_row, &triplet_col}) v->shrink_to_fit();
    }

protected:
    int addColumn(double cost)
    {
        objective.push_back(cost);
        return columns() - 1;
    }
    int addRow(double lo, double up)
    {
        row_lower.push_back(lo);
        row_upper.push_back(up);
        return rows() - 1;
    }
    void term(int row, int col, double a)  // a column of -1 (absent) is skipped
    {
        if (col < 0) return;
        triplet_row.push_back(row);
        triplet_col.push_back(col);
        triplet_value.push_back(a);
    }
};

}  // namespace poet
