// `poet list`: the models and platforms the catalog finds.
#include <iostream>

#include "cli_commands.h"
#include "cli_common.h"
#include "profile_catalog.h"

namespace poet::cli {

void addListCommand(CLI::App& root, int& exit_code)
{
    CLI::App* cmd = root.add_subcommand("list", "List the model and platform profiles");
    cmd->callback([&exit_code] {
        const auto catalog = ProfileCatalog::standard();
        std::cout << "models:\n";
        for (const auto& m : catalog.models()) std::cout << "  " << m.name << "  (" << m.file.string() << ")\n";
        std::cout << "platforms:\n";
        for (const auto& p : catalog.platforms()) std::cout << "  " << p.name << "  (" << p.file.string() << ")\n";
        exit_code = kSolved;
    });
}

}  // namespace poet::cli
