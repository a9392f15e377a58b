// Baselines (Chen, revolve, DTR, plain) and sweeps: schedules the replay
// accepts, closed forms on chains, POET never worse, monotone curves,
// cancellation and the cache.
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "baselines.h"
#include "bundled_problem.h"
#include "graph.h"
#include "graph_analysis.h"
#include "problem_loader.h"
#include "replay.h"
#include "schedule.h"
#include "solver.h"
#include "sweep.h"

using namespace poet;

namespace {

Node makeNode(const std::string& name, NodeKind kind, std::int64_t bytes, double energy) {
    Node n;
    n.name = name;
    n.type = kind == NodeKind::Backward ? "gradient" : "layer";
    n.kind = kind;
    n.memory_bytes = bytes;
    n.compute_energy_j = energy;
    n.compute_time_s = energy * 1e-3;
    n.pagein_energy_j = 0.3 * energy + 0.05;
    n.pageout_energy_j = 0.3 * energy + 0.05;
    return n;
}

// The backward pass as the reference builds it: for each consecutive pair of
// listed layers (L_k, L_k+1), last pair first, a gradient node reading L_k,
// L_k+1 and the gradient node added before it (the loss for the first one).
// Its output has L_k+1's size, its energy is 2x L_k's.
void addBackward(std::vector<Node>& nodes, std::vector<std::pair<int, int>>& edges, const std::vector<int>& listed) {
    int prev = listed.back();
    for (int k = static_cast<int>(listed.size()) - 2; k >= 0; --k) {
        const int a = listed[k], b = listed[k + 1];
        const int id = static_cast<int>(nodes.size());
        nodes.push_back(makeNode("grad_" + nodes[a].name, NodeKind::Backward, nodes[b].memory_bytes,
                                 2 * nodes[a].compute_energy_j));
        edges.push_back({a, id});
        edges.push_back({b, id});
        if (prev != b) edges.push_back({prev, id});
        prev = id;
    }
}

// n forward layers (node 0 the input) + loss + n gradient nodes; T = 2n + 1.
Graph chain(int n, std::int64_t bytes = 1000, bool vary = false) {
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    std::vector<int> listed;
    for (int i = 0; i < n; ++i) {
        const std::int64_t b = vary ? bytes * (1 + (i * 7) % 4) : bytes;
        nodes.push_back(makeNode("L" + std::to_string(i), NodeKind::Forward, b, i == 0 ? 0.0 : 1.0 + 0.1 * (i % 3)));
        if (i > 0) edges.push_back({i - 1, i});
        listed.push_back(i);
    }
    nodes.push_back(makeNode("loss", NodeKind::Loss, vary ? bytes / 4 : bytes, 0.5));
    edges.push_back({n - 1, n});
    listed.push_back(n);
    addBackward(nodes, edges, listed);
    return Graph(std::move(nodes), std::move(edges));
}

// A small ResNet-like graph: blocks of (conv, conv, add with skip).
Graph residual(int blocks) {
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges;
    std::vector<int> listed;
    auto add = [&](const std::string& name, std::int64_t bytes, double e, std::vector<int> preds) {
        const int id = static_cast<int>(nodes.size());
        nodes.push_back(makeNode(name, NodeKind::Forward, bytes, e));
        for (int p : preds) edges.push_back({p, id});
        listed.push_back(id);
        return id;
    };
    int x = add("input", 3000, 0.0, {});
    x = add("stem", 2000, 1.5, {x});
    for (int b = 0; b < blocks; ++b) {
        const int c1 = add("b" + std::to_string(b) + "c1", 2000, 1.0, {x});
        const int c2 = add("b" + std::to_string(b) + "c2", 2000, 1.0, {c1});
        x = add("b" + std::to_string(b) + "add", 2000, 0.1, {x, c2});
    }
    const int fc = add("fc", 500, 0.3, {x});
    const int loss = static_cast<int>(nodes.size());
    nodes.push_back(makeNode("loss", NodeKind::Loss, 100, 0.05));
    edges.push_back({fc, loss});
    listed.push_back(loss);
    addBackward(nodes, edges, listed);
    return Graph(std::move(nodes), std::move(edges));
}

// input -> a -> loss, and the loss reads the input too: no node cuts the
// forward pass, so no checkpoint candidate.
Graph skipToLoss() {
    std::vector<Node> nodes{makeNode("input", NodeKind::Forward, 1000, 0.0), makeNode("a", NodeKind::Forward, 1000, 1.0),
                            makeNode("loss", NodeKind::Loss, 100, 0.5)};
    std::vector<std::pair<int, int>> edges{{0, 1}, {1, 2}, {0, 2}};
    addBackward(nodes, edges, {0, 1, 2});
    return Graph(std::move(nodes), std::move(edges));
}

ReplayLimits ramLimit(std::int64_t b) {
    ReplayLimits l;
    l.ram_budget_bytes = b;
    return l;
}

std::int64_t plainPeak(const Graph& g) { return replaySchedule(g, plainSchedule(g)).peak_ram_bytes; }

}  // namespace

