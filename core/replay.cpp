#include "replay.h"

#include <algorithm>
#include <sstream>

#include "problem.h"
#include "row_words.h"

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

ReplayReport replaySchedule(const Graph& g, const Schedule& s, const ReplayLimits& limits, ReplayDetail detail)
{
    ReplayReport rep;
    const int n = g.size();
    ErrorLog log(g);
    if (s.size() != n) {
        rep.errors.push_back("schedule has " + std::to_string(s.size()) + " stages, the graph has " +
                             std::to_string(n) + " nodes");
        return rep;
    }

    if (detail == ReplayDetail::EveryOp) rep.ram_trace.assign(n, {});
    rep.stage_peak_bytes.assign(n, 0);
    OverBudgetRuns overBudget(log, limits.ram_budget_bytes);
    // The stage before stage 0 left nothing: a row of zeros stands for it.
    const std::vector<std::uint8_t> nothing(static_cast<std::size_t>(n) + 7, 0);
    std::vector<std::int64_t> bytes(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) bytes[i] = g.node(i).memory_bytes;
    for (int t = 0; t < n; ++t) {
        // Whole rows: a replay per step of the schedule searches (relieveToFit)
        // made cell-by-cell reads a tenth of a solve's time.
        const std::uint8_t *R = s.R.row(t), *ram_at = s.S_RAM.row(t), *sd_at = s.S_SD.row(t),
                           *in = s.M_in.row(t), *out = s.M_out.row(t);
        const std::uint8_t *R_before = t > 0 ? s.R.row(t - 1) : nothing.data(),
                           *ram_before = t > 0 ? s.S_RAM.row(t - 1) : nothing.data(),
                           *sd_before = t > 0 ? s.S_SD.row(t - 1) : nothing.data(),
                           *in_before = t > 0 ? s.M_in.row(t - 1) : nothing.data(),
                           *out_before = t > 0 ? s.M_out.row(t - 1) : nothing.data();
        const std::uint8_t* kept_for_next = t + 1 < n ? s.S_RAM.row(t + 1) : nothing.data();

        if (!R[t]) log.add(t, t, "stage ", t, " must compute its own node");
        // Whether any fault listed below is here, eight values at a time;
        // then the faults one by one only where there is one.
        auto faults = [&](int i) {
            const std::uint64_t own = t >= i && t < i + 8 ? std::uint64_t{1} << (8 * (t - i)) : 0;  // R[t] is due
            const std::uint64_t ram_i = eightEntries(ram_at + i), sd_i = eightEntries(sd_at + i),
                                in_i = eightEntries(in + i), out_i = eightEntries(out + i);
            const std::uint64_t was_in_ram =
                eightEntries(ram_before + i) | eightEntries(R_before + i) | eightEntries(in_before + i);
            return (ram_i & ~was_in_ram) |
                   (sd_i & ~(eightEntries(sd_before + i) | eightEntries(out_before + i))) | (in_i & ~sd_i) |
                   (out_i & ~ram_i) | (allEntries(!limits.paging) & (in_i | out_i | sd_i)) |
                   (allEntries(!limits.remat) & eightEntries(R + i) & ~own);
        };
        const bool faulty = anyMarked(0, n, faults) || anyMarked(t + 1, n, [&](int i) { return eightEntries(R + i); });
        if (faulty)
            for (int i = 0; i < n; ++i) {
                if (R[i] && i > t) log.add(t, i, "computed before its own stage");
                if (ram_at[i] && !(ram_before[i] || R_before[i] || in_before[i]))
                    log.add(t, i, "value read while absent: in RAM at the start of the stage, but it was not in RAM, "
                                  "computed or paged in during the previous stage");
                if (sd_at[i] && !(sd_before[i] || out_before[i]))
                    log.add(t, i,
                            "storage read before written: on flash at the start of the stage, but never paged out");
                if (in[i] && !sd_at[i]) log.add(t, i, "storage read before written: paged in, but not on flash");
                if (out[i] && !ram_at[i]) log.add(t, i, "value read while absent: paged out, but not in RAM");
                if (!limits.paging && (in[i] || out[i] || sd_at[i]))
                    log.add(t, i, "paging is switched off, but the schedule pages");
                if (!limits.remat && R[i] && i != t)
                    log.add(t, i, "rematerialization is switched off, but the schedule recomputes");
            }
        std::int64_t ram = 0;  // at the start of the stage
        forEachMarked(0, n, [&](int i) { return eightEntries(ram_at + i); }, [&](int i) { ram += bytes[i]; });
        forEachMarked(0, n, [&](int i) { return eightEntries(in + i) | eightEntries(out + i); }, [&](int i) {
            if (in[i]) {
                rep.paging_energy_j += g.node(i).pagein_energy_j;
                ++rep.page_ins;
            }
            if (out[i]) {
                rep.paging_energy_j += g.node(i).pageout_energy_j;
                ++rep.page_outs;
            }
        });

        // Walk the ops of stage t in node order, with Checkmate's memory
        // accounting. RAM changes only at a computed op and right after it,
        // so each run of ops that compute nothing is recorded at once.
        std::vector<std::int64_t>* trace = detail == ReplayDetail::EveryOp ? &rep.ram_trace[t] : nullptr;
        if (trace) trace->reserve(t + 1);
        std::int64_t& stage_peak = rep.stage_peak_bytes[t];
        int opsOver = 0, worstOp = -1;  // over-budget ops of this stage, and the one with the most RAM
        std::int64_t worstRam = 0;
        auto record = [&](int first, int ops) {  // ops first.. (ops of them) all at `ram`
            if (trace) trace->insert(trace->end(), static_cast<std::size_t>(ops), ram);
            if (ram > stage_peak) stage_peak = ram;
            if (ram > rep.peak_ram_bytes) {
                rep.peak_ram_bytes = ram;
                rep.peak_stage = t;
                rep.peak_node = first;
            }
            if (limits.ram_budget_bytes >= 0 && ram > limits.ram_budget_bytes) {
                opsOver += ops;
                if (worstOp < 0 || ram > worstRam) {
                    worstOp = first;
                    worstRam = ram;
                }
            }
        };
        int unrecorded = 0;  // the first op not yet in the trace
        forEachMarked(0, t + 1, [&](int i) { return eightEntries(R + i); }, [&](int k) {
            if (k > unrecorded) record(unrecorded, k - unrecorded);
            for (int u : g.predecessors(k)) {
                const bool available = ram_at[u] || (u < k && R[u]);
                if (!available)
                    log.add(t, k, "value read while absent: input ", u, " (", g.node(u).name, ") is not in RAM");
            }
            ram += g.node(k).memory_bytes;
            if (k != t && g.node(k).costsNothing())
                ++rep.free_recomputations;
            rep.compute_energy_j += g.node(k).compute_energy_j;
            rep.runtime_s += g.node(k).compute_time_s;
            record(k, 1);
            unrecorded = k + 1;
            if (k == t) return;
            // Before the next op: release k's inputs that no later op of this stage reads.
            for (int u : g.predecessors(k)) {
                bool readLater = false;
                for (int j : g.successors(u))
                    if (j > k && R[j]) readLater = true;
                if (!readLater && !kept_for_next[u]) ram -= g.node(u).memory_bytes;
            }
        });
        if (unrecorded <= t) record(unrecorded, t + 1 - unrecorded);
        if (opsOver > 0) overBudget.over(t, opsOver, worstOp, worstRam);
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
