#pragma once
// One problem solved by formulation.md's Reference build, bare, and by the
// whole pipeline at the gaps and thread counts a user gives; what the two
// disagree on, in words (nothing when they agree). The Reference's optimum is
// the independent evidence: the pipeline's bounds, dominance rules and
// searches must reach it, never pass under it, and prove it in time.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "exact_solve.h"
#include "replay.h"
#include "solver.h"

namespace poet::test {

struct PipelineRun {
    double gap = 0;
    int threads = 1;
};

struct Agreement {
    SolveResult reference;
    std::vector<SolveResult> pipeline;  // one per run asked, in order
    std::vector<std::string> disagreements;
};

inline std::string describeSolve(const SolveResult& r)
{
    char text[200];
    std::snprintf(text, sizeof text, "%s at %.12g J (bound %.12g J, %.2f s)", toString(r.status),
                  r.schedule ? r.replay.total_energy_j : 0.0, r.best_bound_j, r.solve_time_s);
    return text;
}

// A schedule is valid under the problem's limits, its reported energy is its
// replay's, and the status says there is one exactly where there is one.
inline void checkSchedule(const Problem& p, const SolveResult& r, const std::string& who,
                          std::vector<std::string>& out)
{
    const bool claimsOne = r.status == SolveStatus::Optimal || r.status == SolveStatus::Feasible;
    if (claimsOne != r.schedule.has_value()) out.push_back(who + ": " + describeSolve(r) + " with(out) a schedule");
    if (!r.schedule) return;
    const ReplayReport replay = replaySchedule(p.graph, *r.schedule, limitsOf(p));
    if (!replay.valid) out.push_back(who + ": its schedule does not replay: " + replay.errors.front());
    if (std::abs(replay.total_energy_j - r.objective_j) > 1e-9 * std::max(1.0, replay.total_energy_j))
        out.push_back(who + ": objective " + std::to_string(r.objective_j) + " J is not its replay's");
}

inline Agreement compareWithReference(const Problem& p, const std::vector<PipelineRun>& runs, double time_limit_s)
{
    Agreement a;
    a.reference = solveExactly(p, FormulationVariant::Reference);
    checkSchedule(p, a.reference, "Reference", a.disagreements);
    const bool referenceProven = a.reference.status == SolveStatus::Optimal;
    const double optimum = a.reference.objective_j;
    const double tolerance = 1e-9 * std::max(1.0, std::abs(optimum));
    for (const PipelineRun& run : runs) {
        SolverOptions o;
        o.time_limit_s = time_limit_s;
        o.relative_gap = run.gap;
        o.threads = run.threads;
        const SolveResult r = solve(p, o);
        a.pipeline.push_back(r);
        const std::string who = "gap " + std::to_string(run.gap) + ", " + std::to_string(run.threads) +
                                " thread(s): " + describeSolve(r) + " against the Reference's " +
                                describeSolve(a.reference);
        checkSchedule(p, r, who, a.disagreements);
        if ((r.status == SolveStatus::Infeasible && a.reference.schedule) ||
            (a.reference.status == SolveStatus::Infeasible && r.schedule))
            a.disagreements.push_back(who + ": one has a schedule, the other proved there is none");
        // No schedule in time is no proof: the Reference's is one.
        if (a.reference.status == SolveStatus::Infeasible && r.status != SolveStatus::Infeasible)
            a.disagreements.push_back(who + ": the Reference proved there is no schedule; this did not");
        if (!referenceProven) continue;
        if (r.best_bound_j > optimum + tolerance) a.disagreements.push_back(who + ": bound above the optimum");
        if (r.schedule && r.objective_j < optimum - tolerance)
            a.disagreements.push_back(who + ": a schedule under the optimum");
        // Problems this small are proven in well under a second either way:
        // a pipeline that is still short at its limit gave up or idled.
        if (r.status != SolveStatus::Optimal) a.disagreements.push_back(who + ": not proven");
        else if (r.objective_j > optimum + run.gap * r.objective_j + tolerance)
            a.disagreements.push_back(who + ": proven, but further from the optimum than its gap");
    }
    if (a.reference.status != SolveStatus::Optimal && a.reference.status != SolveStatus::Infeasible)
        a.disagreements.push_back("the Reference ended " + describeSolve(a.reference) + ": nothing to compare");
    return a;
}

}  // namespace poet::test
