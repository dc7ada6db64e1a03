// Marching squares on slices: hand-computed cells (the ambiguous saddle cut as the 3D tables cut
// a face), a disc whose contour lies on its circle, and the strong check: on a voxel plane the
// contour is exactly where the CPU marching-cubes surface crosses that plane.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/marching_squares.h"
#include "support/synthetic_volumes.h"
#include "volume/volume_slice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace isoview {
namespace {

TEST(MarchingSquares, OneInsideCornerGivesTheInterpolatedSegment)
{
    // Corner (1, 0) = 10 inside at iso 4; the others 0. Crossings at x = 0.4 on row 0 (from
    // (0,0) = 0 up to (1,0) = 10) and at y = 0.6 on column 1 (from (1,0) = 10 down to (1,1) = 0).
    const std::vector<float> v = {0, 10, 0, 0};
    const auto c = extractContour(v, 2, 2, 4.0f);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FLOAT_EQ(c[0].a.x, 0.4f);
    EXPECT_FLOAT_EQ(c[0].a.y, 0.0f);
    EXPECT_FLOAT_EQ(c[0].b.x, 1.0f);
    EXPECT_FLOAT_EQ(c[0].b.y, 0.6f);
}

TEST(MarchingSquares, ValueEqualToIsoIsInside)
{
    const std::vector<float> v = {4, 0, 0, 0};
    const auto c = extractContour(v, 2, 2, 4.0f);
    ASSERT_EQ(c.size(), 1u);
    // Both crossings sit on corner (0, 0) itself: t = 0.
    EXPECT_EQ(c[0].a, glm::vec2(0, 0));
    EXPECT_EQ(c[0].b, glm::vec2(0, 0));
}

TEST(MarchingSquares, SaddleSeparatesTheInsideCornersLikeTheCubeTables)
{
    // Inside corners (0,0) and (1,1) whose mean (5.5) is above iso: a cell-mean rule would join
    // them; the cube tables (and so this) always cut each inside corner off.
    const std::vector<float> v = {10, 1, 1, 10};
    const auto c = extractContour(v, 2, 2, 5.0f);
    ASSERT_EQ(c.size(), 2u);
    const float t = 5.0f / 9.0f; // from 10 down to 1 at 5: (5 - 10) / (1 - 10)
    EXPECT_EQ(c[0].a, glm::vec2(t, 0));
    EXPECT_EQ(c[0].b, glm::vec2(0, t));
    // The second surrounds corner (1, 1): crossings from 1 up to 10 at 5, t = 4 / 9.
    const float u = 4.0f / 9.0f;
    EXPECT_EQ(c[1].a, glm::vec2(u, 1));
    EXPECT_EQ(c[1].b, glm::vec2(1, u));
}

TEST(MarchingSquares, RefusesAMismatchedImage)
{
    const std::vector<float> v(5, 0.0f);
    EXPECT_THROW((void)extractContour(v, 2, 2, 0.0f), std::invalid_argument);
}

TEST(MarchingSquares, DiscContourLiesOnItsCircleAndCloses)
{
    const int n = 41;
    const glm::vec2 centre(20.3f, 19.7f);
    const float radius = 12.5f;
    std::vector<float> v(std::size_t(n) * n);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            v[std::size_t(y) * n + x] = radius - glm::length(glm::vec2(x, y) - centre);
    const auto c = extractContour(v, n, n, 0.0f);
    ASSERT_GT(c.size(), 60u);
    std::map<ContourEdge, int> uses;
    for (const ContourSegment& s : c) {
        // Linear interpolation of a distance along a grid edge errs by < 1 / (8 r) per unit.
        EXPECT_NEAR(glm::length(s.a - centre), radius, 0.02f);
        EXPECT_NEAR(glm::length(s.b - centre), radius, 0.02f);
        ++uses[s.edgeA];
        ++uses[s.edgeB];
    }
    // A closed curve: every crossing is shared by exactly two segments.
    for (const auto& [edge, count] : uses)
        EXPECT_EQ(count, 2) << "edge " << edge;
    // Its length is the circle's, within the chords' shortfall.
    float length = 0.0f;
    for (const ContourSegment& s : c)
        length += glm::length(s.b - s.a);
    EXPECT_NEAR(length, 2.0f * 3.14159265f * radius, 0.01f * 2.0f * 3.14159265f * radius);
}

// The 3D edge key of a contour crossing: the pixel edge's two end points through the slice's
// pixel -> index map, keyed by the lower one.
EdgeKey edgeKeyInVolume(const VolumeSlice& slice, const Volume& volume, ContourEdge edge)
{
    const int axis2d = int(edge % 2);
    const std::uint64_t lower = edge / 2;
    const glm::dvec2 p0(double(lower % std::uint64_t(slice.width)),
                        double(lower / std::uint64_t(slice.width)));
    glm::dvec2 p1 = p0;
    p1[axis2d] += 1.0;
    const glm::dvec3 i0 = slice.indexAt(p0);
    const glm::dvec3 i1 = slice.indexAt(p1);
    const glm::uvec3 low(glm::min(i0, i1));
    const int axis3d = axis2d == 0 ? slice.axes.columnAxis : slice.axes.rowAxis;
    const glm::uvec3 d = volume.dims();
    return makeEdgeKey(low.x + std::uint64_t(d.x) * (low.y + std::uint64_t(d.y) * low.z), axis3d);
}

// Compares the contour of every slice of an orientation with the marching-cubes surface: the
// crossings are the surface's vertices on that plane (same places), and every segment is an
// edge of a surface triangle.
void expectContoursOnSurface(const Volume& volume, float iso, SliceOrientation orientation)
{
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(iso));
    std::map<EdgeKey, std::uint32_t> vertexOfEdge;
    for (std::uint32_t v = 0; v < mesh.vertexCount(); ++v)
        vertexOfEdge[mesh.edgeKeys[v]] = v;
    std::set<std::pair<std::uint32_t, std::uint32_t>> triangleEdges;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = mesh.indices[3 * t + e];
            const std::uint32_t b = mesh.indices[3 * t + (e + 1) % 3];
            triangleEdges.insert({std::min(a, b), std::max(a, b)});
        }
    }
    const std::uint32_t count = sliceCount(volume, orientation);
    std::size_t segmentsChecked = 0;
    for (std::uint32_t index = 0; index < count; ++index) {
        const VolumeSlice slice = extractSlice(volume, orientation, index);
        const auto contour = extractContour(slice.stored, slice.width, slice.height, iso);
        const int normal = slice.axes.normalAxis;
        // The surface's vertices on this plane: on an edge within it.
        std::set<std::uint32_t> onPlane;
        for (std::uint32_t v = 0; v < mesh.vertexCount(); ++v) {
            const int axis = int(mesh.edgeKeys[v] % 3);
            if (axis != normal && mesh.positions[v][normal] == float(index)) onPlane.insert(v);
        }
        std::set<std::uint32_t> crossings;
        for (const ContourSegment& s : contour) {
            std::uint32_t ends[2];
            for (int e = 0; e < 2; ++e) {
                const EdgeKey key = edgeKeyInVolume(slice, volume, e == 0 ? s.edgeA : s.edgeB);
                const auto found = vertexOfEdge.find(key);
                ASSERT_NE(found, vertexOfEdge.end())
                    << sliceOrientationName(orientation) << " slice " << index
                    << ": a crossing the surface does not have";
                ends[e] = found->second;
                const glm::dvec3 p = slice.indexAt(glm::dvec2(e == 0 ? s.a : s.b));
                const glm::vec3 q = mesh.positions[found->second];
                EXPECT_NEAR(p.x, q.x, 1e-5);
                EXPECT_NEAR(p.y, q.y, 1e-5);
                EXPECT_NEAR(p.z, q.z, 1e-5);
                crossings.insert(found->second);
            }
            if (ends[0] != ends[1]) {
                EXPECT_TRUE(
                    triangleEdges.count({std::min(ends[0], ends[1]), std::max(ends[0], ends[1])}))
                    << sliceOrientationName(orientation) << " slice " << index
                    << ": a segment that is no triangle edge";
            }
            ++segmentsChecked;
        }
        EXPECT_EQ(crossings, onPlane) << sliceOrientationName(orientation) << " slice " << index;
    }
    EXPECT_GT(segmentsChecked, 50u);
}

