// Benchmark (not a test): per model, RAM budget (fraction of the plain-pass
// peak, or bytes) and runtime factor, the problem size, build time, time to
// the first valid schedule, time to the final schedule (best_s: when its
// energy was first reached), time to the LP relaxation's bound (lp_s, -
// when it did not finish), and time to proven optimal or the gap at the
// limit; for our formulation (tight + heuristic warm start) and, with
// --compare, formulation.md's plain build in the same run, so speed-ups are
// ratios. Each case runs --repeat times; times are medians (each run on
// stderr).
//
//   bench_solve [--models a,b] [--platform m4] [--budgets 1,0.6,0.35 | --bytes 737719]
//               [--factors 1,1.5] [--limit 60] [--gap 1e-4] [--repeat 1] [--compare] [--threads 1]
//               [--no-paging] [--hints a.json,b.json]
//               [--random 20 --seed 95 --budget-range 0.12,0.45]
//
// --hints passes schedule files (`poet solve --out`) to every case of
// their graph's size as hints, as the explorer passes the schedules of the
// budgets a slider just left.
//
// --random N draws N points off the grids instead of the cross product of
// budgets and factors: each a RAM budget uniform in --budget-range
// (fractions of the plain-pass peak, to 0.1%) with a factor picked from
// --factors. std::mt19937_64's output is fixed by the standard and the
// draws below use nothing implementation-defined (as
// std::uniform_real_distribution is), so a seed names the same points on
// every machine and the README's random row can be run again.
//
// With --gap 0.005, end_s is the time to a gap of 0.5% (or to the limit).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "formulation.h"
#include "heap_tuning.h"
#include "median.h"
#include "problem_loader.h"
#include "schedule_file.h"
#include "solver.h"

using namespace poet;

