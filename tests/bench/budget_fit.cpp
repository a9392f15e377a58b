// Where a schedule stops fitting at a smaller RAM budget (not a test): a
// schedule proven at one budget is a candidate at a tighter one, and the
// stages it exceeds there, with what it holds at each, say what a repair
// would have to give up. bert on m4 at 1.5x: the 10.75% schedule is 22 KB
// over at 10.65%, at ten backward stages; at the first, six 1.57 MB values
// wait for the chain recomputed at the next stage. Reads a schedule file (`poet
// solve --out`) and a budget as the command line takes it ("10.65%",
// "40296775", "40MB").
//
//   budget_fit schedule.json 10.65%
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "heap_tuning.h"
#include "problem_loader.h"
#include "ram_budget_text.h"
#include "replay.h"
#include "schedule_file.h"

using namespace poet;

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    if (argc != 3) {
        std::fprintf(stderr, "usage: budget_fit schedule.json budget\n");
        return 4;
    }
    const std::optional<ScheduleFile> file = readScheduleFile(argv[1]);
    if (!file) return 4;
    const auto& [loaded, g] = *file;
    const Schedule& s = loaded.schedule;
    const std::optional<std::int64_t> budget = parseRamBudget(argv[2], plainPassPeakBytes(g));
    if (!budget) {
        std::fprintf(stderr, "budget_fit: \"%s\" is not a RAM budget (bytes, a unit such as MB, or a %%)\n", argv[2]);
        return 4;
    }
    // No RAM limit here: the point is how far over the budget it goes.
    const ReplayReport replay = replaySchedule(g, s);
    if (!replay.valid) {
        std::fprintf(stderr, "%s: not a valid schedule: %s\n", argv[1], replay.errors.front().c_str());
        return 4;
    }
    std::printf("# %s on %s, %.9f J, peak %lld B; at %lld B:\n", loaded.model.c_str(), loaded.platform.c_str(),
                replay.total_energy_j, static_cast<long long>(replay.peak_ram_bytes), static_cast<long long>(*budget));
    const int n = g.size();
    int over_stages = 0;
    for (int t = 0; t < n; ++t) {
        const auto& trace = replay.ram_trace[t];
        const auto most = std::max_element(trace.begin(), trace.end());
        if (most == trace.end() || *most <= *budget) continue;
        ++over_stages;
        std::printf("stage %d %s: %lld B over (after %s)\n", t, g.node(t).name.c_str(),
                    static_cast<long long>(*most - *budget), g.node(static_cast<int>(most - trace.begin())).name.c_str());
        // What it holds from the stage's start, and when each is next read.
        for (int i = 0; i < t; ++i) {
            if (!s.S_RAM(t, i)) continue;
            const auto& readers = g.successors(i);
            int next = -1;
            for (int u = t; u < n && next < 0; ++u)
                if (std::any_of(readers.begin(), readers.end(), [&](int j) { return s.R(u, j); })) next = u;
            std::printf("  %-32s %10lld B  %s\n", g.node(i).name.c_str(), static_cast<long long>(g.node(i).memory_bytes),
                        next < 0 ? "not read again" : ("next read at stage " + std::to_string(next)).c_str());
        }
    }
    std::printf("# %d stage(s) over the budget\n", over_stages);
    return 0;
}
