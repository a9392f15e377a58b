// Benchmark (not a test): how long a solve takes to return once cancelled,
// as the explorer cancels it when a slider moves. For one model, budget
// (fraction of the plain-pass peak) and runtime factor, each run cancels
// the solve a given number of seconds in and prints the time from the
// cancel to solve()'s return, then the median per moment (of an even
// count, the upper of the two middle figures).
//
// The solve's time limit (--limit) is 600 s unless given: the explorer's is
// 30 s by default, which gives the tight plan (plan_search.cpp) a tenth of
// it, so a cancel lands in other steps than under 600 s.
//
//   bench_cancel [--model bert] [--platform m4] [--budget 0.11 | --bytes N] [--factor 1.5]
//                [--at 2,3,4,5,6,8,12,20] [--repeat 3] [--threads 2] [--no-paging] [--limit 600]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "heap_tuning.h"
#include "named_problem.h"
#include "solver.h"

using namespace poet;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<double> numbers(const std::string& s)
{
    std::vector<double> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(std::stod(item));
    return out;
}

// Seconds from the cancel, `at` seconds into the solve, to its return.
double cancelLatency(const Problem& p, const SolverOptions& o, double at)
{
    std::atomic<bool> cancel{false};
    Clock::time_point cancelled_at{};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(at));
        cancelled_at = Clock::now();
        cancel = true;
    });
    solve(p, o, {}, &cancel);
    const auto returned = Clock::now();
    canceller.join();  // a solve over before `at` is timed from the cancel all the same: a negative figure
    return std::chrono::duration<double>(returned - cancelled_at).count();
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    named.model = "bert";
    named.budget = 0.11;
    std::vector<double> moments = {2, 3, 4, 5, 6, 8, 12, 20};
    int repeat = 3, threads = 2;
    double limit_s = 600;  // far beyond every moment: the cancel ends each run
    bool paging = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (named.take(a, next)) continue;
        if (a == "--at") moments = numbers(next());
        else if (a == "--repeat") repeat = std::stoi(next());
        else if (a == "--threads") threads = std::stoi(next());
        else if (a == "--no-paging") paging = false;
        else if (a == "--limit") limit_s = std::stod(next());
        else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
    }
    if (repeat < 1) {
        std::fprintf(stderr, "--repeat must be at least 1\n");
        return 4;
    }
    std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    problem->options.paging = paging;
    const Problem& p = *problem;
    SolverOptions o;
    o.time_limit_s = limit_s;
    o.relative_gap = 1e-9;
    o.threads = threads;
    std::printf("# %s on %s, %lld B, %.2fx, %d thread(s)%s, limit %g s: seconds from the cancel to the return\n",
                p.model.c_str(), p.platform.c_str(), static_cast<long long>(p.ram_budget_bytes),
                p.runtime_budget_factor, threads, paging ? "" : ", no paging", limit_s);
    std::printf("%8s %9s %s\n", "at_s", "median_s", "runs_s");
    std::vector<double> all;
    for (double at : moments) {
        std::vector<double> runs;
        for (int r = 0; r < repeat; ++r) runs.push_back(cancelLatency(p, o, at));
        all.insert(all.end(), runs.begin(), runs.end());
        std::vector<double> sorted = runs;
        std::sort(sorted.begin(), sorted.end());
        std::printf("%8.2f %9.3f", at, sorted[sorted.size() / 2]);
        for (double s : runs) std::printf(" %.3f", s);
        std::printf("\n");
        std::fflush(stdout);
    }
    std::sort(all.begin(), all.end());
    if (!all.empty()) std::printf("# all: median %.3f s, max %.3f s\n", all[all.size() / 2], all.back());
    return 0;
}
