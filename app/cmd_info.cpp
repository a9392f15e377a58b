// `poet info`: what a model on a platform looks like before solving.
#include <cstdio>

#include "cli_commands.h"
#include "cli_common.h"
#include "formulation.h"
#include "problem_loader.h"

namespace poet::cli {

void addInfoCommand(CLI::App& root, int& exit_code)
{
    auto args = std::make_shared<ProblemArgs>();
    CLI::App* cmd = root.add_subcommand("info", "Nodes, edges, problem size and plain-pass figures of a model on a platform");
    addProblemOptions(cmd, *args, false);
    cmd->callback([args, &exit_code] {
        const Problem p = loadProblem(*args);
        const Graph& g = p.graph;
        const Formulation f(p);
        const Formulation ref(p, FormulationVariant::Reference);
        std::printf("model %s on %s, batch %d\n", p.model.c_str(), p.platform.c_str(), p.batch_size);
        std::printf("nodes                  %d (%d forward incl. loss, %d backward)\n", g.size(), g.forwardCount(),
                    g.size() - g.forwardCount());
        std::printf("edges                  %zu\n", g.edges().size());
        std::printf("plain-pass peak RAM    %lld B\n", static_cast<long long>(plainPassPeakBytes(g)));
        std::printf("smallest budget (lower bound)  %lld B\n",
                    static_cast<long long>(minimumFeasibleBudgetLowerBound(g)));
        std::printf("plain-pass runtime     %.9f s\n", g.totalComputeTime());
        std::printf("plain-pass energy      %.9f J\n", g.totalComputeEnergy());
        std::printf("problem size           %d variables (%d integer), %d constraints\n", f.columns(),
                    f.integerColumns(), f.rows());
        std::printf("  formulation.md form  %d variables (%d integer), %d constraints\n", ref.columns(),
                    ref.integerColumns(), ref.rows());
        exit_code = kSolved;
    });
}

}  // namespace poet::cli
