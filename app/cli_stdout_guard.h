#pragma once
// While a StdoutToStderr lives, what is written to stdout (file descriptor
// 1) goes to stderr: the CLI's stdout carries its answer alone (JSON, the
// sweep's CSV), and COIN-OR's cut generators print to stdout with printf
// whatever their log level: vgg16 at batch 10,000,000 put 73 lines of
// "2mir_test: why does constraint not exist ?" before `poet solve --json`'s
// document, which no JSON reader then read.
namespace poet::cli {

class StdoutToStderr {
public:
    StdoutToStderr();
    ~StdoutToStderr();
    StdoutToStderr(const StdoutToStderr&) = delete;
    StdoutToStderr& operator=(const StdoutToStderr&) = delete;

private:
    int saved_stdout_ = -1;
};

}  // namespace poet::cli
