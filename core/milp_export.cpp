#include "milp_export.h"

#include <string>
#include <vector>

#include <CoinError.hpp>
#include <CoinFinite.hpp>
#include <CoinMpsIO.hpp>

#include "atomic_write.h"
#include "cbc_setup.h"

namespace poet {

void writeMilpAsMps(const Formulation& f, const std::filesystem::path& file)
{
    std::vector<std::string> row_names(f.rows());
    for (int r = 0; r < f.rows(); ++r) row_names[r] = "c" + std::to_string(r);
    CoinMpsIO mps;
    mps.messageHandler()->setLogLevel(0);
    mps.setMpsData(tripletMatrix(f), COIN_DBL_MAX, f.col_lower.data(), f.col_upper.data(), f.objective.data(),
                   f.is_integer.data(), f.row_lower.data(), f.row_upper.data(), f.columnNames(), row_names);
    replaceFileAtomically(file, [&mps](int, const std::string& path) {
        // Uncompressed (OsiSolverInterface::writeMpsNative gzips where it
        // can), full precision (format 1): the energies' last digits decide
        // between schedules. CoinMpsIO throws CoinError (no std::exception)
        // where it cannot write.
        try {
            return mps.writeMps(path.c_str(), 0, 1) == 0;
        } catch (const CoinError&) {
            return false;
        }
    });
}

}  // namespace poet