namespace {

std::vector<std::string> split(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

// `count` (budget fraction, factor) pairs from `seed` (--random).
std::vector<std::pair<double, double>> randomPoints(int count, std::uint64_t seed, double lo, double hi,
                                                    const std::vector<double>& factors)
{
    std::mt19937_64 rng(seed);
    std::vector<std::pair<double, double>> points;
    for (int k = 0; k < count; ++k) {
        const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1), 53 bits
        const double budget = std::round(1000 * (lo + (hi - lo) * u)) / 1000;
        const double factor = factors[rng() % factors.size()];
        points.emplace_back(budget, factor);
    }
    return points;
}

// A figure with `decimals` places, or "-" where there is none (-1: no
// schedule, an LP that did not finish), which read as a number.
std::string cell(double v, int decimals)
{
    if (v < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

struct Figures {
    double build_s, first_s, best_s, lp_s, end_s, objective, gap;
    std::string status, source;
    int vars, rows;
};

Figures run(const Problem& p, FormulationVariant v, bool heuristics, double limit, double gap, int threads,
            int repeat, const std::vector<Schedule>& hints = {})
{
    std::vector<double> build, first, best, lp, end;
    Figures f{};
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const Formulation form(p, v);
        build.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        SolverOptions o;
        o.time_limit_s = limit;
        o.relative_gap = gap;
        o.variant = v;
        o.use_heuristics = heuristics;
        o.threads = threads;
        o.hints = hints;  // the solver passes over those of another graph's size
        std::vector<std::pair<double, double>> incumbents;  // (seconds, J); from solver threads, one at a time
        const SolveResult res =
            solve(p, o, [&](const SolveResult& r) { incumbents.emplace_back(r.solve_time_s, r.objective_j); });
        first.push_back(res.first_solution_time_s);
        double best_s = res.solve_time_s;
        for (auto [s, j] : incumbents)
            if (res.schedule && j <= res.objective_j * (1 + 1e-12)) best_s = std::min(best_s, s);
        best.push_back(best_s);
        lp.push_back(res.lp_bound_time_s);
        end.push_back(res.solve_time_s);
        // Each run on stderr: a median hides a case proven in some runs only.
        std::fprintf(stderr, "# %s on %s %lld B %gx run %d: %s, end %.2f s, gap %.3f%%\n", p.model.c_str(),
                     p.platform.c_str(), static_cast<long long>(p.ram_budget_bytes), p.runtime_budget_factor, r + 1,
                     toString(res.status), res.solve_time_s, 100 * res.gap);
        f.objective = res.schedule ? res.replay.total_energy_j : -1;
        f.gap = res.gap;
        f.status = toString(res.status);
        f.source = toString(res.source);
        f.vars = res.variables;  // the paging plan's size where it solved the case
        f.rows = res.constraints;
    }
    f.build_s = median(build);
    f.first_s = median(first);
    f.best_s = median(best);
    f.lp_s = median(lp);
    f.end_s = median(end);
    return f;
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    std::vector<std::string> models = {"linear", "transformer", "vgg16_cifar", "resnet18_cifar", "vgg16", "resnet18",
                                       "bert", "resnet50"};
    std::string platform = "m4";
    std::vector<double> budgets = {1.0, 0.6, 0.35}, factors = {1.0, 1.5};
    std::vector<std::int64_t> bytes;
    double limit = 60, gap = 1e-4;
    int repeat = 1, threads = 1, random_count = 0;
    std::uint64_t seed = 1;
    double range_lo = 0.12, range_hi = 0.6;
    bool compare = false, paging = true;
    std::vector<Schedule> hints;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--models") models = split(next());
        else if (a == "--platform") platform = next();
        else if (a == "--budgets") { budgets.clear(); for (auto& s : split(next())) budgets.push_back(std::stod(s)); }
        else if (a == "--bytes") { for (auto& s : split(next())) bytes.push_back(std::stoll(s)); }
        else if (a == "--factors") { factors.clear(); for (auto& s : split(next())) factors.push_back(std::stod(s)); }
        else if (a == "--limit") limit = std::stod(next());
        else if (a == "--gap") gap = std::stod(next());
        else if (a == "--repeat") repeat = std::stoi(next());
        else if (a == "--threads") threads = std::stoi(next());
        else if (a == "--compare") compare = true;
        else if (a == "--random") random_count = std::stoi(next());
        else if (a == "--seed") seed = std::stoull(next());
        else if (a == "--budget-range") {
            const std::vector<std::string> r = split(next());
            if (r.size() != 2) { std::fprintf(stderr, "--budget-range takes two fractions, e.g. 0.12,0.45\n"); return 4; }
            range_lo = std::stod(r[0]);
            range_hi = std::stod(r[1]);
        }
        else if (a == "--no-paging") paging = false;
        else if (a == "--hints") {
            for (const std::string& file : split(next())) {
                const std::optional<ScheduleFile> read = readScheduleFile(file.c_str());
                if (!read) return 4;
                hints.push_back(read->loaded.schedule);
            }
        }
        else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
    }
    if (random_count < 0 || (random_count > 0 && (factors.empty() || !bytes.empty() || !(range_lo > 0) ||
                                                  !(range_hi >= range_lo)))) {
        std::fprintf(stderr, "--random needs --factors to pick from, no --bytes, and 0 < lo <= hi in --budget-range\n");
        return 4;
    }
    const auto points = randomPoints(random_count, seed, range_lo, range_hi, factors);
    const auto catalog = ProfileCatalog::standard();
    std::printf("# platform %s, limit %.0f s, gap %g, %d repeat(s), medians; 'ref' = formulation.md build, no warm start%s\n",
                platform.c_str(), limit, gap, repeat, paging ? "" : "; paging off");
    std::printf("%-15s %5s %5s %9s %6s %8s %7s %8s %8s %8s %8s %9s %12s %8s %-11s", "model", "nodes", "edges",
                "ram_B", "factor", "vars", "rows", "build_s", "first_s", "best_s", "lp_s", "end_s", "energy_J", "gap%",
                "status");
    std::printf(" %-16s", "source");
    if (compare) std::printf(" | %8s %8s %9s %12s %8s %-11s %9s", "ref_vars", "ref_1st", "ref_end", "ref_J", "ref_gap%",
                             "ref_status", "end_ratio");
    std::printf("\n");
    for (const auto& model : models) {
        Problem base;
        try {
            base.graph = loadTrainingGraph(catalog, model, platform);
        } catch (const std::exception& e) {
            std::printf("%-15s error: %s\n", model.c_str(), e.what());
            continue;
        }
        base.model = model;
        base.platform = platform;
        base.options.paging = paging;
        const std::int64_t peak = plainPassPeakBytes(base.graph);
        auto bytesOf = [&](double fraction) { return static_cast<std::int64_t>(fraction * static_cast<double>(peak)); };
        std::vector<std::pair<std::int64_t, double>> cases;  // (RAM budget, factor)
        if (random_count > 0) {
            for (auto [fraction, factor] : points) cases.emplace_back(bytesOf(fraction), factor);
        } else {
            std::vector<std::int64_t> rams = bytes;
            if (rams.empty())
                for (double b : budgets) rams.push_back(bytesOf(b));
            for (std::int64_t ram : rams)
                for (double factor : factors) cases.emplace_back(ram, factor);
        }
        for (auto [ram, factor] : cases) {
            Problem p = base;
            p.ram_budget_bytes = ram;
            p.runtime_budget_factor = factor;
            const Figures ours = run(p, FormulationVariant::Tight, true, limit, gap, threads, repeat, hints);
            std::printf("%-15s %5d %5zu %9lld %6.5g %8d %7d %8.3f %8s %8s %8s %9.2f %12s %8.3f %-11s", model.c_str(),
                        p.graph.size(), p.graph.edges().size(), static_cast<long long>(ram), factor, ours.vars,
                        ours.rows, ours.build_s, cell(ours.first_s, 3).c_str(), cell(ours.best_s, 3).c_str(),
                        cell(ours.lp_s, 3).c_str(), ours.end_s, cell(ours.objective, 9).c_str(), 100 * ours.gap,
                        ours.status.c_str());
            std::printf(" %-16s", ours.source.c_str());
            if (compare) {
                const Figures ref = run(p, FormulationVariant::Reference, false, limit, gap, threads, repeat);
                std::printf(" | %8d %8s %9.2f %12s %8.3f %-11s %9.2f", ref.vars, cell(ref.first_s, 3).c_str(),
                            ref.end_s, cell(ref.objective, 9).c_str(), 100 * ref.gap, ref.status.c_str(),
                            ref.end_s / ours.end_s);
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
    return 0;
}