class TestBaselines : public QObject {
    Q_OBJECT

private slots:
    void checkpointCandidates_chainAndResidual() {
        const Graph c = chain(6);
        QCOMPARE(forwardEnd(c), 7);
        QVERIFY(isForwardChain(c));
        QCOMPARE(poet::checkpointCandidates(c), (std::vector<int>{1, 2, 3, 4, 5}));
        const Graph r = residual(3);
        QVERIFY(!isForwardChain(r));
        // The stem, the block outputs and fc cut the forward pass.
        QCOMPARE(poet::checkpointCandidates(r), (std::vector<int>{1, 4, 7, 10, 11}));
    }

    void scheduleFromRecompute_plainEqualsPlainSchedule() {
        const Graph g = residual(2);
        const Schedule s = scheduleFromRecompute(g, BoolMatrix(g.size()));
        QVERIFY(replaySchedule(g, s).valid);
        QCOMPARE(replaySchedule(g, s).peak_ram_bytes, plainPeak(g));
        QCOMPARE(replaySchedule(g, s).total_energy_j, g.totalComputeEnergy());
    }

    void stagePeak_agreesWithReplay() {
        const Graph g = chain(7, 1000, true);
        auto s = revolveSchedule(g, 2);
        QVERIFY(s);
        const ReplayReport rep = replaySchedule(g, *s);
        QVERIFY2(rep.valid, rep.errors.empty() ? "" : rep.errors.front().c_str());
        std::int64_t peak = 0;
        const int n = g.size();
        for (int t = 0; t < n; ++t) {
            std::vector<char> res(n), comp(n), kept(n);
            for (int i = 0; i < n; ++i) {
                res[i] = s->S_RAM(t, i);
                comp[i] = s->R(t, i);
                kept[i] = t + 1 < n && s->S_RAM(t + 1, i);
            }
            peak = std::max(peak, stagePeakBytes(g, t, res, comp, kept, t == n - 1));
        }
        QCOMPARE(peak, rep.peak_ram_bytes);
    }

