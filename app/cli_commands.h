#pragma once
// The `poet` subcommands, one file each (cmd_<name>.cpp). Each adds itself to
// the root app and, when it runs, sets exit_code (see cli_common.h).
#include <CLI/CLI.hpp>

namespace poet::cli {

void addSolveCommand(CLI::App& root, int& exit_code);
void addValidateCommand(CLI::App& root, int& exit_code);
void addListCommand(CLI::App& root, int& exit_code);
void addInfoCommand(CLI::App& root, int& exit_code);

}  // namespace poet::cli

// Declared outside poet::cli by its author.
void addSweepCommand(CLI::App& root, int& exit_code);
