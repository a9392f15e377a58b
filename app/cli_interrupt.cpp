#include "cli_interrupt.h"

#include <pthread.h>

namespace poet::cli {

namespace {

sigset_t interrupts()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

InterruptWatch::InterruptWatch()
{
    const sigset_t set = interrupts();
    pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
    watcher_ = std::thread([this, set] {
        for (int signal = 0; !done_;)
            if (sigwait(&set, &signal) == 0 && !done_) {
                int none = 0;
                signal_.compare_exchange_strong(none, signal);  // the first one names it
                interrupted_ = true;
            }
    });
}

const char* InterruptWatch::cause() const
{
    switch (signal_.load()) {
    case SIGINT: return "Ctrl-C";
    case SIGTERM: return "SIGTERM";
    default: return "";
    }
}

InterruptWatch::~InterruptWatch()
{
    done_ = true;
    pthread_kill(watcher_.native_handle(), SIGINT);  // wakes its sigwait
    watcher_.join();
    pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

}  // namespace poet::cli
