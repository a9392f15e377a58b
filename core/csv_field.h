#pragma once
// One CSV field (RFC 4180): quoted where a comma, quote or line break would
// split it, its quotes doubled. Node, model and platform names are free
// text in a profile, so every CSV the project writes passes them through here.
#include <string>

namespace poet {

inline std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace poet
