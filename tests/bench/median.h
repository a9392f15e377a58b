#pragma once
// The median the benchmarks report: of an even count, the mean of the two
// middle figures; -1 for none.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace poet {

inline double median(std::vector<double> v)
{
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace poet
