// Where a schedule brings a value back more than once between two of its
// reads (not a test). The checkpoint bound (checkpoint_bound.h) charges one
// return per value and interval between reads, so these repeats are what it
// cannot see: a gap that they account for needs a stronger bound, not a
// better schedule. Reads a schedule file (`poet solve --out`), prints its
// energy by kind, then each value and interval with two returns or more:
// the stages of the returns and what they cost beyond the cheapest one.
//
//   return_map schedule.json
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "heap_tuning.h"
#include "schedule_file.h"

using namespace poet;

namespace {

struct Return {
    int stage;
    double energy_j;
};

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    if (argc != 2) {
        std::fprintf(stderr, "usage: return_map schedule.json\n");
        return 4;
    }
    const std::optional<ScheduleFile> file = readScheduleFile(argv[1]);
    if (!file) return 4;
    const auto& [loaded, g] = *file;
    const Schedule& s = loaded.schedule;
    const int n = g.size();
    double recompute_j = 0, pagein_j = 0, pageout_j = 0;
    std::map<std::pair<int, int>, std::vector<Return>> returns;  // (value, interval) -> its returns
    for (int i = 0; i < n; ++i) {
        // Interval k of i ends at its k-th read; a return is usable from its
        // stage (a recomputation) or the next (a page-in).
        const auto& reads = g.successors(i);  // ascending
        auto interval = [&](int stage) {
            return static_cast<int>(std::lower_bound(reads.begin(), reads.end(), stage) - reads.begin());
        };
        for (int t = 0; t < n; ++t) {
            const Node& v = g.node(i);
            if (s.R(t, i) && t != i) {
                recompute_j += v.compute_energy_j;
                returns[{i, interval(t)}].push_back({t, v.compute_energy_j});
            }
            if (s.M_in(t, i)) {
                pagein_j += v.pagein_energy_j;
                returns[{i, interval(t + 1)}].push_back({t, v.pagein_energy_j});
            }
            if (s.M_out(t, i)) pageout_j += v.pageout_energy_j;
        }
    }
    const double plain_j = g.totalComputeEnergy();
    std::printf("# %s on %s at %lld B, %.2fx: %.9f J = plain pass %.9f + recomputation %.9f + page-in %.9f + page-out %.9f\n",
                loaded.model.c_str(), loaded.platform.c_str(), static_cast<long long>(loaded.ram_budget_bytes),
                loaded.runtime_budget_factor, plain_j + recompute_j + pagein_j + pageout_j, plain_j, recompute_j,
                pagein_j, pageout_j);
    struct Line {
        double repeat_j;
        int value, interval;
        std::vector<Return> returns;
    };
    std::vector<Line> lines;
    for (const auto& [key, list] : returns) {
        if (list.size() < 2) continue;
        double all = 0, cheapest = list.front().energy_j;
        for (const Return& r : list) {
            all += r.energy_j;
            cheapest = std::min(cheapest, r.energy_j);
        }
        lines.push_back({all - cheapest, key.first, key.second, list});
    }
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.repeat_j > b.repeat_j; });
    std::printf("%-32s %8s %7s %12s  %s\n", "value", "interval", "returns", "repeat_J", "stages");
    double repeat_all = 0;
    for (const Line& l : lines) {
        repeat_all += l.repeat_j;
        std::printf("%-32s %8d %7zu %12.9f ", g.node(l.value).name.c_str(), l.interval, l.returns.size(), l.repeat_j);
        for (const Return& r : l.returns) std::printf(" %d", r.stage);
        std::printf("\n");
    }
    std::printf("# %.9f J in repeated returns, over %zu values and intervals\n", repeat_all, lines.size());
    return 0;
}
