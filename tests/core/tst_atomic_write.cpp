// atomic_write.h: what a written path is afterwards. A symbolic link stays
// a link and its target gets the text; a file keeps its permission bits; a
// FIFO stays a FIFO and its reader gets the text; a failed write leaves the
// old file and no temporary file. (`poet solve --out link.json` used to put
// a plain file where the link was, and `--out /dev/full` one where the
// device was.)
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"

using namespace poet;
namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

int entries(const fs::path& dir) { return static_cast<int>(std::distance(fs::directory_iterator(dir), {})); }

}  // namespace

class TestAtomicWrite : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        dir_ = std::make_unique<QTemporaryDir>();
        root_ = dir_->path().toStdString();
    }

    void newFileGetsTheText()
    {
        writeFileAtomically(root_ / "a.json", "new\n");
        QCOMPARE(contents(root_ / "a.json"), std::string("new\n"));
        QCOMPARE(entries(root_), 1);  // no temporary file left
    }

    void linkIsWrittenThrough()
    {
        writeFileAtomically(root_ / "target.json", "old\n");
        fs::create_symlink("target.json", root_ / "link.json");
        writeFileAtomically(root_ / "link.json", "new\n");
        QVERIFY(fs::is_symlink(fs::symlink_status(root_ / "link.json")));
        QCOMPARE(contents(root_ / "target.json"), std::string("new\n"));
        QCOMPARE(entries(root_), 2);
    }

    void danglingLinkCreatesItsTarget()
    {
        fs::create_symlink("made.json", root_ / "link.json");
        writeFileAtomically(root_ / "link.json", "new\n");
        QVERIFY(fs::is_symlink(fs::symlink_status(root_ / "link.json")));
        QCOMPARE(contents(root_ / "made.json"), std::string("new\n"));
    }

    void fileKeepsItsPermissions()
    {
        const fs::path file = root_ / "private.json";
        writeFileAtomically(file, "old\n");
        fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        writeFileAtomically(file, "new\n");
        QCOMPARE(static_cast<int>(fs::status(file).permissions()), 0640);
        QCOMPARE(contents(file), std::string("new\n"));
    }

    void fifoIsWrittenInPlace()
    {
        const fs::path fifo = root_ / "pipe";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        // The reader is open before the write (so the writer's open returns
        // at once) and reads after it, from the pipe's buffer: had the write
        // replaced the FIFO, the read would find no writer and end empty,
        // not wait for ever.
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        checkWritable(fifo);
        writeFileAtomically(fifo, "through the pipe\n");
        std::string got(64, '\0');
        const ssize_t n = ::read(reader, got.data(), got.size());
        ::close(reader);
        got.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
        QCOMPARE(got, std::string("through the pipe\n"));
        QVERIFY(fs::is_fifo(fs::status(fifo)));
        QCOMPARE(entries(root_), 1);
    }

    void failedWriteLeavesTheOldFile()
    {
        const fs::path file = root_ / "kept.json";
        writeFileAtomically(file, "old\n");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 replaceFileAtomically(file, [](int fd, const std::string&) {
                                     return ::write(fd, "half", 4) == 4 && false;  // the writer gives up midway
                                 }));
        QCOMPARE(contents(file), std::string("old\n"));
        QCOMPARE(entries(root_), 1);
    }

    // A file made read-only to keep it is not replaced: the rename went
    // round its permissions. Checked before a solve (checkWritable) and at
    // the write; a link to it is refused alike.
    void writeProtectedFileIsKept()
    {
        const fs::path file = root_ / "kept.json";
        writeFileAtomically(file, "old\n");
        fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
        fs::create_symlink("kept.json", root_ / "link.json");
        for (const fs::path& path : {file, root_ / "link.json"}) {
            try {
                checkWritable(path);
                QFAIL("no error");
            } catch (const std::runtime_error& e) {
                QCOMPARE(std::string(e.what()), file.string() + ": is write-protected; not replaced");
            }
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(path, "new\n"));
        }
        QCOMPARE(contents(file), std::string("old\n"));
        QCOMPARE(entries(root_), 2);
    }

    // A path naming an open descriptor is written through it: `--out
    // /dev/stderr 2>> log` renamed a new file over the log, and the lines
    // before were gone.
    void descriptorIsWrittenThrough()
    {
        const fs::path log = root_ / "log.txt";
        std::ofstream(log) << "earlier\n";
        struct stat before {};
        QCOMPARE(::stat(log.c_str(), &before), 0);
        const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
        QVERIFY(fd >= 0);
        for (const std::string dir : {"/dev/fd/", "/proc/self/fd/"}) {
            checkWritable(dir + std::to_string(fd));
            writeFileAtomically(dir + std::to_string(fd), dir + "\n");
        }
        ::close(fd);
        QCOMPARE(contents(log), std::string("earlier\n/dev/fd/\n/proc/self/fd/\n"));
        struct stat after {};
        QCOMPARE(::stat(log.c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);  // the same file, not a new one renamed over it
        // A descriptor open only for reading is refused before any work.
        const int reading = ::open(log.c_str(), O_RDONLY);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkWritable("/dev/fd/" + std::to_string(reading)));
        ::close(reading);
    }

    void missingDirectoryIsNamed()
    {
        try {
            checkWritable(root_ / "none" / "x.json");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), (root_ / "none" / "x.json").string() + ": no directory " +
                                                (root_ / "none").string());
        }
        // A file where the directory would be is called what it is ("no
        // directory" read as a path to create).
        {
            std::ofstream(root_ / "afile") << "x";
        }
        try {
            checkWritable(root_ / "afile" / "x.json");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()),
                     (root_ / "afile" / "x.json").string() + ": " + (root_ / "afile").string() + " is not a directory");
        }
    }

private:
    std::unique_ptr<QTemporaryDir> dir_;
    fs::path root_;
};

QTEST_APPLESS_MAIN(TestAtomicWrite)
#include "tst_atomic_write.moc"
