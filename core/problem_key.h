#pragma once
// Content hashes of problems: a 64-bit FNV-1a over everything that defines a
// problem (the graph's costs and edges, the budgets, the options), so caches
// on disk can be keyed by the problem itself rather than by names that a
// profile edit could silently change the meaning of.
#include <cstdint>
#include <string>

#include "problem.h"

namespace poet {

class Fnv1a {
public:
    void bytes(const void* p, std::size_t n);
    void i64(std::int64_t v);
    void f64(double v);  // -0 and +0 hash alike
    void str(const std::string& s);
    std::string hex() const;

private:
    std::uint64_t h_ = 1469598103934665603ULL;
};

// Feeds the graph, the budgets and every ProblemOptions field (keep that list
// complete) into `h`. Names (model, platform) are left out on purpose, and
// the RAM budget goes in as its effective budget (effective_budget.h): the
// budgets that admit the same schedules share a key, so that bert on m4,
// whose values come in blocks of 1.5 MB, finds a point solved at 10% again
// at 10.2%.
void hashProblem(Fnv1a& h, const Problem& p);
// The graph alone (its costs and edges): what problems that differ only in
// budgets and switches share.
void hashGraph(Fnv1a& h, const Graph& g);

}  // namespace poet
