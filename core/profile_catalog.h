#pragma once
// Finds model and platform profiles: the bundled ones and the ones a user adds
// (a user adds a network or a platform by adding a YAML file, no recompile).
#include <filesystem>
#include <string>
#include <vector>

namespace poet {

struct ProfileEntry {
    std::string name;  // file stem
    std::filesystem::path file;
    // Files of the same name in later roots, which this one hides (a user's
    // linear.yaml replaces the bundled one).
    std::vector<std::filesystem::path> hides;
};

// A root the user named ($POET_PROFILES) that gives no profiles, and why.
struct UnusableRoot {
    std::filesystem::path root;
    std::string why;  // "no such directory", "not a directory", "no models/ or platforms/ folder in it"
};

// Whether `name` names a profile by its file rather than by its name in the
// catalog: it holds a '/' or ends in .yaml or .yml (`--model ./mine.yaml`).
bool namesProfileFile(const std::string& name);
// How a profile is named in titles and file names: a file by its stem
// ("/home/me/bert24.yaml" is "bert24"), a catalog name as it is.
std::string profileShownName(const std::string& name);

class ProfileCatalog {
public:
    // Search order: $POET_PROFILES (colon-separated), ~/.local/share/poet/profiles,
    // then the bundled directory. A later directory never shadows an earlier one.
    static ProfileCatalog standard();
    // `named_roots`: how many of the first roots the user named ($POET_PROFILES),
    // whose absence is worth saying (the others are defaults that may be missing).
    explicit ProfileCatalog(std::vector<std::filesystem::path> roots, std::size_t named_roots = 0);

    std::vector<ProfileEntry> models() const;
    std::vector<ProfileEntry> platforms() const;
    // Throws std::invalid_argument listing the known names when `name` is unknown.
    std::filesystem::path modelFile(const std::string& name) const;
    std::filesystem::path platformFile(const std::string& name) const;
    const std::vector<std::filesystem::path>& roots() const { return roots_; }
    // The roots the user named that give no profiles: a mistyped
    // POET_PROFILES, or one that names a models/ folder itself.
    std::vector<UnusableRoot> unusableNamedRoots() const;
    // "POET_PROFILES names /a: no such directory; /b: ...", or empty.
    std::string unusableNamedRootsText() const;

private:
    std::vector<ProfileEntry> list(const char* subdir) const;
    std::filesystem::path find(const char* subdir, const char* what, const std::string& name) const;
    std::vector<std::filesystem::path> roots_;
    std::size_t named_roots_ = 0;
};

}  // namespace poet
