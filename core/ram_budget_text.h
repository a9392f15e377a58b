#pragma once
// A RAM budget as people type it, on the command line (`--ram-budget`) and
// in the explorer: one parser for both, so that "10%" is the same number of
// bytes in a figure made with either (they differed by a byte: one rounded,
// the other rounded down).
#include <cstdint>
#include <optional>
#include <string>

namespace poet {

// Bytes ("3000000", "3,000,000", "3000000 B"), with a unit ("3MB", "3 mb",
// "3M", "737KB", "2.5MiB", "1GiB"; K, M and G are decimal, as the paper's
// budgets are) or a percentage of `plain_peak_bytes` ("30%"). A fraction of
// a byte rounds down: a budget is a most. Nothing where the text is none of
// these or the budget is not from 1 to 9e18 bytes (zero, negative, 1e400).
std::optional<std::int64_t> parseRamBudget(const std::string& text, std::int64_t plain_peak_bytes);

// Whether `text` is a count of bytes with a fraction ("1.5", read as 1 B):
// most likely a unit left out, worth a warning.
bool isFractionalByteCount(const std::string& text);

}  // namespace poet
