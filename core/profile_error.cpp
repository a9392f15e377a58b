#include "profile_error.h"

namespace poet {

static std::string formatProfileError(const std::string& file, int line, int column, const std::string& field,
                                      const std::string& what)
{
    std::string s = file;
    if (line > 0) {
        s += ":" + std::to_string(line);
        if (column > 0) s += ":" + std::to_string(column);
    }
    s += ": ";
    if (!field.empty()) s += "field '" + field + "': ";
    s += what;
    return s;
}

ProfileError::ProfileError(std::string file, int line, int column, std::string field, const std::string& what)
    : std::runtime_error(formatProfileError(file, line, column, field, what)),
      file_(std::move(file)), line_(line), column_(column), field_(std::move(field))
{
}

}  // namespace poet
