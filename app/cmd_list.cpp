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
        for (const auto& hidden : e.hides) std::cout << "    hides " << hidden.string() << '\n';
    }
    return broken;
}

}  // namespace

void addListCommand(CLI::App& root, int& exit_code)
{
    CLI::App* cmd = root.add_subcommand(
        "list", "List the model and platform profiles, each loaded, and the files of the same name each hides (a "
                "broken one, or a POET_PROFILES entry that gives no profiles, is named and the exit code is 4)");
    cmd->footer("Exit codes: 0 every profile loads, 4 a profile is broken or a POET_PROFILES entry gives none "
                "(both named in the list).");
    cmd->callback([&exit_code] {
        const auto catalog = ProfileCatalog::standard();
        int broken = listProfiles("models", catalog.models(),
                                  [](const std::filesystem::path& f) { return loadNetwork(f).description; });
        broken += listProfiles("platforms", catalog.platforms(),
                               [](const std::filesystem::path& f) { return loadPlatform(f).description; });
        const auto unusable = catalog.unusableNamedRoots();
        std::cout << "searched:\n";
        for (const auto& r : catalog.roots()) {
            const auto u =
                std::find_if(unusable.begin(), unusable.end(), [&](const UnusableRoot& x) { return x.root == r; });
            std::cout << "  " << r.string() << (u != unusable.end() ? "  (from POET_PROFILES: " + u->why + ")" : "")
                      << '\n';
        }
        exit_code = kSolved;
        std::vector<std::string> wrong;
        if (broken > 0) wrong.push_back(std::to_string(broken) + (broken == 1 ? " broken profile" : " broken profiles"));
        if (!unusable.empty())
            wrong.push_back(std::to_string(unusable.size()) + " POET_PROFILES " +
                            (unusable.size() == 1 ? "entry that gives no profiles" : "entries that give no profiles"));
        if (!wrong.empty()) {
            std::cerr << "poet: " << wrong.front() << (wrong.size() > 1 ? " and " + wrong.back() : "")
                      << " (named above)\n";
            exit_code = kBadInput;
        }
    });
}

}  // namespace poet::cli
