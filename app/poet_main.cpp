// `poet`: the command line face of the core. Each subcommand lives in its own
// cmd_*.cpp; this file only registers them and maps errors to exit codes.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <regex>
#include <string>
#include <utility>

#include "cli_commands.h"
#include "cli_common.h"
#include "heap_tuning.h"

namespace {

// CLI11's parse errors in this program's words: some read as if something
// else were wrong ("At Most 1 required but received 2" of an option given
// twice; "1 required TEXT missing" of an option with no value).
// `commands`: the subcommands' names, listed where none was given.
std::string inPlainWords(std::string text, const std::string& commands)
{
    static const std::pair<std::regex, const char*> rewrites[] = {
        {std::regex("At Most 1 required but received (\\d+)"), "given $1 times; give it once"},
        {std::regex("1 required [^\\n]* missing"), "needs a value"},
        {std::regex("The following arguments? (was|were) not expected: "), "not an option or argument here: "},
    };
    for (const auto& [pattern, words] : rewrites) text = std::regex_replace(text, pattern, words);
    static const std::regex noCommand("A subcommand is required");
    return std::regex_replace(text, noCommand, "give a command; the commands are " + commands);
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    using namespace poet::cli;
    CLI::App app{"poet: energy-optimal training schedules under RAM and runtime budgets "
                 "(rematerialization + paging, POET ICML 2022) with COIN-OR CBC"};
    app.footer(
        "Exit codes: 0 solved (optimal or feasible), 1 internal error, 2 infeasible (proven), "
        "3 no schedule within the time limit, 4 bad input, 5 interrupted (Ctrl-C or SIGTERM) before any schedule, "
        "6 schedule rejected by the replay (validate).");
    app.require_subcommand(1);
    int exit_code = kSolved;
    addSolveCommand(app, exit_code);
    addValidateCommand(app, exit_code);
    addListCommand(app, exit_code);
    addInfoCommand(app, exit_code);
    addSweepCommand(app, exit_code);
    std::string names;  // the commands, for the messages that list them
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        known = known || (argc >= 2 && sub->get_name() == argv[1]);
        names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    // CLI11 answers a mistyped command ("poet slove") with "A subcommand is
    // required", which hides what was wrong.
    if (argc >= 2 && argv[1][0] != '-' && !known) {
        std::cerr << "poet: unknown command '" << argv[1] << "'; the commands are " << names << " (poet --help)\n";
        return kBadInput;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Named like every other message of this program ("poet: ..."), so
        // that in a script's log it says which program complained.
        app.failure_message([&names](const CLI::App* top, const CLI::Error& error) {
            return "poet: " + inPlainWords(CLI::FailureMessage::simple(top, error), names);
        });
        const int code = app.exit(e);
        return code == 0 ? 0 : kBadInput;
    } catch (const BadInput& e) {
        std::cerr << "poet: " << e.what() << '\n';
        return kBadInput;
    } catch (const std::exception& e) {
        std::cerr << "poet: internal error: " << e.what() << '\n';
        return kInternalError;
    }
    // A full disk lost the answer with exit 0 (`poet solve --json > /dev/full`),
    // where `--out /dev/full` says its write failed.
    errno = 0;
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::cerr << "poet: cannot write the answer to standard output"
                  << (errno ? std::string(" (") + std::strerror(errno) + ")" : std::string()) << '\n';
        return kBadInput;
    }
    return exit_code;
}
