// Benchmark (not a test): how long the explorer's heatmap takes to paint
// one schedule and to take a new one, as it does at every incumbent of a
// solve. For one model at one budget, the quick schedule (heuristic_schedule.h)
// is painted --repeat times into an offscreen pixmap; prints the median and
// the range of the paints, and the median of as many setSchedule calls.
//
//   QT_QPA_PLATFORM=offscreen bench_heatmap --model bert48.yaml [--platform m4]
//                                           [--budget 0.3] [--factor 1.5] [--repeat 15]
#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "heatmap_view.h"
#include "heuristic_schedule.h"
#include "named_problem.h"

using namespace poet;

namespace {

// Milliseconds of each of `repeat` calls of `work`, sorted.
std::vector<double> timed(int repeat, const std::function<void()>& work)
{
    std::vector<double> ms;
    for (int k = 0; k < repeat; ++k) {
        QElapsedTimer t;
        t.start();
        work();
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    ProblemArgs named;
    named.model = "bert";
    named.budget = 0.3;
    int repeat = 15;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (named.take(a, next)) continue;
        if (a == "--repeat") repeat = std::stoi(next());
        else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
    }
    if (repeat < 1) {
        std::fprintf(stderr, "--repeat must be at least 1\n");
        return 4;
    }
    const std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const std::optional<Schedule> schedule = heuristicSchedule(*problem);
    if (!schedule) {
        std::fprintf(stderr, "no quick schedule fits this budget\n");
        return 3;
    }
    ui::HeatmapView view;
    view.resize(1400, 900);  // the explorer's heatmap at a large window
    view.setSchedule(problem->graph, *schedule, QStringLiteral("bench"));
    const std::vector<double> paints = timed(repeat, [&] { (void)view.grab(); });
    const std::vector<double> sets =
        timed(repeat, [&] { view.setSchedule(problem->graph, *schedule, QStringLiteral("bench")); });
    std::printf("# %s on %s, %d nodes, %d paints at 1400x900\n", problem->model.c_str(), problem->platform.c_str(),
                problem->graph.size(), repeat);
    std::printf("paint median %.1f ms (%.1f to %.1f); setSchedule median %.1f ms\n", paints[paints.size() / 2],
                paints.front(), paints.back(), sets[sets.size() / 2]);
    return 0;
}
