// Padding voxels (VolumeMetadata::paddingValue, DICOM PixelPaddingValue) on the GPU: the shared
// GE CT slice stacked three times with its -2000 ring outside the reconstruction circle marked
// as padding the way the DICOM loader stores it (int16 -32768). At the suggested isovalue and
// at the lowest one the histogram offers, the GPU's surface is the CPU's, and neither has a
// surface around the padding region.
#include "extraction/cpu_marching_cubes.h"
#include "io/volume_loader.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/shared_data.h"
#include "volume/histogram.h"
#include "volume/isovalue_suggestion.h"

#include <gtest/gtest.h>

#include <cstring>

namespace isoview::test {
namespace {

constexpr std::int16_t kRing = -2000;
constexpr std::int16_t kPadding = -32768;

// The slice three times, its ring as padding.
Volume paddedCtStack()
{
    const Volume slice = io::loadVolume(sharedDataPath(
        "dicom/single/CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm"));
    EXPECT_EQ(slice.type(), ScalarType::Int16);
    const glm::uvec3 d = slice.dims();
    const std::size_t n = std::size_t(d.x) * d.y;
    std::vector<std::byte> bytes(3 * n * sizeof(std::int16_t));
    for (std::size_t k = 0; k < 3; ++k) {
        for (std::size_t i = 0; i < n; ++i) {
            std::int16_t v = 0;
            std::memcpy(&v, slice.bytes() + i * sizeof v, sizeof v);
            if (v == kRing) v = kPadding;
            std::memcpy(bytes.data() + (k * n + i) * sizeof v, &v, sizeof v);
        }
    }
    Volume stack({d.x, d.y, 3}, ScalarType::Int16, std::move(bytes), {}, slice.rescale());
    VolumeMetadata metadata = slice.metadata();
    metadata.paddingValue = kPadding;
    stack.setMetadata(metadata);
    return stack;
}

// Vertices on a cell edge from a padding voxel to a data voxel farther than a tenth of a voxel
// from the data end: the marks of a surface drawn around the padding rather than closing on
// data. A crossing lies (data - iso) / (data - padding) from the data end: at most about 0.095
// voxel for this CT (data up to 3426 stored, padding -32768).
std::size_t verticesAwayFromData(const Volume& v, const IsoMesh& mesh)
{
    std::size_t count = 0;
    for (const glm::vec3& p : mesh.positions) {
        const glm::uvec3 lo(glm::floor(p));
        const glm::uvec3 hi(glm::ceil(p));
        const bool loPadding = v.valueAt(lo.x, lo.y, lo.z) == float(kPadding);
        const bool hiPadding = v.valueAt(hi.x, hi.y, hi.z) == float(kPadding);
        if (loPadding == hiPadding) continue;
        count += glm::length(p - glm::vec3(loPadding ? hi : lo)) >= 0.1f ? 1 : 0;
    }
    return count;
}

using PaddingOnGpu = GlTest;

TEST_F(PaddingOnGpu, CtRingIsOutsideEverySurfaceOnCpuAndGpu)
{
    const Volume stack = paddedCtStack();
    const Histogram histogram = computeHistogram(stack);
    EXPECT_GT(stack.storedRange().min, double(kRing)); // the ring is gone from the range
    EXPECT_GT(histogram.paddingCount, 150000u);
    const double suggested = suggestIsovalue(histogram, stack.metadata());

    GpuExtractor extractor;
    extractor.setVolume(stack);
    for (const double real : {suggested, histogram.min + 1.0}) {
        const float iso = stack.rescale().toStored(real).classified();
        const IsoMesh cpu = extractIsosurfaceCpu(stack, StoredValue(iso));
        extractor->extract(StoredValue(iso));
        const IsoMesh gpu = extractor->capture();
        ASSERT_GT(cpu.triangleCount(), 0u) << real;
        const MeshComparison m = compareMeshes(gpu, cpu);
        EXPECT_EQ(m.unmatchedTriangles, 0u) << real << " HU: " << m.describe();
        EXPECT_EQ(m.verticesA, m.verticesB) << real << " HU: " << m.describe();
        EXPECT_LE(m.maxPositionDistance, 1e-3) << real << " HU: " << m.describe();
        EXPECT_EQ(verticesAwayFromData(stack, cpu), 0u) << real;
        EXPECT_EQ(verticesAwayFromData(stack, gpu), 0u) << real;
    }
}

TEST_F(PaddingOnGpu, SyntheticPaddedBlockMakesNoSurfaceOfItsOwn)
{
    // 24^3 int16: a sphere of 1000 in a background of 0, and the slab x < 4 padding.
    const glm::uvec3 d(24, 24, 24);
    std::vector<std::byte> bytes(std::size_t(d.x) * d.y * d.z * sizeof(std::int16_t));
    std::size_t n = 0;
    for (std::uint32_t k = 0; k < d.z; ++k) {
        for (std::uint32_t j = 0; j < d.y; ++j) {
            for (std::uint32_t i = 0; i < d.x; ++i) {
                const glm::vec3 p(i, j, k);
                std::int16_t v = glm::length(p - glm::vec3(13.5f)) < 7.0f ? 1000 : 0;
                if (i < 4) v = kPadding;
                std::memcpy(bytes.data() + 2 * n++, &v, 2);
            }
        }
    }
    Volume volume(d, ScalarType::Int16, std::move(bytes));
    // Without the padding value the slider would reach down to it, where the slab has a
    // surface of its own.
    EXPECT_EQ(computeHistogram(volume).min, double(kPadding));
    VolumeMetadata metadata;
    metadata.paddingValue = kPadding;
    volume.setMetadata(metadata);
    EXPECT_EQ(volume.storedRange().min, 0.0);
    const Histogram histogram = computeHistogram(volume);
    EXPECT_EQ(histogram.paddingCount, std::uint64_t(4) * d.y * d.z);
    EXPECT_GE(histogram.min, -0.5);
    const double suggested = suggestIsovalue(histogram, metadata);
    EXPECT_GT(suggested, 0.0);
    EXPECT_LE(suggested, 1000.0);

    GpuExtractor extractor;
    extractor.setVolume(volume);
    // Anywhere in the offered range above the background, the sphere alone.
    for (const float iso : {float(histogram.min) + 0.5f, 500.0f, float(suggested)}) {
        const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(iso));
        extractor->extract(StoredValue(iso));
        const MeshComparison m = compareMeshes(extractor->capture(), cpu);
        EXPECT_EQ(m.unmatchedTriangles, 0u) << iso << ": " << m.describe();
        for (const glm::vec3& p : cpu.positions) {
            EXPECT_GT(p.x, 4.0f) << "a vertex at the padding, isovalue " << iso;
        }
    }
}

} // namespace
} // namespace isoview::test
