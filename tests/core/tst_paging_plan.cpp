// The paging plan (paging_plan.h) against formulation.md's MILP, solved with
// the reference build on the same problems: same status, same optimum, and
// the smallest feasible budget it claims is exact.
#include <QtTest>
#include <random>

#include <CbcModel.hpp>
#include <OsiClpSolverInterface.hpp>

#include "arrival_bound.h"
#include "baselines.h"
#include "bound_checks.h"
#include "bucket_bound.h"
#include "cbc_setup.h"
#include "formulation.h"
#include "graph_analysis.h"
#include "incumbent_handler.h"
#include "paging_plan.h"
#include "plan_search.h"
#include "problem_loader.h"
#include "replay.h"
#include "schedule_improvement.h"
#include "solver.h"
#include "stage_bound.h"
#include "exact_solve.h"
#include "bundled_problem.h"
#include "tiny_graphs.h"

using namespace poet;

namespace {

bool meetsEveryRow(const PagingPlan& plan, const std::vector<double>& x)
{
    std::vector<double> activity(plan.rows(), 0.0);
    for (std::size_t e = 0; e < plan.triplet_value.size(); ++e)
        activity[plan.triplet_row[e]] += plan.triplet_value[e] * x[plan.triplet_col[e]];
    for (int r = 0; r < plan.rows(); ++r)
        if (activity[r] < plan.row_lower[r] - 1e-9 || activity[r] > plan.row_upper[r] + 1e-9) return false;
    return true;
}

// resnet18_cifar's stem and first block (tests/data/profiles) on m4 at 1.5x.
Problem resnetBlock(std::int64_t ram)
{
    Problem p;
    p.graph = loadTrainingGraph(test::testProfiles(), "resnet_block", "m4");
    p.ram_budget_bytes = ram;
    p.runtime_budget_factor = 1.5;
    return p;
}

// A plan's optimum (CBC, one thread, gap 1e-9): its columns; none if it has none.
std::optional<std::vector<double>> planOptimumColumns(const PagingPlan& plan)
{
    OsiClpSolverInterface lp;
    loadMilp(lp, plan, plan.col_lower.data(), plan.col_upper.data(), plan.is_integer);
    CbcModel model(lp);
    SolverOptions options;
    options.relative_gap = 1e-9;
    options.threads = 1;
    configureCbc(model, options, plan.objectiveOffsetJ(), plan.objectiveScale(), 60, nullptr);
    model.branchAndBound();
    if (!model.bestSolution()) return std::nullopt;
    return std::vector<double>(model.bestSolution(), model.bestSolution() + plan.columns());
}

// The same decoded.
std::optional<Schedule> solvePlanExactly(const PagingPlan& plan)
{
    const auto x = planOptimumColumns(plan);
    if (!x) return std::nullopt;
    return plan.decode(x->data());
}

// The same in joules; infinity where it has none.
double planOptimumJ(const PagingPlan& plan)
{
    const auto x = planOptimumColumns(plan);
    return x ? plan.energyJ(x->data()) : INFINITY;
}

// A plan's LP relaxation in joules; infinity where it has none.
double planLpJ(const PagingPlan& plan)
{
    OsiClpSolverInterface lp;
    loadMilp(lp, plan, plan.col_lower.data(), plan.col_upper.data(), plan.is_integer);
    lp.initialSolve();
    return lp.isProvenOptimal() ? plan.objectiveOffsetJ() + lp.getObjValue() / plan.objectiveScale() : INFINITY;
}

bool sameJ(double a, double b)
{
    return a == b || std::abs(a - b) <= 1e-8 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestPagingPlan : public QObject {
    Q_OBJECT
private slots:
    void appliesOnlyWhereNothingCanBeRecomputed()
    {
        QVERIFY(PagingPlan::applies(test::bundledOnM4("linear", 0.6, 1.0, true, true)));   // no spare time
        QVERIFY(PagingPlan::applies(test::bundledOnM4("linear", 0.6, 1.5, true, false)));  // remat off
        QVERIFY(!PagingPlan::applies(test::bundledOnM4("linear", 0.6, 1.5, true, true)));
        // longSkipGraph's nodes take 1 s each: at 1.25x (1 s spare) each can be recomputed.
        QVERIFY(PagingPlan::applies(test::problemOf(test::longSkipGraph(0.2, 0.3), 9, 1.2, true, true)));
        QVERIFY(!PagingPlan::applies(test::problemOf(test::longSkipGraph(0.2, 0.3), 9, 1.25, true, true)));
    }

    void handComputedPaging()
    {
        // tiny_graphs.h: at 9 B X is paged out at stage 1 and in at stage 2.
        const Problem p = test::problemOf(test::longSkipGraph(0.2, 0.3), 9, 1.0, true, true);
        const PagingPlan plan(p);
        QCOMPARE(plan.columns(), 2);  // X's page-out and its one span (stage 2)
        QCOMPARE(plan.smallestFeasibleBudget(), std::int64_t(9));
        const double pageAll[] = {1, 1};
        QCOMPARE(plan.energyJ(pageAll), 4.5);
        const Schedule s = plan.decode(pageAll);
        QVERIFY(s.M_out(1, 0));
        QVERIFY(s.M_in(2, 0));
        QVERIFY(!s.S_RAM(2, 0));
        QVERIFY(s.S_RAM(3, 0));
    }

    void sameOptimumAsFormulationMd_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<double>("factor");
        QTest::addColumn<bool>("paging");
        QTest::addColumn<bool>("remat");
        for (const char* model : {"linear", "transformer"})
            for (double fraction : {1.0, 0.8, 0.6, 0.4, 0.25, 0.1}) {
                QTest::addRow("%s %.2f 1.0x", model, fraction) << QString(model) << fraction << 1.0 << true << true;
                QTest::addRow("%s %.2f remat off", model, fraction)
                    << QString(model) << fraction << 1.5 << true << false;
            }
        QTest::addRow("linear 0.80 nothing") << QString("linear") << 0.8 << 1.0 << false << true;
        QTest::addRow("linear 1.00 nothing") << QString("linear") << 1.0 << 1.0 << false << false;
    }

    void sameOptimumAsFormulationMd()
    {
        QFETCH(QString, model);
        QFETCH(double, fraction);
        QFETCH(double, factor);
        QFETCH(bool, paging);
        QFETCH(bool, remat);
        const Problem p = test::bundledOnM4(model.toStdString(), fraction, factor, paging, remat);
        QVERIFY(PagingPlan::applies(p));
        const SolveResult plan = test::solveExactly(p, FormulationVariant::Tight);
        const SolveResult ref = test::solveExactly(p, FormulationVariant::Reference);
        QCOMPARE(toString(plan.status), toString(ref.status));
        if (plan.status == SolveStatus::Infeasible) return;
        QCOMPARE(toString(plan.status), "optimal");
        QVERIFY(plan.replay.valid);
        QVERIFY2(std::abs(plan.replay.total_energy_j - ref.replay.total_energy_j) <= 1e-9 * ref.replay.total_energy_j,
                 qPrintable(QStringLiteral("%1 vs %2").arg(plan.replay.total_energy_j, 0, 'g', 17)
                                .arg(ref.replay.total_energy_j, 0, 'g', 17)));
    }

    // Every budget from below the smallest to the plain pass's peak, byte by
    // byte, on a graph where the choice of what to page is a real knapsack.
    void sameOptimumOnEveryBudget_data()
    {
        QTest::addColumn<bool>("remat");
        QTest::newRow("1.0x, input recomputed") << true;
        QTest::newRow("remat off") << false;
    }

    void sameOptimumOnEveryBudget()
    {
        QFETCH(bool, remat);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1});
        const std::int64_t peak = plainPassPeakBytes(g);
        int optimal = 0, infeasible = 0, paged = 0;
        for (std::int64_t ram = 6; ram <= peak; ++ram) {
            const Problem p = test::problemOf(g, ram, remat ? 1.0 : 1.5, true, remat);
            QVERIFY(PagingPlan::applies(p));
            const SolveResult plan = test::solveExactly(p, FormulationVariant::Tight);
            const SolveResult ref = test::solveExactly(p, FormulationVariant::Reference);
            QVERIFY2(plan.status == ref.status,
                     qPrintable(QStringLiteral("%1 B: %2 vs %3").arg(ram).arg(toString(plan.status), toString(ref.status))));
            if (plan.status == SolveStatus::Infeasible) {
                ++infeasible;
                continue;
            }
            QCOMPARE(toString(plan.status), "optimal");
            QVERIFY(plan.replay.valid);
            QVERIFY2(std::abs(plan.replay.total_energy_j - ref.replay.total_energy_j) <= 1e-9 * ref.replay.total_energy_j,
                     qPrintable(QStringLiteral("%1 B: %2 vs %3").arg(ram).arg(plan.replay.total_energy_j, 0, 'g', 17)
                                    .arg(ref.replay.total_energy_j, 0, 'g', 17)));
            ++optimal;
            if (plan.replay.page_outs > 0) ++paged;
        }
        // The sweep crosses the feasibility edge and pages at several budgets.
        QVERIFY(infeasible > 0);
        QVERIFY(paged >= 5);
        QVERIFY(optimal > paged);
    }

    // With spare runtime the plan is a restriction: any column vector that
    // meets its rows must decode to a schedule the replay accepts, at no more
    // than the plan's own energy (inputs already held are not recomputed).
    // Some of them page a value in early, for a recomputation that reads it.
    // Drawn on the repeated form, all of whose columns are binary (the
    // shared form is the same MILP: sharedCoverIsTheSameMilp).
    void everyPlanIsAValidSchedule_data()
    {
        QTest::addColumn<int>("cheap_run");
        QTest::newRow("conv, cheap") << 1;
        QTest::newRow("conv, cheap, cheap") << 2;
    }

    void everyPlanIsAValidSchedule()
    {
        QFETCH(int, cheap_run);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5}, true, cheap_run);
        const std::int64_t peak = plainPassPeakBytes(g);
        std::mt19937 random(7);
        int checked = 0, recomputing = 0, feeding = 0;
        auto pageInFeedsARecomputation = [&](const Schedule& s) {
            for (int t = 0; t + 1 < g.size(); ++t)
                for (int u = 0; u < t; ++u)
                    for (int v : g.successors(u))
                        if (s.M_in(t, u) && v < t + 1 && s.R(t + 1, v)) return true;
            return false;
        };
        for (std::int64_t ram = peak / 3; ram <= peak; ram += 2) {
            const Problem p = test::problemOf(g, ram, 1.6, true, true);
            QVERIFY(!PagingPlan::applies(p));
            const PagingPlan plan(p, false, PagingPlan::CoverRows::Repeated);
            for (int draw = 0; draw < 40000; ++draw) {
                std::vector<double> x(plan.columns());
                for (double& v : x) v = random() % (3 + draw % 3) == 0;  // sparse: most rows cap a sum at 1
                if (!meetsEveryRow(plan, x)) continue;
                const Schedule s = plan.decode(x.data());
                const ReplayReport r = replaySchedule(g, s, limitsOf(p));
                QVERIFY2(r.valid, qPrintable(QStringLiteral("%1 B: %2").arg(ram).arg(
                                      r.errors.empty() ? "" : r.errors.front().c_str())));
                QVERIFY(r.total_energy_j <= plan.energyJ(x.data()) + 1e-9);
                ++checked;
                if (r.recomputations > 0) ++recomputing;
                if (pageInFeedsARecomputation(s)) ++feeding;
            }
        }
        QVERIFY2(checked >= 200 && recomputing >= 50 && feeding >= 20,
                 qPrintable(QStringLiteral("%1 plans checked, %2 recompute, %3 page in for a recomputation")
                                .arg(checked).arg(recomputing).arg(feeding)));
    }

    // The same under optimisation, which finds what sparse random draws
    // rarely do: CBC's optimum of the plan's rows under random costs, some
    // negative so that it takes many columns at once, is a valid schedule at
    // every budget. It found two faults: an input visiting for one stage and
    // paged in again during it (the replay keeps it through the stage), and a
    // transient recomputed where its chain stops at a held value (never read,
    // it stays in RAM through the stage's node; large batch norms 4 and 7
    // make that overflow). On the repeated form (random costs on a shared
    // cover column would change what it means).
    void optimalPlansUnderRandomCostsAreValid()
    {
        const Graph g = test::trainingChain({3, 2, 1, 5, 9, 1, 5, 9}, true, 2);
        const std::int64_t peak = plainPassPeakBytes(g);
        std::mt19937 random(3);
        std::uniform_real_distribution<double> cost(-1.0, 1.0);
        int solved = 0, visiting = 0;
        for (std::int64_t ram = peak / 3; ram <= peak; ++ram) {
            const Problem p = test::problemOf(g, ram, 1.6, true, true);
            const PagingPlan plan(p, false, PagingPlan::CoverRows::Repeated);
            for (int draw = 0; draw < 40; ++draw) {
                PagingPlan costs = plan;
                for (double& c : costs.objective) c = cost(random);
                OsiClpSolverInterface lp;
                loadBinaryMilp(lp, costs);
                CbcModel model(lp);
                model.setLogLevel(0);
                model.branchAndBound();
                const double* x = model.bestSolution();
                if (!x) continue;
                const std::vector<double> chosen(x, x + plan.columns());
                QVERIFY(meetsEveryRow(plan, chosen));
                const Schedule s = plan.decode(x);
                const ReplayReport r = replaySchedule(g, s, limitsOf(p));
                QVERIFY2(r.valid, qPrintable(QStringLiteral("%1 B, draw %2: %3").arg(ram).arg(draw).arg(
                                      r.errors.empty() ? "" : r.errors.front().c_str())));
                ++solved;
                for (int t = 0; t + 2 < g.size(); ++t)
                    for (int u = 0; u < t; ++u) {
                        const auto& readers = g.successors(u);
                        const bool feeds = std::any_of(readers.begin(), readers.end(),
                                                       [&](int v) { return v <= t && s.R(t + 1, v); });
                        if (s.M_in(t, u) && feeds && !s.S_RAM(t + 2, u)) ++visiting;
                    }
            }
        }
        QVERIFY2(solved >= 100 && visiting >= 20,
                 qPrintable(QStringLiteral("%1 plans solved, %2 visits").arg(solved).arg(visiting)));
        qInfo("%d plans solved, %d visits", solved, visiting);
    }

    // Each stage's cover terms (what the spans away over it take off) stand
    // in every row of that stage: the stage's own and one per step of each
    // chain recomputed in it. The shared form reads one continuous column
    // z_t ≤ cover_t there instead: the same MILP, with the same LP
    // relaxation and optimum, and far fewer terms (bert at 10%: a tenth).
    void sharedCoverIsTheSameMilp()
    {
        using Rows = PagingPlan::CoverRows;
        int compared = 0, shared_columns = 0, feasible = 0;
        auto compare = [&](const PagingPlan& shared, const PagingPlan& repeated, const QString& what) {
            QCOMPARE(shared.columns(), repeated.columns() + shared.sharedCoverColumns());
            QCOMPARE(repeated.sharedCoverColumns(), 0);
            if (shared.sharedCoverColumns() > 0)
                QVERIFY2(shared.triplet_value.size() < repeated.triplet_value.size(), qPrintable(what));
            const double lp_shared = planLpJ(shared), lp_repeated = planLpJ(repeated);
            QVERIFY2(sameJ(lp_shared, lp_repeated),
                     qPrintable(QStringLiteral("%1: LP %2 vs %3").arg(what).arg(lp_shared, 0, 'g', 17)
                                    .arg(lp_repeated, 0, 'g', 17)));
            const double opt_shared = planOptimumJ(shared), opt_repeated = planOptimumJ(repeated);
            QVERIFY2(sameJ(opt_shared, opt_repeated),
                     qPrintable(QStringLiteral("%1: optimum %2 vs %3").arg(what).arg(opt_shared, 0, 'g', 17)
                                    .arg(opt_repeated, 0, 'g', 17)));
            ++compared;
            shared_columns += shared.sharedCoverColumns();
            if (std::isfinite(opt_shared)) ++feasible;
        };
        const Graph g = test::trainingChain({3, 2, 1, 5, 9, 1, 5, 9}, true, 2);
        for (std::int64_t ram = plainPassPeakBytes(g) / 3; ram <= plainPassPeakBytes(g); ram += 2) {
            const Problem p = test::problemOf(g, ram, 1.6, true, true);
            compare(PagingPlan(p, false, Rows::Shared), PagingPlan(p, false, Rows::Repeated),
                    QStringLiteral("chain, %1 B").arg(ram));
            const Problem tight = test::problemOf(g, ram, 1.05, true, true);
            compare(PagingPlan(tight, false, Rows::Shared), PagingPlan(tight, false, Rows::Repeated),
                    QStringLiteral("chain, %1 B, 1.05x").arg(ram));
        }
        for (std::int64_t ram : {300000, 350000}) {
            const Problem p = resnetBlock(ram);
            compare(PagingPlan(p, false, Rows::Shared), PagingPlan(p, false, Rows::Repeated),
                    QStringLiteral("resnet block, %1 B").arg(ram));
        }
        // A fixed compute plan: one row per release point.
        const Graph fixed_graph = test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5}, true);
        BoolMatrix R(fixed_graph.size());
        for (int t = 0; t < fixed_graph.size(); ++t) R.set(t, t);
        for (int t = 10; t < fixed_graph.size(); ++t)
            for (int v : {1, 3, 5, 7})
                for (int w : fixed_graph.successors(v))
                    if (w == t) R.set(t, v);
        const Schedule base = scheduleFromRecompute(fixed_graph, R);
        const std::int64_t peak = replaySchedule(fixed_graph, base).peak_ram_bytes;
        for (std::int64_t ram = peak / 2; ram <= peak; ram += 2) {
            const Problem p = test::problemOf(fixed_graph, ram, 3.0, true, true);
            compare(PagingPlan(p, base, Rows::Shared), PagingPlan(p, base, Rows::Repeated),
                    QStringLiteral("fixed, %1 B").arg(ram));
        }
        QVERIFY2(compared >= 20 && shared_columns >= 100 && feasible >= 10,
                 qPrintable(QStringLiteral("%1 compared, %2 shared columns, %3 feasible")
                                .arg(compared).arg(shared_columns).arg(feasible)));

        // A bundled model: the LP relaxation alone (the optimum takes minutes).
        const Problem bert = test::bundledOnM4("bert", 0.10, 1.5, true);
        const PagingPlan shared(bert, false, Rows::Shared), repeated(bert, false, Rows::Repeated);
        qInfo("bert at 10%%: %zu terms shared, %zu repeated", shared.triplet_value.size(), repeated.triplet_value.size());
        QCOMPARE_LT(shared.triplet_value.size() * 5, repeated.triplet_value.size());
        QVERIFY(sameJ(planLpJ(shared), planLpJ(repeated)));
    }

    // By default a plan shares its cover terms only where it is larger than
    // any bundled model's: bert's own plans keep the repeated form (their
    // searches keep their paths), a 24-block copy of bert shares (13.4M
    // terms repeated: 1.4 s and 218 MB to build; a 48-block copy's 162M
    // made a 30 s solve take 87 s and 8.8 GB).
    void onlyPlansLargerThanTheBundledShareTheirCover()
    {
        for (double share : {0.082, 0.10, 0.30}) {
            const Problem bert = test::bundledOnM4("bert", share, 1.5, true);
            const PagingPlan plan(bert), repeated(bert, false, PagingPlan::CoverRows::Repeated);
            QCOMPARE(plan.sharedCoverColumns(), 0);
            QCOMPARE(plan.triplet_value, repeated.triplet_value);
        }
        Problem large = test::problemOf(loadTrainingGraph(test::testProfiles(), "bert_twenty_four_blocks", "m4"), 0,
                                        1.5, true, true);
        large.ram_budget_bytes = plainPassPeakBytes(large.graph) / 5;
        QCOMPARE(large.graph.size(), 387);
        const PagingPlan plan(large);
        qInfo("bert with 24 blocks at 20%%: %d shared columns, %zu terms", plan.sharedCoverColumns(),
              plan.triplet_value.size());
        QCOMPARE_GT(plan.sharedCoverColumns(), 100);
        QCOMPARE_LT(plan.triplet_value.size(), std::size_t{1'500'000});
    }

    // A cancel ends the plan's build (a 771-node graph's takes 0.6 s, and a
    // solve's time limit waited for two of them): the plan says it is
    // incomplete, and the search it goes to returns at once. Unset, the
    // cancel changes nothing.
    void aCancelEndsThePlansBuild()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.14, 1.002, true, true);
        const PagingPlan full(p);
        std::atomic<bool> cancel{false};
        const PagingPlan unset(p, false, PagingPlan::CoverRows::BySize, &cancel);
        QVERIFY(!full.cancelled() && !unset.cancelled());
        QCOMPARE(unset.objective, full.objective);
        QCOMPARE(unset.row_lower, full.row_lower);
        QCOMPARE(unset.triplet_col, full.triplet_col);
        QCOMPARE(unset.triplet_value, full.triplet_value);
        cancel = true;
        const PagingPlan ended(p, false, PagingPlan::CoverRows::BySize, &cancel);
        QVERIFY(ended.cancelled());
        QCOMPARE_LT(ended.rows(), full.rows());
        SolverOptions options;
        options.time_limit_s = 30;
        const PlanOutcome out = solvePagingPlan(ended, p, options, Clock::now(), INFINITY, -1, &cancel, {});
        QVERIFY(out.cancelled && !out.best && !out.proven && !out.infeasible);
    }

    // resnet18_cifar's stem and first block alone (tests/data/profiles) on
    // m4 at 1.5x, where four 64 KB values fill each backward stage: the
    // plan's best meets the carried arrival bound with one window over every
    // stage, so it is optimal.
    //  - 300,000 B: every forward value comes back for its gradient; the
    //    plan recomputes the stem (conv1 from the input, bn1 from conv1) in
    //    the last stages: 0.149888 J. Before, a chain could start from the
    //    input only where the stage read it anyway, and the plan paged conv1
    //    and bn1 (0.165981 J).
    //  - 350,000 B: a chain's copy of a batch norm stays for its own read in
    //    the next stage (a carry) instead of being recomputed again:
    //    0.100472 J, 0.102026 J before.
    void provenOptimalOnOneResNetBlock_data()
    {
        QTest::addColumn<std::int64_t>("ram");
        QTest::addColumn<double>("optimum_j");
        QTest::newRow("300,000 B") << std::int64_t{300000} << 0.149887525;
        QTest::newRow("350,000 B") << std::int64_t{350000} << 0.100472;
    }

    void provenOptimalOnOneResNetBlock()
    {
        QFETCH(std::int64_t, ram);
        QFETCH(double, optimum_j);
        const Problem p = resnetBlock(ram);
        const PagingPlan plan(p);
        OsiClpSolverInterface lp;
        loadMilp(lp, plan, plan.col_lower.data(), plan.col_upper.data(), plan.is_integer);
        CbcModel model(lp);
        model.setLogLevel(0);
        model.branchAndBound();
        QVERIFY(model.isProvenOptimal());
        const ReplayReport r = replaySchedule(p.graph, plan.decode(model.bestSolution()), limitsOf(p));
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        const ArrivalBound bound = carriedArrivalBound(p, p.graph.size(), 60);
        QVERIFY(bound.complete);
        qInfo("plan %.9f J, carried bound %.9f J", r.total_energy_j, bound.bound_j);
        QVERIFY(r.total_energy_j <= bound.bound_j * (1 + 1e-6));
        // So the plan is optimal, and bounds from shorter windows stay below
        // it. They charge the page-outs of bn1 and layer1.0.relu2 at their
        // backward reads, not at their skip reads (by conv3 and by the add).
        for (const int window : {3, 6}) {
            const ArrivalBound part = carriedArrivalBound(p, window, 60);
            QVERIFY(part.complete && part.bound_j <= r.total_energy_j * (1 + 1e-9));
        }
        QVERIFY(std::abs(r.total_energy_j - optimum_j) < 1e-6);  // the figures above, as a record
        QCOMPARE_GT(r.recomputations, 0);
    }

    // bert on m4 at 8.5% of its peak and 1.5x, where no value fits beside a
    // gradient of a query-key-value product: a chain that recomputes a
    // block's output from the block before would need that block's input to
    // visit (it cannot stay through the attention gradients), so a second
    // chain stops at the block's add1, paged in and held instead (where
    // asked: the solver's second plan). The plan then pages add1 in for each
    // block: 112.329196 J, where without that chain it replays blocks from
    // the network's input (116.098750 J). The bucket bound on the full
    // stages is 111.732750 J.
    void chainStopsWhereItWouldNeedAVisit()
    {
        const Problem p = test::bundledOnM4("bert", 0.085, 1.5, true, true);
        const PagingPlan first(p);
        QCOMPARE(first.stoppedChains(), 0);  // only where asked
        QCOMPARE(first.mostVisits(), 11);    // a block's output from the network's input: a visit per block
        const PagingPlan plan(p, true);
        QCOMPARE_GT(plan.stoppedChains(), 20);
        const std::optional<Schedule> s = solvePlanExactly(plan);
        QVERIFY(s);
        const ReplayReport r = replaySchedule(p.graph, *s, limitsOf(p));
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        qInfo("plan %.9f J", r.total_energy_j);
        QVERIFY(r.total_energy_j <= 112.4);
        const BucketBound bound = bucketBound(p, fullStages(p), 60);
        QVERIFY(bound.complete && r.total_energy_j >= bound.bound_j);
        int add1_pages = 0;
        for (int i = 0; i < p.graph.size(); ++i)
            if (p.graph.node(i).name.find(".add1") != std::string::npos && p.graph.node(i).kind == NodeKind::Forward)
                for (int t = 0; t < p.graph.size(); ++t) add1_pages += s->M_in(t, i);
        QVERIFY2(add1_pages >= 8, qPrintable(QString::number(add1_pages)));
    }

    // Where a chain needs three visits or more, solvePlans searches the plan
    // with stopped chains from the start: its very first schedule already
    // beats the plain plan's optimum (116.098750 J at 8.5%; that plan's
    // first schedule is 116.403 J), which it used to search first, ~20 s.
    // Stopped at that first schedule, so no time limit decides the outcome.
    void plansStartWithStoppedChainsWhereChainsNeedVisits()
    {
        const Problem p = test::bundledOnM4("bert", 0.085, 1.5, true, true);
        QCOMPARE_GE(PagingPlan(p).mostVisits(), 3);
        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 600;  // a bound against a hang only: the first schedule ends it
        std::atomic<bool> cancel{false};
        double first_j = INFINITY;
        const PlansFound found = solvePlans(p, options, Clock::now(), &cancel, [&](const SolveResult& r) {
            if (!cancel.exchange(true)) first_j = r.replay.total_energy_j;
        });
        QVERIFY(found.best);
        qInfo("first schedule %.6f J", first_j);
        QVERIFY2(first_j < 116.0, qPrintable(QString::number(first_j, 'f', 6)));
    }

    // A hint over the runtime budget is relieved before the plan's own
    // search at every runtime factor, not only where the spare time is
    // scarce: the first schedule solvePlans announces is the relieved hint
    // (relieveHints' own result), where the plan's first schedule would
    // otherwise come first. The hint: Chen's schedule with every third
    // candidate as a checkpoint, which recomputes past 1.05x.
    void plansRelieveRejectedHintsFirstAtAnyFactor()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.2, 1.05, true, true);
        QVERIFY(!spareTimeIsScarce(p));
        const std::vector<int> candidates = checkpointCandidates(p.graph);
        QVERIFY(candidates.size() > 4);
        std::vector<int> checkpoints;
        for (std::size_t k = 0; k < candidates.size(); k += 3) checkpoints.push_back(candidates[k]);
        const Schedule over = chenSchedule(p.graph, checkpoints);
        const ReplayReport over_replay = replaySchedule(p.graph, over, limitsOf(p));
        QVERIFY(!over_replay.valid);
        QCOMPARE_GT(over_replay.runtime_s, p.runtimeBudgetSeconds());
        const auto far = Clock::now() + std::chrono::seconds(300);
        const std::optional<Schedule> relieved = relieveHints(p, {over}, far);
        QVERIFY(relieved);
        const double relieved_j = replaySchedule(p.graph, *relieved, limitsOf(p)).total_energy_j;

        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 2400;  // a bound against a hang only: the first schedule ends it
        options.hints = {over};
        std::atomic<bool> cancel{false};
        double first_j = INFINITY;
        solvePlans(p, options, Clock::now(), &cancel, [&](const SolveResult& r) {
            if (!cancel.exchange(true)) first_j = r.replay.total_energy_j;
        });
        qInfo("relieved %.9f J, first announced %.9f J", relieved_j, first_j);
        QCOMPARE(first_j, relieved_j);
    }

    // Above 1.01x the plans start with the plan at 1.01x, whose schedules
    // fit as they are: resnet18_cifar on m4 at 16% and 1.05x, it is proven
    // within its gap in ~1.3 s alone (0.618558 J; the 1.05x plan takes ~10 s
    // to 0.620817 J), so every schedule announced until one costs no more
    // than that runs within 1.01x. (The first used to be the relieved 1.1x
    // quick schedule's, 0.628889 J at 1.039x.)
    void plansStartWithTheTightPlan()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.16, 1.05, true, true);
        Problem tight = p;
        tight.runtime_budget_factor = 1.01;
        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 600;  // the tight plan's tenth runs to its proof
        std::atomic<bool> cancel{false};
        std::vector<Schedule> announced;
        solvePlans(p, options, Clock::now(), &cancel, [&](const SolveResult& r) {
            if (cancel) return;
            announced.push_back(*r.schedule);
            if (r.replay.total_energy_j <= 0.620818) cancel = true;
        });
        QVERIFY(cancel);
        for (const Schedule& s : announced) {
            const ReplayReport within_tight = replaySchedule(p.graph, s, limitsOf(tight));
            qInfo("announced %.9f J, runtime %.4fx", within_tight.total_energy_j,
                  within_tight.runtime_s / p.graph.totalComputeTime());
            QVERIFY2(within_tight.valid, within_tight.errors.empty() ? "" : within_tight.errors.front().c_str());
        }
    }

    // Where the spare time is scarce, a looser plan's optimum relieved by
    // greedy drops leaves runtime that only a put-back paid by another drop
    // uses: resnet18_cifar on m4 at 16% and 1.002x, from the 1.006x plan's
    // optimum, the drops leave 0.647702 J and the swaps 0.642844 J (a 300 s
    // solve's bucket bound is 0.640528 J). Their schedule is valid, only
    // puts back what the source recomputes, and costs less by more than the
    // 0.5% the solver's gap asks; cancelled, they give the relief back.
    void swapsPutBackWhatTheGreedyDropsTook()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.16, 1.002, true, true);
        QVERIFY(spareTimeIsScarce(p));
        Problem looser = p;
        looser.runtime_budget_factor = 1.006;
        SolverOptions options;
        options.time_limit_s = 120;
        const PagingPlan plan(looser);
        const PlanOutcome loose = solvePagingPlan(plan, looser, options, Clock::now(), INFINITY, -1, nullptr, {});
        QVERIFY(loose.best && loose.proven);
        QVERIFY(!replaySchedule(p.graph, *loose.best, limitsOf(p)).valid);
        const auto far = Clock::now() + std::chrono::seconds(300);
        const std::optional<Schedule> fitted = relieveRuntime(p, *loose.best, far);
        QVERIFY(fitted);
        const double fitted_j = replaySchedule(p.graph, *fitted, limitsOf(p)).total_energy_j;

        const Schedule swapped = swapRecomputations(p, *loose.best, *fitted, far);
        const ReplayReport rep = replaySchedule(p.graph, swapped, limitsOf(p));
        qInfo("relieved %.6f J, swapped %.6f J", fitted_j, rep.total_energy_j);
        QVERIFY(rep.valid);
        QCOMPARE_LT(rep.total_energy_j, fitted_j * (1 - 0.005));
        QCOMPARE_GE(rep.total_energy_j, 0.640528);
        for (int t = 0; t < p.graph.size(); ++t)
            for (int i = 0; i < t; ++i)
                if (swapped.R(t, i)) QVERIFY(loose.best->R(t, i));

        const std::atomic<bool> cancel{true};
        const Schedule cancelled = swapRecomputations(p, *loose.best, *fitted, far, &cancel);
        QCOMPARE(replaySchedule(p.graph, cancelled, limitsOf(p)).total_energy_j, fitted_j);
    }

    // Where the spare time is scarce, the relief leaves schedules that the
    // local search keeping values rather than recomputing them
    // (dropRecomputations) improves: the first looser budget's quick
    // schedule before it is relieved, and the relief's best before the
    // plan's own search. bert on m4 at 1.002x: at 11% the 1.004x quick
    // schedule (127.949616 J) dropped is 125.905561 J, and relieved,
    // swapped and dropped again 127.091305 J, within 0.5% of the stage-peak
    // bound (without either drop: 128.467609 J after 120 s); at 12%
    // 126.403907 J (with the second drop alone 126.413256 J; with neither,
    // the plan's search never comes within 0.5%: 126.6447 J after 60 s of
    // it). Both 1.002x rows fail without the second drop. Up to 1.05x the spare
    // time is not scarce, but the quick schedule's relief pays there too
    // (no looser plans): at 16% and 1.04x (stage-peak bound 107.7646 J)
    // 108.229438 J, where without it a 120 s solve ends at 108.943735 J and
    // this row finds nothing within 0.5% in 90 s.
    // Cancelled at the first such schedule.
    void plansDropRecomputationsAroundTheRelief_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<double>("factor");
        QTest::newRow("11% 1.002x") << 0.11 << 1.002;
        QTest::newRow("12% 1.002x") << 0.12 << 1.002;
        QTest::newRow("16% 1.04x") << 0.16 << 1.04;
    }
    void plansDropRecomputationsAroundTheRelief()
    {
        QFETCH(double, fraction);
        QFETCH(double, factor);
        const Problem p = test::bundledOnM4("bert", fraction, factor, true, true);
        // Cut short (at 16%: a stage not solved exactly), the bound is lower: harder to come within.
        const StageBound peak = stagePeakBound(p, 120);
        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 90;  // the reliefs get a quarter
        std::atomic<bool> cancel{false};
        double within_j = INFINITY;
        solvePlans(p, options, Clock::now(), &cancel, [&](const SolveResult& r) {
            if (relativeGap(r.replay.total_energy_j, peak.bound_j) <= 0.005 && !cancel.exchange(true))
                within_j = r.replay.total_energy_j;
        });
        qInfo("stage-peak bound %.6f J (%s), within 0.5%% of it: %.6f J", peak.bound_j,
              peak.complete ? "every stage exact" : "cut short", within_j);
        QVERIFY(within_j < INFINITY);
    }

    // Where a relieved schedule (which had the local search already) beats
    // the plan's own best, solvePlans names the plan's own for the local
    // search that follows: resnet18_cifar on m4 at 22% and 1.05x, the
    // relief's 0.581996 J beats the plan's 0.582436 J, and the local
    // search on the plan's ends at 0.579548 J (the 1.06x optimum, which fits
    // 1.05x), where on the relief's it finds nothing: the solve ended 0.725%
    // short at 30 s. The plan's search is proven before the time limit, so
    // no clock decides what it returns.
    void plansLeaveTheirOwnBestToTheLocalSearchWhereAReliefBeatsIt()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.22, 1.05, true, true);
        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 120;  // the reliefs get a quarter; the plan ends the search once proven
        const PlansFound found = solvePlans(p, options, Clock::now(), nullptr, {});
        QVERIFY(found.best && found.to_search);
        const ReplayLimits limits = limitsOf(p);
        const double best_j = replaySchedule(p.graph, *found.best, limits).total_energy_j;
        const ReplayReport own = replaySchedule(p.graph, *found.to_search, limits);
        QVERIFY(own.valid);
        const auto far = Clock::now() + std::chrono::seconds(300);
        const double dropped_best_j =
            replaySchedule(p.graph, dropRecomputations(p.graph, *found.best, limits, far), limits).total_energy_j;
        const ReplayReport dropped_own =
            replaySchedule(p.graph, dropRecomputations(p.graph, *found.to_search, limits, far), limits);
        qInfo("best %.9f J (dropped %.9f J), the plan's own %.9f J, dropped %.9f J", best_j, dropped_best_j,
              own.total_energy_j, dropped_own.total_energy_j);
        QCOMPARE_GT(own.total_energy_j, best_j);
        QCOMPARE(dropped_best_j, best_j);
        QVERIFY(dropped_own.valid);
        QCOMPARE_LT(dropped_own.total_energy_j, best_j * (1 - 0.003));
    }

    // Where the plan's stop cuts the local search on the relief's best
    // short, solvePlans names that best for the local search that follows
    // (it takes up what was cut short), not the plan's own: bert on m4 at
    // 12% and 1.005x (120 s), the background plan's stop came during that
    // search, which then went on from 125.758 J to 124.813 J in 8 s and the
    // solve was proven at 21 s; with the plan's own named (nothing: the
    // plan, stopped, found none) it ended 0.81% short. Here the stop comes
    // with the first relieved schedule, so no clock decides it.
    void plansLeaveTheBestToTheLocalSearchWhereTheStopCutItShort()
    {
        const Problem p = test::bundledOnM4("resnet18_cifar", 0.22, 1.005, true, true);
        SolverOptions options;
        options.threads = 1;
        options.time_limit_s = 600;  // a bound against a hang only: the stop ends it
        std::atomic<bool> stop{false};
        const PlansFound found =
            solvePlans(p, options, Clock::now(), &stop, [&](const SolveResult&) { stop = true; });
        QVERIFY(found.best);
        QVERIFY(found.to_search);
        QVERIFY(*found.to_search == *found.best);
    }

    // bert's three-block copy at 54,573,347 B and 1.001x: the optimum,
    // 28.224113 J (formulation.md's MILP solved by the cbc binary, session
    // 58), holds a recomputed value for a later reader, which the plan's
    // chains cannot (its own optimum is 28.456768 J). The looser plans'
    // reliefs with the swaps come within 0.02% of it.
    void plansWithSwapsReachTheThreeBlockOptimum()
    {
        Problem p = test::bertThreeBlocks();
        p.ram_budget_bytes = 54'573'347;
        p.runtime_budget_factor = 1.001;
        QVERIFY(spareTimeIsScarce(p));
        SolverOptions options;
        options.time_limit_s = 240;  // the reliefs get a quarter; the plan ends the search once proven
        const std::optional<Schedule> s = solvePlans(p, options, Clock::now(), nullptr, {}).best;
        QVERIFY(s);
        const ReplayReport rep = replaySchedule(p.graph, *s, limitsOf(p));
        qInfo("%.6f J", rep.total_energy_j);
        QVERIFY(rep.valid);
        QCOMPARE_GE(rep.total_energy_j, 28.224113 - 1e-6);
        QCOMPARE_LT(rep.total_energy_j, 28.224113 * 1.0002);
    }

    // On the plain pass the fixed-plan form is the exact plan itself (which
    // the tests above hold against formulation.md): the same columns, costs
    // and rows, with each stage's RAM taken from the replay.
    void fixedPlainPassIsTheExactPlan()
    {
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5});
        for (std::int64_t ram : {12, 16, 20, 24}) {
            const Problem p = test::problemOf(g, ram, 1.5, true, false);
            const PagingPlan exact(p), fixed(p, plainSchedule(g));
            QVERIFY(exact.columns() > 3);
            QCOMPARE(fixed.objective, exact.objective);
            QCOMPARE(fixed.row_lower, exact.row_lower);
            QCOMPARE(fixed.row_upper, exact.row_upper);
            QCOMPARE(fixed.triplet_row, exact.triplet_row);
            QCOMPARE(fixed.triplet_col, exact.triplet_col);
            QCOMPARE(fixed.triplet_value, exact.triplet_value);
        }
    }

    // With recomputations in the fixed plan: every column vector that meets
    // the rows (of the repeated form, all binary) pages a schedule the replay
    // accepts, keeping its computations.
    void fixedPlanPagingIsValid()
    {
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5}, true);
        const int n = g.size();
        BoolMatrix R(n);
        for (int t = 0; t < n; ++t) R.set(t, t);
        for (int t = 10; t < n; ++t)  // the backward pass recomputes the cheap forward values it reads
            for (int v : {1, 3, 5, 7})
                for (int w : g.successors(v))
                    if (w == t) R.set(t, v);
        const Schedule base = scheduleFromRecompute(g, R);
        const std::int64_t peak = replaySchedule(g, base).peak_ram_bytes;
        std::mt19937 random(11);
        int checked = 0, paged = 0;
        for (std::int64_t ram = peak / 2; ram <= peak; ++ram) {
            const Problem p = test::problemOf(g, ram, 3.0, true, true);
            const PagingPlan plan(p, base, PagingPlan::CoverRows::Repeated);
            for (int draw = 0; draw < 40000; ++draw) {
                std::vector<double> x(plan.columns());
                for (double& v : x) v = random() % (2 + draw % 3) == 0;
                if (!meetsEveryRow(plan, x)) continue;
                const Schedule s = plan.decode(x.data());
                QCOMPARE(s.R, base.R);
                const ReplayReport r = replaySchedule(g, s, limitsOf(p));
                QVERIFY2(r.valid, qPrintable(QStringLiteral("%1 B: %2").arg(ram).arg(
                                      r.errors.empty() ? "" : r.errors.front().c_str())));
                QVERIFY(r.total_energy_j <= plan.energyJ(x.data()) + 1e-9);  // a page-out with no page-in is not made
                ++checked;
                if (r.page_ins > 0) ++paged;
            }
        }
        QVERIFY2(checked >= 100 && paged >= 50, qPrintable(QStringLiteral("%1 checked, %2 paged").arg(checked).arg(paged)));
    }

    // CBC 2.10.8 fails an assertion in its dynamic branching
    // (CbcBranchDynamicDecision::betterBranch) on the paging MILP of this
    // compute plan of six-block bert on m4 at 54,573,347 B and 1.01x (met
    // by a scratch search over compute plans), every time: the process used
    // to end there. Now the search is made again with strong branching
    // alone, and that one gives the plan's optimum.
    void planSearchSurvivesCbcFault()
    {
        const Problem p = test::problemOf(loadTrainingGraph(test::testProfiles(), "bert_six_blocks", "m4"), 54'573'347,
                                          1.01, true, true);
        const int n = p.graph.size();
        BoolMatrix R(n);
        for (int t = 0; t < n; ++t) R.set(t, t);
        // (stage, value recomputed there)
        const std::vector<std::pair<int, int>> recomputed{
            {49, 7}, {54, 44}, {58, 4}, {58, 5}, {58, 6}, {58, 7}, {58, 8}, {58, 12}, {58, 13}, {58, 14}, {58, 15},
            {58, 16}, {58, 20}, {58, 21}, {58, 22}, {58, 23}, {58, 24}, {58, 28}, {58, 29}, {58, 31}, {58, 32},
            {58, 36}, {58, 37}, {58, 38}, {58, 39}, {58, 40}, {60, 28}, {60, 32}, {60, 36}, {60, 37}, {68, 4},
            {68, 5}, {68, 6}, {68, 7}, {68, 8}, {68, 12}, {68, 13}, {68, 14}, {68, 15}, {68, 16}, {68, 20}, {68, 21},
            {68, 22}, {68, 23}, {68, 24}, {68, 29}, {68, 30}, {74, 20}, {74, 24}, {77, 12}, {77, 16}, {77, 21},
            {85, 4}, {85, 8}, {85, 13}, {92, 5}, {92, 6}};
        for (auto [t, v] : recomputed) R.set(t, v);
        for (int t = 1; t < n; ++t)  // the input, at no cost, in every stage that reads it
            for (int v : p.graph.successors(0))
                if (v <= t && R(t, v)) R.set(t, 0);
        const PagingPlan plan(p, scheduleFromRecompute(p.graph, R));
        SolverOptions o;
        o.time_limit_s = 60;
        o.relative_gap = 1e-7;
        o.threads = 1;  // a fault on one of CBC's own threads ends the process still (fault_guard.h)
        const PlanOutcome out = solvePagingPlan(plan, p, o, Clock::now(), INFINITY, -1, nullptr, [](const SolveResult&) {});
        QVERIFY(out.faulted);
        QVERIFY(out.best && out.proven);
        const ReplayReport r = replaySchedule(p.graph, *out.best, limitsOf(p));
        QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(out.best->R, R);  // the plan's computations, paged
        QVERIFY(std::abs(r.total_energy_j - out.best_j) < 1e-9);
    }

    // The fixed-plan form on a schedule's own compute plan has that
    // schedule's paging among its plans, so its optimum costs no more. Two
    // ways it did not: where a stage recomputes several nodes, a paged-in
    // value last read early in it leaves RAM for the rest of the stage
    // (counted as held to the stage's end, the paging did not fit); and a
    // value recomputed for one read may be away until its next one, paged
    // in from the copy written in the forward pass (no span allowed that).
    // The schedules: exact optima (test::solveExactly) on three small
    // chains, and the covering plan's on resnet18_cifar's stem and first
    // block and on resnet18_cifar at 12% (where it pages layer1.1.bn2 out
    // at 18, recomputes it at 110 and pages it in at 114; ~3 s).
    void fixedPlanFitsItsOwnSchedule()
    {
        int fitted = 0, paged = 0;
        auto check = [&](const Problem& p, const Schedule& own, double own_j) {
            const PagingPlan plan(p, scheduleFromRecompute(p.graph, own.R));
            const QString where = QStringLiteral("%1 nodes, %2 B, %3x").arg(p.graph.size()).arg(p.ram_budget_bytes)
                                      .arg(p.runtime_budget_factor);
            const std::optional<Schedule> s = solvePlanExactly(plan);
            QVERIFY2(s, qPrintable(where + ": no plan"));
            const ReplayReport r = replaySchedule(p.graph, *s, limitsOf(p));
            QVERIFY2(r.valid, qPrintable(where + ": " + (r.errors.empty() ? "" : r.errors.front().c_str())));
            QVERIFY2(r.total_energy_j <= own_j * (1 + 1e-9),
                     qPrintable(where + QStringLiteral(": %1 vs %2").arg(r.total_energy_j, 0, 'g', 17).arg(own_j, 0, 'g', 17)));
            ++fitted;
            if (r.page_ins > 0 && r.recomputations > 0) ++paged;
        };
        for (const Graph& g : {test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5}, true),
                               test::trainingChain({3, 5, 2, 6, 4, 7, 1, 5, 3, 6}, true, 2),
                               test::trainingChain({6, 2, 5, 4, 7, 3, 6, 2, 5}, true, 3)})
            for (double factor : {1.5, 3.0})
                for (std::int64_t ram = plainPassPeakBytes(g) / 3; ram <= plainPassPeakBytes(g); ++ram) {
                    const Problem p = test::problemOf(g, ram, factor, true, true);
                    const SolveResult best = test::solveExactly(p, FormulationVariant::Tight);
                    if (best.status == SolveStatus::Optimal) check(p, *best.schedule, best.replay.total_energy_j);
                }
        for (const Problem& p :
             {resnetBlock(300000), resnetBlock(450000), test::bundledOnM4("resnet18_cifar", 0.12, 1.5, true, true)}) {
            const std::optional<Schedule> s = solvePlanExactly(PagingPlan(p));
            QVERIFY(s);
            check(p, *s, replaySchedule(p.graph, *s).total_energy_j);
        }
        QVERIFY2(fitted >= 60 && paged >= 20, qPrintable(QStringLiteral("%1 fitted, %2 paged").arg(fitted).arg(paged)));
    }

    void smallestBudgetIsExact_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("remat");
        QTest::newRow("linear, input recomputed") << QString("linear") << true;
        QTest::newRow("linear, remat off") << QString("linear") << false;
        QTest::newRow("transformer") << QString("transformer") << true;
    }

    void smallestBudgetIsExact()
    {
        QFETCH(QString, model);
        QFETCH(bool, remat);
        Problem p = test::bundledOnM4(model.toStdString(), 0.01, 1.0, true, remat);
        const std::int64_t smallest = PagingPlan(p).smallestFeasibleBudget();
        QVERIFY(smallest < plainPassPeakBytes(p.graph));
        p.ram_budget_bytes = smallest;
        const SolveResult at = test::solveExactly(p, FormulationVariant::Reference);
        QCOMPARE(toString(at.status), "optimal");
        QVERIFY(at.replay.peak_ram_bytes <= smallest);
        p.ram_budget_bytes = smallest - 1;
        QCOMPARE(toString(test::solveExactly(p, FormulationVariant::Reference).status), "infeasible");
        const SolveResult below = test::solveExactly(p, FormulationVariant::Tight);
        QCOMPARE(toString(below.status), "infeasible");
        QVERIFY2(below.message.find(std::to_string(smallest) + " B") != std::string::npos, below.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestPagingPlan)
#include "tst_paging_plan.moc"
