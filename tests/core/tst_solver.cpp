// The formulation and the CBC driver against hand-computed optima, the
// reference's published examples, and the replay.
#include <QtTest>
#include <algorithm>
#include <mutex>
#include <thread>

#include "bound_checks.h"
#include "bundled_problem.h"
#include "cbc_setup.h"
#include "checkpoint_bound.h"
#include "exact_solve.h"
#include "formulation.h"
#include "heuristic_schedule.h"
#include "problem_loader.h"
#include "schedule_improvement.h"
#include "schedule_io.h"
#include "solver.h"
#include "random_problems.h"
#include "tiny_graphs.h"

using namespace poet;
using test::longSkipGraph;
using CostRows = QVector<QVector<double>>;  // a random graph's nodes, for data-driven tests
using EdgeList = QVector<QPair<int, int>>;
using test::problemOf;

namespace {

SolveResult solveQuick(const Problem& p, FormulationVariant v = FormulationVariant::Tight, bool heuristics = true)
{
    SolverOptions o;
    o.time_limit_s = 20;
    o.relative_gap = 1e-9;
    o.variant = v;
    o.use_heuristics = heuristics;
    return solve(p, o);
}

Problem bundled(const std::string& model, const std::string& platform, std::int64_t ram, double factor)
{
    Problem p;
    p.graph = loadTrainingGraph(ProfileCatalog::standard(), model, platform);
    p.model = model;
    p.platform = platform;
    p.ram_budget_bytes = ram;
    p.runtime_budget_factor = factor;
    return p;
}

void verifyAgrees(const SolveResult& r)
{
    QVERIFY(r.schedule.has_value());
    QVERIFY2(r.replay.valid, r.replay.errors.empty() ? "" : r.replay.errors.front().c_str());
    // The reported energy is the replay's; the solver's objective must match it.
    QVERIFY(std::abs(r.objective_j - r.replay.total_energy_j) <= 1e-9 * std::max(1.0, r.objective_j));
}

// The solve within `limit_s` on two cores, asking a 0.5% gap.
SolveResult solveOnTwoCores(const Problem& p, double limit_s)
{
    SolverOptions o;
    o.time_limit_s = limit_s;
    o.relative_gap = 0.005;
    o.threads = 2;
    return solve(p, o);
}

// Every row of `f` holds for the column vector x (to 1e-9 relative).
bool satisfiesEveryRow(const Formulation& f, const std::vector<double>& x)
{
    std::vector<double> activity(f.rows(), 0.0);
    for (std::size_t e = 0; e < f.triplet_value.size(); ++e)
        activity[f.triplet_row[e]] += f.triplet_value[e] * x[f.triplet_col[e]];
    for (int r = 0; r < f.rows(); ++r) {
        const double tol = 1e-9 * std::max(1.0, std::abs(activity[r]));
        if (activity[r] < f.row_lower[r] - tol || activity[r] > f.row_upper[r] + tol) {
            qWarning("row %d: %.17g not in [%.17g, %.17g]", r, activity[r], f.row_lower[r], f.row_upper[r]);
            return false;
        }
    }
    return true;
}

}  // namespace

