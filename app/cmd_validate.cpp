// `poet validate FILE`: replays a written schedule against its own problem.
#include <iostream>

#include "cli_commands.h"
#include "cli_common.h"
#include "replay.h"
#include "schedule_io.h"

namespace poet::cli {

void addValidateCommand(CLI::App& root, int& exit_code)
{
    auto file = std::make_shared<std::string>();
    CLI::App* cmd = root.add_subcommand("validate", "Replay a schedule file and report what is wrong with it");
    cmd->add_option("FILE", *file, "A schedule written by `poet solve --out`")->required();
    cmd->callback([file, &exit_code] {
        LoadedSchedule s;
        try {
            s = readScheduleDocument(*file);
        } catch (const std::exception& e) {
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
        const ReplayReport rep = replaySchedule(p.graph, s.schedule, limitsOf(p));
        if (rep.valid) {
            std::cout << *file << ": valid; total energy " << rep.total_energy_j << " J, runtime " << rep.runtime_s
                      << " s, peak RAM " << rep.peak_ram_bytes << " B\n";
            exit_code = kSolved;
        } else {
            std::cout << *file << ": INVALID (" << rep.errors.size() << " problems)\n";
            for (const auto& e : rep.errors) std::cout << "  " << e << '\n';
            exit_code = kInvalidSchedule;
        }
    });
}

}  // namespace poet::cli
