// `poet`: the command line face of the core. Each subcommand lives in its own
// cmd_*.cpp; this file only registers them and maps errors to exit codes.
#include <iostream>

#include "cli_commands.h"
#include "cli_common.h"

int main(int argc, char** argv)
{
    using namespace poet::cli;
    CLI::App app{"poet: energy-optimal training schedules under RAM and runtime budgets "
                 "(rematerialization + paging, POET ICML 2022) with COIN-OR CBC"};
    app.footer(
        "Exit codes: 0 solved (optimal or feasible), 1 internal error, 2 infeasible (proven), "
        "3 no schedule within the time limit, 4 bad input, 5 cancelled, 6 schedule rejected by the replay.");
    app.require_subcommand(1);
    int exit_code = kSolved;
    addSolveCommand(app, exit_code);
    addValidateCommand(app, exit_code);
    addListCommand(app, exit_code);
    addInfoCommand(app, exit_code);
    addSweepCommand(app, exit_code);
    // CLI11 answers a mistyped command ("poet slove") with "A subcommand is
    // required", which hides what was wrong.
    if (argc >= 2 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
            known = known || sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            std::cerr << "poet: unknown command '" << argv[1] << "'; the commands are " << names
                      << " (poet --help)\n";
            return kBadInput;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Named like every other message of this program ("poet: ..."), so
        // that in a script's log it says which program complained.
        app.failure_message([](const CLI::App* top, const CLI::Error& error) {
            std::string text = CLI::FailureMessage::simple(top, error);
            // An option given twice: CLI11 says "At Most 1 required but
            // received 2", which reads as if the value were wrong.
            const std::string twice = "At Most 1 required but received ";
            if (const auto at = text.find(twice); at != std::string::npos) {
                const auto end = text.find_first_not_of("0123456789", at + twice.size());
                text.replace(at, end - at,
                             "given " + text.substr(at + twice.size(), end - at - twice.size()) + " times; give it once");
            }
            return "poet: " + text;
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
    return exit_code;
}