class TestSolver : public QObject {
    Q_OBJECT
private slots:
    void mustRecompute()
    {
        // Paging off, 9 B, runtime 1.25x: recompute X at stage 3, 5 J (tiny_graphs.h).
        const SolveResult r = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 9, 1.25, false, true));
        QCOMPARE(toString(r.status), "optimal");
        verifyAgrees(r);
        QCOMPARE(r.replay.total_energy_j, 5.0);
        QCOMPARE(r.replay.recomputations, 1);
        QVERIFY(r.schedule->R(3, 0));
        QCOMPARE(r.replay.peak_ram_bytes, std::int64_t(9));
    }

    void mustPage()
    {
        // Remat off, 9 B: page X out at stage 1, back in at stage 2: 4 + 0.2 + 0.3 J.
        const SolveResult r = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 9, 1.0, true, false));
        QCOMPARE(toString(r.status), "optimal");
        verifyAgrees(r);
        QCOMPARE(r.replay.total_energy_j, 4.5);
        QCOMPARE(r.replay.page_outs, 1);
        QCOMPARE(r.replay.page_ins, 1);
        QVERIFY(r.schedule->M_out(1, 0));
        QVERIFY(r.schedule->M_in(2, 0));
    }

    void infeasible()
    {
        // Paging off and runtime 1.0: X can neither wait, be paged, nor be recomputed.
        const SolveResult a = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 9, 1.0, false, true));
        QCOMPARE(toString(a.status), "infeasible");
        QVERIFY(!a.schedule.has_value());
        // X then stays in RAM while Z runs beside Y: 12 B is the least that
        // works (hand-computed), and a solve there finds it.
        QCOMPARE(a.ram_budget_that_works_bytes, std::int64_t(12));
        QCOMPARE(toString(solveQuick(problemOf(longSkipGraph(0.2, 0.3), 12, 1.0, false, true)).status), "optimal");
        // 8 B cannot hold W with both its inputs, whatever the switches; 9 B
        // does, paging X out and in (mustPage).
        const SolveResult b = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 8, 3.0, true, true));
        QCOMPARE(toString(b.status), "infeasible");
        QCOMPARE(b.ram_budget_that_works_bytes, std::int64_t(9));
        QVERIFY2(b.message.find("a schedule exists at 9 B, so that is the smallest RAM budget that works") !=
                     std::string::npos,
                 b.message.c_str());
        // A runtime budget below one plain pass is infeasible before any
        // solve, and no RAM budget helps.
        const SolveResult c = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 100, 0.9, true, true));
        QCOMPARE(toString(c.status), "infeasible");
        QVERIFY(c.message.find("runtime budget") != std::string::npos);
        QCOMPARE(c.ram_budget_that_works_bytes, std::int64_t(0));
        // Below both: both are said (only the RAM was, as if more RAM helped).
        const SolveResult d = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 5, 0.9, true, true));
        QCOMPARE(toString(d.status), "infeasible");
        QVERIFY2(d.message.rfind("the runtime budget is below one plain pass", 0) == 0 &&
                     d.message.find("; the RAM budget is also below ") != std::string::npos,
                 d.message.c_str());
        QCOMPARE(d.ram_budget_that_works_bytes, std::int64_t(0));
    }

    void rematAndPagingCompete()
    {
        // Paging X costs 0.5 J < recomputing it (1 J): POET pages.
        const SolveResult cheapPaging = solveQuick(problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true));
        QCOMPARE(toString(cheapPaging.status), "optimal");
        verifyAgrees(cheapPaging);
        QCOMPARE(cheapPaging.replay.total_energy_j, 4.5);
        QCOMPARE(cheapPaging.replay.recomputations, 0);
        // Paging X costs 1.5 J > recomputing it: POET recomputes.
        const SolveResult dearPaging = solveQuick(problemOf(longSkipGraph(0.7, 0.8), 9, 2.0, true, true));
        QCOMPARE(toString(dearPaging.status), "optimal");
        verifyAgrees(dearPaging);
        QCOMPARE(dearPaging.replay.total_energy_j, 5.0);
        QCOMPARE(dearPaging.replay.page_ins, 0);
        QCOMPARE(dearPaging.replay.recomputations, 1);
    }

    void switchesAreHonoured()
    {
        const Problem p = bundled("linear", "m4", 0, 1.5);
        const std::int64_t peak = plainPassPeakBytes(p.graph);
        for (bool paging : {false, true})
            for (bool remat : {false, true}) {
                Problem q = p;
                q.ram_budget_bytes = peak * 7 / 10;
                q.options = {paging, remat};
                const SolveResult r = solveQuick(q);
                if (!r.schedule) continue;
                QVERIFY(r.replay.valid);
                if (!paging) QCOMPARE(r.replay.page_ins + r.replay.page_outs + r.schedule->S_SD.count(), 0);
                if (!remat) QCOMPARE(r.replay.recomputations, 0);
            }
    }

    void bothFormulationsAgree()
    {
        // formulation.md's form and the tight one: same optimum, on every case both finish.
        const Problem base = bundled("linear", "m4", 0, 1.0);
        const std::int64_t peak = plainPassPeakBytes(base.graph);
        for (double fraction : {1.0, 0.8, 0.6, 0.45})
            for (double factor : {1.0, 1.3}) {
                Problem p = base;
                p.ram_budget_bytes = static_cast<std::int64_t>(peak * fraction);
                p.runtime_budget_factor = factor;
                const SolveResult tight = solveQuick(p, FormulationVariant::Tight);
                const SolveResult ref = solveQuick(p, FormulationVariant::Reference, false);
                QCOMPARE(toString(tight.status), toString(ref.status));
                if (tight.status != SolveStatus::Optimal) continue;
                verifyAgrees(tight);
                verifyAgrees(ref);
                QVERIFY2(std::abs(tight.replay.total_energy_j - ref.replay.total_energy_j) <=
                             1e-9 * tight.replay.total_energy_j,
                         qPrintable(QStringLiteral("%1 vs %2 at %3, %4").arg(tight.replay.total_energy_j, 0, 'g', 17)
                                        .arg(ref.replay.total_energy_j, 0, 'g', 17).arg(fraction).arg(factor)));
            }
    }

    void twoCoresReachTheSameOptimum()
    {
        // With two threads the paging plan runs beside the bounds and hands
        // its schedules over as they come: every one is replayed, each beats
        // the one before, and the optimum is the one-thread solve's. Random
        // graphs of 65 to 68 nodes: up to kOneCoreMostNodes a graph is solved
        // on one core (linear, 27, no longer ran two).
        int compared = 0;  // the first three whose optimum pages or recomputes
        for (std::uint64_t seed = 7000; seed < 7040 && compared < 3; ++seed) {
            const Problem p = test::randomProblem(seed, {65, 68, 16}).problem;
            QVERIFY(p.graph.size() > kOneCoreMostNodes);
            SolverOptions o;
            o.time_limit_s = 20;
            o.relative_gap = 1e-9;
            const SolveResult one = solve(p, o);
            if (!one.schedule || one.replay.page_ins + one.replay.recomputations == 0) continue;
            ++compared;
            o.threads = 2;
            std::vector<double> incumbents;
            const SolveResult two = solve(p, o, [&](const SolveResult& inc) {
                QVERIFY(inc.replay.valid);
                incumbents.push_back(inc.replay.total_energy_j);
            });
            QCOMPARE(toString(two.status), toString(one.status));
            QCOMPARE(toString(two.status), "optimal");
            verifyAgrees(two);
            QVERIFY2(std::abs(two.replay.total_energy_j - one.replay.total_energy_j) <= 1e-9 * one.replay.total_energy_j,
                     qPrintable(QStringLiteral("%1 vs %2 at %3").arg(two.replay.total_energy_j, 0, 'g', 17)
                                    .arg(one.replay.total_energy_j, 0, 'g', 17).arg(seed)));
            QVERIFY(!incumbents.empty());
            for (std::size_t i = 1; i < incumbents.size(); ++i) QVERIFY(incumbents[i] < incumbents[i - 1]);
            QVERIFY(two.replay.total_energy_j <= incumbents.back());
        }
        QCOMPARE(compared, 3);
    }

    // A stop asked between stages ends the build (a 771-node graph's takes
    // 2 s, and a solve's window search waited for it past its time limit);
    // never saying so, it changes nothing.
    void formulationBuildStopsWhenAsked()
    {
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 1.25, true, true);
        const Formulation full(p);
        int asked = 0;
        const Formulation never(p, FormulationVariant::Tight, [&] {
            ++asked;
            return false;
        });
        QVERIFY(!full.stopped() && !never.stopped());
        QCOMPARE_GE(asked, p.graph.size());
        QCOMPARE(never.objective, full.objective);
        QCOMPARE(never.row_upper, full.row_upper);
        QCOMPARE(never.triplet_col, full.triplet_col);
        QCOMPARE(never.triplet_value, full.triplet_value);
        const Formulation stopped(p, FormulationVariant::Tight, [] { return true; });
        QVERIFY(stopped.stopped());
        QCOMPARE_LT(stopped.columns(), full.columns());
    }

    // The answer gives formulation.md's size, which the solve now builds
    // after the quick schedules are shown (it came before them, 2 s of a
    // 771-node graph's first schedule): found, proven infeasible at once, or
    // below one plain pass.
    void answerGivesTheFormulationsSize()
    {
        const Graph g = longSkipGraph(0.2, 0.3);
        for (const Problem& p : {problemOf(g, 9, 1.25, false, true), problemOf(g, 1, 1.25, true, true),
                                 problemOf(g, 9, 0.9, true, true)}) {
            const SolveResult r = solveQuick(p);
            const Formulation f(p);
            QCOMPARE(r.variables, f.columns());
            QCOMPARE(r.constraints, f.rows());
        }
    }

    void encodeIsFeasibleForValidSchedules()
    {
        // The warm-start encoder: a valid schedule's columns satisfy every row.
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 12, 1.0, true, true);
        for (auto variant : {FormulationVariant::Tight, FormulationVariant::Reference}) {
            const Formulation f(p, variant);
            const auto x = f.encode(plainSchedule(p.graph));
            QVERIFY(satisfiesEveryRow(f, x));
            QCOMPARE(f.energyJ(x.data()), 4.0);
            QCOMPARE(f.decode(x.data()), plainSchedule(p.graph));
        }
    }

    void tightRowsHoldForRealSchedules_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("ram");
        QTest::addColumn<double>("factor");
        // Budgets where the RAM cover cuts exist (paging only at 1.0x; mixed at 1.5x).
        QTest::newRow("resnet18_cifar 50% 1.0x") << "resnet18_cifar" << qint64(1226880) << 1.0;
        QTest::newRow("resnet18_cifar API 1.5x") << "resnet18_cifar" << qint64(737719) << 1.5;
        QTest::newRow("vgg16_cifar 1.2x") << "vgg16_cifar" << qint64(1232916) << 1.2;
    }

    void tightRowsHoldForRealSchedules()
    {
        // The tight form's extra rows (page-in serves a read, RAM cover cuts)
        // must not cut off any valid schedule: the quick schedules, before
        // and after the local search, satisfy every row.
        QFETCH(QString, model);
        QFETCH(qint64, ram);
        QFETCH(double, factor);
        const Problem p = bundled(model.toStdString(), "m4", ram, factor);
        const Formulation f(p, FormulationVariant::Tight);
        const auto quick = bestQuickSchedule(p);
        QVERIFY(quick.has_value());
        const Schedule improved = dropRecomputations(p.graph, *quick, limitsOf(p),
                                                     std::chrono::steady_clock::now() + std::chrono::seconds(30));
        for (const Schedule& s : {*quick, improved}) {
            QVERIFY(replaySchedule(p.graph, s, limitsOf(p)).valid);
            QVERIFY(satisfiesEveryRow(f, f.encode(s)));
        }
    }

    void moreBudgetNeverCostsMore()
    {
        const Problem base = bundled("linear", "m4", 0, 1.0);
        const std::int64_t peak = plainPassPeakBytes(base.graph);
        double previous = INFINITY;
        for (double fraction : {0.45, 0.6, 0.8, 1.0}) {
            Problem p = base;
            p.ram_budget_bytes = static_cast<std::int64_t>(peak * fraction);
            p.runtime_budget_factor = 1.2;
            const SolveResult r = solveQuick(p);
            QCOMPARE(toString(r.status), "optimal");
            QVERIFY(r.replay.total_energy_j <= previous);
            previous = r.replay.total_energy_j;
        }
        previous = INFINITY;
        for (double factor : {1.0, 1.1, 1.5, 2.0}) {
            Problem p = base;
            p.ram_budget_bytes = static_cast<std::int64_t>(peak * 0.5);
            p.runtime_budget_factor = factor;
            const SolveResult r = solveQuick(p);
            QCOMPARE(toString(r.status), "optimal");
            QVERIFY(r.replay.total_energy_j <= previous);
            previous = r.replay.total_energy_j;
        }
    }

    void referenceReadmeExample()
    {
        // 3,000,000 B exceeds resnet18_cifar's plain-pass peak: the plain pass is optimal.
        const Problem p = bundled("resnet18_cifar", "a72", 3000000, 7.6);
        QVERIFY(plainPassPeakBytes(p.graph) < 3000000);
        SolverOptions o;
        o.time_limit_s = 60;
        const SolveResult r = solve(p, o);
        QCOMPARE(toString(r.status), "optimal");
        verifyAgrees(r);
        QVERIFY2(std::abs(r.replay.compute_energy_j - 7.889510) < 5e-7,
                 qPrintable(QString::number(r.replay.compute_energy_j, 'f', 9)));
        QCOMPARE(r.replay.paging_energy_j, 0.0);
        QCOMPARE(r.gap, 0.0);
    }

    void referenceApiExampleFindsValidSchedule()
    {
        // resnet18_cifar on m4 at 737,719 B, 1.5x: the reference with CBC finds nothing in 8 minutes.
        const Problem p = bundled("resnet18_cifar", "m4", 737719, 1.5);
        SolverOptions o;
        o.time_limit_s = 30;
        std::vector<double> incumbents;
        const SolveResult r = solve(p, o, [&](const SolveResult& inc) {
            QVERIFY(inc.replay.valid);
            incumbents.push_back(inc.replay.total_energy_j);
        });
        QVERIFY2(r.schedule.has_value(), toString(r.status));
        verifyAgrees(r);
        QVERIFY(r.replay.peak_ram_bytes <= 737719);
        QVERIFY(r.replay.runtime_s <= p.runtimeBudgetSeconds() * (1 + 1e-9));
        QVERIFY(r.gap >= 0 && r.gap < 1);
        QVERIFY(r.best_bound_j <= r.replay.total_energy_j + 1e-9);
        QVERIFY(!incumbents.empty());
        for (std::size_t i = 1; i < incumbents.size(); ++i) QVERIFY(incumbents[i] < incumbents[i - 1]);
        // The paging heuristic's schedule is shown first, before the quick
        // schedules that recompute (cheaper here) are built.
        const auto paging = heuristicSchedule(p);
        QVERIFY(paging.has_value());
        QCOMPARE(incumbents.front(), replaySchedule(p.graph, *paging, limitsOf(p)).total_energy_j);
        QVERIFY(incumbents.size() >= 2);
        qInfo("737,719 B / 1.5x: %s, %.9f J, bound %.9f J, gap %.4f%%, first schedule %.3f s, %.1f s",
              toString(r.status), r.replay.total_energy_j, r.best_bound_j, 100 * r.gap, r.first_solution_time_s,
              r.solve_time_s);
    }

    void largeGraphHonoursTimeLimitAndReportsATrueBound()
    {
        // resnet50's root LP alone outlasts a 2 s limit: the limit must hold,
        // the quick schedule must come back, and the bound must be a real one
        // (CBC reports its incumbent as the bound when its root LP is cut short).
        // The stage-peak bound proves the quick schedule within 0.002% here,
        // so the gap asked for is smaller, and the LP has to run.
        const Problem base = bundled("resnet50", "m4", 0, 1.5);
        Problem p = base;
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 6 / 10;
        SolverOptions o;
        o.time_limit_s = 2;
        o.relative_gap = 1e-9;
        const SolveResult r = solve(p, o);
        verifyAgrees(r);
        QVERIFY2(r.solve_time_s < 20, qPrintable(QString::number(r.solve_time_s)));
        QVERIFY(r.first_solution_time_s >= 0 && r.first_solution_time_s < 3);
        QVERIFY(r.best_bound_j >= p.graph.totalComputeEnergy() * (1 - 1e-12));
        QVERIFY(r.best_bound_j < r.replay.total_energy_j);
        QVERIFY(r.gap > 0);
        QCOMPARE(toString(r.status), "feasible");
    }

    // bert with three blocks at bert's 9% and 1.5x, one core, limits of 3
    // to 4.5 s: the time limit falls while CBC's root LP runs, and that LP,
    // stopped, left CBC a bound of 4.8e8 or 3.4e9 J that passed for a proof
    // of the schedule (4 of the first 5 such solves). Nothing proves it in
    // that time (a 60 s solve shows the checkpoint bound, 0.13% under it).
    void stoppedLpIsNoProof()
    {
        const Problem p = test::bertThreeBlocks();
        for (double limit = 3.0; limit <= 4.5; limit += 0.25) {
            SolverOptions o;
            o.time_limit_s = limit;
            o.threads = 1;
            const SolveResult r = solve(p, o);
            QVERIFY(r.replay.valid);
            QVERIFY2(r.status == SolveStatus::Feasible && r.gap > 0,
                     qPrintable(QString("at %1 s: %2, bound %3 J").arg(limit).arg(toString(r.status)).arg(r.best_bound_j, 0, 'g', 12)));
        }
    }

    void treeGoesSingleThreadedOnlyBeforeItsThreadsFromTheSearchThread()
    {
        // CBC calls event handlers from its worker threads in the tree; there
        // (or once its threads exist) the thread count must stay as it is.
        OsiClpSolverInterface lp;
        CbcModel model(lp);
        model.setNumberThreads(2);
        const auto search_thread = std::this_thread::get_id();
        std::thread worker([&] { singleThreadedTreeFrom(&model, search_thread); });
        worker.join();
        QCOMPARE(model.getNumberThreads(), 2);
        singleThreadedTreeFrom(&model, search_thread);
        QCOMPARE(model.getNumberThreads(), 0);
        singleThreadedTreeFrom(nullptr, search_thread);  // no search yet: nothing to do
    }

    void plainPassBoundEndsTheSolveWithinTheGap()
    {
        // vgg16_cifar at 1,232,916 B and 1.5x: the quick schedule is ~0.2%
        // above one plain pass's compute energy, a lower bound on any schedule.
        const Problem p = bundled("vgg16_cifar", "m4", 1232916, 1.5);
        SolverOptions o;
        o.time_limit_s = 30;
        o.relative_gap = 0.01;
        const SolveResult loose = solve(p, o);
        verifyAgrees(loose);
        QCOMPARE(toString(loose.status), "optimal");
        QVERIFY2(loose.message.find("plain-pass energy bound proves it") != std::string::npos, loose.message.c_str());
        QCOMPARE(loose.lp_bound_time_s, -1.0);  // no LP was needed
        QVERIFY(loose.gap > 0 && loose.gap <= 0.01);
        // A tighter gap than that needs a stronger bound.
        o.relative_gap = loose.gap / 2;
        const SolveResult tight = solve(p, o);
        verifyAgrees(tight);
        QVERIFY2(tight.message.find("plain-pass") == std::string::npos, tight.message.c_str());
        QVERIFY(tight.best_bound_j > p.graph.totalComputeEnergy() * (1 + 1e-6));
    }

    // --gap 0 is proven where a bound meets the schedule to its own
    // rounding: the bounds' MILPs stop 1e-9 under their optimum, and the
    // solve ran to its time limit, "feasible" at a gap of 9.995e-10.
    void gapZeroIsProvenWhereABoundMeetsTheSchedule()
    {
        const Problem p = bundled("linear", "m4", 3850, 1.001);
        SolverOptions o;
        o.time_limit_s = 10;
        o.relative_gap = 0;
        const SolveResult r = solve(p, o);
        verifyAgrees(r);
        QCOMPARE(toString(r.status), "optimal");
        QVERIFY2(r.gap < 2e-9, std::to_string(r.gap).c_str());
        // Never a bound above the schedule, even by rounding.
        QVERIFY(r.best_bound_j <= r.objective_j);
        // More runtime cannot cost more: 1.5x is no dearer (the same schedule is best there).
        const SolveResult looser = solve(bundled("linear", "m4", 3850, 1.5), o);
        verifyAgrees(looser);
        QVERIFY(looser.objective_j <= r.objective_j);
        QVERIFY(r.objective_j - looser.objective_j < 1e-9 * r.objective_j);
    }

    // Random graphs of a few stages a differential test found (4 of 2,600
    // and 700 against the reference build): with two threads the tails (or
    // the checkpoint bound's tree) and the windows were spent short of the
    // gap, and the solve slept to its time limit ("feasible", 7.5% short)
    // or ended at once (4.4% short), where one thread proves the optimum
    // in milliseconds. Session 107 gave the rest to the LP and CBC's search
    // there; since session 108 graphs this small are solved on one core
    // (kOneCoreMostNodes), which proves them at once.
    void spentBoundsLeaveTheRestToTheSearch_data()
    {
        QTest::addColumn<CostRows>("costs");  // bytes, compute J, s, page-out J, page-in J
        QTest::addColumn<EdgeList>("edges");
        QTest::addColumn<int>("loss");  // the loss's index: forward nodes before it, backward after
        QTest::addColumn<int>("ram");
        QTest::addColumn<double>("factor");
        QTest::newRow("tails spent, 7 nodes")
            << CostRows{{2, 1.5, 2.7, 1.6, 1.55}, {7, 0.7, 0.5, 0.1, 0.7},  {2, 2.05, 2.2, 2, 0.15},
                                        {5, 0.15, 0.9, 1.1, 1.15}, {4, 0.85, 2, 1.6, 1.2},  {1, 0.85, 2.2, 0.95, 0.4},
                                        {1, 0.25, 0.5, 0.55, 0.45}}
            << EdgeList{{0, 1}, {1, 2}, {2, 3}, {1, 5}, {4, 5}, {0, 6}, {2, 6}, {3, 6}, {5, 6}} << 4
            << 16 << 1.05;
        QTest::newRow("tree complete, 12 nodes")
            << CostRows{{5, 0, 0, 1.3, 1.25},      {5, 2.5, 2.9, 0.75, 0.5}, {7, 1.2, 0, 1.5, 0.55},
                                        {6, 1.1, 1, 1.7, 1.75},    {8, 2.3, 1.5, 0.25, 0.7}, {4, 3, 2.2, 0.3, 0.35},
                                        {7, 1.35, 0.5, 0.75, 2},   {6, 0.7, 2.9, 0.45, 1.35}, {5, 0.85, 1.8, 1.95, 0.25},
                                        {3, 0.5, 2.9, 1.8, 1.1},   {1, 1.95, 1, 0.95, 0.5},  {5, 1.85, 1.5, 1.2, 1.4}}
            << EdgeList{{0, 1}, {1, 2}, {1, 3},  {2, 3},  {3, 4},  {4, 5},  {4, 6},
                                        {1, 7}, {5, 7}, {6, 7},  {4, 8},  {7, 8},  {3, 9},  {8, 9},
                                        {0, 10}, {2, 10}, {6, 10}, {1, 11}, {2, 11}, {4, 11}, {10, 11}}
            << 6 << 31 << 2.0;
        // Two more (10 of 3,261 random graphs of 20 to 24 nodes, session
        // 108): the window search ran to the limit beside the plan, or
        // beside the checkpoint bound's tree, and CBC never ran ("feasible"
        // 0.6 and 0.56% short at 20 s; one core proves them in 0.5 and 1.4 s).
        QTest::newRow("the window search to the end, 23 nodes")
            << CostRows{
                {11, 2.7, 0.8, 0.2, 0.3}, {5, 2.35, 0, 0.95, 1.4}, {7, 0.25, 2.6, 0.3, 0.65},
                {2, 2.95, 2.5, 0.25, 1.2}, {1, 1.35, 0.3, 1.7, 1.15}, {2, 0.3, 0.2, 1.5, 0.8}, {1, 2.6, 1, 1.95, 0.6},
                {8, 0.7, 2.5, 0.95, 1}, {34, 2.5, 2.3, 1.2, 1.9}, {1, 2.35, 1.4, 1.6, 0.3}, {2, 2.75, 2.2, 0.7, 1.35},
                {2, 0.5, 2.6, 0.55, 1.45}, {9, 0, 0.5, 1.15, 0.55}, {4, 1.25, 1.9, 1.1, 0.7}, {6, 2.35, 1, 1.6, 0.35},
                {12, 1.95, 2.5, 0.5, 0.95}, {3, 0.45, 2.9, 1.85, 0.35}, {3, 0.2, 0.7, 1.7, 1.8},
                {3, 1.7, 1.6, 0.75, 1.55}, {7, 1.95, 0.4, 1.8, 1.55}, {5, 2.35, 2.8, 0.2, 1.8},
                {9, 1.15, 1.3, 1.05, 1.3}, {8, 1.1, 2, 1.25, 0.1}}
            << EdgeList{
                {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 10}, {10, 11}, {11, 12},
                {12, 13}, {8, 14}, {13, 14}, {14, 15}, {15, 16}, {5, 17}, {16, 17}, {4, 18}, {17, 18}, {18, 19},
                {19, 20}, {1, 21}, {20, 21}, {21, 22}}
            << 23 << 44 << 2.0;
        QTest::newRow("the checkpoint tree, 23 nodes")
            << CostRows{
                {35, 0, 0, 1.75, 1.85}, {51, 0.6, 1.9, 1.6, 1.55}, {17, 3, 2.1, 0.4, 1}, {61, 2.05, 0.3, 1.8, 1.8},
                {45, 1.05, 0.8, 1.15, 1.3}, {63, 1.95, 1, 0.05, 1.3}, {12, 1.4, 1.4, 0.2, 0.2},
                {45, 1.8, 2.5, 0.7, 1.55}, {42, 2.9, 2.8, 0.5, 0}, {19, 2.55, 0, 0.6, 0.7},
                {25, 2.05, 2.2, 0.35, 0.55}, {60, 0.2, 0.2, 1.25, 0.6}, {16, 2.2, 1.6, 0.05, 1.2},
                {22, 0.7, 1.2, 1.15, 1.75}, {55, 2.05, 0.5, 0.45, 0.15}, {58, 2.2, 2, 1, 1.15},
                {49, 0.8, 1, 1.5, 1.3}, {16, 2.7, 2.5, 1.85, 1.3}, {18, 1.2, 0, 1.8, 1.5}, {63, 2.85, 2.4, 1.6, 1.1},
                {64, 1.6, 2.6, 0.2, 1.25}, {46, 1.75, 1, 1.7, 1.7}, {45, 0.65, 1.8, 1.5, 0.05}}
            << EdgeList{
                {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {0, 6}, {3, 6}, {5, 6}, {6, 7}, {5, 8}, {6, 8}, {7, 8},
                {3, 9}, {7, 9}, {8, 9}, {9, 10}, {7, 11}, {9, 11}, {10, 11}, {10, 12}, {11, 12}, {3, 13}, {8, 13},
                {9, 13}, {11, 13}, {12, 13}, {8, 14}, {13, 14}, {7, 15}, {11, 15}, {13, 15}, {14, 15}, {6, 16},
                {14, 16}, {15, 16}, {4, 17}, {5, 17}, {14, 17}, {16, 17}, {4, 18}, {17, 18}, {3, 19}, {13, 19},
                {16, 19}, {18, 19}, {1, 20}, {2, 20}, {19, 20}, {1, 21}, {20, 21}, {0, 22}, {16, 22}, {21, 22}}
            << 11 << 274 << 1.1;
    }
    void spentBoundsLeaveTheRestToTheSearch()
    {
        QFETCH(CostRows, costs);
        QFETCH(EdgeList, edges);
        QFETCH(int, loss);
        QFETCH(int, ram);
        QFETCH(double, factor);
        std::vector<Node> nodes;
        for (const auto& c : costs) {
            Node n;
            n.name = "v" + std::to_string(nodes.size());
            n.type = "test";
            n.memory_bytes = static_cast<std::int64_t>(c[0]);
            n.compute_energy_j = c[1];
            n.compute_time_s = c[2];
            n.pageout_energy_j = c[3];
            n.pagein_energy_j = c[4];
            const int i = static_cast<int>(nodes.size());
            n.kind = i < loss ? NodeKind::Forward : i == loss ? NodeKind::Loss : NodeKind::Backward;
            nodes.push_back(n);
        }
        std::vector<std::pair<int, int>> graph_edges;
        for (const auto& [from, to] : edges) graph_edges.emplace_back(from, to);
        const Problem p = test::problemOf(Graph(nodes, graph_edges), ram, factor, true, true);
        const SolveResult reference = test::solveExactly(p, FormulationVariant::Reference);
        QCOMPARE(toString(reference.status), "optimal");
        SolverOptions o;
        o.time_limit_s = 20;
        o.relative_gap = 0;
        o.threads = 2;
        const SolveResult r = solve(p, o);
        verifyAgrees(r);
        QCOMPARE(toString(r.status), "optimal");
        QVERIFY(std::abs(r.objective_j - reference.objective_j) <= 1e-9 * reference.objective_j);
    }

    void stagePeakCutShortStillLeadsTheTails()
    {
        // resnet18_cifar on m4 at 16% and 1.06x, 10 s: the stage-peak bound
        // gets a second (a quarter of it for stage 72, which needs ~6 s
        // alone here), so it is cut short at ~0.597 J, and the checkpoint
        // bound's 0.599301 J seems to pass it by 0.37%, more than the hair
        // under which the bucket bounds start from that stage. Judged by
        // that figure, the checkpoint bound was the answer's bound (0.599301
        // J, 4.2% short); the stage bound solved exactly is that same
        // figure, and the tails from its stage give 0.609015 J at 10 s.
        const Problem p = bundled("resnet18_cifar", "m4", 392601, 1.06);
        const CheckpointBound checkpoints = checkpointBound(p, 10);
        const SolveResult r = solveOnTwoCores(p, 10);
        verifyAgrees(r);
        QVERIFY2(r.message.find("the bucket bound (the stage-peak stage and the last") != std::string::npos,
                 r.message.c_str());
        QVERIFY2(r.best_bound_j > checkpoints.bound_j * 1.005,
                 qPrintable(QStringLiteral("%1 J against the checkpoint bound's %2 J")
                                .arg(r.best_bound_j, 0, 'f', 6).arg(checkpoints.bound_j, 0, 'f', 6)));
    }

    void theTailsBoundResnet50AtItsTightest()
    {
        // resnet50 on m4 at 10% of its peak and 1.5x, with time to
        // recompute: the stage-peak and checkpoint bounds are 1.8 times the
        // arrival bound's extra, past kCarriedReachWithTime, so the carried
        // bound's windows do not run (they reach 45.11 J in a 30 s solve,
        // 45.21 J given 240 s), and the bucket bound's tails from the
        // stage-peak stage give the bound (45.76 J in 30 s; 45.25 J from the
        // last nine alone in 12 s on one core).
        const Problem p = test::bundledOnM4("resnet50", 0.10, 1.5, true);
        const SolveResult r = solveOnTwoCores(p, 30);
        verifyAgrees(r);
        QVERIFY2(r.message.find("the bucket bound (the stage-peak stage and the last") != std::string::npos,
                 r.message.c_str());
        QVERIFY2(r.best_bound_j > 45.3, qPrintable(QStringLiteral("%1 J").arg(r.best_bound_j, 0, 'f', 6)));
        qInfo("resnet50 10%% 1.5x: %.6f J, bound %.6f J, gap %.3f%%", r.replay.total_energy_j, r.best_bound_j,
              100 * r.gap);
    }

    void localSearchTriesTheQuickScheduleToo()
    {
        // bert on m4 at 11% of its plain-pass peak and 1.02x, two threads:
        // the background plan's first schedule (its relief's 119.796 J) is a
        // local optimum of dropRecomputations, and the quick schedule's
        // 121.903 J, searched the same way, is 119.574878 J, within the gap
        // of the bounds. Searched from the plan's schedule alone, the solve
        // ended 0.51 to 0.65% short at 120 s (this test against that code:
        // 119.766261 J, 0.652%), and so did one run in nine where the quick
        // schedule was searched only if the plan's gained nothing.
        const Problem p = bundled("bert", "m4", 42215669, 1.02);
        const SolveResult r = solveOnTwoCores(p, 120);
        verifyAgrees(r);
        QVERIFY2(r.status == SolveStatus::Optimal && r.gap <= 0.005,
                 qPrintable(QStringLiteral("%1, %2 J, gap %3%").arg(toString(r.status))
                                .arg(r.replay.total_energy_j, 0, 'f', 6).arg(100 * r.gap, 0, 'f', 3)));
        qInfo("bert 11%% 1.02x: %.9f J, gap %.3f%%, %.1f s", r.replay.total_energy_j, 100 * r.gap, r.solve_time_s);
    }

    // Remat-only bert at 10% of its peak and 1.5x is left open (no schedule
    // in 20 s, none proven impossible): the message says so, names a larger
    // budget where a remat-only schedule exists (kept for the explorer to
    // offer; a solve there has one at once; about 42 MB, where the relief of the
    // plain pass alone needs 48.8 MB), and says that switching paging
    // on has a schedule there at once. (resnet18_cifar at
    // 14%, left open until the quick relief took the values a peak stage
    // keeps for later, now has one at once.) At 12% of resnet18_cifar's
    // peak the carried bound proves in ~1.5 s that none exists (below ~13.5%
    // every layer1 value must be paged): within this test's one second it
    // may or may not, so 12% is checked with 30 s below.
    void noScheduleSaysWhatIsKnown()
    {
        Problem p = bundled("bert", "m4", 38377881, 1.5);
        p.options.paging = false;
        SolverOptions o;
        // The budget is searched beside the solve, from its start, and what
        // it found by the time limit is named: 3 s leave it time to finish
        // (~1 s alone).
        o.time_limit_s = 3;
        const SolveResult r = solve(p, o);
        QCOMPARE(toString(r.status), "no_solution");
        const std::int64_t works = r.ram_budget_that_works_bytes;
        QVERIFY2(works > p.ram_budget_bytes, qPrintable(QString::number(works)));
        // Revolve's checkpoints, relieved, fit below the relief of the plain pass alone.
        QVERIFY2(works < smallestHeuristicBudget(p, p.ram_budget_bytes).value(), qPrintable(QString::number(works)));
        QVERIFY2(r.message.find("none proven impossible; a schedule exists at " + std::to_string(works) +
                                " B; with paging on, a schedule exists at these budgets") != std::string::npos,
                 r.message.c_str());
        o.time_limit_s = 1;
        Problem there = p;
        there.ram_budget_bytes = works;
        const SolveResult at_works = solve(there, o);
        QVERIFY(at_works.schedule.has_value());
        QVERIFY(at_works.replay.valid);
        p.options.paging = true;
        const SolveResult paged = solve(p, o);
        QVERIFY(paged.schedule.has_value());
        Problem resnet = bundled("resnet18_cifar", "m4", 343526, 1.5);
        resnet.options.paging = false;
        const SolveResult found = solve(resnet, o);
        QVERIFY(found.schedule.has_value());
        QVERIFY(found.replay.valid);

        Problem tighter = bundled("resnet18_cifar", "m4", 294451, 1.5);
        tighter.options.paging = false;
        o.time_limit_s = 30;
        const SolveResult none = solve(tighter, o);
        QCOMPARE(toString(none.status), "infeasible");
        QVERIFY2(none.message.find("7 stages cannot get their inputs within the budgets") != std::string::npos,
                 none.message.c_str());
    }

    void cancelKeepsBestSchedule_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("fraction");  // of the plain-pass peak
        QTest::addColumn<int>("threads");
        QTest::addColumn<double>("limit_s");
        QTest::addColumn<double>("cancel_s");
        QTest::addColumn<double>("return_s");  // by when the solve must have returned
        QTest::newRow("resnet18_cifar 50%, one thread") << "resnet18_cifar" << 0.5 << 1 << 120.0 << 1.5 << 30.0;
        // bert at 20%: the paging plan on the second thread runs for the
        // whole of its time (half the limit, 60 s) unless the cancel reaches it.
        QTest::newRow("bert 20%, two threads") << "bert" << 0.2 << 2 << 120.0 << 1.5 << 30.0;
        // bert at 11%, 3 s in: the roots of the checkpoint bound and the
        // paging plan, in cut generators and the feasibility pump, which
        // raise no CBC event. They ran on 6 to 8 s after the cancel before
        // endAtCbcClock; then up to 3.6 s (5 s on CI once), while the long
        // tails ran on beside the plan and the plan's root saw the cancel
        // only after a whole cut pass. bench_cancel --at 1,2,3,4,5,6,8,12
        // --repeat 3 now: median 0.44 s, max 0.96 s.
        QTest::newRow("bert 11%, in the roots") << "bert" << 0.11 << 2 << 120.0 << 3.0 << 7.5;
        // resnet18_cifar at 20%: the short tails start at 4 to 6 s and take
        // half the time left, beside the long tails; the window search
        // follows them (at ~17 s of a 30 s limit, ~23 s of 40 s), two
        // windows at once where no long tail is done (here).
        QTest::newRow("resnet18_cifar 20%, in the short tails") << "resnet18_cifar" << 0.2 << 2 << 120.0 << 8.0 << 14.0;
        QTest::newRow("resnet18_cifar 20%, in the window search") << "resnet18_cifar" << 0.2 << 2 << 40.0 << 28.0 << 34.0;
    }

    void cancelKeepsBestSchedule()
    {
        QFETCH(QString, model);
        QFETCH(double, fraction);
        QFETCH(int, threads);
        QFETCH(double, limit_s);
        QFETCH(double, cancel_s);
        QFETCH(double, return_s);
        Problem p = bundled(model.toStdString(), "m4", 0, 1.5);
        p.ram_budget_bytes = static_cast<std::int64_t>(fraction * plainPassPeakBytes(p.graph));
        std::atomic<bool> cancel{false};
        SolverOptions o;
        o.time_limit_s = limit_s;
        o.threads = threads;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::duration<double>(cancel_s));
            cancel = true;
        });
        std::mutex mutex;
        std::vector<double> incumbents;
        const auto started = std::chrono::steady_clock::now();
        const SolveResult r = solve(
            p, o,
            [&](const SolveResult& inc) {
                std::lock_guard lock(mutex);
                incumbents.push_back(inc.replay.total_energy_j);
            },
            &cancel);
        // Wall clock: the solve must also not wait for a plan it no longer needs when it returns.
        const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        stopper.join();
        QVERIFY2(wall_s < return_s, qPrintable(QString::number(wall_s)));
        QVERIFY(r.status == SolveStatus::Feasible || r.status == SolveStatus::Optimal);
        verifyAgrees(r);
        // The answer is never worse than a schedule already shown, whichever thread found it.
        QVERIFY(!incumbents.empty());
        QVERIFY(r.replay.total_energy_j <= *std::min_element(incumbents.begin(), incumbents.end()));
    }

    void cancelledBeforeAScheduleSaysSo()
    {
        // resnet50 at 10% without paging has no schedule for a while; a
        // cancel from the start ends it with none, and says so (the JSON
        // had no message, where README promises one without a schedule).
        Problem p = bundled("resnet50", "m4", 0, 1.5);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) / 10;
        p.options.paging = false;
        std::atomic<bool> cancel{true};
        SolverOptions o;
        o.time_limit_s = 30;
        const SolveResult r = solve(p, o, {}, &cancel);
        QCOMPARE(toString(r.status), "cancelled");
        QVERIFY(!r.schedule);
        QCOMPARE(QString::fromStdString(r.message), QStringLiteral("cancelled before any schedule was found"));
        QCOMPARE(QString::fromStdString(resultSummaryJson(p, r).value("message", "")), r.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSolver)
#include "tst_solver.moc"
