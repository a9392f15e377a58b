#pragma once
// Deadlines from times in seconds, as the options and the searches give
// them, and a stop flag for a search that its caller ends.
#include <atomic>
#include <chrono>
#include <thread>

namespace poet {

// The clock every search measures time with.
using Clock = std::chrono::steady_clock;

// `seconds` after `t`.
inline Clock::time_point secondsAfter(Clock::time_point t, double seconds)
{
    return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Seconds from `start` to now, on the same clock.
inline double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether a stop or cancel flag that may be absent (null) is set.
inline bool isSet(const std::atomic<bool>* flag) { return flag && flag->load(); }

// Runs `work` on the calling thread with a stop flag that is set as soon
// as `done()` holds (asked every 20 ms on a watching thread): a search
// takes one flag, its caller may have several reasons to end it.
template <class Done, class Work>
void runUntil(Done done, Work work)
{
    std::atomic<bool> stop{false}, finished{false};
    std::thread watch([&] {
        while (!finished) {
            if (done()) stop = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    work(static_cast<const std::atomic<bool>*>(&stop));
    finished = true;
    watch.join();
}

}  // namespace poet
