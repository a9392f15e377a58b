#pragma once
// Schedules as files: the JSON document `poet solve --out` writes (problem,
// options, status, replay figures and the five matrices) and CSV matrices.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "problem.h"
#include "solve_result.h"

namespace poet {

// The summary fields shared by CLI --json, the schedule file and exports:
// status, source, compute_energy_j, paging_energy_j, total_energy_j, runtime_s,
// runtime_budget_s, peak_ram_bytes, ram_budget_bytes, recomputations,
// page_ins, page_outs, solve_time_s, gap, ...
nlohmann::json resultSummaryJson(const Problem& problem, const SolveResult& result);

// The whole document: summary + problem identity + the schedule matrices.
nlohmann::json scheduleDocument(const Problem& problem, const SolveResult& result);

struct LoadedSchedule {
    std::string model, platform;
    int batch_size = 1;
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 1.0;
    ProblemOptions options;
    Schedule schedule;
    std::vector<std::string> node_names;  // the file's `nodes`, one a row
    // What the file says of the schedule (absent or null: nothing), for
    // `poet validate` to hold against its replay.
    struct Claims {
        std::optional<double> total_energy_j, compute_energy_j, paging_energy_j, runtime_s, runtime_budget_s,
            best_bound_j;
        std::optional<std::int64_t> peak_ram_bytes, recomputations, free_recomputations, page_ins, page_outs;
        std::optional<std::string> status;
    } claims;
};
// Throws std::runtime_error naming the file and the field on bad input.
LoadedSchedule readScheduleDocument(const std::filesystem::path& file);
// The same from a parsed document; `where_from` names it in messages.
LoadedSchedule scheduleFromDocument(const nlohmann::json& doc, const std::string& where_from);

// One CSV per matrix would be five files; one file with a `matrix` column is
// easier to load in a spreadsheet: matrix,stage,node0,node1,...
std::string scheduleCsv(const Graph& g, const Schedule& s);

}  // namespace poet
