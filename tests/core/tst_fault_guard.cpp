// The fault guard (fault_guard.h): a fault inside it returns false and skips
// the rest of the guarded work, on any thread and in nested guards; work
// that ends normally or throws is unaffected; a fault outside every guard
// still ends the process. A failed assert() (glibc's __assert_fail, which
// this program's definition replaces) is such a fault, and says nothing
// inside a guard.
#include <QtTest>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "fault_guard.h"
#include "stderr_capture.h"

using namespace poet;

// What a failed assert() calls (glibc's <assert.h> declares it only without
// NDEBUG).
extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                           const char* function) noexcept;

namespace {

volatile int* volatile g_nowhere = nullptr;

int readNowhere()
{
    return *g_nowhere;
}

}  // namespace

class TestFaultGuard : public QObject {
    Q_OBJECT
private slots:
    void finishedWorkReturnsTrue()
    {
        int ran = 0;
        QVERIFY(runFaultGuarded([&] { ran = 42; }));
        QCOMPARE(ran, 42);
    }

    void badReadReturnsFalse()
    {
        bool after = false;
        volatile int sink = 0;
        QVERIFY(!runFaultGuarded([&] {
            sink = readNowhere();
            after = true;
        }));
        QVERIFY(!after);
        QVERIFY(!runFaultGuarded([&] { sink = readNowhere(); }));  // and again
        QCOMPARE(sink, 0);
    }

    // What a failed assert() does once it has printed its message.
    void abortReturnsFalse()
    {
        QVERIFY(!runFaultGuarded([] { std::abort(); }));
        QVERIFY(!runFaultGuarded([] { std::abort(); }));
        QVERIFY(runFaultGuarded([] {}));
    }

    // CBC's failed assertions (built without NDEBUG) call __assert_fail.
    void failedAssertionReturnsFalseQuietly()
    {
        bool finished = true;
        const std::string said = test::stderrOf(
            [&] { finished = runFaultGuarded([] { __assert_fail("depth > 0", "CbcModel.cpp", 7533, "addCuts"); }); });
        QVERIFY(!finished);
        QCOMPARE(said, std::string());
        QVERIFY(runFaultGuarded([] {}));
    }

    // In a child: outside a guard, glibc's message and an abort, as before.
    void unguardedFailedAssertionStillAborts()
    {
        qInfo("a child process fails an assertion next: Qt Test prints its stack trace");
        int pipe_ends[2];
        QCOMPARE(pipe(pipe_ends), 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            dup2(pipe_ends[1], 2);
            runFaultGuarded([] {});
            __assert_fail("depth > 0", "CbcModel.cpp", 7533, "addCuts");
        }
        close(pipe_ends[1]);
        std::string said;
        char chunk[4096];
        for (ssize_t got; (got = read(pipe_ends[0], chunk, sizeof chunk)) > 0;) said.append(chunk, got);
        close(pipe_ends[0]);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QVERIFY2(said.find("CbcModel.cpp:7533: addCuts: Assertion `depth > 0' failed.") != std::string::npos,
                 said.c_str());
    }

    void guardsNest()
    {
        bool inner = true, after_inner = false;
        QVERIFY(runFaultGuarded([&] {
            inner = runFaultGuarded([] { std::abort(); });
            after_inner = true;
        }));
        QVERIFY(!inner);
        QVERIFY(after_inner);
    }

    void exceptionsPassThrough()
    {
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runFaultGuarded([] { throw std::runtime_error("no"); }));
        QVERIFY(!runFaultGuarded([] { std::abort(); }));  // the guard still works after the throw
    }

    void eachThreadHasItsOwnGuard()
    {
        bool worker_finished = true;
        std::thread worker([&] { worker_finished = runFaultGuarded([] { (void)readNowhere(); }); });
        worker.join();
        QVERIFY(!worker_finished);
        QVERIFY(runFaultGuarded([] {}));
    }

    // In a child: a guard installs the handlers, then a fault outside it.
    void unguardedFaultStillEndsTheProcess()
    {
        qInfo("a child process faults next: Qt Test prints its stack trace");
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            runFaultGuarded([] {});
            (void)readNowhere();
            _exit(0);  // not reached
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
    }
};

QTEST_APPLESS_MAIN(TestFaultGuard)
#include "tst_fault_guard.moc"
