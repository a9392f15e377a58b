// `poet sweep`: energy against the RAM budget (or the runtime factor) for
// several strategies; CSV and a publication-style plot.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_interrupt.h"
#include "cli_stdout_guard.h"
#include "problem_loader.h"
#include "sweep.h"

#ifdef POET_WITH_PLOTS
#include <QFileInfo>
#include <QString>

#include "pareto_plot.h"
#endif

namespace {

using namespace poet;
using namespace poet::cli;

struct SweepArgs {
    ProblemArgs problem;
    int points = 20;
    std::vector<std::string> strategies = allSweepStrategies();
    std::string vary = "ram";
    std::string csv;
    std::string plot;
    double time_limit_s = 30;
    double gap = 1e-4;
    int threads = defaultSolverThreads();
    double runtime_min = 1.0;
    double runtime_max = 2.0;
    std::string cache_dir;
    // Options given on the command line (not left at their defaults): the
    // varied axis's fixed value and the other axis's range are refused.
    bool ram_budget_given = false;
    bool runtime_budget_given = false;
    bool runtime_range_given = false;
};

// Tenths below 10 s: a 0.156 s sweep read "in 1s".
std::string formatDuration(double s) {
    char buf[32];
    if (s < 0) return "?";
    if (s < 10) std::snprintf(buf, sizeof buf, "%.1fs", s);
    else if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
    else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    else std::snprintf(buf, sizeof buf, "%.1fh", s / 3600);
    return buf;
}

int runSweepCommand(const SweepArgs& a) {
    for (const auto& s : a.strategies)
        if (!isSweepStrategy(s)) {
            std::string all;
            for (const auto& n : allSweepStrategies()) all += (all.empty() ? "" : ",") + n;
            throw BadInput("--strategies: unknown strategy '" + s + "' (known: " + all + ")");
        }
    // Named twice, a strategy ran twice: every row doubled, and the plot's key read "POET (= POET)".
    for (auto s = a.strategies.begin(); s != a.strategies.end(); ++s)
        if (std::find(a.strategies.begin(), s, *s) != s) throw BadInput("--strategies: '" + *s + "' is named twice");
    if (a.vary != "ram" && a.vary != "runtime") throw BadInput("--vary: must be 'ram' or 'runtime', got '" + a.vary + "'");
    if (a.vary == "runtime" && a.problem.ram_budget.empty())
        throw BadInput("--vary runtime needs --ram-budget (the fixed RAM budget)");
    if (a.vary == "ram" && a.ram_budget_given)
        throw BadInput("--ram-budget: --vary ram sweeps the RAM budget from the smallest feasible one to the plain-pass "
                       "peak; leave --ram-budget out, or give --vary runtime to sweep at that RAM budget");
    if (a.vary == "runtime" && a.runtime_budget_given)
        throw BadInput("--runtime-budget: --vary runtime sweeps the runtime factor over --runtime-min to --runtime-max; "
                       "give those instead");
    if (a.vary == "ram" && a.runtime_range_given)
        throw BadInput("--runtime-min/--runtime-max: they set the range of --vary runtime; --vary ram sweeps at "
                       "--runtime-budget");
    // Every point below one plain pass is infeasible: a sweep of nothing.
    auto atLeastOnePlainPass = [](const char* option, double factor) {
        if (factor >= 1.0) return;
        std::ostringstream m;
        m << option << ": must be at least 1 (no schedule runs faster than one plain pass), got " << factor;
        throw BadInput(m.str());
    };
    atLeastOnePlainPass("--runtime-min", a.runtime_min);
    if (a.vary == "ram") atLeastOnePlainPass("--runtime-budget", a.problem.runtime_budget);
    if (a.runtime_max < a.runtime_min) throw BadInput("--runtime-max must not be below --runtime-min");
#ifndef POET_WITH_PLOTS
    if (!a.plot.empty()) throw BadInput("--plot: this build has no plot support (built without the GUI)");
#else
    if (!a.plot.empty()) {
        checkOutputFile("--plot", a.plot);  // first: a directory has no format to name
        if (QString err; !paretoPlotFormatKnown(QString::fromStdString(a.plot), &err))
            throw BadInput("--plot: " + err.toStdString());
    }
#endif

    SweepConfig cfg;
    cfg.problem = loadProblem(a.problem);
    if (const std::int64_t lower = minimumFeasibleBudgetLowerBound(cfg.problem.graph);
        a.vary == "runtime" && cfg.problem.ram_budget_bytes < lower)
        throw BadInput("--ram-budget: " + std::to_string(cfg.problem.ram_budget_bytes) + " B is below " +
                       std::to_string(lower) +
                       " B, the smallest that holds one node with all its inputs: no point of this sweep can fit");
    // Standard output is where the rows go without --csv.
    const std::string csv_file = namesStandardOutput(a.csv) ? std::string() : a.csv;
    if (!csv_file.empty()) checkOutputFile("--csv", csv_file);
    if (!a.cache_dir.empty()) checkCacheDirectory(a.cache_dir);
    cfg.axis = a.vary == "ram" ? SweepAxis::RamBudget : SweepAxis::RuntimeFactor;
    cfg.points = a.points;
    cfg.strategies = a.strategies;
    cfg.runtime_min = a.runtime_min;
    cfg.runtime_max = a.runtime_max;
    cfg.solver.time_limit_s = a.time_limit_s;
    cfg.solver.relative_gap = a.gap;
    cfg.solver.threads = a.threads;
    cfg.cache_dir = a.cache_dir;

    const bool tty = ::isatty(STDERR_FILENO);
    // Ctrl-C or SIGTERM ends the sweep; one that comes while its rows and
    // plot are written waits for them (SIGTERM then left the plot unwritten).
    const InterruptWatch interrupt;
    {
        const int points = cfg.axis == SweepAxis::RuntimeFactor ? runtimeSweepPointCount(cfg)
                                                                : static_cast<int>(ramSweepPoints(cfg).size());
        // Those the switches leave out are not counted (the notes at the end name them).
        const auto strategies = std::count_if(cfg.strategies.begin(), cfg.strategies.end(), [&](const auto& s) {
            return !whyStrategyLeftOut(cfg.problem, s);
        });
        std::ostringstream head;
        head << "sweep " << cfg.problem.model << " on " << cfg.problem.platform << ": " << points
             << (points == 1 ? " point x " : " points x ") << strategies
             << (strategies == 1 ? " strategy, " : " strategies, ");
        if (cfg.axis == SweepAxis::RamBudget) head << "runtime budget " << cfg.problem.runtime_budget_factor << "x";
        else head << "RAM budget " << cfg.problem.ram_budget_bytes << " B";
        std::fprintf(stderr, "%s\n", head.str().c_str());
    }
    std::optional<StdoutAside> solver_chatter(std::in_place, /*to_stderr=*/false);  // a sweep has no --log
    const SweepResult res = runSweep(
        cfg,
        [&](const SweepProgress& p) {
            const SweepRow& r = *p.row;
            std::ostringstream line;
            line << "[" << p.done << "/" << p.total << "] " << r.strategy << " @ ";
            if (cfg.axis == SweepAxis::RamBudget) line << r.ram_budget_bytes << " B";
            else line << r.runtime_budget_factor << "x";
            line << ": " << toString(r.status);
            if (r.hasSchedule()) {
                char e[48];
                std::snprintf(e, sizeof e, " %.9g J", r.total_energy_j);  // 0.000456 J hid the differences
                line << e;
            }
            if (r.from_cache) line << " (cached)";
            else if (r.from_earlier_point) line << " (the same problem as an earlier point)";
            line << ", elapsed " << formatDuration(p.elapsed_s) << ", left " << (p.eta_is_limit ? "at most " : "~")
                 << formatDuration(p.eta_s);
            if (tty) std::fprintf(stderr, "\r\033[K%s", line.str().c_str());
            else std::fprintf(stderr, "%s\n", line.str().c_str());
        },
        interrupt.flag());
    solver_chatter.reset();
    if (tty) std::fprintf(stderr, "\n");
    for (const auto& note : res.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
    const std::string reused = reusedPointsText(res);
    const std::string reusedNote = reused.empty() ? "" : " (" + reused + ")";
    std::fprintf(stderr, "%d of %d points in %s%s%s\n", res.done, res.total, formatDuration(res.elapsed_s).c_str(),
                 reusedNote.c_str(), res.cancelled ? ", cancelled" : "");

    if (!csv_file.empty()) {
        std::string err;
        if (!writeSweepCsv(res, csv_file, &err)) throw BadInput("--csv: " + err);
    } else {
        std::cout << sweepCsv(res);
    }
#ifdef POET_WITH_PLOTS
    // A figure with no point drew empty axes with made-up units ("energy
    // [µJ]" 0 to 5): not written, as `poet solve --out` without a schedule.
    // The rows (.csv) are written whatever they hold.
    const bool drawable =
        std::any_of(res.rows.begin(), res.rows.end(), [](const SweepRow& r) { return r.hasSchedule(); });
    const bool rows_only = QFileInfo(QString::fromStdString(a.plot)).suffix().toLower() == QLatin1String("csv");
    if (!a.plot.empty() && !drawable && !rows_only) {
        std::fprintf(stderr, "poet: --plot: no point has a schedule, so %s was not written\n", a.plot.c_str());
    } else if (!a.plot.empty()) {
        QString err;
        if (!exportParetoPlot(res, QString::fromStdString(a.plot), &err))
            throw BadInput("--plot: " + err.toStdString());
    }
#endif
    return res.cancelled ? kCancelled : kSolved;
}

}  // namespace

void addSweepCommand(CLI::App& root, int& exit_code) {
    auto args = std::make_shared<SweepArgs>();
    CLI::App* cmd = root.add_subcommand(
        "sweep", "Energy against the RAM budget (or the runtime budget) for POET and the baselines");
    // Its own codes, not the solve's the top level lists: a point's status is in its row.
    cmd->footer("Exit codes: 0 the sweep ran (each point's status is in its row), 1 internal error, 4 bad input, "
                "5 interrupted (Ctrl-C or SIGTERM); the CSV keeps the rows done.");
    addProblemOptions(cmd, args->problem, /*require_budget=*/false);
    cmd->add_option("--points", args->points,
                    "Number of budgets: RAM budgets from the smallest feasible to the plain-pass peak (--vary ram), "
                    "or runtime factors from --runtime-min to --runtime-max (--vary runtime)")
        ->capture_default_str()
        ->check(wholeNumberFrom(1, 1000));
    cmd->add_option("--strategies", args->strategies,
                    "Comma-separated: poet,remat-only,paging-only,chen-sqrtn,chen-greedy,revolve,dtr,plain")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--vary", args->vary, "The axis to vary: ram (at --runtime-budget) or runtime (at --ram-budget)")
        ->capture_default_str();
    cmd->add_option("--runtime-min", args->runtime_min, "Smallest runtime factor (--vary runtime)")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--runtime-max", args->runtime_max, "Largest runtime factor (--vary runtime)")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--csv", args->csv, "Write the rows to this CSV file (default: stdout)")
        ->check(nonEmptyPath("a file name"));
    cmd->add_option("--plot", args->plot, "Write the plot to this file (.pdf, .svg, .png; .csv writes the rows)")
        ->check(nonEmptyPath("a file name"));
    cmd->add_option("--time-limit", args->time_limit_s, "Wall-clock limit per MILP point, seconds")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--gap", args->gap, "Relative gap at which a MILP point counts as solved")
        ->capture_default_str()
        ->check(fractionFrom0To1());
    cmd->add_option("--threads", args->threads, "Cores per point (see `poet solve --help`)")
        ->capture_default_str()
        ->check(wholeNumberFrom(1, 64));
    cmd->add_option("--cache-dir", args->cache_dir, "Reuse solved points from (and store them in) this directory")
        ->check(nonEmptyPath("a directory"));
    cmd->callback([args, cmd, &exit_code] {
        args->ram_budget_given = cmd->count("--ram-budget") > 0;
        args->runtime_budget_given = cmd->count("--runtime-budget") > 0;
        args->runtime_range_given = cmd->count("--runtime-min") + cmd->count("--runtime-max") > 0;
        exit_code = runSweepCommand(*args);
    });
}
