#pragma once
// Profiles -> Problem: the one place CLI and GUI turn names and budgets into a
// problem, plus the figures that describe it (plain-pass peak, lower bound on
// the smallest feasible budget).
#include <cstdint>
#include <string>

#include "problem.h"
#include "profile_catalog.h"

namespace poet {

// Loads model and platform by name (throws ProfileError or std::invalid_argument).
Graph loadTrainingGraph(const ProfileCatalog& catalog, const std::string& model, const std::string& platform,
                        int batch_size = 0);

// The same graph as a problem with its names and the batch size it was built
// for (the model profile's where `batch_size` is 0: a schedule file says 1,
// not 0, which `poet validate` refuses). Budgets and switches are the
// caller's.
Problem loadProblemGraph(const ProfileCatalog& catalog, const std::string& model, const std::string& platform,
                         int batch_size = 0);

// Peak RAM of the plain pass (every node once, each output kept until its last reader ran).
std::int64_t plainPassPeakBytes(const Graph& g);

// A lower bound on the smallest RAM budget under which any schedule exists:
// the largest (output + inputs) of any node. With paging on, it is attained
// by construction in most graphs; the solver proves the rest.
std::int64_t minimumFeasibleBudgetLowerBound(const Graph& g);
// The same under the problem's switches: with paging and recomputation both
// off, the plain pass is the only schedule, and its peak the smallest budget
// exactly (the graph's bound said 262,144 B where resnet18_cifar needs
// 2,453,760 B).
std::int64_t minimumFeasibleBudgetLowerBound(const Problem& p);

}  // namespace poet
