#pragma once
// A guard around third-party code known to fault now and then, so that a
// fault loses that one computation instead of the whole process (and, in
// the explorer, the user's session).
//
// CBC 2.10.8 (Debian 12) faults on some of our bound MILPs: resnet18_cifar
// on m4 at 15% of the plain-pass peak and 1.5x, the bucket bound of the last
// 18 stages with the cutoff 0.6271 J reads an array at a garbage index in
// CbcNode::chooseDynamicBranch after ~13 s, every time (SIGSEGV); at 20% a
// cutoff lowered during the search fails an assertion in CbcModel::addCuts
// (SIGABRT). Other cutoffs, cut generators or branching rules move the
// fault elsewhere or cost the bound its strength (tst_bucket_bound.cpp
// reproduces the first). cbc_setup.h's guardedBranchAndBound runs every
// CBC search under a guard: the bucket, stage-peak, arrival and checkpoint
// bounds, the window search, the paging plan (plan_search.h) and the
// formulation's tree. The last four ran without one until session 78, when
// a failed assertion in CbcSimpleIntegerDynamicPseudoCost::createCbcBranch
// ended bench_solve (resnet18_cifar on m4 at 11% and 1.002x, once in
// several runs; which search it was is not known).

#include <functional>

namespace poet {

// Runs `work` on the calling thread. Returns true when it finished, false
// when it raised SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT on this thread
// or failed an assert() (whose message is then not printed):
// then the rest of `work` is skipped and whatever it had allocated is
// leaked (destructors do not run). A fault on any other thread, or outside
// a guard, ends the process as it always would. Guards nest.
//
// Only for code that faults by reading through a bad index or failing an
// assertion: a fault inside the allocator would leave the heap unusable.
bool runFaultGuarded(const std::function<void()>& work);

}  // namespace poet
