#pragma once
// The problem a benchmark's command line names: model and platform by name,
// the RAM budget in bytes or as a fraction of the plain-pass peak.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <optional>
#include <string>

#include "problem_loader.h"

namespace poet {

struct ProblemArgs {
    std::string model, platform = "m4";
    double budget = 0;         // of the plain-pass peak, where bytes is 0
    std::int64_t bytes = 0;
    double factor = 1.5;

    // Takes --model, --platform, --budget, --bytes or --factor (its value
    // from `next`); false for any other argument.
    bool take(const std::string& a, const std::function<std::string()>& next)
    {
        if (a == "--model") model = next();
        else if (a == "--platform") platform = next();
        else if (a == "--budget") budget = std::stod(next());
        else if (a == "--bytes") bytes = std::stoll(next());
        else if (a == "--factor") factor = std::stod(next());
        else return false;
        return true;
    }

    // Empty, with the reason on stderr, where the model or platform is unknown.
    std::optional<Problem> problem() const
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
        p.ram_budget_bytes =
            bytes > 0 ? bytes : static_cast<std::int64_t>(budget * static_cast<double>(plainPassPeakBytes(p.graph)));
        p.runtime_budget_factor = factor;
        return p;
    }
};

}  // namespace poet
