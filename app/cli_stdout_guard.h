#pragma once
// While a StdoutAside lives, what is written to stdout (file descriptor 1)
// goes to stderr, or nowhere: the CLI's stdout carries its answer alone
// (JSON, the sweep's CSV), and COIN-OR prints to stdout with printf
// whatever its log level. vgg16 at batch 10,000,000 put 73 lines of
// CglTwomir's "2mir_test: why does constraint not exist ?" before `poet
// solve --json`'s document, which no JSON reader then read; a sweep's
// progress on stderr had "Cbc0012I Integer solution ... found by Unknown"
// lines among it. With --log they go to stderr beside CBC's log; without,
// nowhere.
namespace poet::cli {

class StdoutAside {
public:
    explicit StdoutAside(bool to_stderr);
    ~StdoutAside();
    StdoutAside(const StdoutAside&) = delete;
    StdoutAside& operator=(const StdoutAside&) = delete;

private:
    int saved_stdout_ = -1;
};

}  // namespace poet::cli
