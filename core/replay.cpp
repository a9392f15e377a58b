#include "replay.h"

#include <algorithm>
#include <sstream>

#include "problem.h"

namespace poet {

namespace {

class ErrorLog {
public:
    explicit ErrorLog(const Graph& g) : g_(g) {}
    template <typename... Parts>
    void add(int stage, int node, const Parts&... parts)
    {
        addUnplaced(where(stage, node), ": ", parts...);
    }
    // An error that says where it is itself (a run of stages).
    template <typename... Parts>
    void addUnplaced(const Parts&... parts)
    {
        if (errors.size() >= kMaxErrors) {  // the first ones tell the story
            ++not_listed;
            return;
        }
        std::ostringstream os;
        (os << ... << parts);
        errors.push_back(os.str());
    }
    std::string where(int stage, int node) const
    {
        return "stage " + std::to_string(stage) + ", node " + std::to_string(node) + " (" + g_.node(node).name + ")";
    }
    // A fault of the whole schedule, not of one op: listed first, never dropped.
    template <typename... Parts>
    void addWhole(const Parts&... parts)
    {
        std::ostringstream os;
        (os << ... << parts);
        errors.insert(errors.begin(), os.str());
    }
    std::vector<std::string> errors;
    int not_listed = 0;

private:
    static constexpr std::size_t kMaxErrors = 50;
    const Graph& g_;
};

// Stages over the RAM budget, one error per run of consecutive stages (one
// fault, as a value held too long, spans many: listed per op or per stage
// it filled the list), at the run's worst op.
class OverBudgetRuns {
public:
    OverBudgetRuns(ErrorLog& log, std::int64_t budget) : log_(log), budget_(budget) {}
    // Stage t's ops over the budget (`ops` > 0), the most RAM at `op`.
    void over(int t, int ops, int op, std::int64_t most)
    {
        if (ops_ > 0 && t != last_ + 1) flush();
        if (ops_ == 0) first_ = t;
        last_ = t;
        ops_ += ops;
        if (most > most_) {
            most_ = most;
            stage_ = t;
            op_ = op;
        }
    }
    void flush()
    {
        if (ops_ == 0) return;
        if (first_ == last_)
            log_.add(stage_, op_, "RAM over budget: ", most_, " B in use, budget ", budget_, " B (over at ", ops_,
                     ops_ == 1 ? " op)" : " ops)");
        else
            log_.addUnplaced("stages ", first_, " to ", last_, ": RAM over budget at ", ops_, " ops, the most ", most_,
                             " B at ", log_.where(stage_, op_), ", budget ", budget_, " B");
        ops_ = 0;
        most_ = -1;
    }

private:
    ErrorLog& log_;
    std::int64_t budget_;
    int first_ = 0, last_ = 0, ops_ = 0, stage_ = 0, op_ = 0;
    std::int64_t most_ = -1;
};

}  // namespace

ReplayReport replaySchedule(const Graph& g, const Schedule& s, const ReplayLimits& limits)
{
    ReplayReport rep;
    const int n = g.size();
    ErrorLog log(g);
    if (s.size() != n) {
        rep.errors.push_back("schedule has " + std::to_string(s.size()) + " stages, the graph has " +
                             std::to_string(n) + " nodes");
        return rep;
    }

    rep.ram_trace.assign(n, {});
    OverBudgetRuns overBudget(log, limits.ram_budget_bytes);
    for (int t = 0; t < n; ++t) {
        // What the previous stage left behind.
        auto inRamAfterPrevious = [&](int i) {
            return t > 0 && (s.S_RAM(t - 1, i) || s.R(t - 1, i) || s.M_in(t - 1, i));
        };
        auto onFlashAfterPrevious = [&](int i) { return t > 0 && (s.S_SD(t - 1, i) || s.M_out(t - 1, i)); };
        auto keptForNext = [&](int i) { return t + 1 < n && s.S_RAM(t + 1, i); };

        if (!s.R(t, t)) log.add(t, t, "stage ", t, " must compute its own node");
        for (int i = 0; i < n; ++i) {
            if (s.R(t, i) && i > t) log.add(t, i, "computed before its own stage");
            if (s.S_RAM(t, i) && !inRamAfterPrevious(i))
                log.add(t, i, "value read while absent: in RAM at the start of the stage, but it was not in RAM, "
                              "computed or paged in during the previous stage");
            if (s.S_SD(t, i) && !onFlashAfterPrevious(i))
                log.add(t, i, "storage read before written: on flash at the start of the stage, but never paged out");
            if (s.M_in(t, i) && !s.S_SD(t, i)) log.add(t, i, "storage read before written: paged in, but not on flash");
            if (s.M_out(t, i) && !s.S_RAM(t, i)) log.add(t, i, "value read while absent: paged out, but not in RAM");
            if (!limits.paging && (s.M_in(t, i) || s.M_out(t, i) || s.S_SD(t, i)))
                log.add(t, i, "paging is switched off, but the schedule pages");
            if (!limits.remat && s.R(t, i) && i != t)
                log.add(t, i, "rematerialization is switched off, but the schedule recomputes");
        }

        // Walk the ops of stage t in node order, with Checkmate's memory accounting.
        std::int64_t ram = 0;
        for (int i = 0; i < n; ++i)
            if (s.S_RAM(t, i)) ram += g.node(i).memory_bytes;
        auto& trace = rep.ram_trace[t];
        trace.reserve(t + 1);
        int opsOver = 0, worstOp = -1;  // over-budget ops of this stage, and the one with the most RAM
        for (int k = 0; k <= t; ++k) {
            if (k > 0 && s.R(t, k - 1)) {
                // Release the inputs of the previous op that no later op of this stage reads.
                for (int u : g.predecessors(k - 1)) {
                    bool readLater = false;
                    for (int j : g.successors(u))
                        if (j > k - 1 && s.R(t, j)) readLater = true;
                    if (!readLater && !keptForNext(u)) ram -= g.node(u).memory_bytes;
                }
            }
            if (s.R(t, k)) {
                for (int u : g.predecessors(k)) {
                    const bool available = s.S_RAM(t, u) || (u < k && s.R(t, u));
                    if (!available) log.add(t, k, "value read while absent: input ", u, " (", g.node(u).name, ") is not in RAM");
                }
                ram += g.node(k).memory_bytes;
                if (k != t && g.node(k).costsNothing())
                    ++rep.free_recomputations;
                rep.compute_energy_j += g.node(k).compute_energy_j;
                rep.runtime_s += g.node(k).compute_time_s;
            }
            trace.push_back(ram);
            if (ram > rep.peak_ram_bytes) {
                rep.peak_ram_bytes = ram;
                rep.peak_stage = t;
                rep.peak_node = k;
            }
            if (limits.ram_budget_bytes >= 0 && ram > limits.ram_budget_bytes) {
                ++opsOver;
                if (worstOp < 0 || ram > trace[worstOp]) worstOp = k;
            }
        }
        if (opsOver > 0) overBudget.over(t, opsOver, worstOp, trace[worstOp]);
        for (int i = 0; i < n; ++i) {
            if (s.M_in(t, i)) {
                rep.paging_energy_j += g.node(i).pagein_energy_j;
                ++rep.page_ins;
            }
            if (s.M_out(t, i)) {
                rep.paging_energy_j += g.node(i).pageout_energy_j;
                ++rep.page_outs;
            }
        }
    }
    overBudget.flush();
    rep.recomputations = s.R.count() - n;
    rep.total_energy_j = rep.compute_energy_j + rep.paging_energy_j;
    if (limits.runtime_budget_s >= 0 && rep.runtime_s > acceptedRuntimeS(limits))
        log.addWhole("runtime ", rep.runtime_s, " s (the whole schedule's compute) exceeds the budget of ",
                     limits.runtime_budget_s, " s");
    rep.errors = std::move(log.errors);
    rep.errors_not_listed = log.not_listed;
    rep.valid = rep.errors.empty();
    return rep;
}

std::vector<std::int64_t> peakPerStage(const ReplayReport& report)
{
    std::vector<std::int64_t> peak(report.ram_trace.size(), 0);
    for (std::size_t t = 0; t < peak.size(); ++t)
        for (std::int64_t used : report.ram_trace[t]) peak[t] = std::max(peak[t], used);
    return peak;
}

ReplayLimits limitsOf(const Problem& problem)
{
    ReplayLimits l;
    l.ram_budget_bytes = problem.ram_budget_bytes;
    l.runtime_budget_s = problem.runtimeBudgetSeconds();
    l.paging = problem.options.paging;
    l.remat = problem.options.remat;
    return l;
}

}  // namespace poet
