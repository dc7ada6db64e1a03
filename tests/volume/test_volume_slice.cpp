// Slices of a volume: which index axes each view takes (index planes without patient space,
// the closest index axis with it), the radiological flips and edge letters, the values, and
// where each pixel lies (uneven and tilted stacks shown where their slices were measured).
#include "support/synthetic_volumes.h"
#include "volume/volume_slice.h"

#include <gtest/gtest.h>

#include <cmath>

namespace isoview {
namespace {

Volume indexCoded(glm::uvec3 dims, VolumeGeometry g = {}, bool patient = false)
{
    Volume v = test::makeTypedVolume<std::int32_t>(
        dims, [](auto i, auto j, auto k) { return int(i + 100 * j + 10000 * k); }, std::move(g));
    VolumeMetadata m;
    m.patientSpace = patient;
    v.setMetadata(m);
    return v;
}

TEST(VolumeSlice, IndexPlanesWithoutPatientSpace)
{
    const Volume v = indexCoded({5, 6, 7});
    const VolumeSlice axial = extractSlice(v, SliceOrientation::Axial, 3);
    EXPECT_EQ(axial.width, 5);
    EXPECT_EQ(axial.height, 6);
    EXPECT_EQ(axial.storedAt(2, 4), 2 + 400 + 30000);
    const VolumeSlice coronal = extractSlice(v, SliceOrientation::Coronal, 2);
    EXPECT_EQ(coronal.width, 5);
    EXPECT_EQ(coronal.height, 7);
    // k grows upward: the top row is the last slice.
    EXPECT_EQ(coronal.storedAt(1, 0), 1 + 200 + 60000);
    EXPECT_EQ(coronal.storedAt(1, 6), 1 + 200);
    const VolumeSlice sagittal = extractSlice(v, SliceOrientation::Sagittal, 4);
    EXPECT_EQ(sagittal.width, 6);
    EXPECT_EQ(sagittal.height, 7);
    EXPECT_EQ(sagittal.storedAt(5, 6), 4 + 500);
    EXPECT_EQ(sliceCount(v, SliceOrientation::Sagittal), 5u);
    for (std::string_view letter : axial.axes.edgeLetters)
        EXPECT_TRUE(letter.empty());
}

TEST(VolumeSlice, SliceIndexIsClampedToTheVolume)
{
    const Volume v = indexCoded({4, 4, 3});
    const VolumeSlice s = extractSlice(v, SliceOrientation::Axial, 99);
    EXPECT_EQ(s.sliceIndex, 2u);
    EXPECT_EQ(s.storedAt(0, 0), 20000);
}

TEST(VolumeSlice, PatientSpaceTakesTheClosestIndexAxisAndShowsRadiologically)
{
    // A sagittal acquisition: i runs anterior -> posterior (+y), j superior -> inferior (-z),
    // k right -> left (+x); slightly oblique so the choice is by closeness, not equality.
    const double c = std::cos(0.2);
    const double s = std::sin(0.2);
    VolumeGeometry g;
    g.direction = glm::dmat3(glm::dvec3(0, c, s), glm::dvec3(0, s, -c), glm::dvec3(1, 0, 0));
    const Volume v = indexCoded({8, 9, 10}, g, true);

    const SliceAxes axial = sliceAxes(v, SliceOrientation::Axial);
    EXPECT_EQ(axial.normalAxis, 1);  // j is closest to S-I
    EXPECT_EQ(axial.columnAxis, 2);  // k along L-R
    EXPECT_EQ(axial.rowAxis, 0);     // i along A-P
    EXPECT_FALSE(axial.flipColumns); // k runs toward the left = screen right
    EXPECT_FALSE(axial.flipRows);    // i runs toward posterior = screen down
    EXPECT_EQ(axial.edgeLetters[0], "R");
    EXPECT_EQ(axial.edgeLetters[2], "A");

    const SliceAxes sagittal = sliceAxes(v, SliceOrientation::Sagittal);
    EXPECT_EQ(sagittal.normalAxis, 2);
    EXPECT_EQ(sagittal.columnAxis, 0);
    EXPECT_EQ(sagittal.rowAxis, 1);
    EXPECT_FALSE(sagittal.flipRows); // j runs inferior = screen down
    EXPECT_EQ(sagittal.edgeLetters[0], "A");
    EXPECT_EQ(sagittal.edgeLetters[3], "I");

    // Top-left of the coronal view is the patient's right and superior.
    const VolumeSlice coronal = extractSlice(v, SliceOrientation::Coronal, 4);
    EXPECT_EQ(coronal.axes.normalAxis, 0);
    const glm::dvec3 topLeft = coronal.toPhysical({0, 0});
    const glm::dvec3 bottomRight = coronal.toPhysical({coronal.width - 1, coronal.height - 1});
    EXPECT_LT(topLeft.x, bottomRight.x); // right (small x) on the left
    EXPECT_GT(topLeft.z, bottomRight.z); // superior at the top
    // The values are the voxels named by indexAt.
    const glm::dvec3 idx = coronal.indexAt({3, 5});
    EXPECT_EQ(coronal.storedAt(3, 5),
              v.valueAt(std::uint32_t(idx.x), std::uint32_t(idx.y), std::uint32_t(idx.z)));
}

// Every pixel of every view is the voxel indexAt names, as Volume::valueAt reads it, whatever
// the voxel type and however the view flips its axes (the slices copy planes by type and
// stride, not voxel by voxel).
template <class T> void expectSlicesAreTheVoxels(bool patient)
{
    // The sagittal acquisition of the test above, mirrored: its views flip columns and rows.
    VolumeGeometry g;
    if (patient) {
        const double c = std::cos(0.2);
        const double s = std::sin(0.2);
        g.direction = glm::dmat3(glm::dvec3(0, -c, s), glm::dvec3(0, s, -c), glm::dvec3(-1, 0, 0));
    }
    Volume v = test::makeTypedVolume<T>(
        {6, 7, 5}, [](auto i, auto j, auto k) { return (i + 7 * j + 49 * k) % 120; }, g);
    VolumeMetadata m;
    m.patientSpace = patient;
    v.setMetadata(m);
    bool flipped = false;
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        for (std::uint32_t index : {0u, 2u, 9u}) {
            const VolumeSlice slice = extractSlice(v, o, index);
            flipped = flipped || slice.axes.flipColumns || slice.axes.flipRows;
            for (int y = 0; y < slice.height; ++y) {
                for (int x = 0; x < slice.width; ++x) {
                    const glm::dvec3 at = slice.indexAt({x, y});
                    ASSERT_EQ(
                        slice.storedAt(x, y),
                        v.valueAt(std::uint32_t(at.x), std::uint32_t(at.y), std::uint32_t(at.z)))
                        << sliceOrientationName(o) << " slice " << index << " pixel " << x << ","
                        << y;
                }
            }
        }
    }
    EXPECT_TRUE(flipped) << "no view flipped an axis: the flips went untested";
}

TEST(VolumeSlice, EveryPixelIsItsVoxelForEveryTypeAndFlip)
{
    expectSlicesAreTheVoxels<std::uint8_t>(true);
    expectSlicesAreTheVoxels<std::int8_t>(true);
    expectSlicesAreTheVoxels<std::uint16_t>(true);
    expectSlicesAreTheVoxels<std::int16_t>(false);
    expectSlicesAreTheVoxels<std::uint32_t>(true);
    expectSlicesAreTheVoxels<std::int32_t>(true);
    expectSlicesAreTheVoxels<float>(true);
    expectSlicesAreTheVoxels<double>(false);
    expectSlicesAreTheVoxels<double>(true);
}

TEST(VolumeSlice, DisplayPositionsInvertBackToPixels)
{
    VolumeGeometry g;
    g.spacing = {0.7, 0.9, 2.5};
    g.origin = {-10, 5, 30};
    const Volume v = indexCoded({12, 10, 8}, g, true);
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        const VolumeSlice s = extractSlice(v, o, 3);
        for (glm::dvec2 p : {glm::dvec2(0, 0), glm::dvec2(2.25, 3.5), glm::dvec2(6.9, 1.1)}) {
            const auto back = s.pixelAtDisplay(s.toDisplay(p));
            ASSERT_TRUE(back.has_value()) << sliceOrientationName(o);
            EXPECT_NEAR(back->x, p.x, 1e-9);
            EXPECT_NEAR(back->y, p.y, 1e-9);
        }
        EXPECT_FALSE(s.pixelAtDisplay(s.toDisplay({-3.0, 0.0})).has_value());
    }
    // Axial pixels are 0.7 mm wide and 0.9 mm tall on screen.
    const VolumeSlice axial = extractSlice(v, SliceOrientation::Axial, 0);
    const glm::dvec2 step = axial.toDisplay({1, 1}) - axial.toDisplay({0, 0});
    EXPECT_NEAR(step.x, 0.7, 1e-12);
    EXPECT_NEAR(step.y, 0.9, 1e-12);
}

