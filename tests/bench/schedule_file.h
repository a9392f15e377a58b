#pragma once
// A schedule file (`poet solve --out`) with the training graph it schedules,
// for the tools that read one (return_map, budget_fit).
#include <cstdio>
#include <exception>
#include <optional>

#include "problem_loader.h"
#include "schedule_io.h"

namespace poet {

struct ScheduleFile {
    LoadedSchedule loaded;
    Graph graph;
};

// Empty, with the reason on stderr, where the file cannot be read or its
// schedule does not fit its model's graph.
inline std::optional<ScheduleFile> readScheduleFile(const char* path)
{
    ScheduleFile file;
    try {
        file.loaded = readScheduleDocument(path);
        file.graph = loadTrainingGraph(ProfileCatalog::standard(), file.loaded.model, file.loaded.platform,
                                       file.loaded.batch_size);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return std::nullopt;
    }
    if (file.loaded.schedule.size() != file.graph.size()) {
        std::fprintf(stderr, "%s: %d stages, but %s has %d nodes\n", path, file.loaded.schedule.size(),
                     file.loaded.model.c_str(), file.graph.size());
        return std::nullopt;
    }
    return file;
}

}  // namespace poet
