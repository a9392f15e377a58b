#include "cli_stdout_guard.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace poet::cli {

StdoutToStderr::StdoutToStderr()
{
    std::cout.flush();  // what was printed before goes where it was meant to
    std::fflush(stdout);
    saved_stdout_ = ::dup(STDOUT_FILENO);
    if (saved_stdout_ >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
}

StdoutToStderr::~StdoutToStderr()
{
    std::cout.flush();
    std::fflush(stdout);
    if (saved_stdout_ < 0) return;
    ::dup2(saved_stdout_, STDOUT_FILENO);
    ::close(saved_stdout_);
}

}  // namespace poet::cli