TEST(VolumeSlice, UnevenAndTiltedStacksShowEachSliceWhereItWasMeasured)
{
    // Slices at z = 0, 1, 3, 7 (uneven), each shifted 0.5 mm further anterior (-y, a tilt).
    VolumeGeometry g;
    g.spacing = {1.0, 1.0, 7.0 / 3.0};
    for (int k = 0; k < 4; ++k)
        g.sliceOrigins.push_back({0.0, -0.5 * k, double((1 << k) - 1)});
    const Volume v = indexCoded({6, 5, 4}, g, true);
    const VolumeSlice sagittal = extractSlice(v, SliceOrientation::Sagittal, 2);
    ASSERT_EQ(sagittal.axes.rowAxis, 2);
    ASSERT_TRUE(sagittal.axes.flipRows);
    for (int k = 0; k < 4; ++k) {
        const int row = 3 - k;
        const glm::dvec2 d = sagittal.toDisplay({0, double(row)});
        EXPECT_NEAR(d.y, -double((1 << k) - 1), 1e-12) << "slice " << k; // down = -z
        EXPECT_NEAR(d.x, -0.5 * k, 1e-12) << "slice " << k;              // right = +y
        // A display point between slices finds its pixel in the right gap.
        const auto back = sagittal.pixelAtDisplay(d + glm::dvec2(1.5, 0.0));
        ASSERT_TRUE(back.has_value());
        EXPECT_NEAR(back->y, double(row), 1e-9);
        EXPECT_NEAR(back->x, 1.5, 1e-9);
    }
    // Halfway between z = 3 and z = 7 is row 0.5 (k = 2.5).
    const auto mid = sagittal.pixelAtDisplay(sagittal.toDisplay({2.0, 0.5}));
    ASSERT_TRUE(mid.has_value());
    EXPECT_NEAR(mid->y, 0.5, 1e-9);
    EXPECT_NEAR(sagittal.toDisplay({2.0, 0.5}).y, -5.0, 1e-12);
}

} // namespace
} // namespace isoview
