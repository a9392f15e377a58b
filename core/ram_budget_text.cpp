#include "ram_budget_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <system_error>

namespace poet {

namespace {

// The number and the unit (lower case, "" for none) of a budget as typed.
struct TypedBudget {
    double value = 0;
    std::string unit;
};

std::optional<TypedBudget> splitRamBudget(const std::string& text)
{
    // Commas only as thousands separators: "2,5MB" is not 25 MB.
    static const std::regex re(
        R"(\s*((?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z%]*)\s*)");
    std::smatch m;
    if (!std::regex_match(text, m, re)) return std::nullopt;
    std::string number = m[1].str();
    number.erase(std::remove(number.begin(), number.end(), ','), number.end());
    // from_chars, not strtod or stod: the explorer runs in the user's locale
    // (QApplication sets it), where strtod reads "2.5" as 2 with a decimal
    // comma; and out of range ("1e400") is an answer, not an exception. It
    // must read all of it ("e5" it does not read at all).
    double value = 0;
    const char* const last = number.data() + number.size();
    const auto [end, error] = std::from_chars(number.data(), last, value);
    if (error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
    std::string unit = m[2].str();
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
    return TypedBudget{value, unit};
}

}  // namespace

std::optional<std::int64_t> parseRamBudget(const std::string& text, std::int64_t plain_peak_bytes)
{
    const auto typed = splitRamBudget(text);
    if (!typed) return std::nullopt;
    const double value = typed->value;
    const std::string& unit = typed->unit;
    double bytes = value;
    if (unit == "%") {
        if (plain_peak_bytes <= 0) return std::nullopt;
        bytes = value / 100.0 * static_cast<double>(plain_peak_bytes);
    } else if (unit == "k" || unit == "kb") bytes = value * 1e3;
    else if (unit == "m" || unit == "mb") bytes = value * 1e6;
    else if (unit == "g" || unit == "gb") bytes = value * 1e9;
    else if (unit == "kib") bytes = value * 1024.0;
    else if (unit == "mib") bytes = value * 1024.0 * 1024.0;
    else if (unit == "gib") bytes = value * 1024.0 * 1024.0 * 1024.0;
    else if (!unit.empty() && unit != "b") return std::nullopt;
    bytes = std::floor(bytes);
    if (!(bytes >= 1) || bytes > 9e18) return std::nullopt;
    return static_cast<std::int64_t>(bytes);
}

bool isFractionalByteCount(const std::string& text)
{
    const auto typed = splitRamBudget(text);
    return typed && (typed->unit.empty() || typed->unit == "b") && typed->value != std::floor(typed->value);
}

}  // namespace poet
