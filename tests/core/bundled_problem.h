#pragma once
// A bundled model's problem on m4, its RAM budget a share of its plain-pass
// peak: the tests that need real graphs (bert's blocks, resnet18_cifar's
// skips) build them here, the same way.
#include <cstdint>
#include <string>

#include "problem.h"
#include "problem_loader.h"
#include "profile_catalog.h"

namespace poet::test {

inline Problem bundledOnM4(const std::string& model, double share, double runtime_factor, bool paging,
                           bool remat = true)
{
    Problem p;
    p.graph = loadTrainingGraph(ProfileCatalog::standard(), model, "m4");
    p.model = model;
    p.platform = "m4";
    p.ram_budget_bytes = static_cast<std::int64_t>(share * static_cast<double>(plainPassPeakBytes(p.graph)));
    p.runtime_budget_factor = runtime_factor;
    p.options.paging = paging;
    p.options.remat = remat;
    return p;
}

}  // namespace poet::test