    // Chain of n layers + loss, all outputs m bytes: F = n + 1 forward nodes,
    // k = ceil(sqrt(F)), checkpoints k, 2k, ..., L (the last <= n - 1).
    // Recomputed: nodes 0..L-1 except the L/k - 1 checkpoints among them.
    // Peak RAM: the largest of three stages, each in closed form (below).
    void chenSqrtN_closedForm_data() {
        QTest::addColumn<int>("n");
        QTest::newRow("n=15") << 15;
        QTest::newRow("n=24") << 24;
        QTest::newRow("n=35") << 35;
        QTest::newRow("n=10") << 10;
    }
    void chenSqrtN_closedForm() {
        QFETCH(int, n);
        const std::int64_t m = 1000;
        const Graph g = chain(n, m);
        const int F = n + 1;
        const int k = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(F))));
        const int L = k * ((n - 1) / k);
        std::vector<int> expected_cps;
        for (int c = k; c <= n - 1; c += k) expected_cps.push_back(c);
        QCOMPARE(chenSqrtNCheckpoints(g), expected_cps);

        auto s = chenSqrtN(g, {});
        QVERIFY(s);
        const ReplayReport rep = replaySchedule(g, *s);
        QVERIFY2(rep.valid, rep.errors.empty() ? "" : rep.errors.front().c_str());
        QCOMPARE(rep.recomputations, L - L / k + 1);

        // First backward stage: checkpoints k..L (L/k values), the kept tail
        // L+1..n-1 and the loss (n - L values), plus the new gradient.
        const std::int64_t first_backward = (L / k + (n - L) + 1) * m;
        // Stage recomputing the segment (c, c+k), c + k <= L, for the gradient
        // of (x_c+k-1, x_c+k): checkpoints k..c+k (c/k + 1 values), the
        // carried gradient, the k - 1 recomputed values and the new gradient.
        // Largest for the top one, c = L - k.
        const std::int64_t recompute_stage = (static_cast<std::int64_t>(L / k) + 1 + k) * m;
        // The first segment (-1, k) also recomputes the input: k values.
        const std::int64_t bottom_stage = (1 + 1 + k + 1) * m;
        const std::int64_t expected = std::max({first_backward, recompute_stage, bottom_stage});
        QCOMPARE(rep.peak_ram_bytes, expected);
        QVERIFY(rep.peak_ram_bytes < plainPeak(g));
    }

    void revolve_matchesBinomialFormula_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("s");
        for (int n : {6, 11, 20})
            for (int s : {1, 2, 3, 5})
                QTest::newRow(qPrintable(QString("n=%1 s=%2").arg(n).arg(s))) << n << s;
    }
    void revolve_matchesBinomialFormula() {
        QFETCH(int, n);
        QFETCH(int, s);
        // Griewank's t(l, s) from the closed form equals the program's DP.
        for (int l = 1; l <= 40; ++l)
            for (int c = 1; c <= 6; ++c)
                QCOMPARE(revolveForwardSteps(l, c), revolveForwardStepsClosedForm(l, c));

        const Graph g = chain(n);
        auto sched = revolveSchedule(g, s);
        QVERIFY(sched);
        const ReplayReport rep = replaySchedule(g, *sched);
        QVERIFY2(rep.valid, rep.errors.empty() ? "" : rep.errors.front().c_str());
        // l = F - 1 = n steps to reverse; the first sweep (l - 1 steps) is
        // the forward pass itself, not a recomputation.
        const int l = n;
        QCOMPARE(static_cast<long long>(rep.recomputations), revolveForwardStepsClosedForm(l, s) - (l - 1));
    }

    void revolve_fewerCheckpointsLessRam() {
        const Graph g = chain(20);
        std::int64_t prev_peak = 0;
        int prev_recomp = -1;
        for (int s = 1; s <= 6; ++s) {
            auto sched = revolveSchedule(g, s);
            QVERIFY(sched);
            const ReplayReport rep = replaySchedule(g, *sched);
            QVERIFY(rep.valid);
            QVERIFY(rep.peak_ram_bytes >= prev_peak);
            if (prev_recomp >= 0) QVERIFY(rep.recomputations <= prev_recomp);
            prev_peak = rep.peak_ram_bytes;
            prev_recomp = rep.recomputations;
        }
    }

    void revolve_overBlocks() {
        // residual(2): states input, stem, b0add, b1add, fc (x_0..x_4; the
        // block outputs and the stem cut the forward pass); segment 2 is
        // b0c1, b0c2, b0add, segment 3 b1c1, b1c2, b1add. The backward needs
        // fc at stage 10, b1add at 11, segment 3's inside at 12, segment 2's
        // at 15, the input at 18.
        const Graph g = residual(2);
        QCOMPARE(revolveStates(g), (std::vector<int>{0, 1, 4, 7, 8}));
        // One slot (the input's): b1add's visit advances segments 1 to 3
        // (7 nodes), b1c2's segments 1 and 2 (4) and recomputes b1c1 and
        // b1c2 (2), the stem's segment 1 (1) and b0c1 and b0c2 (2): 16.
        // Five: the forward pass keeps every state, and only the insides
        // come again: b1c1, b1c2, b0c1, b0c2.
        std::int64_t fewer_slots_peak = 0;
        for (auto [slot_count, recomputed] : {std::pair{1, 16}, std::pair{5, 4}}) {
            const auto s = revolveSchedule(g, slot_count);
            QVERIFY(s);
            const ReplayReport rep = replaySchedule(g, *s);
            QVERIFY2(rep.valid, rep.errors.empty() ? "" : rep.errors.front().c_str());
            QCOMPARE(rep.recomputations, recomputed);
            QVERIFY(rep.peak_ram_bytes >= fewer_slots_peak);
            fewer_slots_peak = rep.peak_ram_bytes;
        }
        // A forward pass with no checkpoint candidate has no chain to reverse.
        QVERIFY(!revolveSchedule(skipToLoss(), 2));
        // An inside node that nothing reads later (d, a dead end off the
        // stem) is recomputed neither on the advance to add (stage 8, where
        // grad_add reads add) nor for its segment's gradients (stage 9,
        // grad_c1); c1 is, at both.
        std::vector<Node> nodes{makeNode("input", NodeKind::Forward, 1000, 0.0), makeNode("stem", NodeKind::Forward, 1000, 1.0),
                                makeNode("d", NodeKind::Forward, 1000, 1.0), makeNode("c1", NodeKind::Forward, 1000, 1.0),
                                makeNode("add", NodeKind::Forward, 1000, 0.1), makeNode("fc", NodeKind::Forward, 500, 0.3),
                                makeNode("loss", NodeKind::Loss, 100, 0.05)};
        std::vector<std::pair<int, int>> edges{{0, 1}, {1, 2}, {1, 3}, {1, 4}, {3, 4}, {4, 5}, {5, 6}};
        addBackward(nodes, edges, {0, 1, 3, 4, 5, 6});
        const Graph dead(std::move(nodes), std::move(edges));
        QCOMPARE(revolveStates(dead), (std::vector<int>{0, 1, 4, 5}));
        const auto once = revolveSchedule(dead, 1);
        QVERIFY(once);
        QVERIFY(replaySchedule(dead, *once).valid);
        for (int t = 3; t < dead.size(); ++t) QVERIFY(!once->R(t, 2));
        QVERIFY(once->R(8, 3) && once->R(9, 3));
    }

    void revolve_recomputesNoSoonerThanRead() {
        // Every value recomputed in a stage is read there (by the stage's
        // node or a later recomputation in it): a segment's inside comes
        // back as its reads need it, not all at its first backward stage
        // (resnet18_cifar, one slot: a 0.7 MB peak where all at once took 0.8).
        const Graph g = loadTrainingGraph(ProfileCatalog::standard(), "resnet18_cifar", "m4");
        for (int slot_count : {1, 3, 8}) {
            const auto s = revolveSchedule(g, slot_count);
            QVERIFY(s);
            QVERIFY(replaySchedule(g, *s).valid);
            for (int t = forwardEnd(g); t < g.size(); ++t)
                for (int v = 0; v < t; ++v) {
                    if (!s->R(t, v)) continue;
                    bool read = false;
                    for (int w : g.successors(v))
                        read = read || (w <= t && s->R(t, w));
                    QVERIFY2(read, qPrintable(QString("%1 slots: node %2 recomputed at stage %3, read there by nothing")
                                                  .arg(slot_count).arg(v).arg(t)));
                }
        }
    }

    void everyBaselineAcceptedByReplay_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("chain") << 0;
        QTest::newRow("chain, varied sizes") << 1;
        QTest::newRow("residual") << 2;
    }
    void everyBaselineAcceptedByReplay() {
        QFETCH(int, which);
        const Graph g = which == 0 ? chain(12) : which == 1 ? chain(12, 1000, true) : residual(4);
        const std::int64_t lo = minimumFeasibleBudgetLowerBound(g), hi = plainPeak(g);
        QVERIFY(lo <= hi);
        int fitted = 0;
        for (std::int64_t b : ramSweepBudgets(lo, hi, 8)) {
            const ReplayLimits lim = ramLimit(b);
            std::vector<std::pair<const char*, std::optional<Schedule>>> all{
                {"plain", plainBaseline(g, lim)}, {"chen-sqrtn", chenSqrtN(g, lim)},
                {"chen-greedy", chenGreedy(g, lim)}, {"revolve", revolve(g, lim)}, {"dtr", dtr(g, lim)}};
            for (auto& [name, s] : all) {
                if (!s) continue;
                ++fitted;
                const ReplayReport rep = replaySchedule(g, *s, lim);
                QVERIFY2(rep.valid, qPrintable(QString("%1 at %2: %3").arg(name).arg(b).arg(
                                        rep.errors.empty() ? "" : rep.errors.front().c_str())));
                QVERIFY(rep.peak_ram_bytes <= b);
                QCOMPARE(rep.page_ins + rep.page_outs, 0);
            }
        }
        QVERIFY(fitted > 10);
        // At the plain-pass peak every heuristic fits.
        QVERIFY(plainBaseline(g, ramLimit(hi)));
        QVERIFY(chenGreedy(g, ramLimit(hi)));
        QVERIFY(dtr(g, ramLimit(hi)));
        QVERIFY(!plainBaseline(g, ramLimit(hi - 1)));
        // DTR and Chen's greedy go well below it.
        QVERIFY(dtr(g, ramLimit(hi * 3 / 4)));
        QVERIFY(chenGreedy(g, ramLimit(hi * 3 / 4)));
        // Nothing fits below the lower bound.
        QVERIFY(!dtr(g, ramLimit(lo - 1)));
        QVERIFY(!chenGreedy(g, ramLimit(lo - 1)));
    }

    void poetNeverWorseThanBaselines() {
        const Graph g = chain(6, 1000, true);  // T = 13
        const std::int64_t lo = minimumFeasibleBudgetLowerBound(g), hi = plainPeak(g);
        int compared = 0;
        for (std::int64_t b : ramSweepBudgets(lo, hi, 4)) {
            Problem p;
            p.graph = g;
            p.ram_budget_bytes = b;
            p.runtime_budget_factor = 3.0;
            SolverOptions so;
            so.time_limit_s = 5;
            const SolveResult r = solve(p, so);
            if (r.status != SolveStatus::Optimal) continue;
            for (const std::string name : {"plain", "chen-sqrtn", "chen-greedy", "revolve", "dtr"}) {
                const SweepRow row = runStrategy(p, name, so);
                if (row.status != SolveStatus::Feasible) continue;
                ++compared;
                QVERIFY2(r.replay.total_energy_j <= row.total_energy_j * (1 + 1e-6) + 1e-9,
                         qPrintable(QString("%1 at %2: poet %3 > %4").arg(name.c_str()).arg(b)
                                        .arg(r.replay.total_energy_j, 0, 'g', 12).arg(row.total_energy_j, 0, 'g', 12)));
            }
        }
        QVERIFY(compared > 0);
    }

    void sweep_poetMonotone() {
        SweepConfig cfg;
        cfg.problem.graph = chain(5);  // T = 11
        cfg.problem.runtime_budget_factor = 2.0;
        cfg.points = 5;
        cfg.strategies = {"poet", "remat-only", "chen-greedy", "plain"};
        cfg.solver.time_limit_s = 5;
        const SweepResult res = runSweep(cfg);
        QVERIFY(!res.cancelled);
        QCOMPARE(res.done, res.total);
        QCOMPARE(static_cast<int>(res.rows.size()), 4 * static_cast<int>(res.ram_budgets.size()));
        QCOMPARE(res.ram_budgets.front(), res.ram_lower_bound_bytes);
        QCOMPARE(res.ram_budgets.back(), res.plain_peak_bytes);
        const auto curve = sweepCurve(res, "poet");
        double prev = std::numeric_limits<double>::infinity();
        int solved = 0;
        for (const auto& r : curve) {
            if (!r.hasSchedule()) continue;
            ++solved;
            QVERIFY2(r.total_energy_j <= prev * (1 + 1e-6),
                     qPrintable(QString("at %1: %2 > %3").arg(r.ram_budget_bytes).arg(r.total_energy_j).arg(prev)));
            prev = r.total_energy_j;
        }
        QVERIFY(solved >= 2);
        // At the plain-pass peak POET needs nothing beyond one pass.
        QVERIFY(std::abs(curve.back().total_energy_j - cfg.problem.graph.totalComputeEnergy()) < 1e-6);
        const auto plain = sweepCurve(res, "plain");
        QVERIFY(plain.back().hasSchedule());
        QVERIFY(!plain.front().hasSchedule());
    }

    // Along the runtime axis the MILP points run from the loosest budget to
    // the tightest (each relieves the schedule of the one before it), after
    // the heuristics in axis order; the curve comes back in axis order, never
    // rising with the budget.
    void sweep_runtimeAxisSolvesTheLoosestFirst() {
        SweepConfig cfg;
        cfg.problem.graph = chain(5);
        cfg.problem.ram_budget_bytes = plainPassPeakBytes(cfg.problem.graph) * 2 / 3;
        cfg.axis = SweepAxis::RuntimeFactor;
        cfg.runtime_min = 1.0;
        cfg.runtime_max = 2.0;
        cfg.points = 4;
        cfg.strategies = {"poet", "dtr"};
        cfg.solver.time_limit_s = 5;
        std::vector<std::pair<std::string, double>> order;
        const SweepResult res = runSweep(cfg, [&](const SweepProgress& p) {
            order.emplace_back(p.row->strategy, p.row->runtime_budget_factor);
        });
        QCOMPARE(res.done, res.total);
        const std::vector<std::pair<std::string, double>> expected = {
            {"dtr", 1.0}, {"dtr", 4.0 / 3}, {"dtr", 5.0 / 3}, {"dtr", 2.0},
            {"poet", 2.0}, {"poet", 5.0 / 3}, {"poet", 4.0 / 3}, {"poet", 1.0}};
        QCOMPARE(order.size(), expected.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            QCOMPARE(order[k].first, expected[k].first);
            // The factors are rounded to nine decimals (sweep.cpp): 1.333333333.
            QVERIFY2(std::abs(order[k].second - expected[k].second) < 1e-9,
                     qPrintable(QString("row %1: %2x").arg(k).arg(order[k].second)));
        }
        const auto curve = sweepCurve(res, "poet");
        QCOMPARE(curve.size(), std::size_t{4});
        for (std::size_t i = 1; i < curve.size(); ++i) {
            QVERIFY(curve[i].runtime_budget_factor > curve[i - 1].runtime_budget_factor);
            QVERIFY(curve[i].hasSchedule());
            QVERIFY(curve[i].total_energy_j <= curve[i - 1].total_energy_j * (1 + 1e-12));
        }
    }

    // With a loose gap every MILP point stops at its first good-enough
    // schedule, so only the schedules handed along the sweep keep the curves
    // ordered: each point starts from the previous one's, and poet from the
    // restricted strategies' at the same point.
    void sweep_startsEachPointFromTheSchedulesItMayReuse() {
        SweepConfig cfg;
        cfg.problem.graph = residual(4);
        cfg.problem.runtime_budget_factor = 1.5;
        cfg.points = 6;
        cfg.strategies = {"poet", "remat-only", "paging-only"};
        cfg.solver.time_limit_s = 1;  // remat-only cannot prove its tightest points infeasible sooner
        cfg.solver.relative_gap = 0.3;
        const SweepResult res = runSweep(cfg);
        QCOMPARE(res.done, res.total);
        const auto poet = sweepCurve(res, "poet");
        int compared = 0;
        for (const std::string restricted : {"remat-only", "paging-only"}) {
            const auto other = sweepCurve(res, restricted);
            QCOMPARE(other.size(), poet.size());
            for (std::size_t i = 0; i < poet.size(); ++i) {
                if (!other[i].hasSchedule()) continue;
                QVERIFY(poet[i].hasSchedule());
                ++compared;
                QVERIFY2(poet[i].total_energy_j <= other[i].total_energy_j,
                         qPrintable(QString("%1 B: poet %2 J > %3 %4 J").arg(poet[i].ram_budget_bytes)
                                        .arg(poet[i].total_energy_j, 0, 'g', 17).arg(restricted.c_str())
                                        .arg(other[i].total_energy_j, 0, 'g', 17)));
            }
        }
        QVERIFY(compared >= 4);
        for (const std::string strategy : {"poet", "remat-only", "paging-only"}) {
            const auto curve = sweepCurve(res, strategy);
            for (std::size_t i = 1; i < curve.size(); ++i) {
                if (!curve[i - 1].hasSchedule()) continue;
                QCOMPARE(curve[i].status, SolveStatus::Optimal);  // within the gap asked for: not repaired
                QVERIFY2(curve[i].total_energy_j <= curve[i - 1].total_energy_j,
                         qPrintable(QString("%1 rises from %2 J to %3 J").arg(strategy.c_str())
                                        .arg(curve[i - 1].total_energy_j, 0, 'g', 17)
                                        .arg(curve[i].total_energy_j, 0, 'g', 17)));
            }
        }
    }

    void sweep_cancellable() {
        SweepConfig cfg;
        cfg.problem.graph = chain(5);
        cfg.problem.runtime_budget_factor = 2.0;
        cfg.points = 6;
        cfg.strategies = {"poet", "dtr"};
        cfg.solver.time_limit_s = 5;
        std::atomic<bool> cancel{false};
        int calls = 0;
        bool poet_timed = false;
        const SweepResult res = runSweep(cfg, [&](const SweepProgress& p) {
            ++calls;
            QVERIFY(p.done <= p.total);
            QVERIFY(p.eta_s >= 0);
            // Until a MILP point is timed, the time left is its time limits'
            // sum, and says it is a bound: six poet points at 5 s.
            poet_timed = poet_timed || p.row->strategy == "poet";
            QCOMPARE(p.eta_is_limit, !poet_timed);
            if (!poet_timed) QVERIFY(p.eta_s >= 6 * 5);
            if (p.done == 3) cancel = true;
        }, &cancel);
        QVERIFY(res.cancelled);
        QCOMPARE(res.done, 3);
        QCOMPARE(calls, 3);
        QVERIFY(res.done < res.total);
        QCOMPARE(static_cast<int>(res.rows.size()), 3);
    }

    // Cancelling in the middle of a MILP point keeps the schedule its solve
    // had (the sweep dropped it, where `poet solve` keeps its best on
    // Ctrl-C), with a note, and not in the cache: the point had less than
    // its time. resnet18_cifar at 16.4% and 1.001x has a schedule within
    // 0.05 s and is not proven in 30 s.
    void sweep_cancelKeepsThePointsSchedule() {
        SweepConfig cfg;
        cfg.problem = test::bundledOnM4("resnet18_cifar", 0.164, 1.001, true);
        cfg.axis = SweepAxis::RuntimeFactor;
        cfg.runtime_min = cfg.runtime_max = 1.001;
        cfg.strategies = {"poet"};
        cfg.solver.time_limit_s = 120;
        cfg.solver.relative_gap = 1e-4;
        std::atomic<bool> cancel{false};
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            cancel = true;
        });
        SweepCache mem;
        int calls = 0;
        const SweepResult res = runSweep(cfg, [&](const SweepProgress&) { ++calls; }, &cancel, &mem);
        canceller.join();
        QVERIFY(res.cancelled);
        QCOMPARE(calls, 1);  // the progress shows the kept row
        QCOMPARE(res.rows.size(), std::size_t(1));
        const SweepRow& row = res.rows.front();
        QCOMPARE(row.status, SolveStatus::Feasible);
        QVERIFY2(row.schedule && row.gap > 1e-4 && row.solve_time_s < 60, qPrintable(QString::number(row.gap)));
        ReplayLimits limits;
        limits.ram_budget_bytes = cfg.problem.ram_budget_bytes;
        limits.runtime_budget_s = cfg.problem.runtimeBudgetSeconds() * (1 + 1e-9);
        const ReplayReport replay = replaySchedule(cfg.problem.graph, *row.schedule, limits);
        QVERIFY(replay.valid);
        QCOMPARE(replay.total_energy_j, row.total_energy_j);
        QCOMPARE(mem.size(), std::size_t(0));
        QCOMPARE(res.notes.size(), std::size_t(1));
        QVERIFY2(res.notes.front().rfind("poet @ 1.001x: cancelled after ", 0) == 0 &&
                     res.notes.front().find("; its best schedule so far is kept (gap ") != std::string::npos,
                 res.notes.front().c_str());
    }

    // A looser point's time-limited result worse than a tighter point's
    // schedule is replaced by it, and a note says so (the progress line had
    // shown the point's own result, the CSV the replacement). The worse
    // result is planted in the cache, as a solve cannot be made to give one.
    void sweep_notesWhereATighterPointsScheduleIsUsed() {
        SweepConfig cfg;
        cfg.problem.graph = chain(5);
        cfg.problem.runtime_budget_factor = 2.0;
        cfg.points = 3;
        cfg.strategies = {"poet"};
        cfg.solver.time_limit_s = 5;
        SweepCache mem;
        const SweepResult honest = runSweep(cfg, {}, nullptr, &mem);
        QVERIFY(honest.notes.empty());
        const auto curve = sweepCurve(honest, "poet");
        QVERIFY(curve.size() == 3 && curve[1].hasSchedule());

        Problem loosest = cfg.problem;
        loosest.ram_budget_bytes = honest.ram_budgets.back();
        SweepRow worse = curve.back();
        worse.status = SolveStatus::Feasible;
        worse.total_energy_j = curve[1].total_energy_j + 1;
        worse.best_bound_j = curve[1].total_energy_j - 0.5;
        mem.store(sweepPointKey(loosest, "poet", cfg.solver.relative_gap), worse, 1e9);
        const SweepResult repaired = runSweep(cfg, {}, nullptr, &mem);
        const SweepRow& last = sweepCurve(repaired, "poet").back();
        QCOMPARE(last.total_energy_j, curve[1].total_energy_j);
        QCOMPARE(last.gap, 0.5 / curve[1].total_energy_j);
        QCOMPARE(repaired.notes.size(), std::size_t(1));
        const std::string note = repaired.notes.front();
        QVERIFY2(note.rfind("poet @ " + std::to_string(loosest.ram_budget_bytes) + " B: its own result (", 0) == 0 &&
                     note.find(") replaced by the schedule of the tighter point @ " +
                               std::to_string(honest.ram_budgets[1]) + " B (") != std::string::npos,
                 note.c_str());
        // The CSV says which rows are another point's schedule (only the note did).
        QCOMPARE(last.schedule_from_budget, std::to_string(honest.ram_budgets[1]));
        QVERIFY(sweepCurve(repaired, "poet")[1].schedule_from_budget.empty());
        const std::string csv = sweepCsv(repaired);
        QVERIFY2(csv.find("poet," + std::to_string(loosest.ram_budget_bytes) + ",") != std::string::npos &&
                     csv.find("," + std::to_string(honest.ram_budgets[1]) + ",,,1,1,1\n") != std::string::npos,
                 csv.c_str());
    }

    // The runtime factors are the decimals asked for (the CSV said
    // 1.4000000000000001), and a range of one factor is one point (it was
    // three, the same).
    void sweep_runtimeFactorsAreRound() {
        SweepConfig cfg;
        cfg.problem.graph = chain(4);
        cfg.problem.ram_budget_bytes = plainPassPeakBytes(cfg.problem.graph);
        cfg.axis = SweepAxis::RuntimeFactor;
        cfg.strategies = {"plain"};
        cfg.points = 4;
        cfg.runtime_min = 1.0;
        cfg.runtime_max = 1.6;
        QCOMPARE(runSweep(cfg).runtime_factors, (std::vector<double>{1.0, 1.2, 1.4, 1.6}));
        QVERIFY(sweepCsv(runSweep(cfg)).find("1.4000000000000001") == std::string::npos);
        cfg.runtime_min = 1.5;
        cfg.runtime_max = 1.5;
        QCOMPARE(runSweep(cfg).runtime_factors, (std::vector<double>{1.5}));
    }

    void sweep_servedFromCache() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SweepConfig cfg;
        cfg.problem.graph = chain(4);
        cfg.problem.runtime_budget_factor = 1.5;
        cfg.points = 3;
        cfg.strategies = {"poet", "paging-only", "revolve", "chen-sqrtn"};
        cfg.solver.time_limit_s = 5;
        cfg.cache_dir = dir.path().toStdString();
        const SweepResult first = runSweep(cfg);
        QCOMPARE(first.cache_hits, 0);
        QCOMPARE(first.done, first.total);
        // A fresh run (new in-memory cache) reads every point from disk.
        const SweepResult second = runSweep(cfg);
        QCOMPARE(second.cache_hits, second.total);
        QCOMPARE(second.rows.size(), first.rows.size());
        for (std::size_t i = 0; i < first.rows.size(); ++i) {
            QCOMPARE(second.rows[i].strategy, first.rows[i].strategy);
            QCOMPARE(second.rows[i].status, first.rows[i].status);
            QCOMPARE(second.rows[i].total_energy_j, first.rows[i].total_energy_j);
            QVERIFY(second.rows[i].from_cache);
        }
        QCOMPARE(sweepCsv(second), sweepCsv(first));
        // A shared in-memory cache serves too; a changed budget misses.
        SweepCache mem;
        runSweep(cfg, {}, nullptr, &mem);
        QCOMPARE(runSweep(cfg, {}, nullptr, &mem).cache_hits, first.total);
        cfg.problem.runtime_budget_factor = 1.6;
        QCOMPARE(runSweep(cfg, {}, nullptr, &mem).cache_hits, 0);
        // The key covers the graph's costs.
        Problem p = cfg.problem;
        const std::string k1 = sweepPointKey(p, "poet", 1e-4);
        std::vector<Node> nodes = p.graph.nodes();
        nodes[2].compute_energy_j += 1e-12;
        p.graph = Graph(nodes, p.graph.edges());
        QVERIFY(sweepPointKey(p, "poet", 1e-4) != k1);
        QVERIFY(sweepPointKey(cfg.problem, "dtr", 1e-4) != k1);
    }

    // Every value of chain(4) is 1,000 B, so 3,500 B admits the schedules of
    // 3,000 B (effective_budget.h): a sweep over the budgets 500 B above
    // another's reads every point from the other's, and shows its own budgets.
    void sweep_sameEffectiveBudgetsShareRows() {
        SweepConfig cfg;
        cfg.problem.graph = chain(4);
        cfg.problem.runtime_budget_factor = 1.5;
        cfg.points = 3;
        cfg.ram_min_bytes = 3000;
        cfg.ram_max_bytes = 5000;
        cfg.strategies = {"poet", "dtr"};
        cfg.solver.time_limit_s = 5;
        SweepCache mem;
        const SweepResult first = runSweep(cfg, {}, nullptr, &mem);
        cfg.ram_min_bytes = 3500;
        cfg.ram_max_bytes = 5500;
        const SweepResult shifted = runSweep(cfg, {}, nullptr, &mem);
        QCOMPARE(shifted.cache_hits, shifted.total);
        QCOMPARE(shifted.rows.size(), first.rows.size());
        for (std::size_t i = 0; i < first.rows.size(); ++i) {
            QCOMPARE(shifted.rows[i].ram_budget_bytes, first.rows[i].ram_budget_bytes + 500);
            QCOMPARE(shifted.rows[i].status, first.rows[i].status);
            QCOMPARE(shifted.rows[i].total_energy_j, first.rows[i].total_energy_j);
        }
        // 500 B less is another problem: 2,500 B admits only 2,000 B's.
        cfg.ram_min_bytes = 2500;
        cfg.ram_max_bytes = 4500;
        QCOMPARE(runSweep(cfg, {}, nullptr, &mem).cache_hits, 2 * 2);  // 3,500 and 4,500 B, both strategies
        // Within one run, with no cache before it: 3,300 and 3,600 B are
        // 3,000 B's problem. Not "from the cache" (read as cached where the
        // cache was off), but said as what they are.
        cfg.ram_min_bytes = 3000;
        cfg.ram_max_bytes = 3600;
        const SweepResult within = runSweep(cfg);
        QCOMPARE(within.cache_hits, 0);
        QCOMPARE(within.shared_hits, 2 * 2);
        QCOMPARE(reusedPointsText(within),
                 std::string("4 the same problem as an earlier point (the same usable RAM)"));
        QCOMPARE(std::count_if(within.rows.begin(), within.rows.end(),
                               [](const SweepRow& r) { return r.from_earlier_point && !r.from_cache; }),
                 4);
        QCOMPARE(reusedPointsText(first), std::string());
    }

    void sweep_revolveLeftOutWithoutCheckpoints() {
        SweepConfig cfg;
        cfg.problem.graph = skipToLoss();
        cfg.points = 3;
        cfg.strategies = {"revolve", "dtr", "chen-sqrtn"};
        const SweepResult res = runSweep(cfg);
        QCOMPARE(res.strategies, (std::vector<std::string>{"dtr", "chen-sqrtn"}));
        QCOMPARE(res.notes.size(), std::size_t(1));
        QVERIFY(sweepCurve(res, "revolve").empty());
        // Blocks with skips are a chain of segments: revolve runs on them.
        cfg.problem.graph = residual(2);
        const SweepResult blocks = runSweep(cfg);
        QVERIFY(blocks.notes.empty());
        QCOMPARE(blocks.total, 9);
        QVERIFY(!sweepCurve(blocks, "revolve").empty());
    }

    // The sweep's switches hold for every strategy: one that pages where
    // paging is off, or recomputes where recomputation is off, is left out
    // with a note, and "remat only" never pages (with --no-paging, "paging
    // only" paged beside a POET that could not, and with --no-remat the
    // baselines recomputed).
    void sweep_switchesHoldForEveryStrategy() {
        SweepConfig cfg;
        cfg.problem.graph = chain(5);
        cfg.problem.runtime_budget_factor = 2.0;
        cfg.points = 3;
        cfg.solver.time_limit_s = 5;
        cfg.problem.options.paging = false;
        const SweepResult no_paging = runSweep(cfg);
        QVERIFY(!no_paging.options.paging && no_paging.options.remat);
        QCOMPARE(no_paging.strategies, (std::vector<std::string>{"poet", "remat-only", "chen-sqrtn", "chen-greedy",
                                                                 "revolve", "dtr", "plain"}));
        QCOMPARE(no_paging.notes, (std::vector<std::string>{"paging-only: it pages, and paging is switched off; left out"}));
        for (const SweepRow& r : no_paging.rows)
            if (r.hasSchedule()) QCOMPARE(r.paging_energy_j, 0.0);
        cfg.problem.options = {true, false};  // paging on, recomputation off
        const SweepResult no_remat = runSweep(cfg);
        QCOMPARE(no_remat.strategies, (std::vector<std::string>{"poet", "paging-only", "plain"}));
        QCOMPARE(no_remat.notes.size(), std::size_t(5));
        for (const SweepRow& r : no_remat.rows)
            if (r.schedule) QCOMPARE(replaySchedule(cfg.problem.graph, *r.schedule).recomputations, 0);  // the MILP rows
        QVERIFY(sweepCurve(no_remat, "paging-only").front().hasSchedule());  // paging fits the tightest point
        // Both off: the plain pass is the only schedule, so the sweep is one
        // point at its peak (it ran three, two infeasible by construction).
        cfg.problem.options = {false, false};
        const SweepResult neither = runSweep(cfg);
        const std::int64_t peak = plainPassPeakBytes(cfg.problem.graph);
        QVERIFY(minimumFeasibleBudgetLowerBound(cfg.problem.graph) < peak);
        QCOMPARE(neither.ram_budgets, std::vector<std::int64_t>{peak});
        QCOMPARE(neither.ram_lower_bound_bytes, peak);
        QCOMPARE(ramSweepPoints(cfg), std::vector<std::int64_t>{peak});  // what `poet sweep` counts in its header
        QCOMPARE(neither.notes.back(), std::string("paging and recomputation are off, so the plain pass is the "
                                                   "only schedule: one point, at its peak"));
        for (const SweepRow& r : neither.rows) QVERIFY(r.hasSchedule());
    }

    void csv_columnsAndAtomicWrite() {
        SweepConfig cfg;
        cfg.problem.graph = chain(6);
        cfg.points = 3;
        cfg.strategies = {"plain", "dtr"};
        const SweepResult res = runSweep(cfg);
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/out.csv").toStdString();
        std::string err;
        QVERIFY(writeSweepCsv(res, path, &err));
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), QString("strategy,ram_budget_bytes,runtime_budget_factor,status,compute_energy_j,"
                                        "paging_energy_j,total_energy_j,runtime_s,peak_ram_bytes,gap,best_bound_j,"
                                        "solve_time_s,schedule_from_budget,model,platform,batch_size,problem_paging,"
                                        "problem_remat"));
        QCOMPARE(lines.size(), 1 + 6);
        QVERIFY(lines.filter("plain,").filter(",infeasible,").size() == 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temp file left
        QVERIFY(!writeSweepCsv(res, "/nonexistent-dir/x.csv", &err));
        QVERIFY(!err.empty());
    }
};

QTEST_APPLESS_MAIN(TestBaselines)
#include "tst_baselines.moc"
