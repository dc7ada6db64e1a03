// The GPU extraction (HistoPyramid + vertex-shader traversal + transform-feedback capture +
// welding) against the CPU reference marching cubes, on synthetic fields of every voxel type and
// on real volumes, on both the OpenGL 4.x path (indirect draw) and the 3.3 floor. Same inside
// rule on both sides, so the meshes must be the same mesh: identical triangles (by edge keys,
// with winding), identical welded vertex count, positions within 1e-3 voxels, normals within
// 1 degree.
#include "core/error.h"
#include "extraction/border_caps.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"

#include <cmath>
#include <functional>

namespace isoview::test {
namespace {

struct Case {
    std::string name;
    std::function<Volume()> load;
    std::vector<float> isovalues; // stored units
};

void expectSameAsCpu(const Volume& volume, float iso, bool limitToGl33, std::size_t minTriangles)
{
    GpuExtractor extractor(limitToGl33);
    extractor.setVolume(volume);
    extractor->extract(StoredValue(iso));
    const IsoMesh gpu = extractor->capture();
    const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(iso));
    const MeshComparison c = compareMeshes(gpu, cpu);
    SCOPED_TRACE("iso " + std::to_string(iso) + ": " + c.describe());
    EXPECT_GE(cpu.triangleCount(), minTriangles) << "the case should exercise real geometry";
    EXPECT_EQ(c.trianglesA, c.trianglesB);
    EXPECT_EQ(c.verticesA, c.verticesB);
    EXPECT_EQ(extractor->vertexCount(), 3 * cpu.triangleCount());
    EXPECT_EQ(extractor->weldedVertexCount(), cpu.vertexCount());
    EXPECT_EQ(c.unmatchedTriangles, 0u);
    EXPECT_EQ(c.unmatchedVertices, 0u);
    EXPECT_EQ(c.nonFinitePositions, 0u);
    EXPECT_LE(c.maxPositionDistance, 1e-3);
    EXPECT_EQ(c.normalsBeyondOneDegree, 0u);
}

class GpuVsCpuTest : public ::testing::TestWithParam<std::tuple<Case, bool>> {
protected:
    void SetUp() override { ASSERT_NO_THROW(glContext()); }
};

TEST_P(GpuVsCpuTest, SameMesh)
{
    const auto& [c, limitToGl33] = GetParam();
    const Volume volume = c.load();
    for (float iso : c.isovalues)
        expectSameAsCpu(volume, iso, limitToGl33, 10);
}

Volume smoothField(glm::uvec3 dims, ScalarType type, double amplitude, double offset)
{
    const float fx = 6.2831853f / float(dims.x);
    const float fy = 6.2831853f / float(dims.y);
    const float fz = 6.2831853f / float(dims.z);
    const Volume f = makeFloatField(dims, [&](glm::vec3 p) {
        return float(offset + amplitude *
                                  (std::sin(2.0f * fx * p.x) * std::cos(3.0f * fy * p.y) +
                                   std::sin(1.5f * fz * p.z + 0.3f)) /
                                  2.0);
    });
    std::vector<std::byte> bytes(f.voxelCount() * scalarSize(type));
    for (std::size_t i = 0; i < f.voxelCount(); ++i) {
        storeValue(bytes.data() + i * scalarSize(type), type, std::round(f.valueAt(i)));
    }
    return Volume(dims, type, std::move(bytes));
}

// Isovalues at 30% and 70% of the range that makeRandomVolume draws from.
std::vector<float> isovaluesWithin(ScalarType type)
{
    const ValueRange r = randomValueRange(type);
    return {float(r.min + 0.3 * (r.max - r.min)), float(r.min + 0.7 * (r.max - r.min))};
}

std::vector<Case> cases()
{
    return {
        {"sphere_float32_64",
         [] {
             return makeSphere({64, 64, 64}, glm::vec3(31.5f), 24.0f);
         },
         {0.0f, 5.5f}},
        {"random_uint8_odd",
         [] {
             return makeRandomVolume({20, 17, 13}, ScalarType::UInt8, 1);
         },
         {60.0f, 128.0f, 200.0f}},
        {"random_int8",
         [] {
             return makeRandomVolume({16, 15, 14}, ScalarType::Int8, 2);
         },
         {-20.0f, 0.0f, 40.0f}},
        {"random_uint16",
         [] {
             return makeRandomVolume({16, 16, 16}, ScalarType::UInt16, 3);
         },
         {1000.0f, 2048.0f}},
        {"random_int16",
         [] {
             return makeRandomVolume({33, 31, 29}, ScalarType::Int16, 4);
         },
         {-200.0f, 1000.0f}},
        {"random_uint32",
         [] {
             return makeRandomVolume({12, 13, 14}, ScalarType::UInt32, 5);
         },
         isovaluesWithin(ScalarType::UInt32)},
        {"random_int32",
         [] {
             return makeRandomVolume({14, 13, 12}, ScalarType::Int32, 6);
         },
         isovaluesWithin(ScalarType::Int32)},
        {"random_float32",
         [] {
             return makeRandomVolume({24, 19, 21}, ScalarType::Float32, 7);
         },
         {-0.3f, 0.0f, 0.25f}},
        {"random_float64",
         [] {
             return makeRandomVolume({11, 12, 13}, ScalarType::Float64, 8);
         },
         {0.1f}},
        {"smooth_int16_anisotropic_mirrored",
         [] {
             Volume v = smoothField({40, 36, 30}, ScalarType::Int16, 1000.0, 0.0);
             VolumeGeometry g;
             g.spacing = {0.7, 0.7, 2.5};
             g.direction = glm::dmat3(1, 0, 0, 0, -1, 0, 0, 0, 1);
             v.setGeometry(g);
             return v;
         },
         {-300.0f, 0.0f, 250.0f}},
        {"neghip",
         [] { return loadSharedRaw("raw/neghip_64x64x64_uint8.raw"); },
         {30.0f, 60.0f, 150.0f}},
        {"tooth_odd_width",
         [] { return loadSharedRaw("raw/tooth_103x94x161_uint8.raw"); },
         {120.0f}},
        {"ct_head_int16", [] { return loadCtHead(); }, {500.0f, 1600.0f}},
    };
}

// The mesh buffers start small and grow: a surface many times larger than the last one must
// still come out whole (the passes run again once the counts are known), and a smaller one
// after it must not keep stale vertices.
class MeshBufferTest : public GlPathTest {};

TEST_P(MeshBufferTest, GrowAndShrinkWithTheSurface)
{
    const Volume volume = smoothField({48, 40, 36}, ScalarType::Int16, 1000.0, 0.0);
    GpuExtractor extractor(GetParam());
    extractor.setVolume(volume);
    for (float iso : {900.0f, -900.0f, 0.0f, 950.0f}) {
        extractor->extract(StoredValue(iso));
        const IsoMesh gpu = extractor->capture();
        const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(iso));
        const MeshComparison c = compareMeshes(gpu, cpu);
        SCOPED_TRACE("iso " + std::to_string(iso) + ": " + c.describe());
        EXPECT_GT(cpu.triangleCount(), 0u);
        EXPECT_EQ(c.trianglesA, c.trianglesB);
        EXPECT_EQ(c.verticesA, c.verticesB);
        EXPECT_EQ(c.unmatchedTriangles, 0u);
        EXPECT_EQ(c.unmatchedVertices, 0u);
    }
}

