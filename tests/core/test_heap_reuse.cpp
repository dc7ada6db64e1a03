// The heap keeps freed blocks of a frame's size for the next frame, and gives them back on
// request (core/heap_reuse.h). Blocks of llvmpipe's binning size, 64 KiB and a header.
#include "core/heap_reuse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISOVIEW_TEST_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ISOVIEW_TEST_UNDER_ASAN 1
#endif

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

constexpr std::size_t kBlockBytes = 65552;
constexpr std::size_t kBlocks = 1000; // 64 MB: under both thresholds

[[maybe_unused]] std::size_t freeHeapBytes()
{
#if defined(__GLIBC__)
    return mallinfo2().fordblks;
#else
    return 0;
#endif
}

[[maybe_unused]] std::size_t heapBytes()
{
#if defined(__GLIBC__)
    return mallinfo2().arena;
#else
    return 0;
#endif
}

// (Unused under a sanitizer, whose allocator mallopt cannot tune.)
// Allocates a frame's worth of blocks, writes every page, frees them newest first (as a scene's
// data blocks go) and returns the heap's free bytes just after.
[[maybe_unused]] std::size_t freeBytesAfterOneFrame()
{
    std::vector<void*> blocks;
    blocks.reserve(kBlocks);
    for (std::size_t i = 0; i < kBlocks; ++i) {
        void* block = std::malloc(kBlockBytes);
        if (!block) break;
        std::memset(block, int(i & 0xff), kBlockBytes);
        blocks.push_back(block);
    }
    EXPECT_EQ(blocks.size(), kBlocks);
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
        std::free(*it);
    return freeHeapBytes();
}

} // namespace

TEST(HeapReuse, FreedFrameBlocksStayForTheNextFrameUntilReleased)
{
#if defined(ISOVIEW_TEST_UNDER_ASAN) || !defined(__GLIBC__)
    // The sanitizer's allocator answers mallopt with 0: the setting is refused, not half made.
    EXPECT_FALSE(isoview::keepFreedHeapForReuse());
#else
    ASSERT_TRUE(isoview::keepFreedHeapForReuse());
    const std::size_t frameBytes = kBlocks * kBlockBytes;
    // glibc's default would have trimmed the freed top (over 128 KiB) back to the kernel.
    EXPECT_GE(freeBytesAfterOneFrame(), frameBytes);
    const std::size_t heapBefore = heapBytes();
    // A second frame reuses the kept blocks: the heap does not grow.
    freeBytesAfterOneFrame();
    EXPECT_LE(heapBytes(), heapBefore);
    isoview::releaseFreedHeap();
    EXPECT_LT(freeHeapBytes(), frameBytes / 8);
    EXPECT_LE(heapBytes() + frameBytes * 7 / 8, heapBefore);
#endif
}
