#include "core/heap_reuse.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace isoview {

bool keepFreedHeapForReuse()
{
#if defined(__GLIBC__)
    // mallopt returns 1 on success; a sanitizer's interceptor returns 0 and changes nothing.
    const bool trim = mallopt(M_TRIM_THRESHOLD, static_cast<int>(kHeapTrimThreshold)) == 1;
    const bool mmap = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapMmapThreshold)) == 1;
    return trim && mmap;
#else
    return false;
#endif
}

void releaseFreedHeap()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace isoview
