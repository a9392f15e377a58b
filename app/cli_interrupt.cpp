#include "cli_interrupt.h"

#include <pthread.h>

namespace poet::cli {

namespace {

sigset_t interruptOnly()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    return set;
}

}  // namespace

InterruptWatch::InterruptWatch()
{
    const sigset_t set = interruptOnly();
    pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
    watcher_ = std::thread([this, set] {
        for (int signal = 0; !done_;)
            if (sigwait(&set, &signal) == 0 && !done_) interrupted_ = true;
    });
}

InterruptWatch::~InterruptWatch()
{
    done_ = true;
    pthread_kill(watcher_.native_handle(), SIGINT);  // wakes its sigwait
    watcher_.join();
    pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

}  // namespace poet::cli
