#pragma once
// The allocator settings a solve wants, for a program's main() to set first.
namespace poet {

// glibc maps a block of 128 kB or more apart and unmaps it when freed, and
// gives freed memory at the top of its heap back to the system past a
// threshold; both grow only after a large block was freed (to at most 32
// MB mapped apart and 64 MB kept). A replay allocates and frees matrices
// of n² entries (a 335-node graph's: 0.9 MB), and the quick schedules
// replay hundreds of schedules, so each replay paid its page faults anew:
// resnet50 on m4 at 10% and 1.5x had its first schedule 0.35 s into a
// fresh process's solve, 0.12 s into a second solve in the same process; a
// 771-node bert 3.8 s and 1.4 s. These set glibc's own largest values from
// the start (resnet50's first schedule then comes at 0.13 s in a fresh
// process too). Does nothing where the C library is not glibc.
void keepFreedHeapMemory();

}  // namespace poet
