// Which stages a bucket bound needs (not a test): solves the bucket bound
// (bucket_bound.h) on a chosen set of stages alone, on one core, and prints
// the set, the bound and how long it took. The set is the stage-peak
// stage (or --stage S; -1 for none) and the last --tail stages over the
// budget (or every --stride-th of them from --offset), plus the stages of
// --with, plus the --busiest K stages where a schedule file recomputes
// most (as the solver adds them before a tail).
//
//   bucket_probe --model M [--platform m4] (--budget B | --bytes N) [--factor F]
//                [--stage S] [--tail 10] [--stride K --offset O] [--with 90,110]
//                [--busiest K --schedule s.json] [--cutoff J] [--seconds 30] [--moments]
//
// --cutoff is what the search must prove (what a gap asks: the best
// schedule's energy less the gap), as the solver sets it; without one the
// search runs to the bound's own optimum. --moments adds the
// recompute-moment rows the optimum breaks, as the solver's short tails
// do. Where the gap lies between tails, run several sets side by side,
// one per core: their times compare within one machine state. The worked
// example is in docs/solver.md ("Reading a gap").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bucket_bound.h"
#include "heap_tuning.h"
#include "named_problem.h"
#include "schedule_file.h"
#include "stage_bound.h"

using namespace poet;

namespace {

// "90,110" as stages; empty where any is not a number.
std::optional<std::vector<int>> parseStages(const std::string& text)
{
    std::vector<int> stages;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        try {
            std::size_t used = 0;
            stages.push_back(std::stoi(item, &used));
            if (used != item.size()) return std::nullopt;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return stages;
}

}  // namespace

int main(int argc, char** argv)
{
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    std::optional<int> peak_stage;
    int tail = 10, stride = 1, offset = 0, busiest = 0;
    double cutoff_j = 0, seconds = 30;
    bool moments = false;
    std::string with, schedule_path;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        try {
            auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
            if (named.take(a, next)) continue;
            if (a == "--stage") peak_stage = std::stoi(next());
            else if (a == "--tail") tail = std::stoi(next());
            else if (a == "--stride") stride = std::stoi(next());
            else if (a == "--offset") offset = std::stoi(next());
            else if (a == "--with") with = next();
            else if (a == "--busiest") busiest = std::stoi(next());
            else if (a == "--schedule") schedule_path = next();
            else if (a == "--cutoff") cutoff_j = std::stod(next());
            else if (a == "--seconds") seconds = std::stod(next());
            else if (a == "--moments") moments = true;
            else {
                std::fprintf(stderr, "unknown argument %s\n", a.c_str());
                return 4;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s takes a number\n", a.c_str());
            return 4;
        }
    }
    const std::optional<std::vector<int>> added = parseStages(with);
    if (!added) {
        std::fprintf(stderr, "--with takes stage numbers separated by commas, not \"%s\"\n", with.c_str());
        return 4;
    }
    if (tail < 0 || stride < 1 || offset < 0 || busiest < 0 || seconds <= 0 || cutoff_j < 0) {
        std::fprintf(stderr, "--tail, --offset, --busiest and --cutoff must not be negative, --stride and "
                             "--seconds must be positive\n");
        return 4;
    }
    if (busiest > 0 && schedule_path.empty()) {
        std::fprintf(stderr, "--busiest needs --schedule (a `poet solve --out` file)\n");
        return 4;
    }
    const std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const Problem& p = *problem;

    if (peak_stage && (*peak_stage < -1 || *peak_stage >= p.graph.size())) {
        std::fprintf(stderr, "--stage %d is outside 0 to %d (-1: none)\n", *peak_stage, p.graph.size() - 1);
        return 4;
    }
    if (!peak_stage) {
        const StageBound peak = stagePeakBound(p, seconds);
        peak_stage = peak.stage;
        std::printf("stage-peak stage %d: %.9f J%s\n", peak.stage, peak.bound_j, peak.complete ? "" : " (not exact)");
    }
    std::vector<int> stages = stride > 1 ? stridedTailStages(p, *peak_stage, tail, stride, offset)
                                         : bucketBoundStages(p, *peak_stage, tail);
    std::vector<int> more = *added;
    if (busiest > 0) {
        const std::optional<ScheduleFile> file = readScheduleFile(schedule_path.c_str());
        if (!file) return 4;
        if (file->graph.size() != p.graph.size()) {
            std::fprintf(stderr, "%s schedules %s, not %s\n", schedule_path.c_str(), file->loaded.model.c_str(),
                         p.model.c_str());
            return 4;
        }
        const std::vector<int> picked =
            busiestRecomputingStagesBefore(p, file->loaded.schedule, *peak_stage, stages, busiest);
        more.insert(more.end(), picked.begin(), picked.end());
    }
    for (int t : more)
        if (t < 0 || t >= p.graph.size()) {
            std::fprintf(stderr, "stage %d is outside 0 to %d\n", t, p.graph.size() - 1);
            return 4;
        }
    stages.insert(stages.end(), more.begin(), more.end());
    std::sort(stages.begin(), stages.end());
    stages.erase(std::unique(stages.begin(), stages.end()), stages.end());

    std::printf("stages:");
    for (int t : stages) std::printf(" %d", t);
    std::printf("\n");
    std::function<double()> cutoff;
    if (cutoff_j > 0) cutoff = [cutoff_j] { return cutoff_j; };
    RecomputeMoments rows;
    rows.on = moments;
    const auto start = std::chrono::steady_clock::now();
    const BucketBound bound = bucketBound(p, stages, seconds, nullptr, cutoff, rows);
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const char* what = bound.infeasible ? "infeasible (the stages cannot all fit)"
                       : bound.faulted  ? "CBC faulted: the compute energy alone"
                       : !bound.complete ? "not done (CBC's bound at the time limit)"
                       : cutoff && bound.bound_j >= cutoff_j * (1 - 1e-9) ? "the cutoff, proven"
                                                                           : "exact (the set's optimum)";
    std::printf("bound %.9f J, %s, in %.2f s\n", bound.bound_j, what, took_s);
    return 0;
}
