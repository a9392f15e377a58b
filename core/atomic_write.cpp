#include "atomic_write.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace poet {

namespace {

namespace fs = std::filesystem;

// `file` with the symbolic links of its last component followed (a link
// to a link, relative ones from the link's own directory), so that the
// temporary file goes beside the file the rename replaces. A dangling
// link gives the path it points to: the write creates that file.
fs::path followLinks(fs::path file)
{
    for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit on a chain
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(file, ec))) return file;
        const fs::path to = fs::read_symlink(file, ec);
        if (ec) return file;
        file = to.is_absolute() ? to : file.parent_path() / to;
    }
    throw std::runtime_error(file.string() + ": too many levels of symbolic links");
}

// The open descriptor `file` names (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N), or -1. Written through that descriptor: the name leads
// to the file itself, and `--out /dev/stderr 2>> log` renamed a new file
// over the log (or, opened afresh, would write over its start).
int descriptorNamed(const fs::path& file)
{
    const std::string name = file.lexically_normal().string();
    int fd = -1;
    if (name == "/dev/stdin") fd = STDIN_FILENO;
    else if (name == "/dev/stdout") fd = STDOUT_FILENO;
    else if (name == "/dev/stderr") fd = STDERR_FILENO;
    else
        for (const std::string dir : {"/dev/fd/", "/proc/self/fd/"})
            if (name.starts_with(dir) && name.size() > dir.size() &&
                name.find_first_not_of("0123456789", dir.size()) == std::string::npos &&
                name.size() - dir.size() < 9)
                fd = std::stoi(name.substr(dir.size()));
    return fd >= 0 && ::fcntl(fd, F_GETFD) >= 0 ? fd : -1;
}

bool writableDescriptor(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY;
}

// Whether `file` (its links followed) exists and is neither a regular file
// nor a directory: written in place (the header says why).
bool namesSpecialFile(const fs::path& file)
{
    struct stat st {};
    return ::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// A rename replaces a file whatever its permissions: a schedule made read-
// only (chmod 444) to keep it was replaced without a word. Refused where
// the file's mode lets nobody write it (root too, for whom access() says
// yes) or where this user may not write it.
void refuseWriteProtected(const fs::path& target)
{
    struct stat st {};
    if (::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(target.c_str(), W_OK) != 0)
        throw std::runtime_error(target.string() + ": is write-protected; not replaced");
}

// A new, empty temporary file beside `file` (its name in `tmpl`), open.
int createBeside(const fs::path& file, std::string& tmpl)
{
    std::error_code ec;
    if (fs::is_directory(file, ec)) throw std::runtime_error(file.string() + ": is a directory");
    const auto dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error(file.string() + (fs::exists(dir, ec) ? ": " + dir.string() + " is not a directory"
                                                                      : ": no directory " + dir.string()));
    std::string name = ".";  // appended, not '+': GCC 12 warns falsely (-Wrestrict) on "." + string
    name += file.filename().string();
    name += ".XXXXXX";
    tmpl = (dir / name).string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0)
        throw std::runtime_error(file.string() + ": cannot create a temporary file in " + dir.string() + " (" +
                                 std::strerror(errno) + ")");
    return fd;
}

// What the new file's permission bits are: the old file's, where there is
// one, else the usual ones (0666 less the umask; mkstemp creates 0600).
mode_t modeFor(const fs::path& target)
{
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

void writeInPlace(const fs::path& file, const std::function<bool(int fd, const std::string& path)>& write)
{
    const int named = descriptorNamed(file);
    const int fd = named >= 0 ? ::fcntl(named, F_DUPFD_CLOEXEC, 0) : ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(file.string() + ": cannot open for writing (" + std::strerror(errno) + ")");
    bool ok = write(fd, file.string());
    ok = (::close(fd) == 0) && ok;
    if (!ok) throw std::runtime_error(file.string() + ": write failed");
}

}  // namespace

void checkWritable(const fs::path& file)
{
    if (const int fd = descriptorNamed(file); fd >= 0) {
        if (!writableDescriptor(fd)) throw std::runtime_error(file.string() + ": is not open for writing");
        return;
    }
    if (namesSpecialFile(file)) {
        if (::access(file.c_str(), W_OK) != 0)
            throw std::runtime_error(file.string() + ": cannot open for writing (" + std::strerror(errno) + ")");
        return;
    }
    const fs::path target = followLinks(file);
    refuseWriteProtected(target);
    std::string tmpl;
    ::close(createBeside(target, tmpl));
    std::error_code ec;
    fs::remove(tmpl, ec);
}

void replaceFileAtomically(const fs::path& file, const std::function<bool(int fd, const std::string& path)>& write)
{
    if (descriptorNamed(file) >= 0 || namesSpecialFile(file)) return writeInPlace(file, write);
    const fs::path target = followLinks(file);
    refuseWriteProtected(target);
    std::string tmpl;
    const int fd = createBeside(target, tmpl);
    ::fchmod(fd, modeFor(target));
    bool ok = write(fd, tmpl);
    ok = ok && ::fsync(fd) == 0;  // the file's data, whichever descriptor wrote it
    ok = (::close(fd) == 0) && ok;
    std::error_code ec;
    if (ok) fs::rename(tmpl, target, ec);
    if (!ok || ec) {
        fs::remove(tmpl, ec);
        throw std::runtime_error(file.string() + ": write failed; the file is unchanged");
    }
}

void writeFileAtomically(const fs::path& file, const std::string& text)
{
    replaceFileAtomically(file, [&text](int fd, const std::string&) {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
            if (w <= 0) return false;
            done += static_cast<std::size_t>(w);
        }
        return true;
    });
}

}  // namespace poet
