#include "cli_stdout_guard.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace poet::cli {

StdoutAside::StdoutAside(bool to_stderr)
{
    std::cout.flush();  // what was printed before goes where it was meant to
    std::fflush(stdout);
    // A closed stdout (`>&-`) stays closed, so that the answer's write fails
    // and says so: /dev/null opened as fd 1 took its place, and the answer
    // went there with exit 0.
    if (::fcntl(STDOUT_FILENO, F_GETFD) < 0) return;
    // To stderr where it is open: closed (`2>&-`), the summary stayed on
    // stdout after the schedule `--out -` wrote there.
    const bool stderr_open = ::fcntl(STDERR_FILENO, F_GETFD) >= 0;
    const int to = to_stderr && stderr_open ? STDERR_FILENO : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (to < 0) return;
    saved_stdout_ = ::dup(STDOUT_FILENO);
    if (saved_stdout_ >= 0) ::dup2(to, STDOUT_FILENO);
    if (to != STDERR_FILENO) ::close(to);
}

StdoutAside::~StdoutAside()
{
    std::cout.flush();
    std::fflush(stdout);
    if (saved_stdout_ < 0) return;
    ::dup2(saved_stdout_, STDOUT_FILENO);
    ::close(saved_stdout_);
}

}  // namespace poet::cli
