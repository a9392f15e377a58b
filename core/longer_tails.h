#pragma once
// Bucket bounds (bucket_bound.h) on ever longer tails of the stages, on
// threads of their own beside the rest of a solve (solver.cpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "bound_schedule.h"
#include "bucket_bound.h"
#include "deadline.h"
#include "doubling_turns.h"
#include "incumbent_handler.h"
#include "problem.h"

namespace poet {

// Bucket bounds on longer tails (growBucketBound) on the second core, from
// before the LP relaxation to the end of CBC's search, wherever the
// nine-stage tail ran: CBC's second thread measured no gain there. Each
// tail is cut off at what the gap asks for (the best schedule's energy
// less the gap), which is all it needs to prove: CBC prunes far more then.
// The cutoff falls while a tail runs, as better schedules come in (the
// background plan's, during the LP): at 15% and a 0.5% gap, tail 18 began
// at 1.4 s cut off under the quick 0.630 J, the plan's 0.6209 J came at
// 5 s, and the tail proved 0.5% under that at 13.7 s.
// Each bound goes to the incumbent handler's shared state at once, which
// stops the LP and the search when the incumbent is within the gap of it.
//
// Long tails, one by one from nineteen, at the budgets where only they
// prove the gap (resnet18_cifar on m4 at 14% and 1.5x: tail 19 proves it in
// 10 s, tail 10 is not done in 23 s), and tail 18 alone from the short
// tails' start. Which of the two proves it first varies by budget, by up to
// 30 s. Each cut off at what a 30 s solve's schedule asks, from 18 (then
// 19) and 19, two at once on two cores: 13.5% 18.0 and 4.8 s, 13.55% 33.1
// and 8.1 (tail 18, 0.620757 J, cannot prove the 0.622543 J asked: it is
// solved to its end first), 13.7% 27.6 and 11.1, 14% 14.0 and 9.8, 14.5%
// 10.5 and 11.2, 15% 14.5 and 4.4, 15.5% 9.1 and 12.2, 16% 10.9 and 15.4 s;
// in 30 s solves, 14.6% 10.8 s with tail 18 and not proven with tail 19.
// Short tails, one by one from ten, in the LP's and CBC's place
// (growShortTails): at 17 to 21% only they finish (at 17%: tail 10 exact in
// 3 s, tails 18 and 19 not done in 30 s).
// CBC faults on some tails (fault_guard.h): such a tail ends the growth.
class LongerTails {
public:
    // `best_shown_j` gives the best schedule's energy announced so far (the
    // background plan's come in while the LP runs): the tails' cutoffs
    // follow the lower of it and the shared state's best (CBC's incumbents).
    // `best_shown` gives that schedule itself: where the spare time is
    // scarce, the short tails add the stages where it recomputes most
    // (growBucketBound's `busiest`). There, too, each tail's solution is
    // made a schedule (bound_schedule.h) and handed to `offer`, from the
    // tail's thread.
    LongerTails(const Problem& problem, int peak_stage, double seconds, IncumbentHandler::Shared& shared,
                std::function<double()> best_shown_j, std::function<Schedule()> best_shown,
                std::function<void(const Schedule&)> offer)
        : problem_(problem), peak_stage_(peak_stage), shared_(shared), best_shown_j_(std::move(best_shown_j)),
          best_shown_(std::move(best_shown)), offer_(std::move(offer))
    {
        ++searching_;
        thread_ = std::thread([this, seconds] {
            grow(kLongTail, seconds, &long_stop_);
            --searching_;
        });
        // A cancel stops the long tails and tail 18 at once: they used to
        // run on until the plan had stopped too, three searches on two
        // cores, and the plan's root then took twice as long to end (bert on
        // m4 at 11% and 1.5x, cancelled 4 to 6 s in: returned 2.7 to 3.4 s
        // after the cancel). A schedule shown within the gap of the best
        // bound (the background plan's, say) ends the search: a tail ends
        // it only where its own bound proves the gap, and bert on m4 at 12%
        // and 1.002x had the plan's schedule within the gap of the
        // stage-peak bound at 63 s, and ran on to 77 s (now ends at 63 s;
        // at 14.2% 49 s, was 79 s).
        watch_ = std::thread([this] {
            for (; !stop_; std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
                if (shared_.cancel && shared_.cancel->load()) long_stop_ = other_stop_ = true;
                if (shownWithinGap()) provenElsewhere();
                // The grace is over: the drop asked for within it, now.
                if (Clock::now() >= grace_end_ && drop_pending_.exchange(false))
                    dropLongTailsUnlessOneIsDone();
            }
        });
    }
    LongerTails(const LongerTails&) = delete;
    LongerTails& operator=(const LongerTails&) = delete;
    ~LongerTails() { stop(); }

