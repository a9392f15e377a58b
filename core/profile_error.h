#pragma once
// An error in a user-editable profile (model or platform YAML): it names the
// file, the 1-based line and column, and the field, so a user can fix it.
#include <stdexcept>
#include <string>

namespace poet {

class ProfileError : public std::runtime_error {
public:
    ProfileError(std::string file, int line, int column, std::string field, const std::string& what);
    const std::string& file() const { return file_; }
    int line() const { return line_; }      // 1-based, 0 when unknown
    int column() const { return column_; }  // 1-based, 0 when unknown
    const std::string& field() const { return field_; }

private:
    std::string file_;
    int line_;
    int column_;
    std::string field_;
};

}  // namespace poet
