// How a schedule at a looser runtime budget comes back to this one (not a
// test): the steps solvePlans takes on it, each step's energy and time
// printed. The schedule is the quick one at the first multiple of the spare
// time (or a schedule file's), improved there by dropRecomputations (and,
// where asked, the window search or the paging plan for some seconds); then
// at each further multiple, and at last at the problem's own factor,
// relieveRuntime, swapRecomputations and dropRecomputations. --dump lists
// the final schedule's recomputations and page-outs/ins, one per line, so
// that two chains can be diffed.
//
//   relief_chain --model bert [--platform m4] (--budget 0.273 | --bytes 104771616) [--factor 1.04]
//                [--chain 2,1.25] [--from schedule.json] [--seconds 10] [--windows S] [--plan S] [--dump]
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "heap_tuning.h"
#include "heuristic_schedule.h"
#include "named_problem.h"
#include "paging_plan.h"
#include "plan_search.h"
#include "replay.h"
#include "schedule_file.h"
#include "schedule_improvement.h"
#include "solver.h"
#include "window_search.h"

using namespace poet;

namespace {

double energyJ(const Problem& p, const Schedule& s) { return replaySchedule(p.graph, s, limitsOf(p)).total_energy_j; }

std::vector<double> multiples(const std::string& list)
{
    std::vector<double> out;
    for (std::size_t pos = 0; pos <= list.size();) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        out.push_back(std::stod(list.substr(pos, comma - pos)));
        pos = comma + 1;
    }
    return out;
}

void dump(const Graph& g, const Schedule& s)
{
    for (int t = 0; t < g.size(); ++t)
        for (int i = 0; i < t; ++i) {
            if (s.R(t, i)) std::printf("R %s @%d\n", g.node(i).name.c_str(), t);
            if (s.M_out(t, i)) std::printf("OUT %s @%d\n", g.node(i).name.c_str(), t);
            if (s.M_in(t, i)) std::printf("IN %s @%d\n", g.node(i).name.c_str(), t);
        }
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    named.factor = 1.04;
    std::string chain = "2", from;
    double step_s = 10, windows_s = 0, plan_s = 0;
    bool dump_final = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return std::string(argv[++i]);
        };
        if (named.take(a, next)) continue;
        if (a == "--chain") chain = next();
        else if (a == "--from") from = next();
        else if (a == "--seconds") step_s = std::stod(next());
        else if (a == "--windows") windows_s = std::stod(next());
        else if (a == "--plan") plan_s = std::stod(next());
        else if (a == "--dump") dump_final = true;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 4;
        }
    }
    const std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const std::vector<double> steps = multiples(chain);
    auto looserBy = [&](double times) {
        Problem looser = *problem;
        looser.runtime_budget_factor = 1 + times * (problem->runtime_budget_factor - 1);
        return looser;
    };
    const auto start = Clock::now();
    const Problem first = looserBy(steps[0]);
    std::optional<Schedule> loose;
    if (from.empty()) {
        loose = bestQuickSchedule(first);
    } else if (const auto file = readScheduleFile(from.c_str())) {
        loose = file->loaded.schedule;
    }
    if (!loose) {
        std::fprintf(stderr, "no schedule to start from\n");
        return 1;
    }
    std::printf("start at %.4fx: %.6f J (%.2f s)\n", first.runtime_budget_factor, energyJ(first, *loose),
                secondsSince(start));
    Schedule current = dropRecomputations(first.graph, *loose, limitsOf(first), secondsAfter(Clock::now(), step_s));
    std::printf("  dropped: %.6f J (%.2f s)\n", energyJ(first, current), secondsSince(start));
    if (plan_s > 0) {
        SolverOptions options;
        options.time_limit_s = plan_s;
        options.threads = 1;
        const PlanOutcome out =
            solvePagingPlan(PagingPlan(first), first, options, Clock::now(), INFINITY, -1, nullptr, {});
        if (out.best && out.best_j < energyJ(first, current)) current = *out.best;
        std::printf("  plan: %.6f J (%.2f s)\n", energyJ(first, current), secondsSince(start));
    }
    if (windows_s > 0) {
        current = improveByWindows(first, current, secondsAfter(Clock::now(), windows_s));
        std::printf("  windows: %.6f J (%.2f s)\n", energyJ(first, current), secondsSince(start));
    }
    for (std::size_t k = 1; k <= steps.size(); ++k) {
        const Problem at = k < steps.size() ? looserBy(steps[k]) : *problem;
        const std::optional<Schedule> fitted = relieveRuntime(at, current, secondsAfter(Clock::now(), 3 * step_s));
        if (!fitted) {
            std::printf("no relief to %.4fx\n", at.runtime_budget_factor);
            return 1;
        }
        std::printf("relieved to %.4fx: %.6f J (%.2f s)\n", at.runtime_budget_factor, energyJ(at, *fitted),
                    secondsSince(start));
        const Schedule swapped = swapRecomputations(at, current, *fitted, secondsAfter(Clock::now(), step_s));
        std::printf("  swapped: %.6f J (%.2f s)\n", energyJ(at, swapped), secondsSince(start));
        current = dropRecomputations(at.graph, swapped, limitsOf(at), secondsAfter(Clock::now(), step_s));
        std::printf("  dropped: %.6f J (%.2f s)\n", energyJ(at, current), secondsSince(start));
    }
    if (dump_final) dump(problem->graph, current);
    return 0;
}
