#pragma once
// Ctrl-C for a running solve or sweep: while an InterruptWatch lives,
// SIGINT is blocked in this thread and every thread started after it, and
// one thread of its own waits for it (sigwait) and sets `flag()`.
//
// Why not a signal handler: Clp's initialSolve installs its own SIGINT
// handler and puts the previous one back when it ends; two of them at
// once on two threads (the checkpoint bound's tree beside the window
// search) can leave Clp's installed. `poet solve` on bert at 11% and 1.5x,
// interrupted at 70 s, then ran on to its 120 s limit.
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
