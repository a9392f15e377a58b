// The fault guard (fault_guard.h): a fault inside it returns false and skips
// the rest of the guarded work, on any thread and in nested guards; work
// that ends normally or throws is unaffected; a fault outside every guard
// still ends the process.
#include <QtTest>

#include <cstdlib>
#include <stdexcept>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "fault_guard.h"

using namespace poet;

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
