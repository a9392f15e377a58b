#include "explorer_terminate.h"

#include <QApplication>
#include <QSocketNotifier>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace poet::app {

namespace {

int signalSocket[2] = {-1, -1};

void onTerminate(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(signalSocket[0], &byte, 1);
}

}  // namespace

void closeWindowsOnTerminate(QObject* parent)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalSocket) != 0) return;  // the default stays: no worse than before
    auto* notifier = new QSocketNotifier(signalSocket[1], QSocketNotifier::Read, parent);
    QObject::connect(notifier, &QSocketNotifier::activated, parent, [] {
        char byte = 0;
        [[maybe_unused]] const ssize_t n = ::read(signalSocket[1], &byte, 1);
        // A second one ends the process as before, should closing hang.
        std::signal(SIGTERM, SIG_DFL);
        std::signal(SIGHUP, SIG_DFL);
        QApplication::closeAllWindows();
    });
    struct sigaction action {};
    action.sa_handler = onTerminate;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGHUP, &action, nullptr);
}

}  // namespace poet::app
