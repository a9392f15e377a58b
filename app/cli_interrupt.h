#pragma once
// Ctrl-C for a running solve or sweep: while an InterruptWatch lives,
// SIGINT and SIGTERM are blocked in this thread and every thread started
// after it, and one thread of its own waits for them (sigwait) and sets
// `flag()`. SIGTERM (timeout, systemd, a batch scheduler) ended the process
// at once (exit 143), losing the schedule and a sweep's rows done, which
// Ctrl-C keeps.
//
// Why not a signal handler: ClpSimplex::initialSolve(ClpSolve&) installs
// its own SIGINT handler and puts the one before back when it ends, so two
// of them at once on two threads (the checkpoint bound's tree beside the
// window search) can leave Clp's installed. `poet solve` on bert at 11%
// and 1.5x, interrupted at 70 s, ran on to its 120 s limit, its flag still
// unset (gdb); at 30 and 40 s it stopped.
#include <atomic>
#include <csignal>
#include <thread>

namespace poet::cli {

class InterruptWatch {
public:
    InterruptWatch();
    ~InterruptWatch();
    InterruptWatch(const InterruptWatch&) = delete;
    InterruptWatch& operator=(const InterruptWatch&) = delete;

    const std::atomic<bool>* flag() const { return &interrupted_; }
    // What stopped it, for the messages: "Ctrl-C" or "SIGTERM" ("" if nothing).
    const char* cause() const;

private:
    std::atomic<bool> interrupted_{false}, done_{false};
    std::atomic<int> signal_{0};
    sigset_t previous_mask_;
    std::thread watcher_;
};

}  // namespace poet::cli
