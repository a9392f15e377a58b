#include "effective_budget.h"

#include <bit>
#include <map>
#include <numeric>
#include <vector>

namespace poet {

namespace {

// Bits 0..units of the sums reached so far (in units of the divisor).
class Sums {
public:
    explicit Sums(std::int64_t units) : words_(static_cast<std::size_t>(units / 64 + 1), 0) { words_[0] = 1; }

    // Every sum reached so far, and each plus `shift` (below the top).
    void addShifted(std::int64_t shift)
    {
        const std::int64_t whole = shift / 64;
        const int part = static_cast<int>(shift % 64);
        for (std::int64_t w = static_cast<std::int64_t>(words_.size()) - 1; w >= whole; --w) {
            std::uint64_t moved = words_[w - whole] << part;
            if (part > 0 && w - whole - 1 >= 0) moved |= words_[w - whole - 1] >> (64 - part);
            words_[w] |= moved;
        }
    }

    // The largest sum reached, not above `units`.
    std::int64_t largestUpTo(std::int64_t units) const
    {
        for (std::int64_t u = units; u >= 0; --u) {
            const std::uint64_t word = words_[u / 64] & (~0ULL >> (63 - u % 64));
            if (word) return (u / 64) * 64 + (63 - std::countl_zero(word));
            u -= u % 64;  // the rest of this word is done
        }
        return 0;
    }

private:
    std::vector<std::uint64_t> words_;
};

}  // namespace

std::int64_t effectiveRamBudget(const Graph& g, std::int64_t budget)
{
    if (budget <= 0) return budget;
    std::map<std::int64_t, std::int64_t> copies;  // size -> how many times it may count
    std::int64_t divisor = 0, all = 0;
    for (const Node& n : g.nodes()) {
        if (n.memory_bytes <= 0) continue;
        copies[n.memory_bytes] += 2;
        divisor = std::gcd(divisor, n.memory_bytes);
        all += 2 * n.memory_bytes;
    }
    if (budget >= all) return all;  // every node twice: no schedule holds more
    const std::int64_t units = budget / divisor;
    // 4M units: a bitset of 512 KB, shifted a few dozen times (bert: 5 sizes).
    constexpr std::int64_t kMostUnits = std::int64_t{1} << 22;
    if (units > kMostUnits) return units * divisor;
    Sums sums(units);
    for (const auto& [size, count] : copies) {
        // count copies of one size as shifts by 1, 2, 4, ... copies and the
        // rest: every number of copies up to count is a sum of those.
        std::int64_t left = count;
        for (std::int64_t take = 1; left > 0; take *= 2) {
            const std::int64_t k = std::min(take, left);
            if (k * (size / divisor) <= units) sums.addShifted(k * (size / divisor));
            left -= k;
        }
    }
    return sums.largestUpTo(units) * divisor;
}

}  // namespace poet
