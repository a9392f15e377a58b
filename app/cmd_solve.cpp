// `poet solve`: one problem, solved with CBC, checked by the replay.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "atomic_write.h"
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_interrupt.h"
#include "cli_stdout_guard.h"
#include "problem_loader.h"
#include "schedule_io.h"
#include "solve_cache.h"
#include "solver.h"

namespace poet::cli {

namespace {

struct SolveArgs {
    ProblemArgs problem;
    double time_limit_s = 60;
    int threads = defaultSolverThreads();
    double gap = 1e-4;
    bool json = false;
    bool log = false;
    std::string out;
    std::string cache_dir;
};

// `interrupted_by`: "Ctrl-C" or "SIGTERM" where one ended the solve (else a
// result short of the gap asked for was stopped by the time limit).
void printHuman(const Problem& p, const SolveResult& r, const SolveArgs& a, const std::string& interrupted_by)
{
    const ReplayReport& rep = r.replay;
    printProblemAndBudgets(p, 18);  // what was asked, also where no schedule answers it
    std::printf("status            %s (source: %s)\n", toString(r.status), toString(r.source));
    if (r.status == SolveStatus::Feasible) {
        const std::string by = r.source == SolutionSource::Cached ? "the cached solve's time limit"
                               : !interrupted_by.empty() ? interrupted_by
                                             : "the time limit (" + (std::ostringstream() << a.time_limit_s).str() + " s)";
        std::printf("                  stopped by %s before the gap reached %g%%\n", by.c_str(), 100 * a.gap);
    }
    if (!r.message.empty()) std::printf("                  %s\n", r.message.c_str());
    if (r.schedule) {
        std::printf("compute energy    %.9f J\n", rep.compute_energy_j);
        std::printf("paging energy     %.9f J\n", rep.paging_energy_j);
        std::printf("total energy      %.9f J (plain pass %.9f J)\n", rep.total_energy_j, p.graph.totalComputeEnergy());
        // Compute time only, as POET counts it (formulation.md): flash
        // traffic costs energy here, not time.
        std::printf("runtime           %s s of %s s budget (%.3fx plain pass; compute, paging not timed)\n",
                    formatSeconds(rep.runtime_s).c_str(), formatSeconds(p.runtimeBudgetSeconds()).c_str(),
                    rep.runtime_s / p.graph.totalComputeTime());
        std::printf("peak RAM          %lld B of %lld B budget\n", static_cast<long long>(rep.peak_ram_bytes),
                    static_cast<long long>(p.ram_budget_bytes));
        std::printf("recomputations    %d", rep.recomputations);
        if (rep.free_recomputations > 0)
            std::printf(" (%d of them free: a node that costs nothing, as the input, read again)",
                        rep.free_recomputations);
        std::printf("\npage-ins          %d\npage-outs         %d\n", rep.page_ins, rep.page_outs);
        // A gap under the last decimal is not zero ("0.0000%" for 2e-7 where
        // the explorer said "< 0.001 %").
        const double percent = 100.0 * r.gap;
        if (percent > 0 && percent < 0.00005) std::printf("best bound        %.9f J, gap < 0.0001%%\n", r.best_bound_j);
        else std::printf("best bound        %.9f J, gap %.4f%%\n", r.best_bound_j, percent);
    }
    if (r.first_solution_time_s >= 0)
        std::printf("solve time        %.3f s (first schedule after %.3f s)\n", r.solve_time_s, r.first_solution_time_s);
    else
        std::printf("solve time        %.3f s\n", r.solve_time_s);
    // None where the solve was stopped before it built the problem (0 then).
    if (r.variables > 0) std::printf("problem size      %d variables, %d constraints\n", r.variables, r.constraints);
}

// What stopped a result short of the gap, for the JSON and the --out file
// (`stopped_by`; the text says it in words): a script could not tell a
// time-limited answer from an interrupted one. Null where nothing did.
nlohmann::json stoppedBy(const SolveResult& r, bool interrupted)
{
    if (r.status != SolveStatus::Feasible) return nullptr;
    return interrupted && r.source != SolutionSource::Cached ? "interrupt" : "time_limit";
}

int exitCodeOf(SolveStatus s)
{
    switch (s) {
    case SolveStatus::Optimal:
    case SolveStatus::Feasible: return kSolved;
    case SolveStatus::Infeasible: return kInfeasible;
    case SolveStatus::NoSolution: return kNoSolution;
    case SolveStatus::Cancelled: return kCancelled;
    }
    return kInternalError;
}

int runSolve(const SolveArgs& a)
{
    const Problem p = loadProblem(a.problem);
    if (!a.out.empty()) checkOutputFile("--out", a.out);
    if (!a.cache_dir.empty()) checkCacheDirectory(a.cache_dir);
    SolverOptions opt;
    opt.time_limit_s = a.time_limit_s;
    opt.threads = a.threads;
    opt.relative_gap = a.gap;
    opt.log = a.log;
    SolveResult r;
    std::string interrupted_by;  // "Ctrl-C" or "SIGTERM" where one stopped the solve
    {
        const InterruptWatch interrupt;
        const StdoutAside solver_chatter(a.log);
        r = a.cache_dir.empty() ? solve(p, opt, {}, interrupt.flag())
                                : solveWithCache(p, opt, SolveCache(a.cache_dir), {}, interrupt.flag());
        interrupted_by = interrupt.cause();
    }
    if (r.schedule && !r.replay.valid) {
        std::cerr << "poet: internal error: the replay rejected the schedule: " << r.replay.errors.front() << '\n';
        return kInternalError;
    }
    const bool out_is_stdout = !a.out.empty() && namesStandardOutput(a.out);
    if (!a.out.empty() && r.schedule) {
        // By its name, as the explorer's Save and `poet sweep --plot`
        // choose: x.csv got the JSON document.
        std::string suffix = std::filesystem::path(a.out).extension().string();
        std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string text;
        if (suffix == ".csv") {
            text = scheduleCsv(p.graph, *r.schedule);
        } else {
            nlohmann::json doc = scheduleDocument(p, r);
            doc["stopped_by"] = stoppedBy(r, !interrupted_by.empty());
            text = doc.dump(1) + "\n";
        }
        if (out_is_stdout) {
            std::cout << text;  // a failed write is said at exit (poet_main)
        } else {
            try {
                writeFileAtomically(a.out, text);
            } catch (const std::runtime_error& e) {  // checked before the solve, so rare (a full disk)
                throw BadInput(std::string("--out: ") + e.what());
            }
        }
    } else if (out_is_stdout) {
        std::cerr << "poet: --out: no schedule, so none was written to standard output\n";
    } else if (!a.out.empty()) {
        // Said, so that a script does not read an older file there as this answer.
        std::cerr << "poet: --out: no schedule, so " << a.out << " was not written"
                  << (std::filesystem::exists(a.out) ? " (the file there is from before)" : "") << '\n';
    }
    // Standard output holds the schedule alone, for a pipe or a file to read.
    std::optional<StdoutAside> summary_aside;
    if (out_is_stdout) summary_aside.emplace(true);
    if (a.json) {
        nlohmann::json summary = resultSummaryJson(p, r);
        summary["stopped_by"] = stoppedBy(r, !interrupted_by.empty());
        std::cout << summary.dump(2) << '\n';
    }
    else printHuman(p, r, a, interrupted_by);
    return exitCodeOf(r.status);
}

}  // namespace

void addSolveCommand(CLI::App& root, int& exit_code)
{
    auto args = std::make_shared<SolveArgs>();
    CLI::App* cmd = root.add_subcommand("solve", "Find the least-energy schedule for a RAM and a runtime budget");
    cmd->footer("Exit codes: 0 solved (optimal or feasible), 1 internal error, 2 infeasible (proven), 3 no schedule "
                "within the time limit, 4 bad input, 5 interrupted (Ctrl-C or SIGTERM) before any schedule.");
    addProblemOptions(cmd, args->problem);
    cmd->add_option("--time-limit", args->time_limit_s, "Wall-clock limit in seconds")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--threads", args->threads,
                    "Cores to use: with 2, the paging plan runs beside the lower bounds, and CBC's search gets 2 "
                    "threads")
        ->capture_default_str()
        ->check(wholeNumberFrom(1, 64));
    cmd->add_option("--gap", args->gap, "Stop at this relative gap (0.01 = 1%)")
        ->capture_default_str()
        ->check(fractionFrom0To1());
    cmd->add_flag("--json", args->json, "Print the result as one JSON document");
    cmd->add_flag("--log", args->log, "Show CBC's log on stderr");
    cmd->add_option("--out", args->out,
                    "Write the schedule to this file: JSON (the document `poet validate` reads), or CSV where "
                    "the name ends in .csv (one row per matrix and stage)")
        ->check(nonEmptyPath("a file name"));
    cmd->add_option("--cache-dir", args->cache_dir,
                    "Answer from (and store the answer in) this solve cache, keyed by the problem's contents: a "
                    "problem solved before comes back at once with source 'cached'")
        ->check(nonEmptyPath("a directory"));
    cmd->callback([args, &exit_code] { exit_code = runSolve(*args); });
}

}  // namespace poet::cli
