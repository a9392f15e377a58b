// The effective RAM budget (effective_budget.h): the largest sum of node
// sizes, each counted at most twice, not above the budget.
#include <QtTest>
#include <random>
#include <set>

#include "bundled_problem.h"
#include "effective_budget.h"
#include "heuristic_schedule.h"
#include "replay.h"
#include "tiny_graphs.h"

using namespace poet;

namespace {

// A chain of nodes of these sizes (the sizes are all that counts here).
Graph chainOfSizes(const std::vector<std::int64_t>& sizes)
{
    std::vector<std::string> names;
    std::vector<std::pair<int, int>> edges;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        names.push_back("n" + std::to_string(i));
        if (i > 0) edges.emplace_back(static_cast<int>(i) - 1, static_cast<int>(i));
    }
    return Graph(test::unitCostNodes(names, sizes, 0.1, 0.1), edges);
}

// Every sum of the sizes with each counted 0, 1 or 2 times, by enumeration.
std::set<std::int64_t> everySum(const std::vector<std::int64_t>& sizes)
{
    std::set<std::int64_t> sums{0};
    for (std::int64_t m : sizes) {
        std::set<std::int64_t> next;
        for (std::int64_t s : sums)
            for (int copies = 0; copies <= 2; ++copies) next.insert(s + copies * m);
        sums = std::move(next);
    }
    return sums;
}

}  // namespace

class TestEffectiveBudget : public QObject {
    Q_OBJECT
private slots:
    // Sizes 3 and 5, each at most twice: the sums are 0, 3, 5, 6, 8, 10, 11,
    // 13 and 16 (worked out by hand).
    void handComputed()
    {
        const Graph g = chainOfSizes({3, 5});
        const std::vector<std::pair<std::int64_t, std::int64_t>> expected = {
            {0, 0}, {2, 0}, {3, 3}, {4, 3}, {5, 5}, {6, 6}, {7, 6},  {8, 8},  {9, 8},
            {10, 10}, {11, 11}, {12, 11}, {13, 13}, {15, 13}, {16, 16}, {100, 16}, {-4, -4}};
        for (const auto& [budget, effective] : expected) QCOMPARE(effectiveRamBudget(g, budget), effective);
    }

    // Random sizes, some sharing factors: the same as enumerating every sum.
    void matchesEnumeration()
    {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 200; ++trial) {
            const int n = 1 + static_cast<int>(rng() % 7);
            const std::int64_t factor = 1 + static_cast<std::int64_t>(rng() % 4);
            std::vector<std::int64_t> sizes;
            for (int i = 0; i < n; ++i) sizes.push_back(factor * (1 + static_cast<std::int64_t>(rng() % 40)));
            const Graph g = chainOfSizes(sizes);
            const std::set<std::int64_t> sums = everySum(sizes);
            for (std::int64_t budget = 0; budget <= *sums.rbegin() + 3; ++budget) {
                const std::int64_t largest = *std::prev(sums.upper_bound(budget));
                QCOMPARE(effectiveRamBudget(g, budget), largest);
            }
        }
    }

    // bert on m4: every value but two of 2,048 B is a multiple of 1,572,864 B,
    // so a budget counts in those blocks (and up to 8,192 B of the two).
    void bertCountsInBlocks()
    {
        const Graph g = test::bundledOnM4("bert", 0.1, 1.5, true).graph;
        constexpr std::int64_t kBlock = 1572864;
        QCOMPARE(effectiveRamBudget(g, 21 * kBlock + 8192), 21 * kBlock + 8192);
        QCOMPARE(effectiveRamBudget(g, 22 * kBlock - 1), 21 * kBlock + 8192);
        QCOMPARE(effectiveRamBudget(g, 21 * kBlock + 5000), 21 * kBlock + 4096);
        QCOMPARE(effectiveRamBudget(g, 38377881), 24 * kBlock + 8192);  // 10% of its peak
    }

    // What it rests on: no schedule's RAM passes the effective budget. The
    // quick schedules of three models at budgets from near their tightest
    // up, replayed, peak at or under it.
    void schedulesPeakWithinIt_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("share");
        const std::vector<std::pair<const char*, std::vector<double>>> shares = {
            {"bert", {0.085, 0.1, 0.2, 0.5}},
            {"resnet18_cifar", {0.11, 0.15, 0.3, 0.6}},
            {"vgg16_cifar", {0.5, 0.7, 0.9}}};
        for (const auto& [model, of_peak] : shares)
            for (double share : of_peak) QTest::addRow("%s %.3f", model, share) << QString(model) << share;
    }

    void schedulesPeakWithinIt()
    {
        QFETCH(QString, model);
        QFETCH(double, share);
        const Problem p = test::bundledOnM4(model.toStdString(), share, 1.5, true);
        const std::optional<Schedule> s = bestQuickSchedule(p);
        QVERIFY(s.has_value());
        const ReplayReport r = replaySchedule(p.graph, *s, limitsOf(p));
        QVERIFY(r.valid);
        const std::int64_t effective = effectiveRamBudget(p.graph, p.ram_budget_bytes);
        QVERIFY(effective <= p.ram_budget_bytes);
        QVERIFY2(r.peak_ram_bytes <= effective,
                 qPrintable(QString("peak %1 B, effective budget %2 B").arg(r.peak_ram_bytes).arg(effective)));
    }

    // Past a few million steps of the sizes' divisor, the budget rounded
    // down to that divisor (every sum is a multiple of it).
    void largeBudgetsRoundToTheDivisor()
    {
        const Graph g = chainOfSizes({6, 10, std::int64_t{1} << 24});
        const std::int64_t budget = (std::int64_t{1} << 24) + 7;
        QCOMPARE(effectiveRamBudget(g, budget), budget - 1);
    }
};

QTEST_APPLESS_MAIN(TestEffectiveBudget)
#include "tst_effective_budget.moc"
