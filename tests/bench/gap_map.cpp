// Where a gap lies (not a test): solves one problem, then for each window of
// the carried arrival bound (arrival_bound.h) prints what the schedule
// spends there as the bound counts it (chargedIn) against what the window's
// MILP proves every schedule spends there (a window that looks back to the
// stage-peak stage covers the stages from there on). Windows where the two
// differ are where a better schedule, or a stronger bound, has to be found.
//
//   gap_map --model resnet18_cifar [--platform m4] (--budget 0.15 | --bytes 368064)
//           [--factor 1.5] [--window 7] [--limit 30] [--gap 0.005] [--threads N]
//
// The solve runs on --threads threads, by default as many as `poet solve`
// uses (two on two cores): with one, resnet50 on m4 at 10% and 1.5x ends at
// the quick 58.99 J schedule, with two at the paging plan's 48.23 J.
#include <cstdio>
#include <optional>
#include <string>

#include "arrival_bound.h"
#include "heap_tuning.h"
#include "named_problem.h"
#include "solver.h"
#include "stage_bound.h"

using namespace poet;

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    named.model = "resnet18_cifar";
    named.budget = 0.15;
    double limit = 30, gap = 0.005;
    int window = 7;  // the solver's
    int threads = defaultSolverThreads();
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (named.take(a, next)) continue;
        if (a == "--window") window = std::stoi(next());
        else if (a == "--limit") limit = std::stod(next());
        else if (a == "--gap") gap = std::stod(next());
        else if (a == "--threads") threads = std::stoi(next());
        else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
    }
    if (window < 1 || threads < 1) {
        std::fprintf(stderr, "--window and --threads must be at least 1\n");
        return 4;
    }
    const std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const Problem& p = *problem;

    SolverOptions o;
    o.time_limit_s = limit;
    o.relative_gap = gap;
    o.threads = threads;
    const SolveResult r = solve(p, o);
    if (!r.schedule) {
        std::printf("%s at %lld B, %.2fx: %s, no schedule (%s)\n", p.model.c_str(), static_cast<long long>(p.ram_budget_bytes),
                    p.runtime_budget_factor, toString(r.status), r.message.c_str());
        return 0;
    }
    const double plain_j = p.graph.totalComputeEnergy();
    const StageBound peak = stagePeakBound(p, limit);
    std::printf("# %s on %s at %lld B, %.2fx: schedule %.9f J, solver's bound %.9f J (gap %.3f%%); plain pass %.9f J\n",
                p.model.c_str(), p.platform.c_str(), static_cast<long long>(p.ram_budget_bytes), p.runtime_budget_factor,
                r.replay.total_energy_j, r.best_bound_j, 100 * r.gap, plain_j);
    std::printf("# stage-peak bound %.9f J (extra %.9f J, at %s)\n", peak.bound_j, peak.bound_j - plain_j,
                peak.stage >= 0 ? p.graph.node(peak.stage).name.c_str() : "-");

    const ArrivalBound carried = carriedArrivalBound(p, window, limit, nullptr, peak.stage);
    std::printf("# carried bound, windows of %d (and those looking back to stage %d): %.9f J%s\n", window, peak.stage,
                carried.bound_j, carried.complete ? "" : " (some windows cut short: the bound their search proved)");
    std::printf("%9s  %-28s %-28s %12s %12s %12s\n", "stages", "first", "last", "spent_J", "bound_J", "gap_J");
    double spent_all = 0, bound_all = 0;
    const int n = p.graph.size();
    // The windows the bound sums, and the stages between them (in no
    // window: the bound asks nothing there).
    std::size_t next = 0;  // the next piece (in stage order)
    for (int a = 1; a < n;) {
        const bool more = next < carried.pieces.size();
        const BoundPiece* piece = more && carried.pieces[next].first == a ? &carried.pieces[next] : nullptr;
        const int e = piece ? piece->last : more ? carried.pieces[next].first - 1 : n - 1;
        const double spent = chargedIn(p, *r.schedule, a, e);
        const double bound = piece ? piece->extra_j : 0.0;
        spent_all += spent;
        bound_all += bound;
        if (spent != 0 || bound != 0)
            std::printf("%4d-%-4d  %-28s %-28s %12.9f %12.9f %12.9f%s\n", a, e, p.graph.node(a).name.c_str(),
                        p.graph.node(e).name.c_str(), spent, bound, spent - bound,
                        piece ? (piece->exact ? "" : "  (LP)") : "  (no window)");
        if (piece) ++next;
        a = e + 1;
    }
    std::printf("%9s  %-28s %-28s %12.9f %12.9f %12.9f\n", "all", "", "", spent_all, bound_all, spent_all - bound_all);
    std::printf("# the schedule's extra energy %.9f J (the charges leave out page-outs of values never new at a stage)\n",
                r.replay.total_energy_j - plain_j);
}
