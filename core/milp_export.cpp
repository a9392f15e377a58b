#include "milp_export.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <CoinError.hpp>
#include <CoinFinite.hpp>
#include <CoinMpsIO.hpp>

#include "atomic_write.h"
#include "cbc_setup.h"

namespace poet {

namespace {

// CoinMpsIO writes through a FILE* of its own and does not say where a write
// fails: on a full disk the cut file was renamed over the old one, "MILP
// written", exit 0. It writes a private temporary file here, which must end
// with its ENDATA line.
std::string textCoinWrites(CoinMpsIO& mps, const std::filesystem::path& scratch_dir)
{
    std::string name = (scratch_dir / ".poet-mps-XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw std::runtime_error("no temporary file for the MPS text (" + std::string(std::strerror(errno)) + ")");
    ::close(fd);
    bool written = false;
    try {
        // Uncompressed (OsiSolverInterface::writeMpsNative gzips where it
        // can), full precision (format 1): the energies' last digits decide
        // between schedules. CoinMpsIO throws CoinError (no std::exception).
        written = mps.writeMps(name.c_str(), 0, 1) == 0;
    } catch (const CoinError&) {
    }
    std::ifstream in(name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::error_code ignored;
    std::filesystem::remove(name, ignored);
    const std::string end = "ENDATA\n";
    const std::string s = text.str();
    if (!written || s.size() < end.size() || s.compare(s.size() - end.size(), end.size(), end) != 0)
        throw std::runtime_error("the MPS text could not be written in full to a temporary file in " +
                                 scratch_dir.string() + " (a full disk?)");
    return s;
}

}  // namespace

std::string milpAsMps(const Formulation& f, const std::filesystem::path& scratch_dir)
{
    std::vector<std::string> row_names(f.rows());
    for (int r = 0; r < f.rows(); ++r) row_names[r] = "c" + std::to_string(r);
    CoinMpsIO mps;
    mps.messageHandler()->setLogLevel(0);
    mps.setMpsData(tripletMatrix(f), COIN_DBL_MAX, f.col_lower.data(), f.col_upper.data(), f.objective.data(),
                   f.is_integer.data(), f.row_lower.data(), f.row_upper.data(), f.columnNames(), row_names);
    return textCoinWrites(mps, scratch_dir);
}

void writeMilpAsMps(const Formulation& f, const std::filesystem::path& file)
{
    std::string text;
    try {
        // Beside the target, as its own temporary file will be (TMPDIR
        // may be elsewhere, or unusable, where the target's folder is fine).
        text = milpAsMps(f, file.has_parent_path() ? file.parent_path() : std::filesystem::path("."));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(file.string() + ": " + e.what() + "; the file is unchanged");
    }
    writeFileAtomically(file, text);
}

}  // namespace poet
