#pragma once
// What a piece of work writes to file descriptor 2: glibc's and CBC's
// messages go there directly, not through std::cerr.
#include <cstdio>
#include <functional>
#include <string>

#include <unistd.h>

namespace poet::test {

inline std::string stderrOf(const std::function<void()>& work)
{
    std::fflush(stderr);
    FILE* sink = std::tmpfile();
    const int saved = dup(2);
    dup2(fileno(sink), 2);
    work();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    std::rewind(sink);
    char chunk[4096];
    for (std::size_t got; (got = std::fread(chunk, 1, sizeof chunk, sink)) > 0;) text.append(chunk, got);
    std::fclose(sink);
    return text;
}

}  // namespace poet::test