// A crop limits extraction to its cells, and the result is exactly the CPU reference's surface
// of those cells (normals still from the whole volume): boxes aligned with the pyramid's blocks
// and not, touching the volume's faces or not, one voxel thick (no cells), the whole volume.
class CropTest : public GlPathTest {};

TEST_P(CropTest, CroppedSurfaceIsTheReferenceOfTheCellsInside)
{
    const Volume volume = smoothField({45, 38, 33}, ScalarType::Int16, 1000.0, 0.0);
    const float iso = 100.0f;
    GpuExtractor extractor(GetParam());
    extractor.setVolume(volume);
    const std::vector<VoxelBox> boxes = {{{0, 0, 0}, {44, 37, 32}},  {{3, 5, 7}, {30, 29, 25}},
                                         {{8, 8, 4}, {23, 31, 19}},  {{0, 10, 0}, {44, 20, 32}},
                                         {{17, 2, 9}, {17, 30, 20}}, {{1, 1, 1}, {2, 2, 2}},
                                         {{40, 0, 28}, {44, 37, 32}}};
    for (const VoxelBox& box : boxes) {
        extractor->setCrop(box);
        extractor->extract(StoredValue(iso));
        const IsoMesh gpu = extractor->capture();
        const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(iso), box);
        const MeshComparison c = compareMeshes(gpu, cpu);
        SCOPED_TRACE("box " + std::to_string(box.first.x) + "," + std::to_string(box.first.y) +
                     "," + std::to_string(box.first.z) + " .. " + std::to_string(box.last.x) + "," +
                     std::to_string(box.last.y) + "," + std::to_string(box.last.z) + ": " +
                     c.describe());
        EXPECT_EQ(c.trianglesA, c.trianglesB);
        EXPECT_EQ(c.verticesA, c.verticesB);
        EXPECT_EQ(extractor->weldedVertexCount(), cpu.vertexCount());
        EXPECT_EQ(c.unmatchedTriangles, 0u);
        EXPECT_EQ(c.unmatchedVertices, 0u);
        EXPECT_LE(c.maxPositionDistance, 1e-3);
        EXPECT_EQ(c.normalsBeyondOneDegree, 0u);
    }
    // The big boxes do cross the surface: the comparison is not of empty meshes.
    extractor->setCrop(boxes[1]);
    extractor->extract(StoredValue(iso));
    EXPECT_GT(extractor->capture().triangleCount(), 100u);
    EXPECT_THROW(extractor->setCrop({{0, 0, 0}, {45, 37, 32}}), Error); // beyond x
    EXPECT_THROW(extractor->setCrop({{5, 0, 0}, {4, 37, 32}}), Error);  // first > last
    EXPECT_EQ(extractor->crop(), boxes[1]); // a refused crop changes nothing
}

