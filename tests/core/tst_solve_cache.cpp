// The solve cache on disk (solve_cache.h) and warm starts from hints.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <functional>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>

#include <fcntl.h>
#include <nlohmann/json.hpp>

#include "solve_cache.h"
#include "solver.h"
#include "tiny_graphs.h"

using namespace poet;
using test::longSkipGraph;
using test::problemOf;

namespace {

SolverOptions exact()
{
    SolverOptions o;
    o.time_limit_s = 20;
    o.relative_gap = 1e-9;
    return o;
}

// The schedule solved at `at` without paging (longSkipGraph: X recomputed
// for W, 5 J), replayed under `under`, where paging is allowed too: the
// costlier answer the cache tests set beside the 4.5 J one that pages X.
SolveResult recomputingAnswer(const Problem& at, const Problem& under)
{
    Problem no_paging = at;
    no_paging.options.paging = false;
    SolveResult r = solve(no_paging, exact());
    if (r.schedule) r.replay = replaySchedule(under.graph, *r.schedule, limitsOf(under));
    return r;
}

// The document the cache holds for `p`, as stored.
nlohmann::json storedDocument(const SolveCache& cache, const Problem& p)
{
    std::ifstream in(cache.fileOf(p));
    return nlohmann::json::parse(in);
}

}  // namespace

class TestSolveCache : public QObject {
    Q_OBJECT
private slots:
    void secondSolveComesFromTheCache()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        const SolveResult first = solveWithCache(p, exact(), cache);
        QCOMPARE(toString(first.status), "optimal");
        QVERIFY(first.source != SolutionSource::Cached);
        QVERIFY(std::filesystem::exists(cache.fileOf(p)));

