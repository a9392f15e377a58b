#include "milp_export.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <CoinError.hpp>
#include <CoinFinite.hpp>
#include <CoinMpsIO.hpp>
#include <CoinPackedMatrix.hpp>

namespace poet {

void writeMilpAsMps(const Formulation& f, const std::filesystem::path& file)
{
    CoinPackedMatrix matrix(false, f.triplet_row.data(), f.triplet_col.data(), f.triplet_value.data(),
                            static_cast<CoinBigIndex>(f.triplet_value.size()));
    matrix.setDimensions(f.rows(), f.columns());
    std::vector<std::string> row_names(f.rows());
    for (int r = 0; r < f.rows(); ++r) row_names[r] = "c" + std::to_string(r);
    CoinMpsIO mps;
    mps.messageHandler()->setLogLevel(0);
    mps.setMpsData(matrix, COIN_DBL_MAX, f.col_lower.data(), f.col_upper.data(), f.objective.data(),
                   f.is_integer.data(), f.row_lower.data(), f.row_upper.data(), f.columnNames(), row_names);
    // Full precision (format 1): the energies' last digits decide between
    // schedules. The rename makes the file whole at once, never half written.
    const std::filesystem::path temporary = file.string() + ".part";
    bool written = false;
    try {  // CoinMpsIO throws CoinError (no std::exception) where it cannot open the file
        written = mps.writeMps(temporary.c_str(), 0, 1) == 0;
    } catch (const CoinError&) {
    }
    if (!written) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw std::runtime_error("cannot write the MILP to '" + file.string() + "'");
    }
    std::error_code error;
    std::filesystem::rename(temporary, file, error);
    if (error) {
        std::filesystem::remove(temporary, error);
        throw std::runtime_error("cannot write the MILP to '" + file.string() + "'");
    }
}

}  // namespace poet
