#include "cbc_setup.h"

#include <CbcHeuristic.hpp>
#include <CbcHeuristicDiveCoefficient.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicLocal.hpp>
#include <CbcHeuristicRINS.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CglTwomir.hpp>
#include <CglZeroHalf.hpp>
#include <CoinMessageHandler.hpp>

#include <algorithm>
#include <cmath>

#include "deadline.h"
#include "fault_guard.h"

namespace poet {

namespace {

// Not a cut generator: placed before each real one, it ends the root's cut
// pass on a cancel (endAtCbcClock), as CBC looks at its clock between
// generators. A cancel otherwise reached the root only at its next LP
// iteration, after the whole pass: the paging plan's root at bert on m4 at
// 11% and 1.5x spends ~1 s per pass in mixed-integer rounding alone and
// ~0.4 s in two-step MIR, and a solve cancelled 3 to 6 s in returned up to
// 2.6 s later.
class EndOnCancel : public CglCutGenerator {
public:
    EndOnCancel(const std::atomic<bool>* cancel, CbcModel* model) : cancel_(cancel), model_(model) {}
    CglCutGenerator* clone() const override { return new EndOnCancel(*this); }
    void generateCuts(const OsiSolverInterface&, OsiCuts&, const CglTreeInfo info = CglTreeInfo()) override
    {
        // In the tree, CBC's event handlers stop the search (and with two
        // threads these would not run on the model's thread).
        if (!info.inTree && cancel_->load()) endAtCbcClock(model_);
    }

private:
    const std::atomic<bool>* cancel_;
    CbcModel* model_;
};

}  // namespace

void addCutGenerator(CbcModel& model, CglCutGenerator& generator, int how_often, const char* name,
                     const std::atomic<bool>* cancel)
{
    // A cancelled search needs none, and some take long to build (the
    // paging plan's at bert on m4 at 10%: ~0.8 s for the usual set, most
    // of it the knapsack cover's cliques).
    if (isSet(cancel)) return;
    if (cancel) {
        EndOnCancel end(cancel, &model);
        // Named for `poet solve --log`, which lists every generator's cuts.
        model.addCutGenerator(&end, -99, "cancel check (makes no cuts)");
    }
    model.addCutGenerator(&generator, how_often, name);
}

void addCutsAndHeuristics(CbcModel& model, const std::atomic<bool>* cancel)
{
    const auto add = [&](CglCutGenerator& generator, int how_often, const char* name) {
        addCutGenerator(model, generator, how_often, name, cancel);
    };
    // A bare CbcModel has neither: these are the cbc binary's usual set.
    CglProbing probing;
    probing.setUsingObjective(1);
    probing.setMaxPass(1);
    probing.setMaxPassRoot(3);
    probing.setMaxProbe(10);
    probing.setMaxProbeRoot(50);
    probing.setMaxLook(10);
    probing.setMaxLookRoot(50);
    probing.setRowCuts(3);
    add(probing, -1, "Probing");
    CglGomory gomory;
    gomory.setLimit(300);
    add(gomory, -98, "Gomory");
    CglKnapsackCover knapsack;
    add(knapsack, -98, "KnapsackCover");
    CglClique clique;
    clique.setStarCliqueReport(false);
    clique.setRowCliqueReport(false);
    add(clique, -98, "Clique");
    CglMixedIntegerRounding2 mir;
    add(mir, -98, "MixedIntegerRounding2");
    CglFlowCover flow;
    add(flow, -98, "FlowCover");
    // Two more of the cbc binary's, at the root only. They make the bucket
    // bound's tail (resnet18_cifar on m4 at 16% and 1.5x, the last 18
    // stages and the stage-peak one) prove its cutoff in ~10 s, not 37 s
    // (root bound 0.5978 J to 0.6010 J). In the tree, CBC 2.10.8 failed an
    // assertion in CbcModel::addCuts in half of those solves.
    CglTwomir twomir;
    twomir.setMaxElements(250);
    add(twomir, -99, "TwoMirCuts");
    CglZeroHalf zerohalf;
    add(zerohalf, -99, "ZeroHalf");

    // Each copies the model's matrix on construction (~0.1 s each for the
    // paging plan at bert on m4 at 10%), so the cancel is looked at before each.
    if (isSet(cancel)) return;
    CbcRounding rounding(model);
    model.addHeuristic(&rounding);
    if (isSet(cancel)) return;
    CbcHeuristicFPump pump(model);
    pump.setMaximumPasses(20);
    model.addHeuristic(&pump);
    if (isSet(cancel)) return;
    CbcHeuristicLocal local(model);
    model.addHeuristic(&local);
    if (isSet(cancel)) return;
    CbcHeuristicRINS rins(model);
    model.addHeuristic(&rins);
    if (isSet(cancel)) return;
    CbcHeuristicDiveCoefficient dive(model);
    dive.setWhen(3);
    model.addHeuristic(&dive);
}

void configureCbc(CbcModel& model, const SolverOptions& options, double offset_j, double scale, double seconds_left,
                  const std::atomic<bool>* cancel)
{
    if (options.log) {
        // To stderr: CBC's own handler writes to stdout, into `poet solve
        // --json`'s document. One per thread (models run side by side, and a
        // handler keeps its message being built); CBC's workers clone it.
        thread_local CoinMessageHandler to_stderr(stderr);
        model.passInMessageHandler(&to_stderr);
    }
    model.setLogLevel(options.log ? 1 : 0);
    model.solver()->messageHandler()->setLogLevel(0);
    model.setUseElapsedTime(true);  // CBC counts CPU seconds otherwise
    model.setMaximumSeconds(std::max(0.01, seconds_left));
    // CBC's own fraction gap would be relative to the extra energy only. Our
    // gap is relative to the whole energy, which is at least offset_j (every
    // node runs once): an absolute gap of relative_gap · offset_j guarantees it.
    model.setAllowableFractionGap(0);
    model.setAllowableGap(options.relative_gap * offset_j * scale);
    model.setDblParam(CbcModel::CbcCutoffIncrement, 1e-6);
    if (options.threads > 1 && CbcModel::haveMultiThreadSupport()) model.setNumberThreads(options.threads);
    addCutsAndHeuristics(model, cancel);
}

bool guardedBranchAndBound(std::unique_ptr<CbcModel>& model)
{
    if (runFaultGuarded([&] { model->branchAndBound(); })) return true;
    (void)model.release();
    return false;
}

double provenLowerBound(const CbcModel& model, double root_lp, bool cut_short)
{
    const double cbc = model.getBestPossibleObjValue();
    if (model.isProvenOptimal()) {
        // Stopped on the gap asked for, CBC keeps its tree's bound; finished,
        // it reports its incumbent, proven only to within its allowable gap.
        const double within_gap = model.getObjValue() - model.getAllowableGap();
        return model.secondaryStatus() == 2 && cbc < 1e300 ? std::max(within_gap, cbc) : within_gap;
    }
    if (!(cbc < 1e300)) return root_lp;
    const bool root_done = model.getNodeCount() > 0 ||
                           (model.isNodeLimitReached() && !model.isSecondsLimitReached() && !cut_short);
    // Cut short in the root, CBC's bound is its LP with the cuts so far,
    // unless it reports its incumbent instead (no bound at all).
    const bool incumbent = model.bestSolution() && cbc >= model.getObjValue() - 1e-9 * std::max(1.0, std::abs(cbc));
    if (!root_done && incumbent) return root_lp;
    return std::max(root_lp, cbc);
}

}  // namespace poet