    // The short tails on the calling thread, beside the long ones, until
    // `seconds` pass, a tail proves the gap or `cancel` is set; tail 18 alone
    // on a third thread from now until the long tails stop (a proof,
    // dropLongTailsUnlessOneIsDone, the rows below or stop()), or where the
    // spare time is short (spareTimeIsShort) until a proof or stop() only:
    // resnet18_cifar on m4 at 16% and 1.03x it alone proves the gap, at 17.5
    // to 20 s, and was stopped at the plan's stall (3 to 6 s in: 1.05% short
    // at 30 s). At 13.5 to 16% it or tail 19 proves the gap, often after the
    // short tails' end; at 19 to 21%, where no long tail is done in 30 s, the
    // long tails stop at the plan's stall and the window search has their
    // core. It used to stop at the short tails' end (when at 20% the window
    // search wanted its core: 0.589549 J, 0.98%, at 30 s with it running on;
    // 0.588338 J, 0.78%, without); resnet18_cifar at 16% (1.2, 1.5 and 2x, 30
    // s, two runs each) was proven in 23.8 to 26.4 s then, 18.2 to 20.3 s now.
    // The short tails add the recompute-moment rows (bucket_bound.h) where a
    // tail's optimum breaks them. Those are the budgets where an add is
    // recomputed in layer1's backward (17 and 18%; at 13.5 to 16% layer1's
    // values are paged, and none breaks but at 16% and 1.03x), where no long
    // tail proves anything (without the rows, tail 18 stays under tail 11 with
    // them at 1.5x), and only the short tails, solved again, may: the long
    // tails stop then (tail 18 too, but where it runs to the end),
    // `on_moments` is called (from this thread), and the short tails run on
    // until `all_seconds` pass; `on_run_on` is called (from a watching thread)
    // when `seconds` pass then. resnet18_cifar on m4 at 17% and 1.5x: tail 11
    // with the rows, 25 s of a core alone, was not done in a 60 s solve with
    // the long tails and the plan beside it. Where `run_on_without_rows`
    // (asked once, when `seconds` pass) says so, they run on until
    // `all_seconds` pass without the rows too (`on_run_on` is called only
    // where the rows break). Up to kStridedFactor, tail 18's thread first
    // solves the strided tails (solveStrided).
    void growShortTails(double seconds, double all_seconds, const std::atomic<bool>* cancel,
                        const std::function<void()>& on_moments, const std::function<void()>& on_run_on,
                        const std::function<bool()>& run_on_without_rows)
    {
        std::atomic<bool> moments_broken{false};
        const auto short_end = secondsAfter(Clock::now(), seconds);
        bool ran_on = false;               // the watcher's own
        std::optional<bool> without_rows;  // the watcher's own: run_on_without_rows's answer
        ++searching_;
        other_ = std::thread([this, all_seconds] {
            const auto end = secondsAfter(Clock::now(), all_seconds);
            if (spareTimeIsScarce(problem_) && problem_.runtime_budget_factor <= kStridedFactor)
                solveStrided(all_seconds, &other_stop_);
            solveOne(kOtherLongTail, std::chrono::duration<double>(end - Clock::now()).count(), &other_stop_);
            --searching_;
        });
        runUntil(
            [&] {
                if (proved() || (cancel && cancel->load())) return true;
                if (Clock::now() < short_end) return false;
                if (!without_rows) without_rows = run_on_without_rows();
                if (!moments_broken) return !*without_rows;
                if (!std::exchange(ran_on, true) && on_run_on) on_run_on();
                return false;
            },
            [&](const std::atomic<bool>* stop) {
                const bool scarce = spareTimeIsScarce(problem_);
                grow(scarce ? kScarceShortTail : kShortTail, std::max(seconds, all_seconds), stop,
                     {true,
                      [&] {
                          moments_broken = true;
                          stopLongTails();
                          if (on_moments) on_moments();
                      }},
                     kLookBack, scarce ? best_shown_ : std::function<Schedule()>{});
            });
    }

