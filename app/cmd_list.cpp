// `poet list`: the models and platforms the catalog finds, each loaded, so
// that a broken profile shows here and not first in a solve.
#include <algorithm>
#include <functional>
#include <iostream>

#include "cli_commands.h"
#include "cli_common.h"
#include "network.h"
#include "platform.h"
#include "profile_catalog.h"

namespace poet::cli {

namespace {

// One line per profile: its name, its description or what is wrong with it,
// and its file. Returns how many are broken.
int listProfiles(const char* heading, const std::vector<ProfileEntry>& entries,
                 const std::function<std::string(const std::filesystem::path&)>& describe)
{
    int broken = 0;
    std::cout << heading << ":\n";
    for (const auto& e : entries) {
        std::string text;
        try {
            text = describe(e.file);
        } catch (const std::exception& error) {
            text = std::string("BROKEN: ") + error.what();
            ++broken;
        }
        std::cout << "  " << e.name << "  " << text << "  (" << e.file.string() << ")\n";
    }
    return broken;
}

}  // namespace

void addListCommand(CLI::App& root, int& exit_code)
{
    CLI::App* cmd = root.add_subcommand(
        "list", "List the model and platform profiles, each loaded (a broken one, or a POET_PROFILES directory that "
                "does not exist, is named and the exit code is 4)");
    cmd->callback([&exit_code] {
        const auto catalog = ProfileCatalog::standard();
        int broken = listProfiles("models", catalog.models(),
                                  [](const std::filesystem::path& f) { return loadNetwork(f).description; });
        broken += listProfiles("platforms", catalog.platforms(),
                               [](const std::filesystem::path& f) { return loadPlatform(f).description; });
        const auto missing = catalog.missingNamedRoots();
        std::cout << "searched:\n";
        for (const auto& r : catalog.roots()) {
            const bool absent = std::find(missing.begin(), missing.end(), r) != missing.end();
            std::cout << "  " << r.string() << (absent ? "  (from POET_PROFILES: no such directory)" : "") << '\n';
        }
        exit_code = kSolved;
        std::vector<std::string> wrong;
        if (broken > 0) wrong.push_back(std::to_string(broken) + (broken == 1 ? " broken profile" : " broken profiles"));
        if (!missing.empty())
            wrong.push_back(std::to_string(missing.size()) + " POET_PROFILES " +
                            (missing.size() == 1 ? "directory that does not exist" : "directories that do not exist"));
        if (!wrong.empty()) {
            std::cerr << "poet: " << wrong.front() << (wrong.size() > 1 ? " and " + wrong.back() : "")
                      << " (named above)\n";
            exit_code = kBadInput;
        }
    });
}

}  // namespace poet::cli
