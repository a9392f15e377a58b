// Benchmark (not a test): a slider drag as the explorer makes it. Through
// the explorer's SolveBridge, requests go out for RAM budgets stepping from
// --from to --to (fractions of the plain-pass peak), one every --every
// seconds, each cancelling the one before; then the time from the last
// request to its first schedule and to its end is measured, against the
// same last problem solved by a fresh bridge on an idle machine, in the
// same run (so the ratio is what the drag costs). It also prints the most
// solves that ran at once: a cancelled one winds down beside the new one.
//
//   QT_QPA_PLATFORM=offscreen bench_drag [--model bert] [--platform m4] [--factor 1.5]
//       [--from 0.2] [--to 0.1] [--steps 10] [--every 0.1] [--limit 30] [--gap 0.005] [--repeat 3]
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "heap_tuning.h"
#include "median.h"
#include "named_problem.h"
#include "solve_bridge.h"
#include "solver.h"

using namespace poet;

namespace {

struct Timing {
    double first_s = -1;  // from the last request to its first schedule (incumbent or answer)
    double end_s = -1;    // to its answer
    int most_running = 0;  // solves running at once, the new one included
    double energy_j = 0;  // of its answer (0: none)
    double gap = 0;
};

// Requests every budget in `budgets` through one bridge, `every_s` apart,
// and times the last one.
Timing drag(const Problem& base, const std::vector<std::int64_t>& budgets, double every_s,
            const SolverOptions& options)
{
    ui::SolveBridge bridge;
    Timing timing;
    QElapsedTimer since_last;
    quint64 last = 0;
    std::size_t next = 0;  // the budget to request next
    QEventLoop loop;
    auto lastOne = [&](quint64 id) { return id == last && next == budgets.size(); };
    QObject::connect(&bridge, &ui::SolveBridge::incumbent, [&](quint64 id, const SolveResult&) {
        if (lastOne(id) && timing.first_s < 0) timing.first_s = since_last.nsecsElapsed() / 1e9;
    });
    QObject::connect(&bridge, &ui::SolveBridge::finished, [&](quint64 id, const SolveResult& r) {
        if (!lastOne(id)) return;  // an earlier request, done before the next went out
        timing.end_s = since_last.nsecsElapsed() / 1e9;
        if (timing.first_s < 0 && r.schedule) timing.first_s = timing.end_s;
        timing.energy_j = r.schedule ? r.replay.total_energy_j : 0;
        timing.gap = r.gap;
        loop.quit();
    });
    QObject::connect(&bridge, &ui::SolveBridge::failed, [&](quint64 id, const QString& message) {
        std::fprintf(stderr, "failed: %s\n", message.toUtf8().constData());
        if (lastOne(id)) loop.quit();  // an earlier request's failure leaves the last one to time
    });
    QTimer watch;  // how many solves run at once, sampled
    QObject::connect(&watch, &QTimer::timeout,
                     [&] { timing.most_running = std::max(timing.most_running, bridge.runningWorkers()); });
    watch.start(10);
    QTimer step;
    QObject::connect(&step, &QTimer::timeout, [&] {
        Problem p = base;
        p.ram_budget_bytes = budgets[next++];
        last = bridge.request(p, options);
        if (next == budgets.size()) {
            since_last.start();
            step.stop();
        }
    });
    step.start(static_cast<int>(every_s * 1000));
    loop.exec();
    return timing;
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    poet::keepFreedHeapMemory();  // before the first solve (heap_tuning.h)
    ProblemArgs named;
    named.model = "bert";
    double from = 0.2, to = 0.1, every_s = 0.1, limit_s = 30, gap = 0.005;
    int steps = 10, repeat = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (named.take(a, next)) continue;
        if (a == "--from") from = std::stod(next());
        else if (a == "--to") to = std::stod(next());
        else if (a == "--steps") steps = std::stoi(next());
        else if (a == "--every") every_s = std::stod(next());
        else if (a == "--limit") limit_s = std::stod(next());
        else if (a == "--gap") gap = std::stod(next());
        else if (a == "--repeat") repeat = std::stoi(next());
        else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 4; }
    }
    if (steps < 1 || repeat < 1 || every_s <= 0) {
        std::fprintf(stderr, "--steps and --repeat must be at least 1, --every above 0\n");
        return 4;
    }
    named.budget = from;
    std::optional<Problem> problem = named.problem();
    if (!problem) return 4;
    const double peak = static_cast<double>(plainPassPeakBytes(problem->graph));
    std::vector<std::int64_t> budgets;
    for (int k = 0; k < steps; ++k)
        budgets.push_back(static_cast<std::int64_t>(peak * (steps == 1 ? to : from + (to - from) * k / (steps - 1))));
    SolverOptions options;  // as the explorer's (ExplorerWindow::solverOptions)
    options.time_limit_s = limit_s;
    options.relative_gap = gap;
    options.threads = defaultSolverThreads();

    std::printf("# %s on %s, %.2fx: %d requests from %.3g to %.3g of the peak, %.3g s apart; limit %g s, gap %g\n",
                problem->model.c_str(), problem->platform.c_str(), problem->runtime_budget_factor, steps, from, to,
                every_s, limit_s, gap);
    std::printf("%4s %11s %9s %11s %9s %8s %10s\n", "run", "drag_first", "drag_end", "fresh_first", "fresh_end",
                "running", "end_ratio");
    std::vector<double> firsts, ends, fresh_firsts, fresh_ends, ratios;
    for (int r = 0; r < repeat; ++r) {
        const Timing d = drag(*problem, budgets, every_s, options);
        const Timing f = drag(*problem, {budgets.back()}, every_s, options);
        std::printf("# run %d: the drag ended at %.9f J (gap %.3f%%), the fresh solve at %.9f J (%.3f%%)\n", r + 1,
                    d.energy_j, 100 * d.gap, f.energy_j, 100 * f.gap);
        const double ratio = f.end_s > 0 ? d.end_s / f.end_s : 0;
        std::printf("%4d %11.3f %9.3f %11.3f %9.3f %8d %10.2f\n", r + 1, d.first_s, d.end_s, f.first_s, f.end_s,
                    d.most_running, ratio);
        std::fflush(stdout);
        firsts.push_back(d.first_s);
        ends.push_back(d.end_s);
        fresh_firsts.push_back(f.first_s);
        fresh_ends.push_back(f.end_s);
        ratios.push_back(ratio);
    }
    std::printf("# medians: drag first %.3f s, end %.3f s; fresh first %.3f s, end %.3f s; end ratio %.2f\n",
                median(firsts), median(ends), median(fresh_firsts), median(fresh_ends), median(ratios));
    return 0;
}
