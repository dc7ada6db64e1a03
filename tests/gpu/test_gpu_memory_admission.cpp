// GPU memory admission, with no GL: a volume beyond the budget, or beyond what the GPU has free
// with what the previous volume frees, is refused with its size, the limit and what to do (an
// 8-bit copy only for wider voxels); nothing is refused where nothing says how much is free; an
// upload that runs out of memory all the same says so with the same figures; and a budget
// leaves the mesh what the placed volume's texture and pyramids do not take.
#include "gpu/gpu_memory_admission.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isoview::test {
namespace {

using gpu::GpuMemoryAdmission;
using gpu::GpuMemoryError;
using gpu::GpuMemoryFigures;

// Zeros of the given type.
Volume blank(glm::uvec3 dims, ScalarType type)
{
    const std::size_t bytes = std::size_t(dims.x) * dims.y * dims.z * scalarSize(type);
    return Volume(dims, type, std::vector<std::byte>(bytes));
}

// A budget (0: none), what the GPU has free (nullopt: it does not say) and what the previous
// volume frees.
GpuMemoryFigures figures(std::uint64_t budget, std::optional<std::uint64_t> free,
                         std::uint64_t previous = 0)
{
    GpuMemoryFigures f;
    f.budgetBytes = budget;
    f.freeBytes = free;
    f.previousVolumeBytes = previous;
    return f;
}

// What admitting the volume throws; empty when it is admitted.
std::string refusal(const Volume& volume, const GpuMemoryFigures& figures)
{
    try {
        const GpuMemoryAdmission admission(volume, figures);
    } catch (const GpuMemoryError& e) {
        return e.what();
    }
    return {};
}

// 10^6 voxels of 2 bytes: 2.2 bytes of texture and 1.8 of pyramids each, 4.0 MB.
const Volume& wide()
{
    static const Volume volume = blank({100, 100, 100}, ScalarType::UInt16);
    return volume;
}

TEST(GpuMemoryAdmission, EstimatesTheTextureAndPyramidsOfEachVoxel)
{
    EXPECT_EQ(GpuMemoryAdmission::estimatedBytes(wide()), 4'000'000u);
    EXPECT_EQ(GpuMemoryAdmission::estimatedBytes(blank({128, 128, 64}, ScalarType::UInt8)),
              3'040'870u);
}

TEST(GpuMemoryAdmission, AVolumeBeyondTheBudgetIsRefusedWithTheFiguresAndWhatToDo)
{
    EXPECT_EQ(refusal(wide(), figures(3'000'000, std::nullopt)),
              "This 100x100x100 uint16 volume needs about 4.0 MB of GPU memory (volume texture "
              "and pyramids), more than the budget of 3.0 MB. To view it, open a cropped part of "
              "it (a smaller region or fewer slices), a subsampled copy, an 8-bit copy, or raise "
              "the budget.");
    EXPECT_EQ(refusal(wide(), figures(4'000'000, std::nullopt)), "") << "exactly the budget fits";
    // A budget is for one volume: neither the GPU's free memory nor the previous volume counts.
    EXPECT_EQ(refusal(wide(), figures(10'000'000, 1'000)), "");
    EXPECT_NE(refusal(wide(), figures(3'999'999, std::nullopt, 1'000'000)), "");
}

TEST(GpuMemoryAdmission, AVolumeBeyondTheFreeMemoryIsRefusedCountingWhatThePreviousFrees)
{
    EXPECT_EQ(refusal(wide(), figures(0, 2'500'000, 1'000'000)),
              "This 100x100x100 uint16 volume needs about 4.0 MB of GPU memory (volume texture "
              "and pyramids), more than the 3.5 MB the GPU has free. To view it, open a cropped "
              "part of it (a smaller region or fewer slices), a subsampled copy, an 8-bit copy, "
              "or close other programs that use the GPU.");
    EXPECT_EQ(refusal(wide(), figures(0, 2'500'000, 1'500'000)), "");
    // Bytes a voxel already: no 8-bit copy to suggest.
    EXPECT_EQ(refusal(blank({128, 128, 64}, ScalarType::UInt8), figures(0, 1'000'000)),
              "This 128x128x64 uint8 volume needs about 3.0 MB of GPU memory (volume texture and "
              "pyramids), more than the 1.0 MB the GPU has free. To view it, open a cropped part "
              "of it (a smaller region or fewer slices), a subsampled copy, or close other "
              "programs that use the GPU.");
    EXPECT_EQ(refusal(wide(), figures(0, std::nullopt)), "")
        << "nothing says how much is free: the upload decides";
}

TEST(GpuMemoryAdmission, AnUploadThatRunsOutOfMemoryAllTheSameGivesTheFigures)
{
    const GpuMemoryAdmission admission(wide(), figures(0, std::nullopt));
    const GpuMemoryError driver("the GPU ran out of memory allocating the volume texture (4.4 MB)");
    EXPECT_STREQ(admission.uploadFailed(driver).what(),
                 "This 100x100x100 uint16 volume needs about 4.0 MB of GPU memory (volume texture "
                 "and pyramids) and does not fit: the GPU ran out of memory allocating the volume "
                 "texture (4.4 MB). To view it, open a cropped part of it (a smaller region or "
                 "fewer slices), a subsampled copy, an 8-bit copy, or close other programs that "
                 "use the GPU.");
    EXPECT_STREQ(admission.systemOutOfMemory().what(),
                 "This 100x100x100 uint16 volume needs about 4.0 MB of GPU memory (volume texture "
                 "and pyramids) and does not fit: the system ran out of memory placing it on the "
                 "GPU. To view it, open a cropped part of it (a smaller region or fewer slices), "
                 "a subsampled copy, an 8-bit copy, or close other programs.");
}

TEST(GpuMemoryAdmission, ABudgetLeavesTheMeshWhatTheTextureAndPyramidsDoNotTake)
{
    gpu::GpuMemoryUse placed;
    placed.volumeTextureBytes = 2'000'000;
    placed.pyramidBytes = 3'000'000;
    placed.meshBytes = 700'000; // the previous surface's buffers: the mesh's own
    EXPECT_EQ(GpuMemoryAdmission(wide(), figures(0, std::nullopt)).meshByteLimit(placed),
              std::nullopt);
    EXPECT_EQ(GpuMemoryAdmission(wide(), figures(9'000'000, std::nullopt)).meshByteLimit(placed),
              4'000'000u);
    // All of it taken: one byte, since 0 would mean no limit.
    EXPECT_EQ(GpuMemoryAdmission(wide(), figures(5'000'000, std::nullopt)).meshByteLimit(placed),
              1u);
}

} // namespace
} // namespace isoview::test
