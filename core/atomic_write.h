#pragma once
// Writing a file so that a failure never leaves half of it: a temporary
// file beside the target, synced, then renamed over it.
//
// The target is what the path names after its symbolic links: a link is
// written through (the link stays, its target gets the new contents), and
// a file that exists keeps its permission bits. A path that names an open
// descriptor (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N) is
// written through it, whatever file it leads to (`--out /dev/stderr 2>>
// log` keeps the log); one that names no regular file (a FIFO, a
// terminal, a device) is written in place: a rename there would put a
// plain file where the device or pipe was, and there is no half-written
// file to spare anyone.
#include <filesystem>
#include <functional>
#include <string>

namespace poet {

// Writes `text` to `file` atomically; throws std::runtime_error on failure.
void writeFileAtomically(const std::filesystem::path& file, const std::string& text);

// Whether writeFileAtomically could write `file` now: a directory that takes
// a new file and no directory of that name (or, for a path that names no
// regular file, one open for writing). For commands that write only after
// minutes of work (`poet solve --out`, `poet sweep --csv`): they check
// first. Throws std::runtime_error naming the file and the reason.
void checkWritable(const std::filesystem::path& file);

// The same for a writer of its own: `write` fills a new temporary file
// beside `file`, given both open (`fd`) and by name (`path`, for writers
// that open files themselves), and says whether it succeeded; the file is
// then synced and renamed over `file`. Throws std::runtime_error where
// anything fails, leaving `file` as it was and no temporary file.
void replaceFileAtomically(const std::filesystem::path& file,
                           const std::function<bool(int fd, const std::string& path)>& write);

}  // namespace poet
