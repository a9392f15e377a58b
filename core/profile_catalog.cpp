// Finds model and platform profiles in the search roots (see profile_catalog.h).
#include "profile_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#ifndef POET_BUNDLED_PROFILES_DIR
#define POET_BUNDLED_PROFILES_DIR "profiles"
#endif

namespace poet {

namespace fs = std::filesystem;

ProfileCatalog ProfileCatalog::standard()
{
    std::vector<fs::path> roots;
    if (const char* env = std::getenv("POET_PROFILES")) {
        std::string s = env;
        std::size_t start = 0;
        while (start <= s.size()) {
            std::size_t end = s.find(':', start);
            if (end == std::string::npos) end = s.size();
            if (end > start) roots.emplace_back(s.substr(start, end - start));
            start = end + 1;
        }
    }
    const std::size_t named = roots.size();
    if (const char* home = std::getenv("HOME"); home && *home)
        roots.push_back(fs::path(home) / ".local" / "share" / "poet" / "profiles");
    roots.emplace_back(POET_BUNDLED_PROFILES_DIR);
    return ProfileCatalog(std::move(roots), named);
}

ProfileCatalog::ProfileCatalog(std::vector<fs::path> roots, std::size_t named_roots)
    : roots_(std::move(roots)), named_roots_(std::min(named_roots, roots_.size()))
{
}

std::vector<UnusableRoot> ProfileCatalog::unusableNamedRoots() const
{
    std::vector<UnusableRoot> unusable;
    for (std::size_t i = 0; i < named_roots_; ++i) {
        std::error_code ec;
        const fs::path& r = roots_[i];
        if (!fs::exists(r, ec)) unusable.push_back({r, "no such directory"});
        else if (!fs::is_directory(r, ec)) unusable.push_back({r, "not a directory"});
        else if (!fs::is_directory(r / "models", ec) && !fs::is_directory(r / "platforms", ec))
            unusable.push_back({r, "no models/ or platforms/ folder in it"});
    }
    return unusable;
}

std::string ProfileCatalog::unusableNamedRootsText() const
{
    std::string text;
    for (const auto& u : unusableNamedRoots())
        text += (text.empty() ? "POET_PROFILES names " : "; ") + u.root.string() + ": " + u.why;
    return text;
}

std::vector<ProfileEntry> ProfileCatalog::list(const char* subdir) const
{
    std::vector<ProfileEntry> out;
    for (const auto& root : roots_) {
        std::error_code ec;
        fs::path dir = root / subdir;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<ProfileEntry> here;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path& p = it->path();
            std::string ext = p.extension().string();
            if (ext != ".yaml" && ext != ".yml") continue;
            if (p.filename().string().front() == '.') continue;  // hidden, as everywhere
            // Listed whatever it is: a dangling link or a folder of a
            // profile's name was passed over without a word, and the bundled
            // profile of that name used; now it loads as broken and says why.
            here.push_back({p.stem().string(), p, {}});
        }
        // .yaml before .yml for the same stem, then by name: deterministic.
        std::sort(here.begin(), here.end(), [](const ProfileEntry& a, const ProfileEntry& b) {
            return a.name != b.name ? a.name < b.name : a.file.extension().string() > b.file.extension().string();
        });
        for (auto& e : here) {
            // Earlier roots win, and .yaml over .yml: the other file is hidden.
            const auto winner =
                std::find_if(out.begin(), out.end(), [&](const ProfileEntry& w) { return w.name == e.name; });
            if (winner == out.end()) out.push_back(std::move(e));
            else winner->hides.push_back(e.file);
        }
    }
    std::sort(out.begin(), out.end(), [](const ProfileEntry& a, const ProfileEntry& b) { return a.name < b.name; });
    return out;
}

std::vector<ProfileEntry> ProfileCatalog::models() const { return list("models"); }
std::vector<ProfileEntry> ProfileCatalog::platforms() const { return list("platforms"); }

bool namesProfileFile(const std::string& name)
{
    return name.find('/') != std::string::npos || name.ends_with(".yaml") || name.ends_with(".yml");
}

std::string profileShownName(const std::string& name)
{
    return namesProfileFile(name) ? fs::path(name).stem().string() : name;
}

fs::path ProfileCatalog::find(const char* subdir, const char* what, const std::string& name) const
{
    // A path to a YAML file is accepted as is.
    std::error_code ec;
    if (namesProfileFile(name)) {
        if (fs::is_regular_file(name, ec)) return fs::path(name);
        throw std::invalid_argument(std::string("no ") + what + " profile file '" + name + "'");
    }
    auto entries = list(subdir);
    for (const auto& e : entries)
        if (e.name == name) return e.file;
    std::string known;
    for (const auto& e : entries) known += (known.empty() ? "" : ", ") + e.name;
    std::string searched;
    for (const auto& r : roots_) searched += (searched.empty() ? "" : ", ") + (r / subdir).string();
    const std::string unusable = unusableNamedRootsText();
    throw std::invalid_argument(std::string("unknown ") + what + " '" + name + "'; known " + what + "s: " +
                                (known.empty() ? "none" : known) + " (searched " + (searched.empty() ? "nothing" : searched) +
                                ")" + (unusable.empty() ? "" : "; " + unusable));
}

fs::path ProfileCatalog::modelFile(const std::string& name) const { return find("models", "model", name); }
fs::path ProfileCatalog::platformFile(const std::string& name) const { return find("platforms", "platform", name); }

}  // namespace poet
