#include "sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "atomic_write.h"
#include "baselines.h"
#include "csv_field.h"
#include "deadline.h"
#include "problem_key.h"
#include "problem_loader.h"
#include "replay.h"
#include "schedule.h"

namespace poet {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kForever = std::numeric_limits<double>::infinity();

// The shortest text that reads back as the same double, with a decimal point
// whatever the C locale says (the explorer, which writes this CSV too, runs in
// the user's locale, where snprintf would write "1,5" into a comma-separated file).
std::string fmtDouble(double v) {
    if (std::isnan(v)) return "";
    char buf[40];
    return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

nlohmann::json rowToJson(const SweepRow& r) {
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    return {{"strategy", r.strategy},
            {"ram_budget_bytes", r.ram_budget_bytes},
            {"runtime_budget_factor", r.runtime_budget_factor},
            {"status", toString(r.status)},
            {"compute_energy_j", r.compute_energy_j},
            {"paging_energy_j", r.paging_energy_j},
            {"total_energy_j", r.total_energy_j},
            {"runtime_s", r.runtime_s},
            {"peak_ram_bytes", r.peak_ram_bytes},
            {"gap", num(r.gap)},
            {"best_bound_j", num(r.best_bound_j)},
            {"solve_time_s", r.solve_time_s}};
}

std::optional<SweepRow> rowFromJson(const nlohmann::json& j) {
    try {
        SweepRow r;
        auto num = [](const nlohmann::json& v) { return v.is_null() ? kNaN : v.get<double>(); };
        r.strategy = j.at("strategy").get<std::string>();
        r.ram_budget_bytes = j.at("ram_budget_bytes").get<std::int64_t>();
        r.runtime_budget_factor = j.at("runtime_budget_factor").get<double>();
        auto st = solveStatusFromString(j.at("status").get<std::string>());
        if (!st) return std::nullopt;
        r.status = *st;
        r.compute_energy_j = j.at("compute_energy_j").get<double>();
        r.paging_energy_j = j.at("paging_energy_j").get<double>();
        r.total_energy_j = j.at("total_energy_j").get<double>();
        r.runtime_s = j.at("runtime_s").get<double>();
        r.peak_ram_bytes = j.at("peak_ram_bytes").get<std::int64_t>();
        r.gap = num(j.at("gap"));
        r.best_bound_j = num(j.at("best_bound_j"));
        r.solve_time_s = j.at("solve_time_s").get<double>();
        return r;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

int strategyRank(const std::string& s) {
    const auto& all = allSweepStrategies();
    auto it = std::find(all.begin(), all.end(), s);
    return static_cast<int>(it - all.begin());
}

}  // namespace

const std::vector<std::string>& allSweepStrategies() {
    static const std::vector<std::string> names{"poet",       "remat-only",  "paging-only", "chen-sqrtn",
                                                "chen-greedy", "revolve",    "dtr",         "plain"};
    return names;
}

bool isSweepStrategy(const std::string& name) {
    const auto& all = allSweepStrategies();
    return std::find(all.begin(), all.end(), name) != all.end();
}

bool isMilpStrategy(const std::string& name) {
    return name == "poet" || name == "remat-only" || name == "paging-only";
}

const char* toString(SweepAxis a) {
    return a == SweepAxis::RamBudget ? "ram_budget_bytes" : "runtime_budget_factor";
}

// ------------------------------------------------------------------ cache --

SweepCache::SweepCache(std::string directory) : dir_(std::move(directory)) {
    if (!dir_.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(dir_, ec);
    }
}

std::optional<SweepRow> SweepCache::find(const std::string& key, double time_limit_s) {
    auto usable = [&](const Entry& e) {
        return e.row.status == SolveStatus::Optimal || e.row.status == SolveStatus::Infeasible ||
               e.time_limit_s >= time_limit_s;
    };
    {
        std::lock_guard lock(mutex_);
        auto it = memory_.find(key);
        if (it != memory_.end()) {
            if (usable(it->second)) return it->second.row;
            return std::nullopt;
        }
    }
    if (dir_.empty()) return std::nullopt;
    std::ifstream in(std::filesystem::path(dir_) / (key + ".json"));
    if (!in) return std::nullopt;
    try {
        nlohmann::json j = nlohmann::json::parse(in);
        if (j.at("key").get<std::string>() != key) return std::nullopt;
        auto row = rowFromJson(j.at("row"));
        if (!row) return std::nullopt;
        const auto& tl = j.at("time_limit_s");
        Entry e{*row, tl.is_null() ? kForever : tl.get<double>()};
        std::lock_guard lock(mutex_);
        memory_[key] = e;
        if (usable(e)) return e.row;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

void SweepCache::store(const std::string& key, const SweepRow& row, double time_limit_s) {
    SweepRow r = row;
    r.from_cache = false;
    r.from_earlier_point = false;
    {
        std::lock_guard lock(mutex_);
        memory_[key] = Entry{r, time_limit_s};
    }
    if (dir_.empty()) return;
    nlohmann::json j{{"format", "poet-sweep-point-1"},
                     {"key", key},
                     {"time_limit_s", std::isfinite(time_limit_s) ? nlohmann::json(time_limit_s) : nlohmann::json(nullptr)},
                     {"row", rowToJson(r)}};
    try {
        writeFileAtomically(std::filesystem::path(dir_) / (key + ".json"), j.dump(1) + "\n");
    } catch (const std::exception&) {
        // A cache that cannot be written only costs time.
    }
}

std::size_t SweepCache::size() const {
    std::lock_guard lock(mutex_);
    return memory_.size();
}

std::string reusedPointsText(const SweepResult& result) {
    std::string text;
    if (result.cache_hits > 0) text = std::to_string(result.cache_hits) + " from the cache";
    if (result.shared_hits > 0)
        text += (text.empty() ? "" : "; ") + std::to_string(result.shared_hits) +
                " the same problem as an earlier point (the same usable RAM)";
    return text;
}

std::string sweepPointKey(const Problem& p, const std::string& strategy, double relative_gap) {
    Fnv1a h;
    h.str("poet-sweep-point-1");
    hashProblem(h, p);
    h.str(strategy);
    if (isMilpStrategy(strategy)) h.f64(relative_gap);
    return h.hex();
}

int runtimeSweepPointCount(const SweepConfig& config) {
    return config.runtime_min == config.runtime_max ? 1 : std::max(1, config.points);
}

std::vector<std::int64_t> ramSweepBudgets(std::int64_t lo, std::int64_t hi, int points) {
    std::vector<std::int64_t> out;
    if (points <= 0) return out;
    if (hi < lo) std::swap(lo, hi);
    if (points == 1) return {hi};
    for (int i = 0; i < points; ++i) {
        const double x = static_cast<double>(lo) + static_cast<double>(hi - lo) * i / (points - 1);
        const auto b = static_cast<std::int64_t>(std::llround(x));
        if (out.empty() || out.back() != b) out.push_back(b);
    }
    return out;
}

std::vector<std::int64_t> ramSweepPoints(const SweepConfig& config) {
    const std::int64_t lo =
        config.ram_min_bytes > 0 ? config.ram_min_bytes : minimumFeasibleBudgetLowerBound(config.problem);
    const std::int64_t hi =
        config.ram_max_bytes > 0 ? config.ram_max_bytes : std::max(plainPassPeakBytes(config.problem.graph), lo);
    return ramSweepBudgets(lo, hi, config.points);
}

// --------------------------------------------------------------- running --

namespace {

// The problem a MILP strategy solves at a point: the restricted ones
// forbid paging or recomputation further (never allow what the sweep's
// problem forbids: whyStrategyLeftOut leaves those strategies out).
Problem milpStrategyProblem(const Problem& problem, const std::string& strategy)
{
    Problem p = problem;
    if (strategy == "remat-only") p.options.paging = false;
    if (strategy == "paging-only") p.options.remat = false;
    return p;
}

}  // namespace

// A strategy that pages where paging is off, or recomputes where
// recomputation is off, would draw what the device cannot do (with
// --no-paging, "paging only" paged, and the baselines recomputed under
// --no-remat beside a POET that could not).
std::optional<std::string> whyStrategyLeftOut(const Problem& problem, const std::string& strategy)
{
    if (strategy == "paging-only" && !problem.options.paging) return "it pages, and paging is switched off";
    const bool recomputes = strategy == "remat-only" || strategy == "chen-sqrtn" || strategy == "chen-greedy" ||
                            strategy == "revolve" || strategy == "dtr";
    if (recomputes && !problem.options.remat) return "it recomputes, and rematerialization is switched off";
    if (strategy == "revolve" && !revolveSchedule(problem.graph, 1))
        return "the forward pass has no chain of checkpoints for its backward to reverse";
    return std::nullopt;
}

SweepRow runStrategy(const Problem& problem, const std::string& strategy, const SolverOptions& solver,
                     const std::atomic<bool>* cancel) {
    SweepRow row;
    row.strategy = strategy;
    row.ram_budget_bytes = problem.ram_budget_bytes;
    row.runtime_budget_factor = problem.runtime_budget_factor;
    const auto start = Clock::now();
    auto fill = [&](const ReplayReport& r) {
        row.compute_energy_j = r.compute_energy_j;
        row.paging_energy_j = r.paging_energy_j;
        row.total_energy_j = r.total_energy_j;
        row.runtime_s = r.runtime_s;
        row.peak_ram_bytes = r.peak_ram_bytes;
    };
    if (isMilpStrategy(strategy)) {
        SolveResult r = solve(milpStrategyProblem(problem, strategy), solver, {}, cancel);
        row.status = r.status;
        if (r.schedule && (r.status == SolveStatus::Optimal || r.status == SolveStatus::Feasible)) {
            fill(r.replay);
            row.gap = r.gap;
            row.best_bound_j = r.best_bound_j;
            row.schedule = std::make_shared<const Schedule>(std::move(*r.schedule));
        } else {
            row.gap = kNaN;
            row.best_bound_j = r.best_bound_j;
        }
    } else {
        const Graph& g = problem.graph;
        ReplayLimits limits;
        limits.ram_budget_bytes = problem.ram_budget_bytes;
        limits.runtime_budget_s = problem.runtimeBudgetSeconds() * (1 + 1e-9);
        limits.paging = false;
        limits.remat = true;
        std::optional<Schedule> s;
        if (strategy == "plain") s = plainBaseline(g, limits);
        else if (strategy == "chen-sqrtn") s = chenSqrtN(g, limits);
        else if (strategy == "chen-greedy") s = chenGreedy(g, limits);
        else if (strategy == "revolve") s = revolve(g, limits);
        else if (strategy == "dtr") s = dtr(g, limits);
        else throw std::invalid_argument("unknown strategy: " + strategy);
        row.gap = kNaN;
        row.best_bound_j = kNaN;
        if (s) {
            row.status = SolveStatus::Feasible;
            fill(replaySchedule(g, *s, limits));
        } else {
            row.status = SolveStatus::Infeasible;
        }
    }
    row.solve_time_s = secondsSince(start);
    return row;
}

namespace {

// " @ 402416 B" or " @ 1.5x": the point on the varied axis, as the progress lines name it.
std::string atPoint(const SweepRow& row, SweepAxis axis) {
    std::ostringstream at;
    at.precision(9);
    if (axis == SweepAxis::RamBudget) at << " @ " << row.ram_budget_bytes << " B";
    else at << " @ " << row.runtime_budget_factor << "x";
    return at.str();
}

// A schedule that fits a budget fits every looser one with the same energy:
// where a time-limited MILP result at a looser point is worse than (or missing
// next to) one at a tighter point, report the tighter point's schedule.
// Each replacement is noted: the progress lines showed the point's own result.
void repairDominance(std::vector<SweepRow*>& curve, SweepAxis axis, std::vector<std::string>& notes) {
    const SweepRow* best = nullptr;
    for (SweepRow* r : curve) {
        if (best && r->status != SolveStatus::Optimal &&
            (!r->hasSchedule() || best->total_energy_j < r->total_energy_j)) {
            std::ostringstream note;
            note.precision(9);
            note << atPoint(*r, axis) << ": its own result (";
            if (r->hasSchedule()) note << r->total_energy_j << " J";
            else note << toString(r->status);
            note << ") replaced by the schedule of the tighter point" << atPoint(*best, axis) << " ("
                 << best->total_energy_j << " J), which fits here too";
            notes.push_back(r->strategy + note.str());
            r->schedule_from_budget = axis == SweepAxis::RamBudget ? std::to_string(best->ram_budget_bytes)
                                                                   : fmtDouble(best->runtime_budget_factor);
            r->status = SolveStatus::Feasible;
            r->compute_energy_j = best->compute_energy_j;
            r->paging_energy_j = best->paging_energy_j;
            r->total_energy_j = best->total_energy_j;
            r->runtime_s = best->runtime_s;
            r->peak_ram_bytes = best->peak_ram_bytes;
            r->gap = (std::isfinite(r->best_bound_j) && r->total_energy_j > 0)
                         ? std::max(0.0, (r->total_energy_j - r->best_bound_j) / r->total_energy_j)
                         : kNaN;
        }
        if (r->hasSchedule() && (!best || r->total_energy_j < best->total_energy_j)) best = r;
    }
}

// A point whose solve the cancel cut short, kept for its schedule: its gap is
// the solve's so far, not the gap asked for.
std::string cutShortNote(const SweepRow& row, SweepAxis axis) {
    std::ostringstream note;
    note << row.strategy << atPoint(row, axis) << ": cancelled after " << std::setprecision(2) << std::fixed
         << row.solve_time_s << " s; its best schedule so far is kept";
    if (std::isfinite(row.gap)) note << " (gap " << std::setprecision(2) << 100 * row.gap << "%)";
    return note.str();
}

}  // namespace

SweepResult runSweep(const SweepConfig& config, const SweepProgressCallback& progress,
                     const std::atomic<bool>* cancel, SweepCache* cache) {
    const auto start = Clock::now();
    std::unique_ptr<SweepCache> own_cache;
    if (!cache) {
        own_cache = std::make_unique<SweepCache>(config.cache_dir);
        cache = own_cache.get();
    }
    for (const auto& s : config.strategies)
        if (!isSweepStrategy(s)) throw std::invalid_argument("unknown strategy: " + s);

    const Problem& base = config.problem;
    const Graph& g = base.graph;
    SweepResult result;
    result.model = base.model;
    result.platform = base.platform;
    result.batch_size = base.batch_size;
    result.axis = config.axis;
    result.fixed_runtime_factor = base.runtime_budget_factor;
    result.fixed_ram_budget_bytes = base.ram_budget_bytes;
    result.options = base.options;
    for (const auto& s : config.strategies) {
        if (const auto why = whyStrategyLeftOut(base, s)) {
            result.notes.push_back(s + ": " + *why + "; left out");
            continue;
        }
        result.strategies.push_back(s);
    }
    result.ram_lower_bound_bytes = minimumFeasibleBudgetLowerBound(base);
    result.plain_peak_bytes = replaySchedule(g, plainSchedule(g)).peak_ram_bytes;

    std::vector<Problem> points;
    if (config.axis == SweepAxis::RamBudget) {
        result.ram_budgets = ramSweepPoints(config);
        if (result.ram_budgets.size() == 1 && config.points > 1 && config.ram_min_bytes <= 0 &&
            !base.options.paging && !base.options.remat)
            result.notes.push_back("paging and recomputation are off, so the plain pass is the only schedule: one "
                                   "point, at its peak");
        for (std::int64_t b : result.ram_budgets) {
            Problem p = base;
            p.ram_budget_bytes = b;
            points.push_back(std::move(p));
        }
    } else {
        const int n = runtimeSweepPointCount(config);
        for (int i = 0; i < n; ++i) {
            double f = n == 1 ? config.runtime_max
                              : config.runtime_min + (config.runtime_max - config.runtime_min) * i / (n - 1);
            // To nine decimals by default: 1.4, not 1.4000000000000001, in the
            // CSV and the progress (no budget is finer than that).
            const double scale = std::pow(10.0, config.runtime_decimals);
            f = std::round(f * scale) / scale;
            result.runtime_factors.push_back(f);
            Problem p = base;
            p.runtime_budget_factor = f;
            points.push_back(std::move(p));
        }
    }

    // Heuristics first (fast, so every curve but the MILP's appears at once),
    // then the MILP strategies point by point.
    struct Task { int point; std::string strategy; };
    std::vector<Task> tasks;
    for (const auto& s : result.strategies)
        if (!isMilpStrategy(s))
            for (int i = 0; i < static_cast<int>(points.size()); ++i) tasks.push_back({i, s});
    // poet last within a point, so that it starts from the restricted ones.
    std::vector<std::string> milp_order;
    for (const auto& s : result.strategies)
        if (isMilpStrategy(s) && s != "poet") milp_order.push_back(s);
    if (std::find(result.strategies.begin(), result.strategies.end(), "poet") != result.strategies.end())
        milp_order.push_back("poet");
    // Along the RAM axis from the tightest point: its schedule fits every
    // looser one, a warm start as it is. Along the runtime axis from the
    // loosest: the schedule of a looser runtime budget, relieved to the next
    // (solvePlans), often keeps more of what its search found than that
    // point's own search finds. bert on m4 at 12%, 1.03 to 1.05x, 120 s a
    // point: 1.04x 110.753476 J, 0.68% (tightest first 111.774836 J,
    // 1.58%); 1.03x, whose own search then ends higher, 115.011463 J, 1.02%
    // (114.822240 J, 0.85%). repairDominance below still hands each tighter
    // schedule on where it is the better one.
    const int n_points = static_cast<int>(points.size());
    const bool loosest_first = config.axis == SweepAxis::RuntimeFactor;
    for (int k = 0; k < n_points; ++k)
        for (const auto& s : milp_order) tasks.push_back({loosest_first ? n_points - 1 - k : k, s});
    result.total = static_cast<int>(tasks.size());

    int milp_left = 0;
    for (const auto& t : tasks) milp_left += isMilpStrategy(t.strategy) ? 1 : 0;
    int heur_left = result.total - milp_left;
    double milp_time = 0, heur_time = 0;
    int milp_solved = 0, heur_solved = 0;

    // The latest schedule of each MILP strategy; tasks come in the order above.
    std::map<std::string, std::pair<int, std::shared_ptr<const Schedule>>> latest;
    auto hintsFor = [&](const Task& task) {
        std::vector<Schedule> hints;
        for (const auto& [strategy, last] : latest) {
            const bool same_point = last.first == task.point;
            if (strategy == task.strategy || (task.strategy == "poet" && same_point)) hints.push_back(*last.second);
        }
        return hints;
    };

    // Each MILP point's bound, for the tighter points after it (a runtime
    // sweep runs loosest first; proven_bound.h).
    std::vector<ProvenBound> proven_bounds;
    // The keys this sweep solved: a point found under one is another point's
    // problem (the same usable RAM), not a result from an earlier run.
    std::set<std::string> solved_here;
    for (const Task& task : tasks) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        const bool milp = isMilpStrategy(task.strategy);
        bool cut_short = false;
        const Problem& p = points[task.point];
        const std::string key = sweepPointKey(p, task.strategy, config.solver.relative_gap);
        const double time_limit = milp ? config.solver.time_limit_s : kForever;
        SweepRow row;
        if (auto hit = cache->find(key, time_limit)) {
            row = *hit;
            // Stored for this problem, perhaps at another budget of the same
            // effective budget (problem_key.h): the row is this point's.
            row.ram_budget_bytes = p.ram_budget_bytes;
            row.from_earlier_point = solved_here.count(key) > 0;
            row.from_cache = !row.from_earlier_point;
            ++(row.from_earlier_point ? result.shared_hits : result.cache_hits);
        } else {
            SolverOptions solver = config.solver;
            if (milp) {
                solver.hints = hintsFor(task);
                solver.proven_bounds = proven_bounds;
            }
            row = runStrategy(p, task.strategy, solver, cancel);
            cut_short = cancel && cancel->load();
            // Cut short without a schedule: not a result. With one, the row
            // keeps it (as `poet solve` does on Ctrl-C), but the cache does
            // not: the point had less than its time limit.
            if (cut_short && !row.hasSchedule()) {
                result.cancelled = true;
                break;
            }
            if (cut_short) result.notes.push_back(cutShortNote(row, result.axis));
            else {
                cache->store(key, row, time_limit);
                solved_here.insert(key);
            }
            (milp ? milp_time : heur_time) += row.solve_time_s;
            ++(milp ? milp_solved : heur_solved);
        }
        --(milp ? milp_left : heur_left);
        if (row.schedule) latest[task.strategy] = {task.point, row.schedule};
        if (milp) keepProvenBound(proven_bounds, milpStrategyProblem(p, task.strategy), row.best_bound_j);
        result.rows.push_back(row);
        result.done = static_cast<int>(result.rows.size());
        if (progress) {
            SweepProgress pr;
            pr.done = result.done;
            pr.total = result.total;
            pr.elapsed_s = secondsSince(start);
            const double milp_avg = milp_solved ? milp_time / milp_solved : config.solver.time_limit_s;
            const double heur_avg = heur_solved ? heur_time / heur_solved : 0.05;
            pr.eta_s = milp_left * milp_avg + heur_left * heur_avg;
            pr.eta_is_limit = milp_solved == 0 && milp_left > 0;
            pr.row = &result.rows.back();
            progress(pr);
        }
        if (cut_short) {
            result.cancelled = true;
            break;
        }
    }

    std::stable_sort(result.rows.begin(), result.rows.end(), [](const SweepRow& a, const SweepRow& b) {
        const int ra = strategyRank(a.strategy), rb = strategyRank(b.strategy);
        if (ra != rb) return ra < rb;
        if (a.ram_budget_bytes != b.ram_budget_bytes) return a.ram_budget_bytes < b.ram_budget_bytes;
        return a.runtime_budget_factor < b.runtime_budget_factor;
    });
    for (const auto& s : result.strategies) {
        if (!isMilpStrategy(s)) continue;
        std::vector<SweepRow*> curve;
        for (auto& r : result.rows)
            if (r.strategy == s) curve.push_back(&r);
        repairDominance(curve, result.axis, result.notes);
    }
    result.elapsed_s = secondsSince(start);
    return result;
}

std::vector<SweepRow> sweepCurve(const SweepResult& result, const std::string& strategy) {
    std::vector<SweepRow> out;
    for (const auto& r : result.rows)
        if (r.strategy == strategy) out.push_back(r);
    std::stable_sort(out.begin(), out.end(), [&](const SweepRow& a, const SweepRow& b) {
        return result.axis == SweepAxis::RamBudget ? a.ram_budget_bytes < b.ram_budget_bytes
                                                   : a.runtime_budget_factor < b.runtime_budget_factor;
    });
    return out;
}

// -------------------------------------------------------------------- CSV --

std::string sweepCsv(const SweepResult& result) {
    std::ostringstream out;
    // What was swept, on every row (the end columns): a file re-plotted away
    // from its command line told a sweep without paging from one with it by
    // nothing. The switches are the problem's (problem_…): remat-only's rows
    // page nothing where problem_paging is 1, and read as if they did.
    const std::string problem = "," + csvField(result.model) + "," + csvField(result.platform) + "," +
                                std::to_string(result.batch_size) + "," + (result.options.paging ? "1" : "0") + "," +
                                (result.options.remat ? "1" : "0");
    // best_bound_j and solve_time_s: a paper's table gives how far each
    // point is proven and how long that took; without them a time-limited
    // point's CSV row could not say either (the README asks for both).
    out << "strategy,ram_budget_bytes,runtime_budget_factor,status,compute_energy_j,paging_energy_j,"
           "total_energy_j,runtime_s,peak_ram_bytes,gap,best_bound_j,solve_time_s,schedule_from_budget,model,platform,"
           "batch_size,problem_paging,problem_remat\n";
    for (const auto& r : result.rows) {
        const bool has = r.hasSchedule();
        out << r.strategy << ',' << r.ram_budget_bytes << ',' << fmtDouble(r.runtime_budget_factor) << ','
            << toString(r.status) << ',' << (has ? fmtDouble(r.compute_energy_j) : "") << ','
            << (has ? fmtDouble(r.paging_energy_j) : "") << ',' << (has ? fmtDouble(r.total_energy_j) : "")
            << ',' << (has ? fmtDouble(r.runtime_s) : "") << ','
            << (has ? std::to_string(r.peak_ram_bytes) : "") << ',' << (has ? fmtDouble(r.gap) : "") << ','
            << (r.status != SolveStatus::Infeasible && std::isfinite(r.best_bound_j) ? fmtDouble(r.best_bound_j) : "")
            << ',' << fmtDouble(r.solve_time_s)
            << ',' << r.schedule_from_budget << problem << '\n';
    }
    return out.str();
}

bool writeSweepCsv(const SweepResult& result, const std::string& path, std::string* error) {
    try {
        writeFileAtomically(path, sweepCsv(result));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
}

}  // namespace poet
