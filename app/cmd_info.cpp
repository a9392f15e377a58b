// `poet info`: what a model on a platform looks like before solving.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_stdout_guard.h"
#include "formulation.h"
#include "heuristic_schedule.h"
#include "milp_export.h"
#include "problem_loader.h"

namespace poet::cli {

void addInfoCommand(CLI::App& root, int& exit_code)
{
    struct InfoArgs {
        ProblemArgs problem;
        std::string mps;
        bool reference_form = false;
        bool json = false;
    };
    auto args = std::make_shared<InfoArgs>();
    CLI::App* cmd = root.add_subcommand("info", "Nodes, edges, problem size and plain-pass figures of a model on a platform");
    cmd->footer("Exit codes: 0 described (a budget no schedule fits too), 1 internal error, 4 bad input.");
    addProblemOptions(cmd, args->problem, false);
    CLI::Option* mps = cmd->add_option("--write-mps", args->mps,
                                       "Write the MILP to this file (free MPS, named columns) for another solver; "
                                       "its objective is in model units, as printed")
                                  ->check(nonEmptyPath("a file name"));
    cmd->add_flag("--reference-form", args->reference_form,
                  "With --write-mps: formulation.md's form as POET's reference builds it, not the tighter one "
                  "solved here (the same optimum)")
        ->needs(mps);
    cmd->add_flag("--json", args->json, "Print the figures as one JSON document (full precision)");
    cmd->callback([args, &exit_code] {
        const Problem p = loadProblem(args->problem);
        // Before the report, not after it (a directory there failed once all was printed).
        if (!args->mps.empty()) checkOutputFile("--write-mps", args->mps);
        const Graph& g = p.graph;
        const Formulation f(p);
        const Formulation ref(p, FormulationVariant::Reference);
        const std::int64_t peak = plainPassPeakBytes(g);
        const std::int64_t lower = minimumFeasibleBudgetLowerBound(g);
        // Where a sweep or a first solve can start (0.1 to 0.4 s on bert and
        // resnet50; without paging 0.5 s more: resnet50 16.7 MB, not 21.0 MB).
        const std::optional<std::int64_t> works = smallestQuickBudget(p);
        const Formulation& written = args->reference_form ? ref : f;
        // The MPS text on standard output leaves it to the MILP alone (a
        // solver reading a pipe): the report goes to stderr.
        std::optional<StdoutAside> report_aside;
        if (!args->mps.empty()) {
            try {
                if (namesStandardOutput(args->mps)) {
                    std::cout << milpAsMps(written);
                    report_aside.emplace(true);
                } else {
                    writeMilpAsMps(written, args->mps);
                }
            } catch (const std::runtime_error& e) {
                throw BadInput(std::string("--write-mps: ") + e.what());
            }
        }
        if (args->json) {
            // Scripts read these, not the lines below ("a schedule exists at").
            nlohmann::json doc;
            doc["model"] = p.model;
            doc["platform"] = p.platform;
            doc["batch_size"] = p.batch_size;
            doc["paging"] = p.options.paging;
            doc["remat"] = p.options.remat;
            doc["ram_budget_bytes"] = p.ram_budget_bytes;
            doc["runtime_budget_factor"] = p.runtime_budget_factor;
            doc["runtime_budget_s"] = p.runtimeBudgetSeconds();
            doc["nodes"] = g.size();
            doc["forward_nodes"] = g.forwardCount();
            doc["edges"] = g.edges().size();
            doc["plain_peak_ram_bytes"] = peak;
            doc["ram_budget_lower_bound_bytes"] = lower;
            doc["ram_budget_that_works_bytes"] = works ? nlohmann::json(*works) : nlohmann::json();
            doc["plain_runtime_s"] = g.totalComputeTime();
            doc["plain_energy_j"] = g.totalComputeEnergy();
            doc["variables"] = f.columns();
            doc["integer_variables"] = f.integerColumns();
            doc["constraints"] = f.rows();
            doc["reference_variables"] = ref.columns();
            doc["reference_integer_variables"] = ref.integerColumns();
            doc["reference_constraints"] = ref.rows();
            if (!args->mps.empty()) {
                doc["mps_file"] = args->mps;
                doc["mps_form"] = args->reference_form ? "formulation.md" : "tight";
                doc["mps_objective_scale"] = written.objectiveScale();
                doc["mps_objective_offset_j"] = written.objectiveOffsetJ();
            }
            std::cout << doc.dump(2) << '\n';
            exit_code = kSolved;
            return;
        }
        // The problem size below depends on both budgets: say which were used.
        printProblemAndBudgets(p, 23, p.ram_budget_bytes < lower ? "below the smallest there is" : "",
                               p.runtime_budget_factor < 1 ? "below one plain pass: no schedule exists" : "");
        std::printf("nodes                  %d (%d forward incl. loss, %d backward)\n", g.size(), g.forwardCount(),
                    g.size() - g.forwardCount());
        std::printf("edges                  %zu\n", g.edges().size());
        std::printf("plain-pass peak RAM    %lld B\n", static_cast<long long>(peak));
        std::printf("smallest RAM budget    at least %lld B (a node with all its inputs)\n",
                    static_cast<long long>(lower));
        if (works)
            std::printf("a schedule exists at   %lld B (found by the quick heuristics, at %gx%s)\n",
                        static_cast<long long>(*works), p.runtime_budget_factor,
                        *works == lower ? "; the smallest RAM budget there is" : "");
        else if (p.runtime_budget_factor < 1)
            std::printf("a schedule exists at   no RAM budget at %gx (none runs faster than one plain pass)\n",
                        p.runtime_budget_factor);
        else
            std::printf("a schedule exists at   (none found by the quick heuristics at %gx; a solve may find one)\n",
                        p.runtime_budget_factor);
        std::printf("plain-pass runtime     %.9f s\n", g.totalComputeTime());
        std::printf("plain-pass energy      %.9f J\n", g.totalComputeEnergy());
        std::printf("problem size           %d variables (%d integer), %d constraints\n", f.columns(),
                    f.integerColumns(), f.rows());
        // Nothing to choose: `poet solve` answers without this MILP.
        if (!p.options.paging && !p.options.remat)
            std::printf("                       (a solve needs none of it: with paging and remat off the plain pass "
                        "is the only schedule, and it fits from %lld B)\n",
                        static_cast<long long>(peak));
        std::printf("  formulation.md form  %d variables (%d integer), %d constraints\n", ref.columns(),
                    ref.integerColumns(), ref.rows());
        if (!args->mps.empty())
            std::printf("MILP written           %s (%s form; energy J = objective / %.17g + %.17g)\n",
                        report_aside ? "to standard output" : args->mps.c_str(),
                        args->reference_form ? "formulation.md" : "tight",
                        written.objectiveScale(), written.objectiveOffsetJ());
        exit_code = kSolved;
    });
}

}  // namespace poet::cli
