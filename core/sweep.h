#pragma once
// Sweeps: energy against the RAM budget at a fixed runtime factor (or against
// the runtime factor at a fixed RAM budget) for several strategies, with
// progress, cancellation and a cache of solved points (in memory and on disk).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "problem.h"
#include "schedule.h"
#include "solve_result.h"
#include "solver.h"

namespace poet {

// Strategy names, as used on the command line, in the GUI and in exports.
// poet: the full MILP with the problem's options; remat-only / paging-only:
// the MILP with paging / remat switched off; the rest are baselines.
const std::vector<std::string>& allSweepStrategies();
bool isSweepStrategy(const std::string& name);
bool isMilpStrategy(const std::string& name);  // poet, remat-only, paging-only
// Why a strategy has no curve in a sweep of `problem` (runSweep leaves it out
// with this note), or nothing.
std::optional<std::string> whyStrategyLeftOut(const Problem& problem, const std::string& strategy);

enum class SweepAxis { RamBudget, RuntimeFactor };
const char* toString(SweepAxis a);  // "ram_budget_bytes", "runtime_budget_factor"

// One strategy at one point. Status: optimal (proven), feasible (a schedule,
// with `gap` when it comes from a time-limited MILP; gap is NaN for the
// heuristics, whose schedule is what they are), infeasible (this strategy has
// no schedule within the budgets), no_solution (the time limit passed first).
struct SweepRow {
    std::string strategy;
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 1.0;
    SolveStatus status = SolveStatus::NoSolution;
    double compute_energy_j = 0;
    double paging_energy_j = 0;
    double total_energy_j = 0;
    double runtime_s = 0;
    std::int64_t peak_ram_bytes = 0;
    double gap = 0;
    // Empty where the row is the point's own result; else the budget of the
    // varied axis (bytes, or a runtime factor) of the tighter point whose
    // schedule replaced a worse time-limited result here (a note says so too).
    std::string schedule_from_budget;
    // A lower bound on the point's energy (MILP strategies with a status
    // other than infeasible; NaN for a baseline), and the seconds its solve took
    // (the solve's own, for a row read from the cache).
    double best_bound_j = 0;
    double solve_time_s = 0;

    // Not in the CSV.
    bool from_cache = false;          // read from the cache, solved by an earlier run
    bool from_earlier_point = false;  // the same problem (usable RAM) as an earlier point of this run
    // The schedule behind the row (MILP strategies, when solved rather than
    // read from the cache): the next points of the sweep start from it.
    std::shared_ptr<const Schedule> schedule;
    bool hasSchedule() const { return status == SolveStatus::Optimal || status == SolveStatus::Feasible; }
};

struct SweepConfig {
    // The graph, names, options, and the fixed budget of the axis not varied
    // (runtime_budget_factor for RamBudget, ram_budget_bytes for RuntimeFactor).
    Problem problem;
    SweepAxis axis = SweepAxis::RamBudget;
    int points = 20;
    std::vector<std::string> strategies = allSweepStrategies();
    // Range of the varied axis. RAM: 0 means the default (lower bound /
    // plain-pass peak). Runtime factor: [runtime_min, runtime_max].
    std::int64_t ram_min_bytes = 0;
    std::int64_t ram_max_bytes = 0;
    double runtime_min = 1.0;
    double runtime_max = 2.0;
    // The runtime factors' decimals: the explorer's box holds four, and a
    // point clicked there must be the budget the box shows (1.090909091x
    // showed as 1.0909).
    int runtime_decimals = 9;
    SolverOptions solver;      // per point (time_limit_s is per point)
    std::string cache_dir;     // empty: no on-disk cache
};

struct SweepProgress {
    int done = 0;
    int total = 0;
    double elapsed_s = 0;
    double eta_s = -1;          // estimated time left, < 0 when unknown
    // No MILP point timed yet (the quick baselines run first): eta_s counts
    // each MILP point at its time limit, an upper bound, not an estimate
    // (linear's sweep said "left ~3m00s" of a sweep done in a second).
    bool eta_is_limit = false;
    const SweepRow* row = nullptr;  // the row just finished
};
using SweepProgressCallback = std::function<void(const SweepProgress&)>;

struct SweepResult {
    std::string model;
    std::string platform;
    int batch_size = 0;  // the problem's (its profile's unless set)
    SweepAxis axis = SweepAxis::RamBudget;
    // The switches every point and strategy was solved under (a figure must
    // say where paging or recomputation was off).
    ProblemOptions options;
    // The budget of the axis not varied (a figure must say it).
    double fixed_runtime_factor = 0;         // RamBudget axis
    std::int64_t fixed_ram_budget_bytes = 0; // RuntimeFactor axis
    std::int64_t ram_lower_bound_bytes = 0;  // no schedule can use less
    std::int64_t plain_peak_bytes = 0;       // the replay's peak of the plain pass
    std::vector<std::int64_t> ram_budgets;   // the points (RamBudget axis)
    std::vector<double> runtime_factors;     // the points (RuntimeFactor axis)
    std::vector<std::string> strategies;
    std::vector<std::string> notes;          // e.g. a strategy skipped as not applicable
    std::vector<SweepRow> rows;              // one per strategy per point that was run
    int total = 0;
    int done = 0;
    int cache_hits = 0;   // points read from the cache, solved by an earlier run
    int shared_hits = 0;  // points of the same problem (usable RAM) as a point solved before in this run
    bool cancelled = false;
    double elapsed_s = 0;
};

// Solved points keyed by everything that defines them (graph costs, budgets,
// options, strategy). Thread-safe. With a directory, each point is also a
// JSON file there (written to a temporary file, then renamed).
class SweepCache {
public:
    explicit SweepCache(std::string directory = {});
    const std::string& directory() const { return dir_; }

