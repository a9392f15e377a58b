#include "solve_result.h"

namespace poet {

const char* toString(SolveStatus s)
{
    switch (s) {
    case SolveStatus::Optimal: return "optimal";
    case SolveStatus::Feasible: return "feasible";
    case SolveStatus::Infeasible: return "infeasible";
    case SolveStatus::NoSolution: return "no_solution";
    case SolveStatus::Cancelled: return "cancelled";
    }
    return "?";
}

const char* toString(SolutionSource s)
{
    switch (s) {
    case SolutionSource::None: return "none";
    case SolutionSource::Heuristic: return "heuristic";
    case SolutionSource::Cached: return "cached";
    case SolutionSource::Incumbent: return "solver_incumbent";
    case SolutionSource::Proven: return "proven_optimal";
    }
    return "?";
}

std::optional<SolveStatus> solveStatusFromString(const std::string& s)
{
    for (auto st : {SolveStatus::Optimal, SolveStatus::Feasible, SolveStatus::Infeasible, SolveStatus::NoSolution,
                    SolveStatus::Cancelled})
        if (s == toString(st)) return st;
    return std::nullopt;
}

}  // namespace poet
