#pragma once
// Searches that share one time budget, each of which may be cut short and
// then starts over when run again (CBC's tree searches of the strided
// tails, longer_tails.h): which of them ends first cannot be told from the
// bounds they reach when cut short.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace poet {

// Runs searches 0 to count - 1 in turns until each has ended or `left_s()`
// (the time left; 0 once stopped) is spent. `search(k, s)` runs search k
// from its start for at most s seconds and returns the bound it reached
// where it was cut short, nothing where it ended. The first round gives
// each `first_turn_s`, in order; each round after it gives those cut short
// twice the time of the last, the highest bound first, and the last one
// left all the time left. So a search that ends after d seconds of a turn
// ends within about 4 x count x d, where all the time to the highest bound
// may go to one that never ends. After each round `after_round` (if set)
// returns how many searches it adds, numbered on from the last: they come
// first in the next round, in order, with twice its turn (each was added
// for a reason to expect it to end, and one cut short at its turn's end
// starts over; longer_tails.h).
inline void runInDoublingTurns(std::size_t count, double first_turn_s, const std::function<double()>& left_s,
                               const std::function<std::optional<double>(std::size_t, double)>& search,
                               const std::function<std::size_t()>& after_round = {})
{
    std::vector<std::pair<double, std::size_t>> open;  // (bound, search) of those not ended
    for (std::size_t k = 0; k < count; ++k) open.emplace_back(0, k);
    std::size_t added = 0;  // the first `added` of `open`
    for (double turn_s = first_turn_s; !open.empty(); turn_s *= 2) {
        std::vector<std::pair<double, std::size_t>> cut_short;
        for (std::size_t j = 0; j < open.size(); ++j) {
            if (left_s() <= 0) return;
            const double turn_here_s = j < added ? 2 * turn_s : turn_s;
            const double give_s = open.size() == 1 ? left_s() : std::min(turn_here_s, left_s());
            const std::size_t k = open[j].second;
            if (const std::optional<double> reached = search(k, give_s)) cut_short.emplace_back(*reached, k);
        }
        std::stable_sort(cut_short.begin(), cut_short.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        open.clear();
        added = after_round ? after_round() : 0;
        for (; open.size() < added; ++count) open.emplace_back(0, count);
        open.insert(open.end(), cut_short.begin(), cut_short.end());
    }
}

}  // namespace poet
