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
};

class ProfileCatalog {
public:
    // Search order: $POET_PROFILES (colon-separated), ~/.local/share/poet/profiles,
    // then the bundled directory. A later directory never shadows an earlier one.
    static ProfileCatalog standard();
    explicit ProfileCatalog(std::vector<std::filesystem::path> roots);

    std::vector<ProfileEntry> models() const;
    std::vector<ProfileEntry> platforms() const;
    // Throws std::invalid_argument listing the known names when `name` is unknown.
    std::filesystem::path modelFile(const std::string& name) const;
    std::filesystem::path platformFile(const std::string& name) const;
    const std::vector<std::filesystem::path>& roots() const { return roots_; }

private:
    std::vector<ProfileEntry> list(const char* subdir) const;
    std::filesystem::path find(const char* subdir, const char* what, const std::string& name) const;
    std::vector<std::filesystem::path> roots_;
};

}  // namespace poet
