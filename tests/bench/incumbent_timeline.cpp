// When each schedule of a solve came, and which values it pages (not a
// test): solves one problem --repeat times and prints, per run, every
// schedule the solver announced (seconds, energy, the values paged out),
// then the answer. Where runs of one problem end apart (resnet18_cifar on m4
// at 21% and 1.5x: proven in some 30 s runs, 0.67% short in others), the
// first schedule whose paged values differ shows where the paths split.
//
//   incumbent_timeline --model resnet18_cifar [--platform m4] (--budget 0.21 | --bytes 515289)
//                      [--factor 1.5] [--limit 30] [--gap 0.005] [--threads 2] [--repeat 3]
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <string>

#include "heap_tuning.h"
#include "named_problem.h"
#include "solver.h"

using namespace poet;

namespace {

// The values `s` pages out, by name, in graph order.
std::string pagedValues(const Graph& g, const Schedule& s)
{
    std::string names;
    for (int i = 0; i < g.size(); ++i)
        for (int t = i + 1; t < g.size(); ++t)
            if (s.M_out(t, i)) {
                names += (names.empty() ? "" : " ") + g.node(i).name;
                break;
            }
    return names.empty() ? "-" : names;
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    named.model = "resnet18_cifar";
    named.budget = 0.21;
    SolverOptions o;
    o.time_limit_s = 30;
    o.relative_gap = 0.005;
    o.threads = defaultSolverThreads();
    int repeat = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        try {
            if (named.take(a, next)) continue;
            if (a == "--limit") o.time_limit_s = std::stod(next());
            else if (a == "--gap") o.relative_gap = std::stod(next());
            else if (a == "--threads") o.threads = std::stoi(next());
            else if (a == "--repeat") repeat = std::stoi(next());
            else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
        } catch (const std::exception&) {  // std::stod and std::stoi on a value that is no number
            std::fprintf(stderr, "%s needs a number\n", a.c_str());
            return 4;
        }
    }
    if (o.threads < 1 || repeat < 1) {
        std::fprintf(stderr, "--threads and --repeat must be at least 1\n");
        return 4;
    }
    const std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const Problem& p = *problem;
    std::printf("# %s on %s at %lld B, %.2fx, limit %g s, gap %g, %d thread(s)\n", p.model.c_str(), p.platform.c_str(),
                static_cast<long long>(p.ram_budget_bytes), p.runtime_budget_factor, o.time_limit_s, o.relative_gap,
                o.threads);
    for (int run = 1; run <= repeat; ++run) {
        std::printf("run %d\n", run);
        std::mutex print;  // announced from the solver's threads
        const SolveResult r = solve(p, o, [&](const SolveResult& s) {
            std::lock_guard lock(print);
            std::printf("  %8.2f s  %.9f J  paged: %s\n", s.solve_time_s, s.objective_j,
                        pagedValues(p.graph, *s.schedule).c_str());
            std::fflush(stdout);
        });
        std::printf("  end %.2f s: %s, %.9f J, bound %.9f J, gap %.3f%%\n", r.solve_time_s, toString(r.status),
                    r.objective_j, r.best_bound_j, 100 * r.gap);
        // Names the bound that proved it (or the best one found): which tail.
        if (!r.message.empty()) std::printf("  %s\n", r.message.c_str());
    }
    return 0;
}