    // A row for `key`, if one is stored that a solve with `time_limit_s` could
    // not improve (optimal and infeasible always; others only when they had
    // at least that much time).
    std::optional<SweepRow> find(const std::string& key, double time_limit_s);
    void store(const std::string& key, const SweepRow& row, double time_limit_s);
    std::size_t size() const;

private:
    struct Entry { SweepRow row; double time_limit_s; };
    std::string dir_;
    mutable std::mutex mutex_;
    std::map<std::string, Entry> memory_;
};

// What a sweep did not solve itself, for its closing line: "3 from the
// cache", "48 the same problem as an earlier point (the same usable RAM)",
// both joined by "; ", or empty where it solved every point. A bare count
// read as cached where the cache was off.
std::string reusedPointsText(const SweepResult& result);

// The cache key of one point: a 64-bit FNV-1a hash (hex) of the graph's costs
// and edges, the budgets, the options, the strategy and the solver's gap.
std::string sweepPointKey(const Problem& problem, const std::string& strategy, double relative_gap);

// How many runtime factors a runtime sweep runs: one where the range is one
// factor (three were the same point), else config.points (at least one).
int runtimeSweepPointCount(const SweepConfig& config);

// The budgets of a RAM sweep: `points` values evenly spaced in [lo, hi].
std::vector<std::int64_t> ramSweepBudgets(std::int64_t lo, std::int64_t hi, int points);
// The budgets a RAM sweep of `config` runs: from ram_min_bytes (default: the
// smallest budget that could fit, minimumFeasibleBudgetLowerBound) to
// ram_max_bytes (default: the plain-pass peak). With paging and
// recomputation both off that is one point, at the peak: four points of
// linear's sweep had three infeasible by construction.
std::vector<std::int64_t> ramSweepPoints(const SweepConfig& config);

// Runs one strategy on one problem (no cache). A MILP strategy also starts
// from `solver.hints`.
SweepRow runStrategy(const Problem& problem, const std::string& strategy, const SolverOptions& solver,
                     const std::atomic<bool>* cancel = nullptr);

// Runs the sweep. The MILP strategies run point by point, along the RAM
// axis tightest first and along the runtime axis loosest first, and each
// starts from the schedules it may reuse: its own at the previous point
// (valid at every looser RAM budget; relieved to a tighter runtime budget
// by the solver), and for poet the remat-only and paging-only schedules of
// the same point (poet allows both). A point's schedule that beats a looser
// point's is handed on to it after the run (repairDominance), so a curve
// never rises as the budget grows, and poet never lies above a restricted
// strategy, within one run. `cache` may be null (then one is made for config.cache_dir).
// revolve applies to chain-shaped forward graphs only; elsewhere it is left
// out of `strategies` and a note says so.
// Cancelling stops after the point in progress and returns the rows done so
// far with `cancelled` set. A MILP solve in progress is stopped too; its row
// is kept, with a note, where it had found a schedule (not cached).
SweepResult runSweep(const SweepConfig& config, const SweepProgressCallback& progress = {},
                     const std::atomic<bool>* cancel = nullptr, SweepCache* cache = nullptr);

// The rows of one strategy, in the order of the varied axis.
std::vector<SweepRow> sweepCurve(const SweepResult& result, const std::string& strategy);

// CSV with the columns strategy, ram_budget_bytes, runtime_budget_factor,
// status, compute_energy_j, paging_energy_j, total_energy_j, runtime_s,
// peak_ram_bytes, gap (energies at full precision; empty where a row has no
// schedule). Written atomically; returns false and sets *error on failure.
std::string sweepCsv(const SweepResult& result);
bool writeSweepCsv(const SweepResult& result, const std::string& path, std::string* error = nullptr);

}  // namespace poet
