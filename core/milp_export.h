#pragma once
// formulation.md's MILP as a file another solver reads (Gurobi, HiGHS, the
// cbc binary): free-format MPS with named columns (Formulation::columnNames),
// so that the optimum found here can be checked elsewhere. Its objective is
// in the model units CBC solves in: energy_J = objective / scale + offset_J
// (Formulation::objectiveScale, objectiveOffsetJ).
#include <filesystem>
#include <string>

#include "formulation.h"

namespace poet {

// The MPS text of `f`; throws std::runtime_error where it cannot be made
// (CoinMpsIO writes it through a temporary file in `scratch_dir`).
std::string milpAsMps(const Formulation& f,
                      const std::filesystem::path& scratch_dir = std::filesystem::temp_directory_path());

// Writes `f` to `file` atomically (writeFileAtomically); throws
// std::runtime_error naming the file where that fails.
void writeMilpAsMps(const Formulation& f, const std::filesystem::path& file);

}  // namespace poet
