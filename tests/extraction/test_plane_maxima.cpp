// PlaneMaxima bounds the values on a crop box's faces: exactly for the whole volume's box, from
// above for any other box, with NaN counted as outside and +Inf as inside (as classification
// counts them).
#include "extraction/plane_maxima.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace isoview::test {
namespace {

// The largest value on the box's faces, by brute force.
float faceMax(const Volume& v, const VoxelBox& b)
{
    float m = -std::numeric_limits<float>::infinity();
    for (std::uint32_t k = b.first.z; k <= b.last.z; ++k)
        for (std::uint32_t j = b.first.y; j <= b.last.y; ++j)
            for (std::uint32_t i = b.first.x; i <= b.last.x; ++i) {
                const bool onFace = i == b.first.x || i == b.last.x || j == b.first.y ||
                                    j == b.last.y || k == b.first.z || k == b.last.z;
                const float value = v.valueAt(i, j, k);
                if (onFace && !std::isnan(value)) m = std::max(m, value);
            }
    return m;
}

TEST(PlaneMaxima, BoundsTheFacesOfEveryBoxAndIsExactForTheWholeVolume)
{
    const Volume v = makeFloatField(
        {13, 9, 7}, [](glm::vec3 p) { return std::sin(0.7f * p.x) + std::cos(0.5f * p.y * p.z); });
    const PlaneMaxima planes = PlaneMaxima::compute(v);
    const VoxelBox whole = VoxelBox::whole(v.dims());
    EXPECT_EQ(planes.boundaryBound(whole), faceMax(v, whole));
    for (const VoxelBox& box : {VoxelBox{{2, 1, 1}, {9, 7, 5}}, VoxelBox{{0, 3, 2}, {12, 3, 6}},
                                VoxelBox{{5, 5, 5}, {5, 5, 5}}}) {
        EXPECT_GE(planes.boundaryBound(box), faceMax(v, box));
    }
    // Every plane's maximum, against brute force.
    for (std::uint32_t i = 0; i < 13; ++i) {
        const VoxelBox plane{{i, 0, 0}, {i, 8, 6}};
        EXPECT_EQ(planes.planeMax(0, i), faceMax(v, plane));
    }
}

TEST(PlaneMaxima, ClosedOnlyWhenEveryFaceVoxelIsBelowTheIsovalue)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // 0 on the faces, 10 inside; one face voxel set to NaN, then to +Inf.
    const auto field = [](float faceValue) {
        return makeFloatField({6, 6, 6}, [=](glm::vec3 p) {
            const bool face = p.x == 0 || p.y == 0 || p.z == 0 || p.x == 5 || p.y == 5 || p.z == 5;
            if (face && p.x == 0 && p.y == 2 && p.z == 3) return faceValue;
            return face ? 0.0f : 10.0f;
        });
    };
    const VoxelBox whole{{0, 0, 0}, {5, 5, 5}};
    const PlaneMaxima plain = PlaneMaxima::compute(field(0.0f));
    EXPECT_TRUE(plain.boundaryOutside(whole, StoredValue(5.0f)));
    EXPECT_FALSE(plain.boundaryOutside(whole, StoredValue(0.0f)))
        << "a face voxel equal to it is inside";
    EXPECT_FALSE(plain.boundaryOutside(VoxelBox{{1, 1, 1}, {4, 4, 4}}, StoredValue(5.0f)))
        << "cut open";
    EXPECT_TRUE(PlaneMaxima::compute(field(nan)).boundaryOutside(whole, StoredValue(5.0f)));
    EXPECT_FALSE(PlaneMaxima::compute(field(inf)).boundaryOutside(whole, StoredValue(5.0f)));
    EXPECT_FALSE(plain.boundaryOutside(whole, StoredValue(nan)));
    EXPECT_EQ(plain.openFaces(whole, StoredValue(5.0f)), 0u);
    EXPECT_EQ(plain.openFaces(whole, StoredValue(nan)), PlaneMaxima::kAllFaces);
    // The NaN or +Inf voxel lies on the face x = 0 only (face 0).
    EXPECT_EQ(PlaneMaxima::compute(field(inf)).openFaces(whole, StoredValue(5.0f)), 1u);
    EXPECT_EQ(PlaneMaxima::compute(field(nan)).openFaces(whole, StoredValue(5.0f)), 0u);
    // A box from x = 1 to 5: its face x = 1 cuts through the inside, the others do not (its
    // y and z faces still lie in planes that are 0 outside x = 1..4, but 10 inside).
    const VoxelBox inner{{1, 0, 0}, {5, 5, 5}};
    EXPECT_EQ(plain.openFaces(inner, StoredValue(5.0f)) & 1u, 1u);
    EXPECT_EQ(plain.openFaces(inner, StoredValue(5.0f)) & 2u, 0u) << "x = 5 is all 0";
}

} // namespace
} // namespace isoview::test
