#pragma once
// Deadlines from times in seconds, as the options and the searches give them.
#include <chrono>

namespace poet {

// `seconds` after `t`, on the steady clock every search measures time with.
inline std::chrono::steady_clock::time_point secondsAfter(std::chrono::steady_clock::time_point t, double seconds)
{
    return t + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace poet
