#pragma once
// Numbers as people read them: bytes in B / kB / MB (decimal, like the
// budgets in the paper: 3.0 MB = 3,000,000 B), energies in J / mJ, times in
// s / ms. Qt-free, so the cell words and captions can use it too.
#include <cstdint>
#include <string>

namespace poet::ui {

std::string formatBytes(std::int64_t bytes);        // "512 B", "64.0 kB", "2.45 MB"
// The same rounded down, for "≥" figures: 1,048,576 B is "1.04 MB" (formatBytes
// rounds it up to 1.05 MB, and "min ≥ 1.05 MB" was false).
std::string formatBytesDown(std::int64_t bytes);
std::string formatBytesExact(std::int64_t bytes);   // "2,451,072 B"
std::string formatEnergy(double joules);            // "7.8895 J", "12.3 mJ"
// An energy in the unit (and decimals) formatEnergy gives `like`: one
// column of a table in one unit ("0.0383 J" under "3.4407 J", not
// "38.296 mJ"; "0 mJ" among mJ figures, not "0 J").
std::string formatEnergyLike(double joules, double like);
std::string formatSeconds(double seconds);          // "1.234 s", "12.3 ms"
// The same, in hours too from an hour on, where a label has room (m0's plain
// pass read "23942.451 s"): "23942.451 s (6.65 h)".
std::string formatSecondsAndHours(double seconds);
std::string formatFactor(double factor);            // a runtime budget: "1.50x", "1.002x", "1.0005x"
std::string formatRatio(double ratio);              // a measured ratio: "1.50x", "1.036x", "0.194x"
// A relative gap in percent: two significant digits below 1 % (0.014 % is
// not "0.01 %", the target it missed), three above: "0.014 %", "0.5 %",
// "1.23 %", "5 %"; below 0.001 % "< 0.001 %" (not "9.7e-08 %").
std::string formatGapPercent(double gap);

}  // namespace poet::ui
