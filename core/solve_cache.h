#pragma once
// Solved problems on disk, keyed by everything that defines the problem
// (problem_key.h), so reopening a point is instant: one JSON file per
// problem, the schedule document of schedule_io.h plus what the solve was
// asked for, named <graph hash>-<problem hash>.json so that the points of
// one graph can be found. What is read back is trusted for nothing but the
// schedule: it is replayed again before it is used.
#include <filesystem>
#include <optional>

#include "problem.h"
#include "proven_bound.h"
#include "solve_result.h"
#include "solver.h"

namespace poet {

class SolveCache {
public:
    explicit SolveCache(std::filesystem::path directory);
    const std::filesystem::path& directory() const { return dir_; }

    // What the cache holds for a problem, read and replayed once.
    struct Lookup {
        // A stored answer a solve with `options` could not improve on: proven
        // infeasible; optimal within a gap no larger than options.relative_gap;
        // or feasible from a solve given at least options.time_limit_s. Source
        // `cached`; the figures come from a fresh replay.
        std::optional<SolveResult> answer;
        // The stored schedule, whatever its status, if the replay still
        // accepts it (a warm start for a new solve).
        std::optional<Schedule> schedule;
        // That solve's lower bound, with the schedule (0: none): a longer
        // solve of the same problem starts from it.
        double bound_j = 0;
    };
    Lookup lookup(const Problem& problem, const SolverOptions& options) const;
    std::optional<SolveResult> find(const Problem& problem, const SolverOptions& options) const
    {
        return lookup(problem, options).answer;
    }
    std::optional<Schedule> storedSchedule(const Problem& problem) const { return lookup(problem, {}).schedule; }
    // What the 16 newest files of the same graph at other budgets offer this
    // problem (the newest only, so that the time stays bounded however many
    // points a long session stored):
    struct Neighbours {
        // Their schedules that the replay accepts under this problem's
        // budgets (a schedule valid at budget B is valid at every larger
        // one), the `most` least energy first: warm starts, so that a larger
        // budget never comes out costlier than a recently stored smaller one.
        std::vector<Schedule> schedules;
        // The replay of schedules.front() here (absent with no schedules).
        std::optional<ReplayReport> cheapest;
        // The strongest of their solves' lower bounds that holds here
        // (proven_bound.h: proven at budgets no tighter): `poet solve` at
        // 1.2x after one at 1.5x, or the explorer reopened, starts from what
        // the looser solve proved.
        std::optional<ProvenBound> bound;
    };
    Neighbours neighbours(const Problem& problem, std::size_t most = 4) const;
    std::vector<Schedule> neighbourSchedules(const Problem& problem, std::size_t most = 4) const
    {
        return neighbours(problem, most).schedules;
    }
    // Stores `result` unless the stored one is better. Never throws: a cache
    // that cannot be written only costs time.
    void store(const Problem& problem, const SolverOptions& options, const SolveResult& result) const;

    std::filesystem::path fileOf(const Problem& problem) const;

private:
    std::filesystem::path dir_;
};

// find() (given a neighbour's schedule instead where that costs less: a
// point solved since at tighter budgets found less), else a solve
// warm-started from the stored schedule and the neighbours' and starting
// from their bounds, then store().
SolveResult solveWithCache(const Problem& problem, SolverOptions options, const SolveCache& cache,
                           const IncumbentCallback& onIncumbent = {}, const std::atomic<bool>* cancel = nullptr);

// Creates `directory` where missing; then why it cannot hold a cache (not
// a directory, cannot be created, cannot be written), or "" where it can.
// `poet --cache-dir` refuses such a path, and the explorer says it solves
// without a cache (it stored nothing without a word).
std::string unusableCacheDirectory(const std::filesystem::path& directory);

// Where the explorer keeps its solve cache: $POET_CACHE_DIR when set (set
// and empty: no cache), else $XDG_CACHE_HOME/poet/solves, else
// ~/.cache/poet/solves.
std::optional<std::filesystem::path> defaultSolveCacheDirectory();

}  // namespace poet
