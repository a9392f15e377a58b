#include "units.h"

#include <algorithm>
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

}  // namespace poet::ui
