#pragma once
// What the `poet` subcommands share: the options that define a problem, the
// exit codes, and turning options into a Problem with clear errors.
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

#include "problem.h"

namespace poet::cli {

// Documented in `poet --help` and the README.
enum ExitCode : int {
    kSolved = 0,          // a schedule was found (optimal or feasible)
    kInternalError = 1,
    kInfeasible = 2,      // proven: no schedule meets the budgets
    kNoSolution = 3,      // the time limit passed before any schedule was found
    kBadInput = 4,        // bad option, unknown model/platform, malformed profile or file
    kCancelled = 5,       // interrupted (SIGINT) before any schedule was found
    kInvalidSchedule = 6, // `poet validate`: the replay rejected the schedule
};

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ProblemArgs {
    std::string model = "resnet18_cifar";
    std::string platform = "a72";
    int batch_size = 0;              // 0: the profile's default
    std::string ram_budget;          // bytes, or with a suffix: 3000000, 3MB, 2.9MiB, 60% (of plain-pass peak)
    double runtime_budget = 1.0;     // factor of one plain pass
    bool no_paging = false;
    bool no_remat = false;
};

// Adds --model --platform --batch-size --ram-budget --runtime-budget --no-paging --no-remat.
void addProblemOptions(CLI::App* cmd, ProblemArgs& args, bool require_budget = true);

// Loads profiles and builds the problem; throws BadInput with a message that
// names the bad option, file, line and field.
Problem loadProblem(const ProblemArgs& args);

// Seconds with six decimals, "0.062925", and in six digits past a million,
// "4.14982e+306": a runtime budget of 1e308x printed 300 digits.
std::string formatSeconds(double seconds);

// The first two lines of `poet solve` and `poet info`: the problem, and the
// budgets asked for (also where nothing answers them), the budgets' figures
// starting at column `width`. A note goes inside the RAM or the runtime's
// parentheses ("below the smallest there is").
void printProblemAndBudgets(const Problem& p, int width, const std::string& ram_note = {},
                            const std::string& runtime_note = {});

// Checks for numeric options whose failures say what is wanted and what came:
// "--time-limit: must be a positive number, got '-1'". CLI11's own
// PositiveNumber prints its range to 1.8e308 in full (and calls 0 out of
// "range 0 to ..."), and a word where a number belongs only "Could not convert".
CLI::Validator positiveNumber();
CLI::Validator positiveWholeNumber();
CLI::Validator fractionFrom0To1();  // a relative gap: 0.005 = 0.5%
CLI::Validator wholeNumberFrom(int lo, int hi);  // --threads, --points ("Value 0 not in range 1 to 64")
// A path option given as "" (a script's unset variable) is refused, not
// read as left out: `--out ""` wrote nothing and said nothing. `what`: "a
// file name", "a directory".
CLI::Validator nonEmptyPath(const char* what);

// Whether an output option names standard output: "-", or a name of the
// file fd 1 is (/dev/stdout, or through `>> log.txt` log.txt itself). Such
// an output is written to fd 1 as it is, and what the command prints beside
// it goes to stderr: /dev/stdout was renamed over, so `>> log.txt` lost the
// log, and a pipe got the summary after the JSON.
bool namesStandardOutput(const std::string& path);

// Throws BadInput ("--out: x.json: is a directory") unless `path`, the value
// of `option`, can be written: checked before a solve or a sweep, not after.
void checkOutputFile(const std::string& option, const std::string& path);

// Throws BadInput ("--cache-dir: x: is not a directory") unless `path` is a
// directory this process can write, created where missing: checked before
// the work (a file there, or /proc/x, lost every answer without a word).
void checkCacheDirectory(const std::string& path);

}  // namespace poet::cli
