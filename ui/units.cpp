#include "units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace poet::ui {

namespace {
std::string printf1(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}
}  // namespace

std::string formatBytes(std::int64_t bytes) {
    const double b = static_cast<double>(bytes);
    const double a = std::fabs(b);
    if (a < 1000) return std::to_string(bytes) + " B";
    if (a < 1e6) return printf1(a < 1e4 ? "%.2f KB" : "%.1f KB", b / 1e3);
    if (a < 1e9) return printf1(a < 1e7 ? "%.2f MB" : "%.1f MB", b / 1e6);
    return printf1("%.2f GB", b / 1e9);
}

std::string formatBytesExact(std::int64_t bytes) {
    std::string digits = std::to_string(bytes < 0 ? -bytes : bytes);
    std::string out;
    int n = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it, ++n) {
        if (n > 0 && n % 3 == 0) out.push_back(',');
        out.push_back(*it);
    }
    if (bytes < 0) out.push_back('-');
    std::reverse(out.begin(), out.end());
    return out + " B";
}

std::string formatEnergy(double joules) {
    const double a = std::fabs(joules);
    if (a == 0) return "0 J";
    if (a >= 1) return printf1("%.4f J", joules);
    if (a >= 1e-3) return printf1("%.3f mJ", joules * 1e3);
    return printf1("%.3f \xC2\xB5J", joules * 1e6);
}

std::string formatSeconds(double seconds) {
    const double a = std::fabs(seconds);
    if (a >= 1) return printf1("%.3f s", seconds);
    if (a >= 1e-3) return printf1("%.2f ms", seconds * 1e3);
    if (a == 0) return "0 s";
    return printf1("%.1f \xC2\xB5s", seconds * 1e6);
}

std::string formatRatio(double ratio) { return printf1("%.2fx", ratio); }

std::optional<std::int64_t> parseBytes(const std::string& raw, std::int64_t plain_peak_bytes) {
    std::string text;
    for (char c : raw)
        if (!std::isspace(static_cast<unsigned char>(c)) && c != ',' && c != '_') text.push_back(c);
    if (text.empty()) return std::nullopt;
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (...) {
        return std::nullopt;
    }
    std::string unit = text.substr(used);
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
    double factor = 1;
    if (unit.empty() || unit == "b") factor = 1;
    else if (unit == "k" || unit == "kb") factor = 1e3;
    else if (unit == "m" || unit == "mb") factor = 1e6;
    else if (unit == "g" || unit == "gb") factor = 1e9;
    else if (unit == "kib") factor = 1024.0;
    else if (unit == "mib") factor = 1024.0 * 1024.0;
    else if (unit == "gib") factor = 1024.0 * 1024.0 * 1024.0;
    else if (unit == "%") {
        if (plain_peak_bytes <= 0) return std::nullopt;
        factor = static_cast<double>(plain_peak_bytes) / 100.0;
    } else
        return std::nullopt;
    const double bytes = value * factor;
    if (!std::isfinite(bytes) || bytes < 0 || bytes > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(bytes));
}

}  // namespace poet::ui
