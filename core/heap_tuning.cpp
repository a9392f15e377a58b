#include "heap_tuning.h"

#include <cstdlib>  // defines __GLIBC__ where it is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace poet {

void keepFreedHeapMemory()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit
    mallopt(M_TRIM_THRESHOLD, 64 << 20);  // twice that, as glibc's dynamic rule sets it
#endif
}

}  // namespace poet