// Closing at the border (border_caps.h) welds caps to the surface by edge key, so the GPU
// capture closes into exactly the CPU reference's closed mesh, watertight, for the whole volume
// and for crops touching the volume's faces or not.
TEST_P(CropTest, ClosedAtTheBorderLikeTheReference)
{
    const Volume volume = smoothField({45, 38, 33}, ScalarType::Int16, 1000.0, 0.0);
    const float iso = 100.0f;
    GpuExtractor extractor(GetParam());
    extractor.setVolume(volume);
    for (const VoxelBox& box :
         {VoxelBox{{0, 0, 0}, {44, 37, 32}}, VoxelBox{{3, 5, 7}, {30, 29, 25}},
          VoxelBox{{40, 0, 28}, {44, 37, 32}}}) {
        extractor->setCrop(box);
        extractor->extract(StoredValue(iso));
        const IsoMesh gpu = closeAtBorders(extractor->capture(), volume, StoredValue(iso), box);
        const IsoMesh cpu = closeAtBorders(extractIsosurfaceCpu(volume, StoredValue(iso), box),
                                           volume, StoredValue(iso), box);
        const MeshComparison c = compareMeshes(gpu, cpu);
        SCOPED_TRACE(c.describe());
        EXPECT_GT(cpu.triangleCount(),
                  extractIsosurfaceCpu(volume, StoredValue(iso), box).triangleCount());
        EXPECT_EQ(c.trianglesA, c.trianglesB);
        EXPECT_EQ(c.verticesA, c.verticesB);
        EXPECT_EQ(c.unmatchedTriangles, 0u);
        EXPECT_EQ(c.unmatchedVertices, 0u);
        EXPECT_LE(c.maxPositionDistance, 1e-3);
        const MeshTopology topology = analyzeTopology(gpu);
        EXPECT_EQ(topology.boundaryEdges, 0u);
        EXPECT_EQ(topology.nonManifoldEdges, 0u);
        EXPECT_EQ(topology.inconsistentlyOrientedEdges, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(GlPaths, CropTest, ::testing::Values(false, true), glPathName);

INSTANTIATE_TEST_SUITE_P(GlPaths, MeshBufferTest, ::testing::Values(false, true), glPathName);

INSTANTIATE_TEST_SUITE_P(Volumes, GpuVsCpuTest,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::Values(false, true)),
                         [](const ::testing::TestParamInfo<std::tuple<Case, bool>>& info) {
                             return std::get<0>(info.param).name +
                                    (std::get<1>(info.param) ? "_gl33" : "_gl4x");
                         });

} // namespace
} // namespace isoview::test
