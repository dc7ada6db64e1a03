// Keeps freed heap memory in the process between frames, and gives it back on request.
//
// Why: Mesa's llvmpipe bins every frame's triangles into 64 KiB blocks that it mallocs and
// frees again once the frame is rasterized (about 55 MB a frame for the 256^3 blob at 1280x720,
// 325 MB for the 512x512x140 CT stand-in at 300 HU, counted with a malloc shim). glibc hands the
// freed top of the heap back to the kernel as soon as it exceeds M_TRIM_THRESHOLD (128 KiB unless
// it adapts), so the next frame faults every page back in and the kernel zeroes it: on the blob a
// third of the mesh draw. With a trim threshold above a frame's binning the pages stay mapped and
// are reused.
//
// Contract:
// - keepFreedHeapForReuse() sets glibc's M_TRIM_THRESHOLD to kHeapTrimThreshold and
//   M_MMAP_THRESHOLD to kHeapMmapThreshold. Call it once at the start of main, before other
//   threads allocate. It returns false where the allocator is not glibc's (a sanitizer's, a
//   libc without mallopt): nothing changed then.
// - Allocations above kHeapMmapThreshold (volumes, pyramids' staging) are still mapped on their
//   own and returned to the system when freed; only smaller freed blocks are kept, at most
//   kHeapTrimThreshold at the heap's top.
// - releaseFreedHeap() gives the free heap back now (malloc_trim): for a window gone idle.
//   Peak memory does not change; the memory kept between frames is what the next frame would
//   have mapped again.
#pragma once

#include <cstddef>

namespace isoview {

inline constexpr std::size_t kHeapTrimThreshold = std::size_t{512} << 20;
inline constexpr std::size_t kHeapMmapThreshold = std::size_t{32} << 20;

bool keepFreedHeapForReuse();
void releaseFreedHeap();

} // namespace isoview
