// The bucket bound (bucket_bound.h): never above formulation.md's optimum (the
// reference build, solved exactly) nor below the stage-peak bound on every
// budget of two small training graphs, on every stage and on the stages the
// solver picks (every second one too), with and without a cutoff; and above the
// stage peak on resnet18_cifar, where it was built, where a long tail proves
// the solver's schedule within 0.5% at 14%; a tail on which CBC faults after
// its cutoff fell is solved again, with nothing on stderr, and one on which it
// faults in its dynamic branching is solved again with strong branching alone
// (bert with three blocks: then proven at its best schedule). With the
// recompute-moment rows: never above the optimum on two small graphs with adds,
// the same grown tail by tail as alone, and 4 mJ higher on resnet18_cifar at
// 17%. The root's LP stop ends Clp's simplex on cancel in the root only. On the
// full stages (no room beside the node): never above the optimum on the small
// graphs, and 1.8 J over the checkpoint bound on bert at 8.5%. With the stages
// where a schedule recomputes most added before each tail: never above the
// optimum on the small graphs; on resnet18_cifar at 16 to 20% and 1.002 to
// 1.005x the first tail with the two busiest, the next with the busiest alone
// where that rises (17%: to a proof) and with both again where it does not
// (16%), skipped where that is a tail solved before (18%: the next proves
// it); at 20% and 1.002x a proof the tails alone do not give; those stages
// are the busiest between the stage-peak stage and the tail. Every third of the
// last 19 stages over the budget (and the stage-peak stage): those stages, and
// at resnet18_cifar's 17% and 1.002x a proof that as many consecutive stages do
// not give; their turns (hand-worked on a clock of the test's own). The
// stage-peak stage alone, cut off: at resnet18_cifar's 26% and 1.001x a proof
// the stage-peak bound does not give.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <map>
#include <numeric>

#include <OsiClpSolverInterface.hpp>

#include "bound_checks.h"
#include "bucket_bound.h"
#include "cbc_setup.h"
#include "checkpoint_bound.h"
#include "doubling_turns.h"
#include "exact_solve.h"
#include "incumbent_handler.h"
#include "problem_loader.h"
#include "solver.h"
#include "stage_bound.h"
#include "stderr_capture.h"
#include "tiny_graphs.h"

using namespace poet;

class TestBucketBound : public QObject {
    Q_OBJECT
private slots:
    // On every stage, solved exactly: no higher than the optimum, no lower
    // than any one stage's peak (each stage's MILP is a relaxation of this
    // one), and above it on some budgets. On the solver's choice of stages
    // (the peak stage and the last two): no higher than the optimum either.
    void neverAboveTheOptimum_data() { test::chainRows(); }

