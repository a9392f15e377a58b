// Random problems solved by the whole pipeline and by formulation.md's
// Reference build, bare: where they disagree (tests/core/reference_agreement.h
// says on what), and how much faster the pipeline proves the optimum, as the
// median of per-problem ratios in one run. tst_random_agreement runs 280 small
// ones in CTest; this runs as many and as large as asked:
//   differential --seed 1000 --count 500 --nodes 10,16 --bytes 32 --limit 20
// A disagreement prints the problem's seed: `--seed S --count 1` (with the
// same --nodes and --bytes) rebuilds it.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "heap_tuning.h"
#include "median.h"
#include "random_problems.h"
#include "reference_agreement.h"

using namespace poet;
using namespace poet::test;

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    std::uint64_t seed = 1;
    int count = 100;
    RandomProblemShape shape;
    double limit = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        try {
            if (a == "--seed") seed = std::stoull(next());
            else if (a == "--count") count = std::stoi(next());
            else if (a == "--nodes") {
                const std::string range = next();
                shape.min_nodes = std::stoi(range);
                shape.max_nodes = std::stoi(range.substr(range.find(',') + 1));
            } else if (a == "--bytes") shape.max_bytes = std::stoll(next());
            else if (a == "--limit") limit = std::stod(next());
            else {
                std::fprintf(stderr, "unknown argument %s\n", a.c_str());
                return 4;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s takes a number (--nodes: two, as 10,16)\n", a.c_str());
            return 4;
        }
    }
    if (count < 1 || shape.min_nodes < 2 || shape.max_nodes < shape.min_nodes || shape.max_bytes < 1 || limit <= 0) {
        std::fprintf(stderr, "--count >= 1, --nodes from 2 up, --bytes >= 1, --limit > 0\n");
        return 4;
    }

    const std::vector<PipelineRun> runs = {{0.0, 1}, {0.0, 2}, {0.005, 2}};
    std::map<std::string, int> kinds;
    int disagreeing = 0, unfinished = 0;
    // Speed-up: the Reference's time over the pipeline's (gap 0, 2 threads).
    std::vector<double> referenceTimes, speedups;
    for (std::uint64_t s = seed; s < seed + static_cast<std::uint64_t>(count); ++s) {
        const RandomProblem random = randomProblem(s, shape);
        ++kinds[random.kind];
        const Agreement a = compareWithReference(random.problem, runs, limit);
        const bool finished =
            a.reference.status == SolveStatus::Optimal || a.reference.status == SolveStatus::Infeasible;
        if (!finished) ++unfinished;
        else {
            referenceTimes.push_back(a.reference.solve_time_s);
            speedups.push_back(a.reference.solve_time_s / std::max(a.pipeline[1].solve_time_s, 1e-4));
        }
        // A Reference that did not finish is counted apart: its last line,
        // "nothing to compare", is no disagreement (it was counted as one).
        if (a.disagreements.size() == (finished ? 0u : 1u)) continue;
        ++disagreeing;
        std::printf("seed %llu: %s\n", static_cast<unsigned long long>(s), random.text().c_str());
        for (const std::string& d : a.disagreements) std::printf("  %s\n", d.c_str());
        std::fflush(stdout);
    }
    std::printf("%d problems (", count);
    for (const auto& [kind, n] : kinds)
        std::printf("%s%s %d", kind == kinds.begin()->first ? "" : ", ", kind.c_str(), n);
    std::printf("), %d to %d nodes, up to %lld B: %d disagree, %d the Reference did not finish\n", shape.min_nodes,
                shape.max_nodes, static_cast<long long>(shape.max_bytes), disagreeing, unfinished);
    if (referenceTimes.empty())
        std::printf("Reference to the optimum: none finished\n");
    else
        std::printf("Reference to the optimum: median %.3f s, slowest %.3f s; pipeline (gap 0, 2 threads, one core "
                    "up to %d nodes) faster by a median %.1fx\n",
                    median(referenceTimes), *std::max_element(referenceTimes.begin(), referenceTimes.end()),
                    kOneCoreMostNodes, median(speedups));
    return disagreeing ? 1 : 0;
}
