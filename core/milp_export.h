#pragma once
// formulation.md's MILP as a file another solver reads (Gurobi, HiGHS, the
// cbc binary): free-format MPS with named columns (Formulation::columnNames),
// so that the optimum found here can be checked elsewhere. Its objective is
// in the model units CBC solves in: energy_J = objective / scale + offset_J
// (Formulation::objectiveScale, objectiveOffsetJ).
#include <filesystem>

#include "formulation.h"

namespace poet {

// Writes `f` to `file` atomically (replaceFileAtomically); throws
// std::runtime_error naming the file where that fails.
void writeMilpAsMps(const Formulation& f, const std::filesystem::path& file);

}  // namespace poet