    void neverAboveTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        const Graph g = test::trainingChain({3, 5, 2, 6, 4, 7, 1}, cheap_odd);
        std::vector<int> every(g.size());
        std::iota(every.begin(), every.end(), 0);
        test::AboveTheStagePeak tally;
        int looked_back = 0;  // bounds with a look-back stage, over every problem
        int busy = 0;         // bounds with the busiest recomputing stages
        test::checkBoundOnEverySmallProblem(
            g, 6, [&](const Problem& p) { return bucketBound(p, every, 30); },
            [&](test::Verdict v, const BucketBound& b, const Problem& p, const SolveResult& ref) {
                if (v != test::Verdict::Compared) return;
                tally.add(b.bound_j, p, ref);
                // A cutoff above the optimum leaves it as it is; one below it
                // is what the search proves (no solution under it).
                const BucketBound above = bucketBound(p, every, 30, nullptr, [&] { return b.bound_j + 0.01; });
                QVERIFY2(above.complete && std::abs(above.bound_j - b.bound_j) <= 1e-9 * b.bound_j,
                         qPrintable(test::describe(p)));
                const double plain_j = p.graph.totalComputeEnergy();
                if (b.bound_j > plain_j * (1 + 1e-6)) {
                    const double cutoff_j = 0.5 * (plain_j + b.bound_j);
                    const BucketBound below = bucketBound(p, every, 30, nullptr, [&] { return cutoff_j; });
                    QVERIFY2(below.complete && !below.infeasible && std::abs(below.bound_j - cutoff_j) <= 1e-9 * cutoff_j,
                             qPrintable(test::describe(p)));
                    // Above the optimum at the start, below it from then on:
                    // the search proves the lower one where it reads it
                    // again (between nodes), else it ends at the optimum.
                    int reads = 0;
                    const BucketBound falling =
                        bucketBound(p, every, 30, nullptr, [&] { return reads++ == 0 ? b.bound_j + 0.01 : cutoff_j; });
                    QVERIFY2(falling.complete && !falling.infeasible && falling.bound_j >= cutoff_j * (1 - 1e-9) &&
                                 falling.bound_j <= b.bound_j * (1 + 1e-9),
                             qPrintable(test::describe(p)));
                }
                const BucketBound chosen = bucketBound(p, bucketBoundStages(p, stagePeakBound(p, 10).stage, 2), 30);
                QVERIFY2(chosen.complete, qPrintable(test::describe(p)));
                test::verifyBelowOptimum(chosen.bound_j, ref, test::describe(p) + " (chosen stages)");
                QVERIFY2(chosen.bound_j <= b.bound_j * (1 + 1e-9), qPrintable(test::describe(p)));
                // Every second stage over the budget, from the last and the
                // one before it: the same.
                for (int offset : {0, 1}) {
                    const BucketBound strided =
                        bucketBound(p, stridedTailStages(p, stagePeakBound(p, 10).stage, g.size(), 2, offset), 30);
                    QVERIFY2(strided.complete, qPrintable(test::describe(p)));
                    test::verifyBelowOptimum(strided.bound_j, ref, test::describe(p) + " (every second stage)");
                    QVERIFY2(strided.bound_j <= b.bound_j * (1 + 1e-9), qPrintable(test::describe(p)));
                }
                // Ever longer tails, from one stage: each below the optimum,
                // one stage more each time, until none is left to add.
                const int peak_stage = stagePeakBound(p, 10).stage;
                std::vector<int> tails;
                growBucketBound(p, peak_stage, 1, 30, nullptr, [&](const BucketBound& grown, int tail) {
                    QVERIFY(grown.complete && !grown.infeasible);
                    test::verifyBelowOptimum(grown.bound_j, ref, test::describe(p) + QStringLiteral(" (tail %1)").arg(tail));
                    tails.push_back(tail);
                });
                const std::vector<int> all = bucketBoundStages(p, peak_stage, g.size());
                QCOMPARE(tails.empty(), all.empty());  // no stage over the budget: nothing to prove
                if (all.empty()) return;
                QCOMPARE(tails.front(), 1);
                for (std::size_t k = 1; k < tails.size(); ++k)  // a tail that adds nothing is skipped
                    QVERIFY(bucketBoundStages(p, peak_stage, tails[k]) != bucketBoundStages(p, peak_stage, tails[k - 1]));
                QCOMPARE(bucketBoundStages(p, peak_stage, tails.back()), all);
                // With a look-back of two, each tail is followed by itself and
                // the over-budget stage two before its first (where there is
                // one): below the optimum, not below that tail's bound (it
                // has every row of it), and the same as that set alone.
                double tail_j = 0;
                growBucketBound(
                    p, peak_stage, 1, 30, nullptr,
                    [&](const BucketBound& grown, int tail) {
                        QVERIFY(grown.complete && !grown.infeasible);
                        test::verifyBelowOptimum(grown.bound_j, ref, test::describe(p) + " (look-back)");
                        if (grown.added_stages.empty()) {
                            tail_j = grown.bound_j;
                            return;
                        }
                        ++looked_back;
                        std::vector<int> stages = bucketBoundStages(p, peak_stage, tail);
                        QCOMPARE(grown.added_stages.size(), std::size_t{1});
                        const int before = grown.added_stages.front();
                        const auto at = std::find(all.begin(), all.end(), before);
                        const auto first = std::find_if(all.begin(), all.end(), [&](int t) {
                            return t != peak_stage && std::count(stages.begin(), stages.end(), t);
                        });
                        QVERIFY2(at != all.end() && first - at == 2 && before != peak_stage, qPrintable(test::describe(p)));
                        QVERIFY(grown.bound_j >= tail_j * (1 - 1e-9));
                        stages.insert(std::lower_bound(stages.begin(), stages.end(), before), before);
                        const BucketBound alone = bucketBound(p, stages, 30);
                        QVERIFY2(std::abs(alone.bound_j - grown.bound_j) <= 1e-9 * alone.bound_j,
                                 qPrintable(test::describe(p)));
                    },
                    {}, {}, 2);
                // With the stages where the optimum's schedule recomputes
                // most before each tail: below the optimum, and each the
                // same as its set of stages alone.
                growBucketBound(
                    p, peak_stage, 1, 30, nullptr,
                    [&](const BucketBound& grown, int tail) {
                        QVERIFY(grown.complete && !grown.infeasible);
                        test::verifyBelowOptimum(grown.bound_j, ref, test::describe(p) + " (busiest stages)");
                        if (grown.added_stages.empty()) return;
                        ++busy;
                        std::vector<int> stages = bucketBoundStages(p, peak_stage, tail);
                        stages.insert(stages.end(), grown.added_stages.begin(), grown.added_stages.end());
                        std::sort(stages.begin(), stages.end());
                        const BucketBound alone = bucketBound(p, stages, 30);
                        QVERIFY2(std::abs(alone.bound_j - grown.bound_j) <= 1e-9 * alone.bound_j,
                                 qPrintable(test::describe(p)));
                    },
                    {}, {}, 0, [&] { return *ref.schedule; });
            });
        tally.report();
        QVERIFY(tally.compared >= 40 && tally.above_peak >= 10 && tally.met >= 40);
        QVERIFY2(looked_back >= 10, qPrintable(QString::number(looked_back)));
        QVERIFY2(busy >= 3, qPrintable(QString::number(busy)));  // 4 and 8 of the two chains
    }

    // Where the spare time is scarce, growBucketBound's first tail comes
    // with the two stages where a schedule recomputes most, each after it
    // with the busiest alone first, and with both again from where that
    // adds nothing over the tail before. On resnet18_cifar on m4, with a
    // schedule that recomputes the second half of layer1.1 at stage 110 and
    // of layer1.0 at 120 (as long), or of layer2.x at 90 or 100 (half as
    // long), cut off at what a 0.5% gap asks of the solver's schedule: at
    // 17% and 1.005x the last nine and ten with 110 rise, and the ten prove
    // the gap (6.6 s alone; with 90 as well, 20 s); at 20% and 1.005x and
    // 1.002x the last eight with both prove it (at 1.002x the last eight
    // alone do not: solved to their end, 36.5 s alone, 0.604473 J; here 20
    // s, cut off there); at 16% and 1.005x the last nine with 110 fall
    // short of the last eight with 110 and 120, and come again with both;
    // at 18% and 1.004x the last nine with 110 are the last eight with 110
    // and 120 (120 is the ninth last), so the last ten with 110 come next,
    // and prove the gap (4.2 s alone; with 90 and 110, 16.9 s). Cut off
    // under the solve's first schedule, 0.609492 J: under its last,
    // 0.609455 J, the last eight with 110 and 120 are not done in 60 s
    // alone. At 19% and 1.005x (90 too) the last ten with 110 rise no
    // higher than the last eight with 110 and 120 (or are cut short), and
    // the skipped nine come with 90 and 110, and prove it.
    void busiestStagesProveTheScarceGap_data()
    {
        QTest::addColumn<int>("percent");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QString>("busy");  // the stages where the schedule recomputes
        QTest::addColumn<double>("schedule_j");
        QTest::addColumn<QString>("steps");  // tail and added stages of each bound found
        QTest::addColumn<bool>("proves");    // the last of them proves the gap (else: stopped there)
        QTest::addColumn<bool>("alone_short");  // the first tail without the busy stages does not prove it
        QTest::newRow("17%, 1.005x") << 17 << 1.005 << "90,110" << 0.610976864 << "8:90,110 9:110 10:110" << true
                                     << false;
        QTest::newRow("20%, 1.005x") << 20 << 1.005 << "90,110" << 0.597596149 << "8:90,110" << true << false;
        QTest::newRow("20%, 1.002x") << 20 << 1.002 << "100,110" << 0.609367 << "8:100,110" << true << true;
        QTest::newRow("18%, 1.004x") << 18 << 1.004 << "110,120" << 0.609492 << "8:110,120 10:110" << true << false;
        QTest::newRow("19%, 1.005x") << 19 << 1.005 << "90,110,120" << 0.599956801 << "8:110,120 10:110 9:90,110"
                                     << true << false;
        QTest::newRow("16%, 1.005x") << 16 << 1.005 << "110,120" << 0.626456945 << "8:110,120 9:110 9:110,120" << false
                                     << false;
    }

    void busiestStagesProveTheScarceGap()
    {
        QFETCH(int, percent);
        QFETCH(double, factor);
        QFETCH(QString, busy);
        QFETCH(double, schedule_j);
        QFETCH(QString, steps);
        QFETCH(bool, proves);
        QFETCH(bool, alone_short);
        Problem p = test::resnet18Cifar(0, factor);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * percent / 100;
        const Graph& g = p.graph;
        const int peak = stagePeakBound(p, 30).stage;
        auto indexOf = [&](const std::string& name) {
            for (int i = 0; i < g.size(); ++i)
                if (g.node(i).name == name) return i;
            return -1;
        };
        const std::map<int, std::string> block = {
            {90, "layer2.1."}, {100, "layer2.0."}, {110, "layer1.1."}, {120, "layer1.0."}};
        Schedule schedule(g.size());
        for (int t = 0; t < g.size(); ++t) schedule.R.set(t, t, true);
        for (const QString& stage : busy.split(',')) {
            const int t = stage.toInt();
            QCOMPARE(indexOf("grad " + block.at(t) + "relu3"), t);
            for (const char* name : {"bn2", "relu2", "bn3", "add", "relu3"})
                schedule.R.set(t, indexOf(block.at(t) + name), true);
        }
        const double asks_j = schedule_j * (1 - 0.005);
        const int expected = static_cast<int>(steps.split(' ').size());
        std::atomic<bool> stop{false};
        QStringList found;
        std::vector<BucketBound> bounds;
        growBucketBound(
            p, peak, 8, 120, &stop,
            [&](const BucketBound& b, int tail) {
                QStringList added;
                for (int t : b.added_stages) added << QString::number(t);
                found << QString::number(tail) + ":" + added.join(",");
                bounds.push_back(b);
                if (static_cast<int>(found.size()) == expected) stop = true;
            },
            [&] { return asks_j; }, {true, {}}, 0, [&] { return schedule; });
        QCOMPARE(found.join(" "), steps);
        for (std::size_t k = 0; k < bounds.size(); ++k) {
            const bool proof = bounds[k].bound_j >= asks_j * (1 - 1e-9);
            QVERIFY2(proof == (proves && k + 1 == bounds.size()),
                     qPrintable(found[static_cast<int>(k)] + ": " + QString::number(bounds[k].bound_j, 'g', 10)));
            // With one stage after a tail with two: higher, or (cut short
            // or not) it comes again with both.
            if (k > 0 && bounds[k].added_stages.size() == 1) {
                const bool higher = bounds[k].complete && bounds[k].bound_j > bounds[k - 1].bound_j * (1 + 1e-9);
                const bool again = k + 1 < bounds.size() && bounds[k + 1].added_stages.size() == 2;
                QVERIFY2(higher != again, qPrintable(found[static_cast<int>(k)]));
            } else {
                QVERIFY2(bounds[k].complete, qPrintable(found[static_cast<int>(k)]));
            }
        }
        if (alone_short) {
            const BucketBound alone =
                bucketBound(p, bucketBoundStages(p, peak, 8), 20, nullptr, [&] { return asks_j; });
            QVERIFY2(alone.bound_j < asks_j * (1 - 1e-6), qPrintable(QString::number(alone.bound_j, 'g', 10)));
        }
    }

    // The busiest recomputing stages: over the budget, after the stage-peak
    // stage and before the tail, by the seconds a schedule recomputes in
    // each (the earlier first among equals), in stage order; none where it
    // recomputes nothing there.
    void busiestRecomputingStagesAreTheBusiestBetweenPeakAndTail()
    {
        Problem p = test::resnet18Cifar(0, 1.002);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 20 / 100;
        const Graph& g = p.graph;
        const int peak = stagePeakBound(p, 30).stage;
        const std::vector<int> all = bucketBoundStages(p, peak, g.size());
        const std::vector<int> tail = bucketBoundStages(p, peak, 8);
        const int first = tail[1];  // tail[0] is the stage-peak stage
        QVERIFY(tail[0] == peak && first > peak + 40);
        // Four over-budget stages between them, and a node to recompute.
        std::vector<int> between;
        for (int t : all)
            if (t > peak && t < first) between.push_back(t);
        QVERIFY(between.size() >= 4);
        const int a = between[0], b = between[1], c = between[2], d = between[3];
        Schedule s(g.size());
        for (int t = 0; t < g.size(); ++t) s.R.set(t, t, true);
        QVERIFY(busiestRecomputingStages(p, s, peak, first, 2).empty());
        const int node = 1;  // conv1: the longest to recompute of the stem
        s.R.set(b, node, true);
        s.R.set(c, node, true);
        s.R.set(d, node, true);
        s.R.set(d, 0, true);  // the input, which takes no time: d ties with b and c
        s.R.set(a, node, true);
        s.R.set(a, 2, true);  // and bn1: a takes longest
        s.R.set(first, node, true);  // in the tail
        s.R.set(first, 2, true);
        s.R.set(peak - 1, node, true);  // before the stage-peak stage
        s.R.set(peak - 1, 2, true);
        QCOMPARE(busiestRecomputingStages(p, s, peak, first, 1), std::vector<int>{a});
        QCOMPARE(busiestRecomputingStages(p, s, peak, first, 2), (std::vector<int>{a, b}));
        QCOMPARE(busiestRecomputingStages(p, s, peak, first, 3), (std::vector<int>{a, b, c}));
        QCOMPARE(busiestRecomputingStages(p, s, peak, first, 9), (std::vector<int>{a, b, c, d}));
        QVERIFY(busiestRecomputingStages(p, Schedule(3), peak, first, 2).empty());  // another graph's
    }

    // Every `stride`-th of the last `span` stages over the budget, from the
    // last less `offset` back, and the stage-peak stage: at resnet18_cifar's
    // 14% (the last 19 over the budget are 111 to 129) every third from 129
    // down, from 128 and from 127; the stage-peak stage once where the span
    // takes it in; a stride of one is the tail itself.
    void stridedTailStagesAreEveryStrideThFromTheLast()
    {
        Problem p = test::resnet18Cifar(0, 1.002);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 14 / 100;
        const int peak = stagePeakBound(p, 30).stage;
        const std::vector<int> tail = bucketBoundStages(p, -1, 19);
        QCOMPARE(tail.front(), 111);
        QCOMPARE(tail.back(), 129);
        QVERIFY(peak < 111);
        QCOMPARE(stridedTailStages(p, peak, 19, 3, 0), (std::vector<int>{peak, 111, 114, 117, 120, 123, 126, 129}));
        QCOMPARE(stridedTailStages(p, peak, 19, 3, 1), (std::vector<int>{peak, 113, 116, 119, 122, 125, 128}));
        QCOMPARE(stridedTailStages(p, peak, 19, 3, 2), (std::vector<int>{peak, 112, 115, 118, 121, 124, 127}));
        QCOMPARE(stridedTailStages(p, -1, 19, 3, 0), (std::vector<int>{111, 114, 117, 120, 123, 126, 129}));
        QCOMPARE(stridedTailStages(p, peak, 19, 1, 0), bucketBoundStages(p, peak, 19));
        const std::vector<int> all = bucketBoundStages(p, -1, p.graph.size());
        QVERIFY(std::count(all.begin(), all.end(), peak));
        std::vector<int> through_peak;  // every 40th of them all, from the last
        for (int k = static_cast<int>(all.size()) - 1; k >= 0; k -= 40) through_peak.push_back(all[k]);
        if (!std::count(through_peak.begin(), through_peak.end(), peak)) through_peak.push_back(peak);
        std::sort(through_peak.begin(), through_peak.end());
        QCOMPARE(stridedTailStages(p, peak, p.graph.size(), 40, 0), through_peak);
    }

    // The strided tails' turns (doubling_turns.h), on a clock of their own:
    // searches that end after `needs` seconds of one turn (infinity: never)
    // and reach `reaches` where cut short. Hand-worked: with turns of 2 s and
    // 20 s in all, search 2 (which needs 2.5 s, and reaches less than 1 when
    // cut short) ends at 16.5 s, in the second round, after 1 and before 0
    // there (turns of 4 s), and search 1 has the 3.5 s left; all the time left
    // to the highest bound after the first round (session 74's order) went to
    // search 1, which never ends. The last one left has all that is left:
    // search 2 needs 9 s, has 2 s, then 16. `count` searches run at first
    // (0: all of `needs`), the rest as `after_round` adds them.
    void stridedTailsTakeDoublingTurns()
    {
        auto run = [](std::vector<double> needs, std::vector<double> reaches, double first_turn_s, double all_s,
                      std::size_t count = 0, const std::function<std::size_t()>& after_round = {}) {
            double now_s = 0;
            std::vector<std::pair<std::size_t, double>> turns;  // (search, its time)
            std::vector<double> ended(needs.size(), -1);
            runInDoublingTurns(
                count > 0 ? count : needs.size(), first_turn_s, [&] { return all_s - now_s; },
                [&](std::size_t k, double turn_s) -> std::optional<double> {
                    turns.emplace_back(k, turn_s);
                    if (needs[k] <= turn_s) {
                        now_s += needs[k];
                        ended[k] = now_s;
                        return std::nullopt;
                    }
                    now_s += turn_s;
                    return reaches[k];
                },
                after_round);
            return std::make_pair(turns, ended);
        };
        const double never = INFINITY;
        const auto [turns, ended] = run({never, never, 2.5}, {0.5, 0.6, 0.4}, 2, 20);
        QCOMPARE(turns, (std::vector<std::pair<std::size_t, double>>{{0, 2}, {1, 2}, {2, 2}, {1, 4}, {0, 4}, {2, 4},
                                                                     {1, 3.5}}));
        QCOMPARE(ended, (std::vector<double>{-1, -1, 16.5}));
        const auto [alone, alone_ended] = run({1, 1, 9}, {0, 0, 0.3}, 2, 20);
        QCOMPARE(alone, (std::vector<std::pair<std::size_t, double>>{{0, 2}, {1, 2}, {2, 2}, {2, 16}}));
        QCOMPARE(alone_ended, (std::vector<double>{1, 2, 13}));
        // Search 3 (needs 5 s), added after the first round of 0 to 2, is
        // first in the second, with twice its turn (8 s), and ends at 10 s;
        // 2, then 0, have their turns after it (4 s), and 2 (the higher
        // bound) the 2 s left. With the round's 4 s it was cut short, came
        // first in the third round (its 0.7 the highest bound) with the 3 s
        // left, and never ended.
        int rounds = 0;
        const auto [with_added, with_added_ended] =
            run({never, 1, never, 5}, {0.5, 0, 0.6, 0.7}, 2, 20, 3, [&] { return ++rounds == 1 ? 1 : 0; });
        QCOMPARE(with_added, (std::vector<std::pair<std::size_t, double>>{
                                 {0, 2}, {1, 2}, {2, 2}, {3, 8}, {2, 4}, {0, 4}, {2, 2}}));
        QCOMPARE(with_added_ended, (std::vector<double>{-1, 3, -1, 10}));
        QCOMPARE(rounds, 2);
    }

    // resnet18_cifar on m4 at 17% and 1.002x: every third of the last 19
    // stages over the budget from the third last (126, 123, ..., 111) and
    // the stage-peak stage, cut off 0.5% under the solver's 0.623788 J
    // schedule, prove that cutoff (3 to 5 s alone; the last 18, 84 s); as
    // many consecutive stages, the last seven, are under it solved to their
    // end.
    void stridedTailProvesTheScarceGap()
    {
        Problem p = test::resnet18Cifar(0, 1.002);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 17 / 100;
        const int peak = stagePeakBound(p, 30).stage;
        const std::vector<int> stages = stridedTailStages(p, peak, 19, 3, 2);
        QCOMPARE(stages, (std::vector<int>{peak, 111, 114, 117, 120, 123, 126}));
        const double asks_j = 0.623788 * (1 - 0.005);
        const BucketBound strided = bucketBound(p, stages, 120, nullptr, [&] { return asks_j; });
        QVERIFY(strided.complete && !strided.infeasible);
        QVERIFY2(strided.bound_j >= asks_j * (1 - 1e-9), qPrintable(QString::number(strided.bound_j, 'g', 10)));
        const BucketBound consecutive = bucketBound(p, bucketBoundStages(p, peak, 7), 120, nullptr, [&] { return asks_j; });
        QVERIFY(consecutive.complete);
        QVERIFY2(consecutive.bound_j < asks_j * (1 - 1e-6), qPrintable(QString::number(consecutive.bound_j, 'g', 10)));
    }

    // resnet18_cifar on m4 at 18% and 1.002x: offset 2's strided tail solved
    // to its end (0.614145 J) is short of what a 0.5% gap under the solver's
    // 0.618858 J schedule asks (0.615795 J), by less than the gap, where
    // solveStrided adds the busiest recomputing stages before it; with 90 and
    // 110 (what that schedule gives) it proves the gap (6.4 to 7.6 s in
    // solves), where the solves without them ended 0.76% short at 30 s.
    void stridedTailWithBusiestStagesProvesTheGap()
    {
        Problem p = test::resnet18Cifar(0, 1.002);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 18 / 100;
        const int peak = stagePeakBound(p, 30).stage;
        std::vector<int> stages = stridedTailStages(p, peak, 19, 3, 2);
        QCOMPARE(stages, (std::vector<int>{peak, 111, 114, 117, 120, 123, 126}));
        const double asks_j = gapAsksJ(0.618858132, 0.005);
        const BucketBound alone = bucketBound(p, stages, 120, nullptr, [&] { return asks_j; });
        QVERIFY(alone.complete && !alone.infeasible);
        QVERIFY2(alone.bound_j < asks_j * (1 - 1e-6) && alone.bound_j >= asks_j * (1 - 0.005),
                 qPrintable(QString::number(alone.bound_j, 'g', 10)));
        stages.insert(stages.end(), {90, 110});
        std::sort(stages.begin(), stages.end());
        const BucketBound with = bucketBound(p, stages, 120, nullptr, [&] { return asks_j; });
        QVERIFY(with.complete && !with.infeasible);
        QVERIFY2(with.bound_j >= asks_j * (1 - 1e-9), qPrintable(QString::number(with.bound_j, 'g', 10)));
    }

    // resnet18_cifar on m4 at 26% and 1.001x: the stage-peak bound (no time
    // in it) is short of what a 0.5% gap under the solver's 0.659443560 J
    // schedule asks; the stage-peak stage alone with its time row, cut off
    // there, proves it (in 0.04 s alone; the solve, that ran the stage with
    // the last nine, ended 0.58% short at 30 s, and is proven in 4.8 s with it).
    void peakStageAloneProvesTheScarceGap()
    {
        Problem p = test::resnet18Cifar(0, 1.001);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 26 / 100;
        const StageBound stage = stagePeakBound(p, 10);  // as long as a 30 s solve gives it (about 6 s)
        const double asks_j = gapAsksJ(0.659443560, 0.005);
        QVERIFY2(stage.bound_j < asks_j * (1 - 1e-6), qPrintable(QString::number(stage.bound_j, 'g', 10)));
        const BucketBound alone = bucketBound(p, {stage.stage}, 120, nullptr, [&] { return asks_j; });
        QVERIFY(alone.complete && !alone.infeasible);
        QVERIFY2(alone.bound_j >= asks_j * (1 - 1e-9), qPrintable(QString::number(alone.bound_j, 'g', 10)));
    }

    // The full stages (over the budget, with no room beside the node and its
    // inputs for any value that matters there) of a chain of equal values,
    // where every gradient's operands fill the tightest budgets: as defined,
    // the bound on them never above the optimum, and above the checkpoint
    // bound on some budgets (3 and 6 of 15 and 16).
    void fullStagesNeverAboveTheOptimum_data() { test::chainRows(); }

    void fullStagesNeverAboveTheOptimum()
    {
        QFETCH(bool, cheap_odd);
        const Graph g = test::trainingChain({4, 4, 4, 4, 4, 4}, cheap_odd);
        int full_sets = 0, above_checkpoint = 0;
        test::forEachSmallProblem(g, 12, [&](const Problem& p, const SolveResult& ref) {
            const std::vector<int> full = fullStages(p);
            for (int t : full) {
                const StagePeak peak = stagePeak(p, t);
                QVERIFY(peak.plain_bytes > static_cast<double>(p.ram_budget_bytes));
                for (int i = 0; i < t; ++i)
                    QVERIFY(!peak.matters[i] || peak.fixed_bytes + static_cast<double>(g.node(i).memory_bytes) >
                                                    static_cast<double>(p.ram_budget_bytes));
            }
            if (full.size() < 2 || ref.status == SolveStatus::Infeasible) return;
            ++full_sets;
            const BucketBound b = bucketBound(p, full, 30);
            QVERIFY2(b.complete && !b.infeasible, qPrintable(test::describe(p)));
            test::verifyBelowOptimum(b.bound_j, ref, test::describe(p));
            if (b.bound_j > checkpointBound(p, 30).bound_j * (1 + 1e-9)) ++above_checkpoint;
        });
        qInfo("%d problems with full stages, the bound above the checkpoint bound on %d", full_sets, above_checkpoint);
        QVERIFY(full_sets >= 10 && above_checkpoint >= 3);
    }

    // With the recompute-moment rows, on graphs with adds, every stage:
    // never above the optimum, never below the bound without them, and
    // above it on 5 budgets of the first graph (an add recomputed between
    // two gradients wants room for its inputs beside what stays). Grown
    // tail by tail, the same as each tail alone.
    void momentsNeverAboveTheOptimum_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("sizes");
        QTest::addColumn<bool>("raises");  // on some budget (the second graph: on none, measured)
        QTest::newRow("large convs") << std::vector<std::int64_t>{3, 5, 2, 6, 4, 7, 1} << true;
        QTest::newRow("large adds") << std::vector<std::int64_t>{4, 2, 6, 3, 5, 2, 7} << false;
    }

    void momentsNeverAboveTheOptimum()
    {
        QFETCH(std::vector<std::int64_t>, sizes);
        QFETCH(bool, raises);
        const Graph g = test::trainingResidual(sizes);
        std::vector<int> every(g.size());
        std::iota(every.begin(), every.end(), 0);
        int compared = 0, raised = 0;
        test::checkBoundOnEverySmallProblem(
            g, minimumFeasibleBudgetLowerBound(g),
            [&](const Problem& p) { return bucketBound(p, every, 30, nullptr, {}, {true}); },
            [&](test::Verdict v, const BucketBound& b, const Problem& p, const SolveResult&) {
                if (v != test::Verdict::Compared) return;
                ++compared;
                const BucketBound without = bucketBound(p, every, 30);
                QVERIFY2(without.complete && b.bound_j >= without.bound_j * (1 - 1e-9), qPrintable(test::describe(p)));
                if (b.bound_j > without.bound_j * (1 + 1e-9)) ++raised;
                // Ever longer tails, each starting from the rows the last one
                // added: each ends where its own rows, added from none, end
                // (at the optimum of the MILP with every row).
                const int peak_stage = stagePeakBound(p, 10).stage;
                growBucketBound(
                    p, peak_stage, 1, 30, nullptr,
                    [&](const BucketBound& grown, int tail) {
                        const BucketBound alone =
                            bucketBound(p, bucketBoundStages(p, peak_stage, tail), 30, nullptr, {}, {true});
                        QVERIFY2(grown.complete && alone.complete &&
                                     std::abs(grown.bound_j - alone.bound_j) <= 1e-9 * alone.bound_j,
                                 qPrintable(test::describe(p) + QStringLiteral(" (tail %1: %2 grown, %3 alone)")
                                                                    .arg(tail)
                                                                    .arg(grown.bound_j, 0, 'g', 12)
                                                                    .arg(alone.bound_j, 0, 'g', 12)));
                    },
                    {}, {true});
            });
        qInfo("%d compared, %d raised by the recompute-moment rows", compared, raised);
        QVERIFY(compared >= 40);
        if (raises) QVERIFY(raised >= 1);
    }

    // resnet18_cifar on m4 at 17% and 1.5x, the last ten stages over the
    // budget and the stage-peak stage: the recompute-moment rows raise the
    // bound by 4 mJ (layer1.0.add, recomputed at grad layer1.0.relu3,
    // leaves no room for conv2, which comes back twice), within 1% of the
    // solver's schedule, where 1.7% was left.
    void momentsRaiseTheResnetBound()
    {
        Problem p = test::resnet18Cifar(0, 1.5);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 17 / 100;
        const std::vector<int> stages = bucketBoundStages(p, stagePeakBound(p, 30).stage, 10);
        const BucketBound without = bucketBound(p, stages, 120);
        const BucketBound with = bucketBound(p, stages, 120, nullptr, {}, {true});
        QVERIFY(without.complete && with.complete && !with.infeasible);
        QVERIFY2(with.bound_j >= without.bound_j + 0.004, qPrintable(QStringLiteral("%1 vs %2")
                                                                   .arg(with.bound_j, 0, 'g', 10)
                                                                   .arg(without.bound_j, 0, 'g', 10)));
        QVERIFY(with.bound_j >= 0.603927 * (1 - 0.01));  // the solver's schedule at 30 s
        QVERIFY(with.bound_j <= 0.602575);                // the best schedule known (window search, 540 s)
    }

    // resnet18_cifar on m4 at 15% and 1.5x: the stage-peak stage and the last
    // nine, solved exactly, raise the stage peak by 9 mJ; a solve of 12 s on
    // one core raises it by 4 mJ at least, says which bound it is, and its
    // schedule stays above both. One stage more (what the solver's second
    // core tries next) is solved exactly too, 4.7 mJ above the nine.
    void raisesTheResnetBound()
    {
        Problem p = test::resnet18Cifar(0, 1.5);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 15 / 100;
        const StageBound s = stagePeakBound(p, 30);
        const std::vector<int> stages = bucketBoundStages(p, s.stage, 9);
        QCOMPARE(static_cast<int>(stages.size()), 10);
        const BucketBound b = bucketBound(p, stages, 60);
        QVERIFY(!b.infeasible && b.complete);
        QVERIFY2(b.bound_j >= s.bound_j + 0.009, qPrintable(QStringLiteral("%1 vs the stage peak's %2")
                                                                .arg(b.bound_j, 0, 'g', 10)
                                                                .arg(s.bound_j, 0, 'g', 10)));
        SolverOptions o;
        o.time_limit_s = 12;
        o.relative_gap = 0.005;
        const SolveResult r = solve(p, o);
        QVERIFY(r.replay.valid);
        QVERIFY2(r.best_bound_j >= s.bound_j + 0.004, qPrintable(QString::number(r.best_bound_j, 'g', 10)));
        QVERIFY2(r.message.find("bucket bound") != std::string::npos, r.message.c_str());
        QVERIFY(r.best_bound_j <= r.replay.total_energy_j);
        QVERIFY(b.bound_j <= r.replay.total_energy_j);

        std::atomic<bool> stop{false};
        std::vector<std::pair<int, BucketBound>> found;
        growBucketBound(p, s.stage, 10, 300, &stop, [&](const BucketBound& longer, int tail) {
            found.emplace_back(tail, longer);
            stop = true;  // one is enough here
        });
        QCOMPARE(static_cast<int>(found.size()), 1);
        QCOMPARE(found[0].first, 10);
        QVERIFY(found[0].second.complete);
        QVERIFY2(found[0].second.bound_j >= b.bound_j + 0.004,
                 qPrintable(QStringLiteral("%1 vs %2").arg(found[0].second.bound_j, 0, 'g', 10).arg(b.bound_j, 0, 'g', 10)));
        QVERIFY(found[0].second.bound_j <= 0.620860);  // the solver's schedule at 30 s (README)
        QVERIFY(found[0].second.bound_j <= r.replay.total_energy_j);
    }

    // bert on m4 at 8.5% of its peak and 1.5x: no value fits beside a
    // gradient of a query-key-value product (its operands and output take
    // 31.5 of the 32.6 MB), and the bucket bound on those twelve stages is
    // solved at once, 1.8 J over the checkpoint bound, which holds every
    // stage but lets one return of a value serve them all. The solver's
    // schedule at 120 s is 112.228531 J (0.44% over it).
    void raisesTheBertBoundAtItsTightestBudgets()
    {
        Problem p;
        p.graph = loadTrainingGraph(ProfileCatalog::standard(), "bert", "m4");
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 85 / 1000;
        p.runtime_budget_factor = 1.5;
        const std::vector<int> full = fullStages(p);
        QCOMPARE(static_cast<int>(full.size()), 12);
        for (int t : full) {
            const std::string& name = p.graph.node(t).name;
            QVERIFY2(name.rfind("grad encoder.", 0) == 0 && name.substr(name.size() - 4) == ".qkv", name.c_str());
        }
        const BucketBound b = bucketBound(p, full, 60);
        QVERIFY(b.complete && !b.infeasible);
        const CheckpointBound c = checkpointBound(p, 60);
        QVERIFY2(b.bound_j >= c.bound_j + 1.5, qPrintable(QStringLiteral("%1 vs the checkpoint bound's %2")
                                                              .arg(b.bound_j, 0, 'g', 10)
                                                              .arg(c.bound_j, 0, 'g', 10)));
        QVERIFY(b.bound_j <= 112.228531);
    }

    // resnet18_cifar on m4 at 14% and 1.5x: the last 18 stages over the
    // budget and the stage-peak stage, cut off 0.5% under the best schedule
    // known (0.625711 J, from the solver at 30 s), prove that cutoff: the
    // schedule is within 0.5% of the optimum, where the stage peak is 2%
    // under it. The cutoff comes in while the search runs (no cutoff at its
    // first read), as the solver's best schedule does.
    void longTailProvesTheGapAtFourteenPercent()
    {
        Problem p = test::resnet18Cifar(0, 1.5);
        p.ram_budget_bytes = plainPassPeakBytes(p.graph) * 14 / 100;
        const StageBound peak = stagePeakBound(p, 30);
        const double cutoff_j = 0.625711 * (1 - 0.005);
        int reads = 0;
        const BucketBound longer = bucketBound(p, bucketBoundStages(p, peak.stage, 18), 300, nullptr,
                                               [&] { return reads++ == 0 ? INFINITY : cutoff_j; });
        QVERIFY(reads > 1);
        QVERIFY(longer.complete && !longer.infeasible);
        QVERIFY2(longer.bound_j >= cutoff_j * (1 - 1e-9), qPrintable(QString::number(longer.bound_j, 'g', 10)));
        QVERIFY(peak.bound_j < cutoff_j - 0.01);  // one stage proves far less
    }

    // The root's LP stop (cbc_setup.h), on an LP of 300 columns and 40 rows
    // that takes Clp many iterations: on cancel it stops the simplex in the
    // root and says so; in the tree, or without a cancel, it lets it end.
    void rootLpStopHoldsOnlyInTheRoot_data()
    {
        QTest::addColumn<bool>("cancel");
        QTest::addColumn<bool>("in_tree");
        QTest::addColumn<bool>("stops");
        QTest::newRow("cancel in the root") << true << false << true;
        QTest::newRow("cancel in the tree") << true << true << false;
        QTest::newRow("no cancel") << false << false << false;
    }
    void rootLpStopHoldsOnlyInTheRoot()
    {
        QFETCH(bool, cancel);
        QFETCH(bool, in_tree);
        QFETCH(bool, stops);
        constexpr int kColumns = 300, kRows = 40;
        std::vector<int> rows, columns;
        std::vector<double> values;
        for (int k = 0; k < kRows; ++k)
            for (int j = 0; j < kColumns; ++j) {
                rows.push_back(k);
                columns.push_back(j);
                values.push_back((k * 7 + j * 13) % 11 + 1);
            }
        CoinPackedMatrix matrix(false, rows.data(), columns.data(), values.data(),
                                static_cast<CoinBigIndex>(values.size()));
        matrix.setDimensions(kRows, kColumns);
        std::vector<double> lower(kColumns, 0.0), upper(kColumns, 1.0), objective(kColumns);
        for (int j = 0; j < kColumns; ++j) objective[j] = -((j * 17) % 23 + 1.0);
        const std::vector<double> row_lower(kRows, -COIN_DBL_MAX), row_upper(kRows, 150.0);
        OsiClpSolverInterface lp;
        lp.loadProblem(matrix, lower.data(), upper.data(), objective.data(), row_lower.data(), row_upper.data());
        lp.messageHandler()->setLogLevel(0);
        const std::atomic<bool> cancelled{cancel};
        RootLpStop::State state{std::chrono::steady_clock::now() + std::chrono::hours(1), &cancelled};
        state.in_tree = in_tree;
        RootLpStop stop(&state);
        lp.getModelPtr()->passInEventHandler(&stop);
        lp.initialSolve();
        QCOMPARE(state.stopped.load(), stops);
        QCOMPARE(lp.isProvenOptimal(), !stops);
        if (!stops) QVERIFY(lp.getIterationCount() > 1);  // more than one iteration to stop in
    }

    // resnet18_cifar on m4 at 15% and 1.5x: the last 18 stages with the
    // cutoff the solver has there at first (0.5% under 0.630206 J) make CBC
    // 2.10.8 read through a garbage index in its dynamic branching
    // (CbcNode::chooseDynamicBranch, gdb) after ~13 s, every time
    // (fault_guard.h). The search is made again with strong branching
    // alone, and its bound is real (0.6036 J at 60 s), where it used to be
    // the compute energy alone; it stays under a schedule known there.
    void survivesCbcFault()
    {
        Problem p = test::resnet18Cifar(0, 1.5);
        p.ram_budget_bytes = static_cast<std::int64_t>(0.15 * static_cast<double>(plainPassPeakBytes(p.graph)));
        const StageBound peak = stagePeakBound(p, 30);
        const BucketBound b = bucketBound(p, bucketBoundStages(p, peak.stage, 18), 30, nullptr,
                                          [] { return 0.630206 * (1 - 0.99 * 0.005); });
        QVERIFY(!b.infeasible && !b.faulted);
        QVERIFY2(b.bound_j > p.graph.totalComputeEnergy() + 0.01, qPrintable(QString::number(b.bound_j, 'g', 10)));
        QVERIFY2(b.bound_j <= 0.620733, qPrintable(QString::number(b.bound_j, 'g', 10)));  // bench_solve at 30 s
    }

    // bert with three blocks at bert's 9%, every over-budget stage (37): CBC
    // faults in its dynamic branching 6.5 s in, every time; made again with
    // strong branching alone the search ends, at the best schedule's energy
    // (26.836307 J: that schedule is optimal), where the checkpoint bound,
    // solved exactly, is 0.036 J lower (a chain recomputed from the input
    // once per backward block: the checkpoint bound charges it once).
    void faultInDynamicBranchingIsSolvedAgain()
    {
        const Problem p = test::bertThreeBlocks();
        const std::vector<int> stages = bucketBoundStages(p, -1, p.graph.size());  // every one over the budget
        QCOMPARE(stages.size(), std::size_t{37});
        const BucketBound all = bucketBound(p, stages, 300);
        QVERIFY(!all.faulted && !all.infeasible && all.complete);
        const CheckpointBound checkpoint = checkpointBound(p, 60, nullptr, INFINITY, true);
        QVERIFY(checkpoint.complete);
        QVERIFY2(all.bound_j > checkpoint.bound_j + 0.03, qPrintable(QString::number(all.bound_j, 'g', 10)));
        SolverOptions o;
        o.time_limit_s = 10;
        o.threads = 1;
        const SolveResult r = solve(p, o);
        QVERIFY(r.replay.valid);
        QVERIFY2(all.bound_j <= r.replay.total_energy_j * (1 + 1e-9),
                 qPrintable(QString("%1 over %2").arg(all.bound_j, 0, 'g', 10).arg(r.replay.total_energy_j, 0, 'g', 10)));
    }

    // resnet18_cifar on jetsontx2 at 14% and 1.5x: tail 10 cut off at what
    // the gap asks of the quick schedule (0.133793 J), then, from the 6th
    // read, of the plan's first (0.131959 J), as in the solver: CBC 2.10.8
    // fails an assertion in CbcModel::addCuts right after the cutoff falls,
    // every time. Solved again from the lower cutoff, the tail proves it
    // (exact alone: 0.131510 J), where the fault used to leave no bound and
    // end the tails' growth (the solver then stopped at 0.59% after 30 s);
    // the solver proves the gap in about 2 s.
    void faultAfterTheCutoffFellIsSolvedAgain()
    {
        Problem p = test::resnet18Cifar(0, 1.5, "jetsontx2");
        p.ram_budget_bytes = static_cast<std::int64_t>(0.14 * static_cast<double>(plainPassPeakBytes(p.graph)));
        const StageBound peak = stagePeakBound(p, 30);
        const std::vector<int> stages = bucketBoundStages(p, peak.stage, 10);
        const double cutoff_j = 0.131959 * (1 - 0.99 * 0.005);
        int reads = 0;
        BucketBound tail10;
        // CBC's failed assertion ends the first search quietly (fault_guard.cpp).
        const std::string said = test::stderrOf(
            [&] { tail10 = bucketBound(p, stages, 120, nullptr, [&] { return ++reads <= 5 ? 0.133793 : cutoff_j; }); });
        QVERIFY(reads > 5);
        QVERIFY2(said.find("Assertion") == std::string::npos, said.c_str());
        QVERIFY(!tail10.faulted && !tail10.infeasible && tail10.complete);
        QVERIFY2(tail10.bound_j >= cutoff_j * (1 - 1e-9), qPrintable(QString::number(tail10.bound_j, 'g', 10)));
        const BucketBound exact = bucketBound(p, stages, 120);
        QVERIFY(exact.complete && tail10.bound_j <= exact.bound_j * (1 + 1e-9));

        SolverOptions o;
        o.time_limit_s = 30;
        o.relative_gap = 0.005;
        o.threads = 2;
        const SolveResult r = solve(p, o);
        QVERIFY(r.replay.valid);
        QCOMPARE(r.status, SolveStatus::Optimal);
        QVERIFY2(r.message.find("bucket bound") != std::string::npos, r.message.c_str());
        QVERIFY(r.best_bound_j <= r.replay.total_energy_j);
    }
};

QTEST_APPLESS_MAIN(TestBucketBound)
#include "tst_bucket_bound.moc"
