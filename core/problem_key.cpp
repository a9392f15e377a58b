#include "problem_key.h"

#include <cstdio>
#include <cstring>

#include "effective_budget.h"

namespace poet {

void Fnv1a::bytes(const void* p, std::size_t n)
{
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
        h_ ^= c[i];
        h_ *= 1099511628211ULL;
    }
}

void Fnv1a::i64(std::int64_t v) { bytes(&v, sizeof v); }

void Fnv1a::f64(double v)
{
    if (v == 0) v = 0;
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bytes(&bits, sizeof bits);
}

void Fnv1a::str(const std::string& s)
{
    i64(static_cast<std::int64_t>(s.size()));
    bytes(s.data(), s.size());
}

std::string Fnv1a::hex() const
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
}

void hashGraph(Fnv1a& h, const Graph& g)
{
    h.i64(g.size());
    for (const Node& n : g.nodes()) {
        h.i64(static_cast<int>(n.kind));
        h.i64(n.memory_bytes);
        h.f64(n.compute_energy_j);
        h.f64(n.compute_time_s);
        h.f64(n.pagein_energy_j);
        h.f64(n.pageout_energy_j);
        h.f64(n.param_bytes);
    }
    h.i64(static_cast<std::int64_t>(g.edges().size()));
    for (const auto& [u, v] : g.edges()) {
        h.i64(u);
        h.i64(v);
    }
}

void hashProblem(Fnv1a& h, const Problem& p)
{
    hashGraph(h, p.graph);
    h.i64(effectiveRamBudget(p.graph, p.ram_budget_bytes));
    h.f64(p.runtime_budget_factor);
    h.i64(p.options.paging ? 1 : 0);
    h.i64(p.options.remat ? 1 : 0);
}

}  // namespace poet
