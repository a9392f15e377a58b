#include "units.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace poet::ui {

namespace {
// v with `decimals` digits after a decimal point, then the unit. to_chars, not
// printf: printf follows the C locale, and the explorer runs in the user's.
std::string fixed(double v, int decimals, const char* unit) {
    char buf[64];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals).ptr) + unit;
}

// `round` takes the scaled value and its decimals to the value shown.
std::string bytesIn3Digits(std::int64_t bytes, double (*round)(double v, int decimals)) {
    const double b = static_cast<double>(bytes);
    const double a = std::fabs(b);
    if (a < 1000) return std::to_string(bytes) + " B";
    auto in = [&](double scale, int decimals, const char* unit) {
        return fixed(round(b / scale, decimals), decimals, unit);
    };
    if (a < 1e6) return in(1e3, a < 1e4 ? 2 : 1, " kB");
    if (a < 1e9) return in(1e6, a < 1e7 ? 2 : 1, " MB");
    return in(1e9, 2, " GB");
}
}  // namespace

std::string formatBytes(std::int64_t bytes) {
    return bytesIn3Digits(bytes, [](double v, int) { return v; });  // to_chars rounds to nearest
}

std::string formatBytesDown(std::int64_t bytes) {
    return bytesIn3Digits(bytes, [](double v, int decimals) {
        const double scale = std::pow(10.0, decimals);
        return std::floor(v * scale * (1 + 1e-12)) / scale;  // 1.05 MB stays 1.05, not 1.04
    });
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

namespace {
struct EnergyUnit {
    double scale;
    int decimals;
    const char* name;
};
EnergyUnit energyUnitFor(double joules) {
    const double a = std::fabs(joules);
    if (a >= 1) return {1, 4, " J"};
    if (a >= 1e-3) return {1e3, 3, " mJ"};
    return {1e6, 3, " \xC2\xB5J"};
}
}  // namespace

std::string formatEnergy(double joules) {
    if (joules == 0) return "0 J";
    return formatEnergyLike(joules, joules);
}

std::string formatEnergyLike(double joules, double like) {
    const EnergyUnit u = energyUnitFor(like);
    if (joules == 0) return std::string("0") + u.name;
    return fixed(joules * u.scale, u.decimals, u.name);
}

std::string formatSeconds(double seconds) {
    const double a = std::fabs(seconds);
    if (a >= 1) return fixed(seconds, 3, " s");
    if (a >= 1e-3) return fixed(seconds * 1e3, 2, " ms");
    if (a == 0) return "0 s";
    return fixed(seconds * 1e6, 1, " \xC2\xB5s");
}

std::string formatSecondsAndHours(double seconds) {
    if (std::fabs(seconds) < 3600) return formatSeconds(seconds);
    return formatSeconds(seconds) + " (" + fixed(seconds / 3600, 2, " h)");
}

// Up to four decimals, as the runtime box takes them: 1.001 to 1.005 are
// budgets of their own (a few recomputations fit), not 1.00, and the
// benchmarks' 1.0005 is not 1.000. At least two: "1.50x".
std::string formatFactor(double factor) {
    std::string s = fixed(factor, 4, "");
    for (int i = 0; i < 2 && s.back() == '0'; ++i) s.pop_back();
    return s + "x";
}

// Three decimals where the third says something (a schedule running 1.004x
// a plain pass is not "1.00x").
std::string formatRatio(double ratio) {
    std::string s = fixed(ratio, 3, "");
    if (s.back() == '0') s.pop_back();
    return s + "x";
}

std::string formatGapPercent(double gap) {
    const double percent = gap * 100;
    // A solver's rounding ("9.7e-08 %") is no figure to read.
    if (percent > 0 && percent < 0.001) return "< 0.001 %";
    char buf[64];
    const int digits = percent >= 1 ? 3 : 2;
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, percent, std::chars_format::general, digits).ptr) +
           " %";
}

}  // namespace poet::ui
