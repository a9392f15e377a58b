#include "schedule.h"

#include "graph.h"
#include "row_words.h"

namespace poet {

int BoolMatrix::count() const
{
    // Eight entries at a time (a replay counts R each time): the bytes of a
    // word of 0/1 entries sum into its top byte when multiplied so.
    int ones = 0;
    std::size_t i = 0;
    for (; i + 8 <= v_.size(); i += 8) ones += static_cast<int>((eightEntries(&v_[i]) * allEntries(true)) >> 56);
    for (; i < v_.size(); ++i) ones += v_[i];
    return ones;
}

Schedule plainSchedule(const Graph& g)
{
    const int n = g.size();
    Schedule s(n);
    for (int t = 0; t < n; ++t) {
        s.R.set(t, t);
        // Keep i into stage t while some node at stage >= t still reads it.
        for (int i = 0; i < t; ++i) {
            const auto& succ = g.successors(i);
            if (!succ.empty() && succ.back() >= t) s.S_RAM.set(t, i);
        }
    }
    return s;
}

}  // namespace poet