    // Whether a tail proved the gap (or the search was ended: stop(),
    // provenElsewhere()).
    bool proved() const { return stop_; }

    // Whether the long tails or tail 18 still run. Where none does after
    // the short tails and none proved the gap, no tail raises the bound
    // any more (a graph of a few stages: the long tails cover all of it).
    bool searching() const { return searching_ > 0; }

    // Ends the search at once, without waiting for it (stop() still
    // joins): the window search beside the short tails proved the gap.
    void provenElsewhere() { stop_ = long_stop_ = other_stop_ = true; }

    // Stops the long tails (and tail 18, but where it runs to the end) where
    // none is done by now, and says whether the second core is free then. The
    // caller calls it only where the gap is small enough for the window search
    // to close it (at the plan's stall or the short tails' end). At
    // resnet18_cifar on m4 and 1.5x, tail 18 or 19 proves the gap at 13.5 to
    // 16%, in 11 to 29 s, often after this point; at 17 to 21% neither is done
    // in 30 s. The price (measured before tail 18 ran beside the short tails):
    // 17 and 18%, where the gap is 1.27% then, lose their gain from the second
    // window thread (1.26%, not 1.03%, at 30 s; neither is proven).
    // Where the spare time is short, not before the long tails have had
    // kLongTailGraceS: the watcher stops them then, where none is done.
    bool dropLongTailsUnlessOneIsDone()
    {
        std::lock_guard lock(shared_.mutex);
        if (longest_done_ >= kOtherLongTail) return long_stop_ && other_stop_;
        if (spareTimeIsShort(problem_) && Clock::now() < grace_end_)
            drop_pending_ = true;
        else
            stopLongTails();
        return long_stop_ && other_stop_;
    }