TEST(MarchingSquares, ContourOnEveryVoxelPlaneIsWhereTheSurfaceCrossesIt)
{
    // A smooth field with several blobs, and random voxels (every saddle case, many times).
    const Volume smooth = test::makeFloatField({23, 19, 17}, [](glm::vec3 p) {
        return std::sin(p.x * 0.45f) * std::cos(p.y * 0.37f) + std::sin(p.z * 0.52f + 0.3f);
    });
    const Volume random = test::makeRandomVolume({12, 11, 10}, ScalarType::UInt8, 7);
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        expectContoursOnSurface(smooth, 0.2f, o);
        expectContoursOnSurface(random, 128.0f, o);
    }
}

TEST(MarchingSquares, ContourMatchesTheSurfaceOnFlippedPatientSlices)
{
    // Patient space with mirrored, permuted axes: the views flip and swap index axes, and the
    // contour must still land on the surface's vertices.
    VolumeGeometry g;
    g.direction = glm::dmat3(glm::dvec3(0, -1, 0), glm::dvec3(0, 0, -1), glm::dvec3(1, 0, 0));
    Volume v = test::makeRandomVolume({9, 10, 11}, ScalarType::Int16, 3);
    v.setGeometry(g);
    VolumeMetadata m;
    m.patientSpace = true;
    v.setMetadata(m);
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal})
        expectContoursOnSurface(v, 700.0f, o);
}

} // namespace
} // namespace isoview
