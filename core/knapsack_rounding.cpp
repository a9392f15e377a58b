#include "knapsack_rounding.h"

#include <algorithm>
#include <cmath>

namespace poet {

std::vector<KnapsackRounding> knapsackRoundings(const std::vector<double>& sizes, double excess)
{
    std::vector<KnapsackRounding> out;
    if (excess <= 0 || sizes.empty()) return out;
    auto rounding = [&](auto coefficient, double rhs) {
        KnapsackRounding r;
        r.rhs = rhs;
        for (double m : sizes) r.coefficient.push_back(coefficient(m));
        out.push_back(std::move(r));
    };
    rounding([&](double m) { return std::min(m, excess); }, excess);

    std::vector<double> divisors;
    for (double m : sizes)
        if (m > 0 && m < excess) divisors.push_back(m);
    std::sort(divisors.begin(), divisors.end());
    divisors.erase(std::unique(divisors.begin(), divisors.end()), divisors.end());
    for (double delta : divisors) {
        const double beta = excess / delta;
        const double f = beta - std::floor(beta);
        if (f < 1e-9) continue;  // the rounding adds nothing to the row itself
        rounding(
            [&](double m) {
                const double alpha = m / delta;
                const double fi = alpha - std::floor(alpha);
                return std::floor(alpha) + std::min(fi, f) / f;
            },
            std::ceil(beta));
    }
    return out;
}

}  // namespace poet
