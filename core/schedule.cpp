#include "schedule.h"

#include <algorithm>

#include "graph.h"

namespace poet {

int BoolMatrix::count() const
{
    return static_cast<int>(std::count(v_.begin(), v_.end(), 1));
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