    // Ends the search and waits for it.
    void stop()
    {
        stop_ = true;
        long_stop_ = other_stop_ = true;
        if (watch_.joinable()) watch_.join();
        if (thread_.joinable()) thread_.join();
        if (other_.joinable()) other_.join();
    }
    // The best bound so far (0 if none), its tail (of which every
    // stride()-th stage) and the stages added before it; call with the
    // shared state's mutex held, or after stop().
    double boundJ() const { return bound_j_; }
    int tail() const { return tail_; }
    int stride() const { return stride_; }
    const std::vector<int>& addedStages() const { return added_stages_; }

private:
    static constexpr int kLongTail = 19, kOtherLongTail = 18, kShortTail = 10;
    // Up to kStridedFactor, tail 18's thread first solves every kStride-th of
    // the last kLongTail stages (stridedTailStages), from each offset, with
    // all its time (session 74: three quarters; tail 18 is seldom done in 30 s
    // there, at 1.001x never), and the strided tails prove resnet18_cifar on
    // m4 at 17 and 25% and 1.002x (were 0.77 and 0.81% short at 30 s) and
    // raise the bound at 14 and 18% and 1.001x (gaps 1.04 and 0.92% to 0.56 to
    // 0.72 and 0.57%). At 1.005x tail 18 needs that time: 16% was proven in
    // 11.8 s, with the strided tails first 0.95% short. (On the long tails'
    // thread they were stopped at the plan's stall, 6 to 12 s in, before the
    // offset that proves the gap had its turn.)
    static constexpr int kStride = 3;
    static constexpr double kStridedFactor = 1.002;
    // Where the spare time is scarce, the short tails come with the stages
    // where the best schedule recomputes most (growBucketBound's `busiest`),
    // from eight stages: resnet18_cifar on m4 at 20% and 1.002x, the last
    // eight with stages 100 and 110 prove what a 0.5% gap asks in 3.5 s
    // alone (with 90 and 110, 1.8 s), the last ten with them in 6.4 s
    // (alone, the last ten are not done in 28 s), and in a 30 s solve only
    // the eight were done within the short tails' share. The price: at 17
    // and 18% and 1.003x, where the last ten alone proved the gap in 3.5 to
    // 4.5 s, the last eight and nine come first (proven in 11.9 and 13.4 s).
    static constexpr int kScarceShortTail = 8;
    // Each short tail solved exactly is tried again with the over-budget
    // stage this many before it (growBucketBound): resnet18_cifar on m4 at
    // 19 and 20% and 1.5x, the short tails up to 13 stages cannot prove the
    // gap, and the last ten with stage 115 do in seconds.
    static constexpr int kLookBack = 4;
    // The most a tail's schedule may take to page (resnet18_cifar: 0.01 s).
    static constexpr double kScheduleFromBoundS = 1;
    // Where the spare time is short, the long tails run this long at least
    // (dropLongTailsUnlessOneIsDone): the plan's stall often comes as they
    // begin. resnet18_cifar on m4 at 13.5% and 1.003 and 1.004x, 30 s: tail
    // 19 proves the gap in 0.84 s alone, and was stopped ~1 s after it began
    // (0.753 to 0.762% short in 9 runs of 9; tail 18, which ran on, starts
    // a stage later and reaches 0.628832 J of the 0.630522 J asked); with
    // 3 s proven in 2 runs of 4, with 5 s in 7.8 and 9.1 s. The price, where
    // no long tail is done: 20% at 1.002x and 18 and 22% at 1.005x proven
    // 0.3 to 2.6 s later; at 1.5x, where none is done in 30 s, as before.
    static constexpr double kLongTailGraceS = 5;

