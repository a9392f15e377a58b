#include "fault_guard.h"

#include <errno.h>  // program_invocation_short_name

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace poet {

namespace {

constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// The innermost guard of this thread, if any.
thread_local sigjmp_buf* t_guard = nullptr;

struct sigaction g_before[NSIG];

void onFault(int sig, siginfo_t*, void*)
{
    if (sigjmp_buf* guard = t_guard) siglongjmp(*guard, sig);
    // Unguarded: what would have happened without us. The signal is blocked
    // while this handler runs, so it is delivered again as this returns.
    sigaction(sig, &g_before[sig], nullptr);
    raise(sig);
}

void installOnce()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action = {};
        action.sa_sigaction = onFault;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        for (int sig : kFaults) sigaction(sig, &action, &g_before[sig]);
    });
}

}  // namespace

}  // namespace poet

// glibc's assert() calls this once a check fails; the executable's own
// definition takes the place of glibc's for every library, CBC's included.
// Inside a guard the failure only ends the guarded work, as the SIGABRT
// that glibc's abort() raises would, but without glibc's message on stderr:
// a user saw "Assertion ... failed." and took the solve that went on for a
// crash. Outside a guard it does what glibc's does.
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line,
                              const char* function) noexcept
{
    if (sigjmp_buf* guard = poet::t_guard) siglongjmp(*guard, SIGABRT);
    std::fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name, file, line,
                 function ? function : "", function ? ": " : "", assertion);
    std::fflush(stderr);
    std::abort();
}

namespace poet {

bool runFaultGuarded(const std::function<void()>& work)
{
    installOnce();
    // Restores the enclosing guard however this returns; a fault lands back
    // in this frame, so its destructors still run.
    struct Restore {
        sigjmp_buf* outer = t_guard;
        ~Restore() { t_guard = outer; }
    } restore;
    sigjmp_buf guard;
    if (sigsetjmp(guard, 1) != 0) return false;  // 1: and the signal mask
    t_guard = &guard;
    work();
    return true;
}

}  // namespace poet
