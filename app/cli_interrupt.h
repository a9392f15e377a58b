#pragma once
// Ctrl-C for a running solve or sweep: while an InterruptWatch lives,
// SIGINT is blocked in this thread and every thread started after it, and
// one thread of its own waits for it (sigwait) and sets `flag()`.
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

private:
    std::atomic<bool> interrupted_{false}, done_{false};
    sigset_t previous_mask_;
    std::thread watcher_;
};

}  // namespace poet::cli
