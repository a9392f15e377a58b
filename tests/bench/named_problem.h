#pragma once
// The problem a benchmark's command line names: model and platform by name,
// the RAM budget in bytes or as a fraction of the plain-pass peak.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "problem_loader.h"

namespace poet {

// Empty, with the reason on stderr, where the model or platform is unknown.
inline std::optional<Problem> namedProblem(const std::string& model, const std::string& platform,
                                           double budget_fraction, std::int64_t budget_bytes, double factor)
{
    Problem p;
    try {
        p.graph = loadTrainingGraph(ProfileCatalog::standard(), model, platform);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return std::nullopt;
    }
    p.model = model;
    p.platform = platform;
    p.ram_budget_bytes = budget_bytes > 0
                             ? budget_bytes
                             : static_cast<std::int64_t>(budget_fraction * static_cast<double>(plainPassPeakBytes(p.graph)));
    p.runtime_budget_factor = factor;
    return p;
}

}  // namespace poet
