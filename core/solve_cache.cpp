#include "solve_cache.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "atomic_write.h"
#include "heuristic_schedule.h"
#include "problem_key.h"
#include "problem_loader.h"
#include "relative_gap.h"
#include "schedule_io.h"

namespace poet {

namespace {

// Held over a store's read, merge and write: two solves of one problem (the
// explorer's and a CLI's) each merged into the file as it was before the
// other wrote, and one's cheaper schedule or stronger bound was lost. A
// lock not freed within a few seconds (a process stopped mid-store) is not
// waited for: the store goes ahead unlocked, as it did before.
class StoreLock {
public:
    explicit StoreLock(const std::filesystem::path& dir)
        : fd_(::open((dir / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644))
    {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            if ((errno != EWOULDBLOCK && errno != EINTR) || std::chrono::steady_clock::now() > until) {
                ::close(fd_);
                fd_ = -1;
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        }
    }
    ~StoreLock()
    {
        if (fd_ >= 0) ::close(fd_);  // frees the lock
    }
    StoreLock(const StoreLock&) = delete;
    StoreLock& operator=(const StoreLock&) = delete;

private:
    int fd_;
};

using nlohmann::json;
// 3: infeasible answers keep a RAM budget that works (SolveResult), which
// older files lack: they are solved again rather than shown without it.
// 4: that budget is the exact smallest where the node lower bound fits
// (smallestHeuristicBudget tries it first); format 3's named one 0.1% above
// it ("a schedule exists at 262405 B"), and its message said so.
constexpr const char* kFormat = "poet-solve-cache-4";

std::string graphKey(const Graph& g)
{
    Fnv1a h;
    h.str(kFormat);
    hashGraph(h, g);
    return h.hex();
}

// What find() and store() need from a stored file.
struct Stored {
    SolveResult result;  // status, bound, gap, sizes, message; schedule not yet replayed
    double relative_gap = 0;
    double time_limit_s = 0;
    // The budgets and switches it was solved for (its neighbours' differ).
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 0;
    ProblemOptions options;
};

std::optional<Stored> load(const std::filesystem::path& file, const Problem& problem)
{
    // A FIFO (or a device) under an entry's name blocked the open for good,
    // past the time limit and Ctrl-C.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    std::ifstream in(file);
    if (!in) return std::nullopt;
    try {
        const json doc = json::parse(in);
        const json& c = doc.at("cache");
        if (c.at("format").get<std::string>() != kFormat) return std::nullopt;
        Stored s;
        s.relative_gap = c.at("relative_gap").get<double>();
        s.time_limit_s = c.at("time_limit_s").get<double>();
        const auto status = solveStatusFromString(doc.at("status").get<std::string>());
        if (!status) return std::nullopt;
        s.result.status = *status;
        if (!doc.at("best_bound_j").is_null()) s.result.best_bound_j = doc.at("best_bound_j").get<double>();
        s.ram_budget_bytes = doc.at("ram_budget_bytes").get<std::int64_t>();
        s.runtime_budget_factor = doc.at("runtime_budget_factor").get<double>();
        s.options.paging = doc.at("paging").get<bool>();
        s.options.remat = doc.at("remat").get<bool>();
        s.result.variables = doc.at("variables").get<int>();
        s.result.constraints = doc.at("constraints").get<int>();
        if (doc.contains("message")) s.result.message = doc.at("message").get<std::string>();
        if (doc.contains("ram_budget_that_works_bytes"))
            s.result.ram_budget_that_works_bytes = doc.at("ram_budget_that_works_bytes").get<std::int64_t>();
        // Read whatever the status: an "infeasible" beside a schedule the
        // replay accepts is no proof (lookup() checks).
        if (*status == SolveStatus::Optimal || *status == SolveStatus::Feasible || doc.contains("schedule")) {
            LoadedSchedule l = scheduleFromDocument(doc, file.string());
            if (l.schedule.size() != problem.graph.size()) return std::nullopt;
            s.result.schedule = std::move(l.schedule);
        }
        return s;
    } catch (const std::exception&) {
        return std::nullopt;  // unreadable or foreign: as if absent
    }
}

double energyOf(const SolveResult& r) { return r.schedule ? r.replay.total_energy_j : INFINITY; }

// Whether a stored "infeasible" stands up to what is quick to check: no
// schedule in the file that the replay accepts, no budget at or above the
// plain-pass peak within a runtime budget that allows one pass, and, above
// the least RAM any schedule needs, none from the paging heuristic (0.5 s
// at most, on resnet50). A wrong answer (a solver bug fixed since, a file
// edited) otherwise came back for good, as "proven".
bool storedInfeasibilityHolds(const Problem& problem, const SolveResult& stored)
{
    const ReplayLimits limits = limitsOf(problem);
    if (stored.schedule && replaySchedule(problem.graph, *stored.schedule, limits).valid) return false;
    if (problem.runtime_budget_factor >= 1 && problem.ram_budget_bytes >= plainPassPeakBytes(problem.graph))
        return false;
    // Below the least RAM any schedule needs, it is proven as it stands
    // (resnet50 at 3%: the heuristic took 0.5 s, most of a fresh solve).
    if (problem.ram_budget_bytes < minimumFeasibleBudgetLowerBound(problem)) return true;
    const std::optional<Schedule> quick = heuristicSchedule(problem);
    return !(quick && replaySchedule(problem.graph, *quick, limits).valid);
}

// The objective, bound and gap of an answer from its schedule's replay
// (the stored figures are trusted for nothing but the bound).
void takeReplayedObjective(SolveResult& r)
{
    r.objective_j = r.replay.total_energy_j;
    r.best_bound_j = std::min(r.best_bound_j, r.objective_j);
    r.gap = relativeGap(r.objective_j, r.best_bound_j);
}

// A stored answer can cost more than a schedule stored since at tighter
// budgets (this point's solve stopped at its gap or time limit; the
// tighter one, solved later, found less): that schedule is valid here too,
// and a larger budget must never come back costlier. The answer then
// carries it, and keeps its bound and status. Not written back: the
// tighter point's file holds it (found while among the 16 newest).
void takeCheaperNeighbour(SolveResult& answer, const Problem& problem, const SolveCache& cache)
{
    if (!answer.schedule) return;  // proven infeasible: no budget below has a schedule either
    SolveCache::Neighbours near = cache.neighbours(problem, 1);
    if (!near.cheapest || near.cheapest->total_energy_j >= answer.objective_j) return;
    answer.schedule = std::move(near.schedules.front());
    answer.replay = std::move(*near.cheapest);
    takeReplayedObjective(answer);
}

}  // namespace

SolveCache::SolveCache(std::filesystem::path directory) : dir_(std::move(directory)) {}

std::filesystem::path SolveCache::fileOf(const Problem& problem) const
{
    Fnv1a h;
    h.str(kFormat);
    hashProblem(h, problem);
    return dir_ / (graphKey(problem.graph) + "-" + h.hex() + ".json");
}

SolveCache::Neighbours SolveCache::neighbours(const Problem& problem, std::size_t most) const
{
    const std::string prefix = graphKey(problem.graph) + "-";
    const auto own = fileOf(problem);
    constexpr std::size_t kNewest = 16;
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
        const auto& file = entry.path();
        if (file == own || file.extension() != ".json" || !file.filename().string().starts_with(prefix)) continue;
        files.emplace_back(entry.last_write_time(ec), file);
    }
    std::sort(files.begin(), files.end(), std::greater<>());
    if (files.size() > kNewest) files.resize(kNewest);
    Neighbours out;
    const ProvenBound here = provenBoundOf(problem, 0);  // the graph's key, hashed once
    std::vector<ProvenBound> bounds;
    std::vector<std::pair<ReplayReport, Schedule>> valid;
    for (const auto& [when, file] : files) {
        auto stored = load(file, problem);
        if (!stored || !stored->result.schedule) continue;
        ProvenBound bound = here;
        bound.ram_budget_bytes = stored->ram_budget_bytes;
        bound.runtime_budget_factor = stored->runtime_budget_factor;
        bound.options = stored->options;
        bound.bound_j = stored->result.best_bound_j;
        keepProvenBound(bounds, std::move(bound));
        ReplayReport r = replaySchedule(problem.graph, *stored->result.schedule, limitsOf(problem));
        if (r.valid) valid.emplace_back(std::move(r), std::move(*stored->result.schedule));
    }
    std::sort(valid.begin(), valid.end(),
              [](const auto& a, const auto& b) { return a.first.total_energy_j < b.first.total_energy_j; });
    if (!valid.empty() && most > 0) out.cheapest = std::move(valid.front().first);
    for (auto& [replay, schedule] : valid)
        if (out.schedules.size() < most) out.schedules.push_back(std::move(schedule));
    out.bound = strongestBoundFor(bounds, problem);
    return out;
}

SolveCache::Lookup SolveCache::lookup(const Problem& problem, const SolverOptions& options) const
{
    const auto start = std::chrono::steady_clock::now();
    Lookup out;
    auto stored = load(fileOf(problem), problem);
    if (!stored) return out;
    SolveResult& r = stored->result;
    if (r.status == SolveStatus::Infeasible) {
        if (!storedInfeasibilityHolds(problem, r)) return out;
        r.source = SolutionSource::None;
        // Said, so that a wrong answer kept there can be found (and the file
        // deleted): it showed as if solved just now.
        r.message += (r.message.empty() ? "" : "; ") + std::string("stored in the solve cache (") +
                     fileOf(problem).string() + ")";
    } else {
        if (!r.schedule) return out;
        r.replay = replaySchedule(problem.graph, *r.schedule, limitsOf(problem));
        if (!r.replay.valid) return out;
        out.schedule = r.schedule;
        // A bound above the schedule is no bound, and its file no answer
        // (it showed a gap of 0 for one of 1.8%): the schedule still starts
        // the solve.
        if (r.best_bound_j > r.replay.total_energy_j * (1 + kBoundRounding)) return out;
        out.bound_j = r.best_bound_j;
        // "optimal" within the gap stored: the replayed schedule and the
        // bound must bear it out (a file that says so of a 1.8% gap is not).
        const bool proven = r.status == SolveStatus::Optimal &&
                            withinGap(r.replay.total_energy_j, r.best_bound_j, stored->relative_gap) &&
                            stored->relative_gap <= options.relative_gap + kBoundRounding;
        // Else what a solve given at least as long found: a new one would
        // end there too (an answer proven within a looser gap included).
        if (!proven && !(stored->time_limit_s >= options.time_limit_s)) return out;
        if (!proven) r.status = SolveStatus::Feasible;
        r.source = SolutionSource::Cached;
        takeReplayedObjective(r);
    }
    r.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.first_solution_time_s = r.schedule ? r.solve_time_s : -1;
    out.answer = std::move(r);
    return out;
}

void SolveCache::store(const Problem& problem, const SolverOptions& options, const SolveResult& result) const
{
    const bool answer = result.status == SolveStatus::Infeasible ||
                        ((result.status == SolveStatus::Optimal || result.status == SolveStatus::Feasible) &&
                         result.schedule && result.replay.valid);
    if (!answer || result.source == SolutionSource::Cached) return;
    try {
        std::filesystem::create_directories(dir_);
        const StoreLock lock(dir_);
        const auto file = fileOf(problem);
        SolveResult kept = result;
        double time_limit_s = options.time_limit_s;
        if (auto old = load(file, problem); old && old->result.schedule) {
            SolveResult& o = old->result;
            o.replay = replaySchedule(problem.graph, *o.schedule, limitsOf(problem));
            if (o.replay.valid) {
                // The old answer's schedule fits: a new "infeasible" is wrong.
                if (!result.schedule) return;
                // Both solves hold for the problem: the cheaper schedule,
                // the stronger bound (with what gave it), proven where
                // either was. A cheaper schedule was never stored after an
                // "optimal" of a looser gap (the explorer's 0.5% kept the
                // CLI's 0.01% solves out for good).
                if (energyOf(o) < energyOf(kept)) {
                    kept.schedule = o.schedule;
                    kept.replay = o.replay;
                }
                // A bound above either schedule is none (a file edited, a
                // bug): taken, it would read as a gap of 0. Only one that
                // holds proves anything.
                const auto holds = [&](double bound_j) { return bound_j <= energyOf(kept) * (1 + kBoundRounding); };
                const bool old_holds = holds(o.best_bound_j), new_holds = holds(result.best_bound_j);
                kept.best_bound_j = new_holds ? result.best_bound_j : 0;
                if (old_holds && o.best_bound_j > kept.best_bound_j) {
                    kept.best_bound_j = o.best_bound_j;
                    kept.message = o.message;
                }
                time_limit_s = std::max(time_limit_s, old->time_limit_s);
                takeReplayedObjective(kept);  // the gap of the two together
                const bool proven = (old_holds && o.status == SolveStatus::Optimal) ||
                                    (new_holds && result.status == SolveStatus::Optimal) ||
                                    withinGap(kept.objective_j, kept.best_bound_j, options.relative_gap);
                kept.status = proven ? SolveStatus::Optimal : SolveStatus::Feasible;
            }
        }
        // An optimal answer is stored with the gap it reached (no more than
        // the one that proved it asked): it answers every solve that asks
        // that gap or more.
        if (kept.schedule) takeReplayedObjective(kept);
        const double relative_gap = kept.status == SolveStatus::Optimal ? kept.gap : options.relative_gap;
        json doc = scheduleDocument(problem, kept);
        doc["cache"] = {{"format", kFormat}, {"relative_gap", relative_gap}, {"time_limit_s", time_limit_s}};
        writeFileAtomically(file, doc.dump() + "\n");
    } catch (const std::exception&) {
    }
}

SolveResult solveWithCache(const Problem& problem, SolverOptions options, const SolveCache& cache,
                           const IncumbentCallback& onIncumbent, const std::atomic<bool>* cancel)
{
    auto stored = cache.lookup(problem, options);
    if (stored.answer) {
        takeCheaperNeighbour(*stored.answer, problem, cache);
        return std::move(*stored.answer);
    }
    if (stored.schedule) options.hints.push_back(std::move(*stored.schedule));
    keepProvenBound(options.proven_bounds, problem, stored.bound_j);
    SolveCache::Neighbours near = cache.neighbours(problem);
    for (Schedule& s : near.schedules) options.hints.push_back(std::move(s));
    if (near.bound) options.proven_bounds.push_back(std::move(*near.bound));
    SolveResult r = solve(problem, options, onIncumbent, cancel);
    if (!(cancel && cancel->load())) cache.store(problem, options, r);
    return r;
}

std::string unusableCacheDirectory(const std::filesystem::path& directory)
{
    std::error_code ec, ignored;
    std::filesystem::create_directories(directory, ec);
    const std::string path = directory.string();
    if (!std::filesystem::is_directory(directory, ignored))
        return std::filesystem::exists(directory, ignored) ? path + ": is not a directory"
                                                           : path + ": cannot be created (" + ec.message() + ")";
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        return path + ": cannot write there (" + std::strerror(errno) + ")";
    return "";
}

std::optional<std::filesystem::path> defaultSolveCacheDirectory()
{
    if (const char* own = std::getenv("POET_CACHE_DIR")) {
        if (!*own) return std::nullopt;
        return std::filesystem::path(own);
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "poet" / "solves";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "poet" / "solves";
    return std::filesystem::temp_directory_path() / "poet-solves";
}

}  // namespace poet