    void grow(int first_tail, double seconds, const std::atomic<bool>* stop, const RecomputeMoments& moments = {},
              int look_back = 0, const std::function<Schedule()>& busiest = {})
    {
        growBucketBound(
            problem_, peak_stage_, first_tail, seconds, stop,
            [this](const BucketBound& bound, int tail) {
                offerScheduleFrom(bound);
                found(bound, tail);
            },
            [this] { return enoughJ(); }, moments, look_back, busiest);
    }
    // Where the spare time is scarce, the schedule a tail's solution makes.
    void offerScheduleFrom(const BucketBound& bound)
    {
        if (!offer_ || !spareTimeIsScarce(problem_)) return;
        const auto deadline = secondsAfter(Clock::now(), kScheduleFromBoundS);
        if (auto schedule = scheduleFromBound(problem_, bound.recomputations, deadline, shared_.cancel))
            offer_(*schedule);
    }
    // Where the spare time is short, tail 18 runs on to a proof or stop().
    void stopLongTails()
    {
        long_stop_ = true;
        if (!spareTimeIsShort(problem_)) other_stop_ = true;
    }
    // Every offset's strided tail for a sixth of `seconds`, then those not
    // solved exactly in rounds that give each twice the time of the last, the
    // highest bound first, the last one left all the time left
    // (runInDoublingTurns): which offset proves most varies by budget, and the
    // others are solved at once or stall. resnet18_cifar on m4 at 1.002x,
    // alone: at 25% offsets 0 and 1 are solved in 0.2 s, 2 proves the gap in
    // 1.6 s; at 17% 0 and 1 are not done in 5 s, 2 proves it in 4.8 s (in a
    // solve, it leads at 4.2 s, 0.614813 J against 0.612142 J). Not all that
    // is left to the highest bound at once: at 17% and 1.001x offset 2 proves
    // the gap in 2.4 to 5 s, and its first turn was 2.5 s; where that was cut
    // short (at 0.689935 J, against offset 1's 0.690944 J), offset 1 had the
    // rest and never ended (0.89% short at 30 s).
    // After each round, the strided tail solved there at the highest bound
    // (the quickest among equals), where that is short of what the gap asks
    // by less than the gap, comes again with the busiest recomputing stages
    // before it (busiestStagesBefore), first in the next round, with twice
    // that round's turn. At 18% and 1.002x offsets 1 and 2 are solved at
    // 0.614145 J (in 2.2 to 3.0 and 1.3 to 1.7 s), 0.27% under the 0.615795
    // J asked, and offset 2 with stages 90 and 110 proves it in 6.4 to 7.6 s
    // (was 0.76% short at 30 s); offset 1 with them was not done in 9.1 s.
    // In a solve, beside the other tails and the plan, that took 7.4 to 8.5
    // s of an 8.8 s turn (6 runs), and in a busier half hour 10.6 to 12.5 s:
    // cut short at its turn's end, it lost the next turn to offset 0 and the
    // solve ended 0.76% short at 30 s (14 runs of 14); with twice the turn
    // (doubling_turns.h), in that half hour, proven in 25.1 to 29.5 s, 7
    // runs of 9 (2026-12-02). Not where further short: at 17% (offset 1
    // solved 0.66% short), 14 and 16% (1.3 to 1.7%) such sets were
    // not done in 7.7 s or did not prove the gap, and at 17% one took the
    // turn that offset 2 proves the gap in (proven at 29.6 s, not 25 s).
    void solveStrided(double seconds, const std::atomic<bool>* stop)
    {
        const auto end = secondsAfter(Clock::now(), seconds);
        std::vector<std::vector<int>> sets, added;  // added[k]: the busiest stages in sets[k]
        for (int offset = 0; offset < kStride; ++offset) {
            std::vector<int> stages = stridedTailStages(problem_, peak_stage_, kLongTail, kStride, offset);
            if (std::find(sets.begin(), sets.end(), stages) != sets.end()) continue;
            sets.push_back(std::move(stages));
            added.emplace_back();
        }
        struct Solved {
            std::size_t set;
            double bound_j, seconds;
        };
        std::optional<Solved> best;  // in this round, of the strided tails
        runInDoublingTurns(
            sets.size(), seconds / 6,
            [&] { return *stop ? 0 : std::chrono::duration<double>(end - Clock::now()).count(); },
            [&](std::size_t k, double turn_s) -> std::optional<double> {
                const auto start = Clock::now();
                const BucketBound bound = solveOn(sets[k], kLongTail, kStride, turn_s, stop, added[k]);
                const double took_s = std::chrono::duration<double>(Clock::now() - start).count();
                if (bound.infeasible) return std::nullopt;
                if (!bound.complete) return bound.bound_j;
                if (added[k].empty() && (!best || bound.bound_j > best->bound_j * (1 + 1e-9) ||
                                         (bound.bound_j >= best->bound_j * (1 - 1e-9) && took_s < best->seconds)))
                    best = Solved{k, bound.bound_j, took_s};
                return std::nullopt;
            },
            [&]() -> std::size_t {
                const std::optional<Solved> solved = std::exchange(best, std::nullopt);
                const double enough_j = enoughJ();
                if (!solved || solved->bound_j >= enough_j || solved->bound_j < enough_j * (1 - gapAsked()))
                    return 0;
                std::vector<int> busiest = busiestStagesBefore(sets[solved->set]);
                if (busiest.empty()) return 0;
                std::vector<int> stages = sets[solved->set];
                stages.insert(stages.end(), busiest.begin(), busiest.end());
                std::sort(stages.begin(), stages.end());
                sets.push_back(std::move(stages));
                added.push_back(std::move(busiest));
                return 1;
            });
    }
    // The busiest recomputing stages (busiestRecomputingStages) of the best
    // schedule shown, before `stages`' first (the stage-peak stage aside).
    std::vector<int> busiestStagesBefore(const std::vector<int>& stages) const
    {
        if (!best_shown_) return {};
        return busiestRecomputingStagesBefore(problem_, best_shown_(), peak_stage_, stages, kBusiestStages);
    }
    // The relative gap the solve asks for.
    double gapAsked() const
    {
        std::lock_guard lock(shared_.mutex);
        return shared_.relative_gap;
    }
    void solveOne(int tail, double seconds, const std::atomic<bool>* stop)
    {
        solveOn(bucketBoundStages(problem_, peak_stage_, tail), tail, 1, seconds, stop);
    }
    // The bucket bound on `stages` (every `stride`-th of the last `tail`),
    // cut off at what the gap asks; its schedule offered, its bound found.
    BucketBound solveOn(const std::vector<int>& stages, int tail, int stride, double seconds,
                        const std::atomic<bool>* stop, const std::vector<int>& added = {})
    {
        BucketBound bound = bucketBound(problem_, stages, seconds, stop, [this] { return enoughJ(); });
        bound.added_stages = added;
        offerScheduleFrom(bound);
        found(bound, tail, stride);
        return bound;
    }
    // What a tail must prove. Kept in the shared state too: found() and
    // CBC's handler judge the gap by its best_j.
    double enoughJ()
    {
        const double shown_j = best_shown_j_();
        std::lock_guard lock(shared_.mutex);
        shared_.best_j = std::min(shared_.best_j, shown_j);
        return gapAsksJ(shared_.best_j, shared_.relative_gap);
    }
    // Whether the best schedule shown is within the gap of the best bound.
    bool shownWithinGap()
    {
        const double shown_j = best_shown_j_();  // infinite where none is shown: so is the gap
        std::lock_guard lock(shared_.mutex);
        return withinGap(shown_j, shared_.known_bound_j, shared_.relative_gap);
    }
    void found(const BucketBound& bound, int tail, int stride = 1)
    {
        std::lock_guard lock(shared_.mutex);
        if (bound.complete && !bound.infeasible && stride == 1) longest_done_ = std::max(longest_done_, tail);
        // Not above the incumbent: that would be a fault, never a proof.
        if (bound.infeasible || bound.bound_j <= bound_j_ || bound.bound_j > shared_.best_j * (1 + 1e-9)) return;
        bound_j_ = bound.bound_j;
        tail_ = tail;
        stride_ = stride;
        added_stages_ = bound.added_stages;
        shared_.known_bound_j = std::max(shared_.known_bound_j, bound.bound_j);
        // With no schedule yet (the LP runs beside) the gap is infinite: nothing is proven.
        if (withinGap(shared_.best_j, shared_.known_bound_j, shared_.relative_gap)) {
            shared_.known_bound_proves_gap = true;
            stop_ = true;  // nothing more to prove
            long_stop_ = other_stop_ = true;
        }
    }

    const Problem& problem_;
    const int peak_stage_;
    IncumbentHandler::Shared& shared_;
    const std::function<double()> best_shown_j_;
    const std::function<Schedule()> best_shown_;
    const std::function<void(const Schedule&)> offer_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> long_stop_{false};  // set with stop_, or alone (dropLongTailsUnlessOneIsDone)
    std::atomic<bool> other_stop_{false};  // tail 18's: set with long_stop_, but where it runs to the end
    std::atomic<int> searching_{0};        // the threads of thread_ and other_ not yet ended
    const Clock::time_point grace_end_ = secondsAfter(Clock::now(), kLongTailGraceS);  // the long tails'
    std::atomic<bool> drop_pending_{false};  // dropLongTailsUnlessOneIsDone came within the grace
    double bound_j_ = 0;
    int tail_ = 0, stride_ = 1;
    std::vector<int> added_stages_;  // the best bound's stages before its tail
    int longest_done_ = 0;  // the longest tail solved exactly
    std::thread thread_;  // the long tails
    std::thread other_;   // tail 18 (growShortTails)
    std::thread watch_;  // for a cancel, and a schedule shown within the gap
};

}  // namespace poet
