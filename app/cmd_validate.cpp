// `poet validate FILE`: replays a written schedule against its own problem.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "cli_commands.h"
#include "cli_common.h"
#include "replay.h"
#include "schedule_io.h"

namespace poet::cli {

namespace {

// Where the file's own figures disagree with its replay: a file that
// claims less energy, a shorter runtime or a looser budget than it has is
// not what it says, however valid its matrices.
std::vector<std::string> claimsTheReplayRefutes(const LoadedSchedule& s, const Problem& p, const ReplayReport& rep)
{
    std::vector<std::string> out;
    auto check = [&](const char* name, const auto& claimed, double actual, const char* unit,
                     const char* by = "the replay gives") {
        if (!claimed) return;
        const double said = static_cast<double>(*claimed);
        if (std::abs(said - actual) <= 1e-9 * std::max(std::abs(actual), 1e-12)) return;
        std::ostringstream m;
        m.precision(12);
        const std::string u = *unit ? std::string(" ") + unit : std::string();  // counts have none
        m << "the file says " << name << " " << said << u << ", " << by << " " << actual << u;
        out.push_back(m.str());
    };
    check("total_energy_j", s.claims.total_energy_j, rep.total_energy_j, "J");
    check("compute_energy_j", s.claims.compute_energy_j, rep.compute_energy_j, "J");
    check("paging_energy_j", s.claims.paging_energy_j, rep.paging_energy_j, "J");
    check("runtime_s", s.claims.runtime_s, rep.runtime_s, "s");
    check("peak_ram_bytes", s.claims.peak_ram_bytes, static_cast<double>(rep.peak_ram_bytes), "B");
    check("recomputations", s.claims.recomputations, rep.recomputations, "");
    check("free_recomputations", s.claims.free_recomputations, rep.free_recomputations, "");
    check("page_ins", s.claims.page_ins, rep.page_ins, "");
    check("page_outs", s.claims.page_outs, rep.page_outs, "");
    check("runtime_budget_s", s.claims.runtime_budget_s, p.runtimeBudgetSeconds(), "s",
          "its runtime_budget_factor gives");
    // A lower bound above the schedule's own energy proves nothing of it.
    if (s.claims.best_bound_j && *s.claims.best_bound_j > rep.total_energy_j * (1 + 1e-9)) {
        std::ostringstream m;
        m.precision(12);
        m << "the file says best_bound_j " << *s.claims.best_bound_j << " J, above the schedule's own "
          << rep.total_energy_j << " J: no lower bound can be";
        out.push_back(m.str());
    }
    // A schedule the replay accepts is no "infeasible" or "no_solution".
    if (s.claims.status && *s.claims.status != "optimal" && *s.claims.status != "feasible")
        out.push_back("the file says status \"" + *s.claims.status +
                      "\", but it holds a schedule the replay accepts (optimal or feasible)");
    return out;
}

}  // namespace

void addValidateCommand(CLI::App& root, int& exit_code)
{
    auto file = std::make_shared<std::string>();
    CLI::App* cmd = root.add_subcommand("validate", "Replay a schedule file and report what is wrong with it");
    cmd->footer("Exit codes: 0 the schedule is valid, 1 internal error, 4 bad input (no such file, not a schedule "
                "document), 6 the schedule is invalid (what is wrong is listed).");
    cmd->add_option("FILE", *file, "A schedule written by `poet solve --out` (- reads standard input)")->required();
    cmd->callback([file, &exit_code] {
        if (*file == "-") *file = "/dev/stdin";  // a script's pipe, as /dev/stdin reads it
        LoadedSchedule s;
        try {
            s = readScheduleDocument(*file);
        } catch (const std::exception& e) {
            // The CSV `poet solve --out x.csv` writes holds the matrices only:
            // "not valid JSON" said nothing of what to give instead.
            std::string head(13, '\0');
            std::error_code ec;
            if (std::filesystem::is_regular_file(*file, ec)) {
                std::ifstream in(*file, std::ios::binary);
                in.read(head.data(), static_cast<std::streamsize>(head.size()));
            }
            if (head == "matrix,stage,")
                throw BadInput(*file + ": a schedule's CSV (its matrices, without the problem or budgets); validate "
                                       "reads the JSON document `poet solve --out x.json` writes");
            throw BadInput(e.what());
        }
        ProblemArgs a;
        a.model = s.model;
        a.platform = s.platform;
        a.batch_size = s.batch_size;
        a.ram_budget = std::to_string(s.ram_budget_bytes);
        a.runtime_budget = s.runtime_budget_factor;
        a.no_paging = !s.options.paging;
        a.no_remat = !s.options.remat;
        const Problem p = loadProblem(a);
        if (s.schedule.size() != p.graph.size())
            throw BadInput(*file + ": the schedule has " + std::to_string(s.schedule.size()) + " nodes, " + s.model +
                           " has " + std::to_string(p.graph.size()));
        // The same count with other names is another graph's schedule.
        for (int i = 0; i < p.graph.size(); ++i)
            if (s.node_names[i] != p.graph.node(i).name)
                throw BadInput(*file + ": field 'nodes[" + std::to_string(i) + "]' is \"" + s.node_names[i] +
                               "\", but node " + std::to_string(i) + " of " + s.model + " is \"" +
                               p.graph.node(i).name + "\"");
        const ReplayReport rep = replaySchedule(p.graph, s.schedule, limitsOf(p));
        const std::vector<std::string> problems = rep.valid ? claimsTheReplayRefutes(s, p, rep) : rep.errors;
        std::cout << *file << ": replayed as " << s.model << " on " << s.platform << ", RAM budget "
                  << s.ram_budget_bytes << " B, runtime " << s.runtime_budget_factor << "x, paging "
                  << (s.options.paging ? "on" : "off") << ", remat " << (s.options.remat ? "on" : "off")
                  << '\n';
        if (problems.empty()) {
            std::cout << *file << ": valid; total energy " << rep.total_energy_j << " J, runtime " << rep.runtime_s
                      << " s, peak RAM " << rep.peak_ram_bytes << " B\n";
            exit_code = kSolved;
        } else {
            const std::size_t total = problems.size() + rep.errors_not_listed;
            std::cout << *file << ": INVALID (" << total << (total == 1 ? " problem" : " problems");
            if (total > problems.size()) std::cout << "; the first " << problems.size() << " listed";
            std::cout << ")\n";
            for (const auto& e : problems) std::cout << "  " << e << '\n';
            exit_code = kInvalidSchedule;
        }
    });
}

}  // namespace poet::cli
