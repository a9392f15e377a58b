#pragma once
// Valid inequalities for "the values left out must cover an excess":
// Σ m_i out_i ≥ e over binary out_i (a RAM row: what is not held at a
// stage must make room for e bytes). An LP meets such a row with slivers
// of several values; a real schedule leaves out whole ones. Two roundings,
// both valid for binary out_i:
//  - capped: Σ min(m_i, e) out_i ≥ e (one value of at least e covers it);
//  - mixed-integer rounding with divisor δ, one per distinct size m_i < e:
//    with α_i = m_i/δ, β = e/δ and f, f_i their fractional parts,
//    Σ (⌊α_i⌋ + min(f_i, f)/f) out_i ≥ ⌈β⌉ (e.g. equal sizes m: Σ out ≥ ⌈e/m⌉).
// Used by the tight formulation (formulation.h) and the bucket bound
// (bucket_bound.h), where CBC's own cuts do not find them in time.
#include <vector>

namespace poet {

struct KnapsackRounding {
    std::vector<double> coefficient;  // per item, in the order of `sizes`
    double rhs = 0;                   // Σ coefficient_i out_i ≥ rhs
};

// The roundings of Σ sizes_i out_i ≥ excess (none where excess ≤ 0).
std::vector<KnapsackRounding> knapsackRoundings(const std::vector<double>& sizes, double excess);

}  // namespace poet