        const SolveResult again = solveWithCache(p, exact(), cache);
        QCOMPARE(toString(again.source), "cached");
        QCOMPARE(toString(again.status), "optimal");
        QVERIFY(again.replay.valid);
        QCOMPARE(again.replay.total_energy_j, first.replay.total_energy_j);
        QCOMPARE(*again.schedule, *first.schedule);

    }

    // An optimal answer answers every solve that asks the gap it reached or
    // more, and no stricter one: proven within 10% where 20% was asked.
    void optimalAnswersTheGapItReached()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        SolveResult r = solve(p, exact());
        QVERIFY(std::abs(r.objective_j - 4.5) < 1e-9);
        r.status = SolveStatus::Optimal;
        r.best_bound_j = 4.05;  // 10% under it
        SolverOptions asked = exact();
        asked.relative_gap = 0.2;
        cache.store(p, asked, r);
        for (double gap : {0.2, 0.1})
            QVERIFY2(cache.find(p, SolverOptions{.relative_gap = gap}).has_value(), std::to_string(gap).c_str());
        QVERIFY(!cache.find(p, SolverOptions{.relative_gap = 0.09}).has_value());
        QVERIFY(cache.storedSchedule(p).has_value());  // a warm start all the same
    }

    // An "optimal" of a looser gap kept every cheaper schedule out: a later
    // time-limited solve that found one was not stored. Now the file keeps
    // the cheaper schedule, the stronger bound, and "optimal" at the gap
    // they make.
    void cheaperScheduleReplacesALooserOptimal()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        SolveResult costly = recomputingAnswer(p, p);
        QVERIFY(costly.replay.valid && std::abs(costly.replay.total_energy_j - 5.0) < 1e-9);
        costly.status = SolveStatus::Optimal;
        costly.best_bound_j = 4.4;  // within 12% of 5 J
        SolverOptions loose = exact();
        loose.relative_gap = 0.15;
        cache.store(p, loose, costly);

        SolveResult cheap = solve(p, exact());  // pages X: 4.5 J
        cheap.status = SolveStatus::Feasible;   // as if cut short by its time limit
        cheap.best_bound_j = 4.0;
        cache.store(p, exact(), cheap);
        const auto hit = cache.find(p, loose);
        QVERIFY(hit.has_value());
        QCOMPARE(toString(hit->status), "optimal");
        QVERIFY(std::abs(hit->objective_j - 4.5) < 1e-9);
        QCOMPARE(hit->best_bound_j, 4.4);
        QVERIFY(std::abs(hit->gap - 0.1 / 4.5) < 1e-12);
        QVERIFY(!cache.find(p, SolverOptions{.relative_gap = 0.02}).has_value());
        // A later "infeasible" of the same problem is not stored over a schedule that fits.
        SolveResult wrong;
        wrong.status = SolveStatus::Infeasible;
        cache.store(p, exact(), wrong);
        QVERIFY(cache.find(p, loose).has_value());
    }

    // Two stores of one problem at once (the explorer's and a CLI's) take
    // turns: each merged into the file as it was before the other wrote, and
    // one's cheaper schedule was lost. While the cache's lock is held
    // elsewhere, a store waits for it.
    void storesTakeTurns()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        const SolveResult r = solve(p, exact());
        const int held = ::open(QDir(dir.path()).filePath(".lock").toLocal8Bit().constData(), O_RDWR | O_CREAT, 0644);
        QVERIFY(held >= 0 && ::flock(held, LOCK_EX) == 0);
        std::thread storing([&] { cache.store(p, exact(), r); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const bool storedWhileHeld = std::filesystem::exists(cache.fileOf(p));
        ::close(held);
        storing.join();
        QVERIFY(!storedWhileHeld);
        QVERIFY(cache.find(p, exact()).has_value());
    }

    // A stored bound that a new, cheaper schedule disproves is dropped in
    // the merge: kept, it made the file "optimal" at a gap of 0.
    void boundBelowNoScheduleIsKept()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        SolveResult costly = recomputingAnswer(p, p);  // 5 J
        costly.status = SolveStatus::Feasible;
        costly.best_bound_j = 4.8;  // under its own 5 J, over the 4.5 J optimum: wrong
        cache.store(p, exact(), costly);
        SolveResult cheap = solve(p, exact());  // 4.5 J
        cheap.status = SolveStatus::Feasible;
        cheap.best_bound_j = 4.0;
        cache.store(p, exact(), cheap);
        const nlohmann::json merged = storedDocument(cache, p);
        QCOMPARE(merged.at("best_bound_j").get<double>(), 4.0);
        QCOMPARE(merged.at("status").get<std::string>(), std::string("feasible"));
        QVERIFY(std::abs(merged.at("total_energy_j").get<double>() - 4.5) < 1e-9);
    }

    // What a file claims is checked before it is shown: an edited one
    // (or one a fixed bug wrote) showed "infeasible" for a feasible problem
    // for good, "optimal" beside a 10% gap, and a gap of 0 under a bound
    // above its schedule.
    void storedClaimsAreChecked()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        QCOMPARE(toString(solveWithCache(p, exact(), cache).status), "optimal");
        const nlohmann::json solved = storedDocument(cache, p);
        const auto rewrite = [&](const std::function<void(nlohmann::json&)>& edit) {
            nlohmann::json doc = solved;
            edit(doc);
            std::ofstream(cache.fileOf(p)) << doc.dump();
        };
        rewrite([](nlohmann::json& d) { d["status"] = "infeasible"; });  // beside a schedule that fits
        QVERIFY(!cache.find(p, exact()).has_value());
        rewrite([](nlohmann::json& d) {
            d["status"] = "infeasible";
            d.erase("schedule");  // the quick heuristic finds one
        });
        QVERIFY(!cache.find(p, exact()).has_value());
        rewrite([](nlohmann::json& d) {
            d["best_bound_j"] = 4.05;  // optimal within 1e-9, says the file
        });
        {
            // What a solve as long found, not proven: its own gap, 10%.
            const auto hit = cache.find(p, exact());
            QVERIFY(hit.has_value());
            QCOMPARE(toString(hit->status), "feasible");
            QVERIFY(std::abs(hit->gap - 0.1) < 1e-9);
            SolverOptions longer = exact();
            longer.time_limit_s = 30;
            QVERIFY(!cache.find(p, longer).has_value());
            QVERIFY(cache.storedSchedule(p).has_value());
        }
        rewrite([](nlohmann::json& d) { d["best_bound_j"] = 5.0; });  // above the 4.5 J schedule
        QVERIFY(!cache.find(p, SolverOptions{.relative_gap = 0.5}).has_value());
        QVERIFY(cache.storedSchedule(p).has_value());
        // Nor does a solve stored over it take that bound (it would read as a gap of 0).
        SolveResult shortOfIt = solve(p, exact());
        shortOfIt.status = SolveStatus::Feasible;
        shortOfIt.best_bound_j = 4.0;
        cache.store(p, exact(), shortOfIt);
        {
            const nlohmann::json merged = storedDocument(cache, p);
            QCOMPARE(merged.at("best_bound_j").get<double>(), 4.0);
            QCOMPARE(merged.at("status").get<std::string>(), std::string("feasible"));
        }
        // Solved again (given longer than that feasible answer had), and stored right.
        SolverOptions longer = exact();
        longer.time_limit_s = 30;
        const SolveResult again = solveWithCache(p, longer, cache);
        QVERIFY(again.status == SolveStatus::Optimal && again.source != SolutionSource::Cached);
        const auto hit = cache.find(p, exact());
        QVERIFY(hit.has_value() && hit->status == SolveStatus::Optimal);
    }

    // A FIFO where an entry would be blocked the open for good, past the
    // time limit and Ctrl-C: it is not a file, and not read.
    void onlyRegularFilesAreRead()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        QCOMPARE(::mkfifo(cache.fileOf(p).c_str(), 0600), 0);
        Problem looser = p;
        looser.ram_budget_bytes = 10;  // the same graph: the FIFO's name makes it a neighbour
        QVERIFY(!cache.find(p, exact()).has_value());
        QVERIFY(cache.neighbourSchedules(looser).empty());
        QCOMPARE(toString(solveWithCache(looser, exact(), cache).status), "optimal");
    }

    void keyedByContentsNotNames()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        solveWithCache(p, exact(), cache);
        Problem renamed = p;
        renamed.model = "another name";
        QVERIFY(cache.find(renamed, exact()).has_value());
        Problem costlier = problemOf(longSkipGraph(0.7, 0.8), 9, 2.0, true, true);
        QVERIFY(!cache.find(costlier, exact()).has_value());
        Problem larger = p;
        larger.ram_budget_bytes = 10;
        QVERIFY(!cache.find(larger, exact()).has_value());
        Problem noPaging = p;
        noPaging.options.paging = false;
        QVERIFY(!cache.find(noPaging, exact()).has_value());
    }

    // Budgets of the same effective budget (effective_budget.h) are one
    // problem: longSkipGraph with every value 4 B holds 12 B at 12 to 15 B.
    void sameEffectiveBudgetIsOneProblem()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Graph g(test::unitCostNodes({"X", "Y", "Z", "W"}, {4, 4, 4, 4}, 0.2, 0.3),
                      {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
        const SolveResult first = solveWithCache(problemOf(g, 12, 2.0, true, true), exact(), cache);
        QCOMPARE(toString(first.status), "optimal");
        const auto hit = cache.find(problemOf(g, 15, 2.0, true, true), exact());
        QVERIFY(hit.has_value());
        QCOMPARE(hit->replay.total_energy_j, first.replay.total_energy_j);
        QVERIFY(!cache.find(problemOf(g, 16, 2.0, true, true), exact()).has_value());
    }

    void infeasibleIsRemembered()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 1.0, false, true);
        QCOMPARE(toString(solveWithCache(p, exact(), cache).status), "infeasible");
        const auto hit = cache.find(p, exact());
        QVERIFY(hit.has_value());
        QCOMPARE(toString(hit->status), "infeasible");
        QVERIFY(!hit->schedule.has_value());
        // With the budget that works (12 B, tst_solver's infeasible()), which
        // the explorer offers.
        QCOMPARE(hit->ram_budget_that_works_bytes, std::int64_t(12));
        // Where it came from is said: a wrong one kept there can be found.
        QVERIFY2(hit->message.find("stored in the solve cache (" + cache.fileOf(p).string() + ")") != std::string::npos,
                 hit->message.c_str());
    }

    void damagedFileIsIgnoredAndReplaced()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        solveWithCache(p, exact(), cache);
        // Truncated JSON, then valid JSON with a schedule the replay rejects.
        { std::ofstream(cache.fileOf(p)) << "{\"cache\": {\"format\""; }
        QVERIFY(!cache.find(p, exact()).has_value());
        const SolveResult resolved = solveWithCache(p, exact(), cache);
        QCOMPARE(toString(resolved.status), "optimal");
        QVERIFY(cache.find(p, exact()).has_value());

        nlohmann::json doc = storedDocument(cache, p);
        doc["schedule"]["M_in"][1] = {0};  // a page-in at stage 1: X is not on flash yet
        { std::ofstream(cache.fileOf(p)) << doc.dump(); }
        QVERIFY(!cache.storedSchedule(p).has_value());
        QVERIFY(!cache.find(p, exact()).has_value());
    }

    void timeLimitedAnswersNeedAsMuchTime()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem p = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        SolveResult feasible;
        feasible.status = SolveStatus::Feasible;
        feasible.source = SolutionSource::Heuristic;
        feasible.schedule = plainSchedule(p.graph);
        // The plain pass needs 12 B: not valid at 9 B, so never stored.
        feasible.replay = replaySchedule(p.graph, *feasible.schedule, limitsOf(p));
        QVERIFY(!feasible.replay.valid);
        SolverOptions brief = exact();
        brief.time_limit_s = 1;
        cache.store(p, brief, feasible);
        QVERIFY(!std::filesystem::exists(cache.fileOf(p)));

        Problem roomy = p;
        roomy.ram_budget_bytes = 12;
        feasible.replay = replaySchedule(roomy.graph, *feasible.schedule, limitsOf(roomy));
        QVERIFY(feasible.replay.valid);
        cache.store(roomy, brief, feasible);
        QVERIFY(cache.find(roomy, brief).has_value());
        SolverOptions longer = brief;
        longer.time_limit_s = 10;
        QVERIFY(!cache.find(roomy, longer).has_value());
        QVERIFY(cache.storedSchedule(roomy).has_value());  // still a warm start
    }

    void hintsWarmStartTheSolver()
    {
        // The optimum at 9 B is valid at 10 B: handed over as a hint, it is
        // the first schedule even with the fast heuristics off.
        const Problem tight = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        const SolveResult at9 = solve(tight, exact());
        QVERIFY(at9.schedule.has_value());
        Problem looser = tight;
        looser.ram_budget_bytes = 10;
        SolverOptions o = exact();
        o.use_heuristics = false;
        o.hints = {plainSchedule(tight.graph), *at9.schedule};  // the first is over budget: ignored
        std::vector<double> incumbents;
        const SolveResult r = solve(looser, o, [&](const SolveResult& inc) { incumbents.push_back(inc.replay.total_energy_j); });
        QVERIFY(!incumbents.empty());
        QCOMPARE(incumbents.front(), at9.replay.total_energy_j);
        QCOMPARE(toString(r.status), "optimal");
        QVERIFY(r.replay.total_energy_j <= at9.replay.total_energy_j);
    }

    // A stored answer at 9 B is a warm start at every larger budget of the
    // same graph (and only there): solveWithCache at 10 B starts from it.
    void neighboursWarmStartLargerBudgets()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem tight = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        const SolveResult at9 = solveWithCache(tight, exact(), cache);
        QVERIFY(at9.schedule.has_value());
        QCOMPARE(cache.neighbourSchedules(tight).size(), std::size_t{0});  // not its own

        Problem looser = tight;
        looser.ram_budget_bytes = 10;
        const auto neighbours = cache.neighbourSchedules(looser);
        QCOMPARE(neighbours.size(), std::size_t{1});
        QVERIFY(replaySchedule(looser.graph, neighbours.front(), limitsOf(looser)).valid);
        Problem other = problemOf(longSkipGraph(0.2, 0.4), 10, 2.0, true, true);  // another graph
        QVERIFY(cache.neighbourSchedules(other).empty());
        // Paging X (0.5 J) beats recomputing it (1 J) at 9 B: without paging
        // the stored schedule is rejected.
        QCOMPARE_GT(at9.replay.page_ins, 0);
        Problem no_paging = looser;
        no_paging.options.paging = false;
        QVERIFY(cache.neighbourSchedules(no_paging).empty());

        SolverOptions o = exact();
        o.use_heuristics = false;
        std::vector<double> incumbents;
        const SolveResult r =
            solveWithCache(looser, o, cache, [&](const SolveResult& inc) { incumbents.push_back(inc.replay.total_energy_j); });
        QVERIFY(!incumbents.empty());
        QCOMPARE(incumbents.front(), at9.replay.total_energy_j);
        QVERIFY(r.replay.total_energy_j <= at9.replay.total_energy_j);
    }

    // A larger budget never comes back costlier: a time-limited answer
    // stored at 10 B (recomputing X, 5 J) gives way to the 4.5 J schedule
    // (paging X) stored since at 9 B, valid at 10 B too.
    void cachedAnswerTakesACheaperTighterSchedule()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        const Problem tight = problemOf(longSkipGraph(0.2, 0.3), 9, 2.0, true, true);
        Problem looser = tight;
        looser.ram_budget_bytes = 10;
        SolveResult costly = recomputingAnswer(tight, looser);
        QVERIFY(costly.schedule.has_value());
        costly.status = SolveStatus::Feasible;
        QVERIFY(costly.replay.valid);
        QVERIFY(std::abs(costly.replay.total_energy_j - 5.0) < 1e-9);
        costly.best_bound_j = 4.0;
        SolverOptions brief = exact();
        brief.time_limit_s = 1;
        cache.store(looser, brief, costly);
        QCOMPARE(solveWithCache(looser, brief, cache).replay.total_energy_j, costly.replay.total_energy_j);

        const SolveResult at9 = solveWithCache(tight, exact(), cache);
        QVERIFY(std::abs(at9.objective_j - 4.5) < 1e-9);
        const SolveResult again = solveWithCache(looser, brief, cache);
        QCOMPARE(toString(again.source), "cached");
        QCOMPARE(*again.schedule, *at9.schedule);
        QVERIFY(again.replay.valid);
        QCOMPARE(again.objective_j, at9.objective_j);
        QCOMPARE(again.best_bound_j, 4.0);  // the stored answer's own
        QVERIFY(std::abs(again.gap - 0.5 / 4.5) < 1e-9);
    }

    // A stored solve's bound holds at every tighter budget of the same graph
    // (proven_bound.h), and only there: recomputeChainGraph at 8 B costs
    // 5.7 J at every runtime factor (tst_proven_bound), so the 1.5x solve
    // after a 2x one is proven by the 2x bound from the disk at once.
    void storedBoundsCarryToTighterBudgets()
    {
        QTemporaryDir dir;
        const SolveCache cache(dir.path().toStdString());
        auto chain = [](std::int64_t ram, double factor) {
            return problemOf(test::recomputeChainGraph(0.3, 0.4), ram, factor, true, true);
        };
        SolverOptions options;
        options.time_limit_s = 30;
        const SolveResult loose = solveWithCache(chain(8, 2.0), options, cache);
        QCOMPARE(toString(loose.status), "optimal");
        QVERIFY(std::abs(loose.objective_j - 5.7) < 1e-9);
        QCOMPARE(cache.lookup(chain(8, 2.0), options).bound_j, loose.best_bound_j);

        const auto near = cache.neighbours(chain(8, 1.5));
        QVERIFY(near.bound.has_value());
        QCOMPARE(near.bound->bound_j, loose.best_bound_j);
        QCOMPARE(near.bound->runtime_budget_factor, 2.0);
        QVERIFY(!cache.neighbours(chain(8, 2.5)).bound);  // more time than the bound had
        QVERIFY(!cache.neighbours(chain(9, 1.5)).bound);  // more RAM
        Problem no_paging = chain(8, 1.5);
        no_paging.options.paging = false;
        QVERIFY(cache.neighbours(no_paging).bound.has_value());  // less allowed: it holds

        const SolveResult tight = solveWithCache(chain(8, 1.5), options, cache);
        QCOMPARE(toString(tight.status), "optimal");
        QVERIFY(std::abs(tight.objective_j - 5.7) < 1e-9);
        QVERIFY2(tight.message.rfind("the bound proven at 8 B and 2x", 0) == 0, tight.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSolveCache)
#include "tst_solve_cache.moc"
