#pragma once
// A large-neighbourhood search on a valid schedule: formulation.md's MILP
// re-solved exactly on a few consecutive stages with the rest of the
// schedule fixed. It finds what the local rules (schedule_improvement.h) and
// the paging plan cannot: resnet18_cifar on m4 at 13% and 1.5x, the best
// schedule (0.739648 J) pages layer1.1.relu3 in for the first backward
// stage of layer1.1 and brings two more values in to recompute the add;
// re-solving stages 109..111 pages layer1.1.relu2 and conv3 in one stage
// sooner and recomputes bn3, the add and relu3 from them, so relu3 is never
// paged out: 0.729963 J, 1.3% less (0.02% above the carried bound).
//
// In each window t0..t1 every variable of those stages is free (R, S_RAM,
// M_in, M_out, S_SD, FREE, U); outside it R, S_RAM, M_in, FREE and U keep
// the schedule's values. Page-outs may move: a value in RAM at some stage
// before t0 is paged out there or not at all (a page-out costs the same at
// any stage and the copy on flash stays valid, so the earliest is never
// worse): one column stands for that page-out and for its copy on flash at
// every later stage. So the window can drop a page-out that no page-in
// needs any more, or add one for a value it now pages in.
#include <atomic>
#include <functional>
#include <utility>
#include <vector>

#include "deadline.h"
#include "problem.h"
#include "schedule.h"

namespace poet {

// The windows (first and last stage) where a page-out may be dropped, by
// recomputing the value instead: for each value of `s` paged out once,
// paged in at stages at most two apart and read from inputs that are
// never paged out, those of 4 to 6 stages from its first page-in. The
// latest first, and of those the narrowest (window_search.cpp says why).
std::vector<std::pair<int, int>> pageOutWindows(const Graph& g, const Schedule& s);

// A few values whose MILP (window_search.cpp) frees every column of theirs
// at every stage, and the RAM's columns (FREE, U) of stages lo..hi; the
// rest of the schedule stays.
struct ValueSet {
    std::vector<int> values;  // ascending
    int lo = 0, hi = 0;
    bool operator==(const ValueSet&) const = default;
};

// Where the spare time is scarce, a schedule may page one value and
// recompute another where the reverse costs less, and the two sit in
// stages too far apart for any window: resnet18_cifar on m4 at 13% and
// 1.002x, the schedule of 0.755516 J pages layer1.1.bn3 out at stage 21
// (back at 106 and 111) and recomputes layer2.0.bn1 at 107; with
// layer1.1.conv3 paged in at 106 to recompute bn3 from, and bn1
// recomputed at 108 too, it is 0.745972 J (1.3% less, 0.03% above the
// carried bound), and windows of 11 stages were not solved in 60 s. The
// MILP of those three values over stages 98..115 finds it in 0.5 s.
// So: for each value paged out and each value recomputed at most
// kSwapDistance apart in graph order, the two and the paged one's inputs;
// lo kSetLookBack stages before the first return (or last read) of any of
// them, hi two after the last read of any. Nearest pairs first.
std::vector<ValueSet> swapValueSets(const Graph& g, const Schedule& s);
inline constexpr int kSwapDistance = 8, kSetLookBack = 8;
inline constexpr double kValueSetCapS = 1, kValueSetsS = 10;

// A time trade: a swap set's MILP with kTradeRuntimeShare times the spare
// runtime more than the problem has, its optimum then brought back within
// the runtime budget by relieveRuntime (schedule_improvement.h: drops the
// recomputations that cost least per second, each compute plan paged
// exactly), kept where that costs less than the schedule. Where the spare
// time is scarce a schedule may save energy in one place with time that
// only paging far away can free, and no window or set holds both:
// resnet18_cifar on m4 at 17% and 1.001x, from a schedule of 0.700261 J,
// the set of the input, conv1 and bn1 with more runtime gives 0.690688 J,
// 5.2 ms over the budget, and the relief makes it 0.697959 J (0.33% less,
// in 0.5 s): layer1.0.bn1 recomputed at stage 127 from conv1 paged in a
// stage sooner, not paged in itself, and that time freed by paging
// layer2.1.conv3 and layer3.0.bn1 in for stages 89 and 86 instead of
// recomputing layer2.1.bn2 at 90 and layer3.1.bn2 at 74. Two
// neighbourhoods of 5 and 8 values over such stages, solved as one MILP,
// found nothing in 60 s.
inline constexpr double kTradeRuntimeShare = 1;

// Windows of kTradeWidth stages as time trades alone, once, after the swap
// sets, from the first backward stage on in stage order, none started after
// kTradeWindowsS or half the time left. resnet18_cifar on m4 at 14% and
// 1.001x, from a 30 s solve's schedule (0.712439 J, 0.56 to 0.80% above
// those solves' bounds): window 87's trade (0.712432 J), then window 110's
// (its optimum with the spare runtime doubled, 0.702859 J, relieved):
// 0.710050 J, 2.8 s into the pass and 19 s into improveByWindows; without
// the pass 0.712432 J after 60 s. In the solve it was then proven within
// 0.5% in 6 runs of 6 (at 24 to 30 s), and 17% (whose trade is a set's) was
// as before. The order matters (the relief's greedy drops depend on the
// schedule it starts from): from the last window back, window 127 gives
// 0.712432 J and window 110 nothing after it; windows of every pass as
// trades, by the energy spent in them, missed it too (session 73).
// Recomputations are in the backward stages: from stage 1 the pass took 4.6
// s to reach window 110.
inline constexpr int kTradeWidth = 3;
inline constexpr double kTradeWindowsS = 10;

// Which passes improveByWindows makes: all (below), or the swap sets'
// alone (where the spare time is scarce; else none), up to its deadline
// rather than in their own time box.
enum class WindowPasses { All, SwapSetsOnly };

// Those windows first, once, each cut short after 2 s, none started after
// 8 s or half the time to `deadline`. Where the spare time is scarce
// (spareTimeIsScarce), then the swap sets (swapValueSets), each a time
// trade first (where that finds nothing, the set's own MILP), each MILP and
// relief cut short after kValueSetCapS, none started after kValueSetsS or a
// quarter of the time left, made anew after each pass that found a better
// schedule; then the trade windows (kTradeWidth), each cut short like a
// set. Then windows of three stages, by the energy the schedule spends in
// them (page-ins and recomputations), largest first; each solve is cut
// short after a quarter of a second at first, and the windows not solved
// exactly get twice as long on each pass that changes nothing, up to 2 s;
// then windows one stage longer. A better schedule starts the passes at
// that width over, on the windows that meet or touch a stage where it
// changed (the others' MILPs differ at most in paging far away). (bert at
// 10% and 1.5x: a three-stage window needs ~1 s to save 0.2%;
// resnet18_cifar at 17%, given 120 s after a 30 s solve, a five-stage one
// saves 0.24%.) Each better schedule (replayed under the problem's limits)
// goes to `improved` at once (from one thread at a time, each better than
// the last). Ends at `deadline` or on `cancel`, returning the best schedule
// (`s` itself when nothing helps); `s` must be valid. With `threads` (read
// at the start of each pass: a caller may free a core mid-search; none
// means one), that many windows of a pass are solved at once.
Schedule improveByWindows(const Problem& problem, const Schedule& s, Clock::time_point deadline,
                          const std::atomic<bool>* cancel = nullptr,
                          const std::function<void(const Schedule&)>& improved = {},
                          const std::atomic<int>* threads = nullptr, WindowPasses passes = WindowPasses::All);

}  // namespace poet
