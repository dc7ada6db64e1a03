// The DICOM stack geometry on its own, without files: slice order along the normal, spacing
// from positions, uneven gaps and gantry tilt kept as measured in sliceOrigins, missing
// positions ordered by InstanceNumber, one slice, duplicate images and positions, orientation.
#include "core/error.h"
#include "io/dicom/dicom_stack_geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace isoview {
namespace {

using io::dicom::layoutStack;
using io::dicom::StackLayout;
using io::dicom::StackSlice;

constexpr std::array<double, 6> kAxial = {1, 0, 0, 0, 1, 0};

// One single-frame file per slice, named like a file, at the given position.
StackSlice slice(std::size_t index, std::optional<glm::dvec3> position,
                 std::optional<std::int32_t> instance = std::nullopt)
{
    StackSlice s;
    s.position = position;
    s.orientation = kAxial;
    s.pixelSpacing = glm::dvec2(0.5, 0.75); // between rows, between columns
    s.sliceThickness = 2.0;
    s.instanceNumber = instance;
    s.sopInstanceUid = "1.2.3." + std::to_string(index);
    s.fileIndex = index;
    s.file = "s" + std::to_string(index) + ".dcm";
    s.label = "'s" + std::to_string(index) + ".dcm'";
    return s;
}

std::vector<StackSlice> stackAtZ(const std::vector<double>& zs)
{
    std::vector<StackSlice> slices;
    for (std::size_t i = 0; i < zs.size(); ++i) {
        slices.push_back(slice(i, glm::dvec3(10.0, -20.0, zs[i]), std::int32_t(i + 1)));
    }
    return slices;
}

bool anyContains(const std::vector<std::string>& warnings, const std::string& text)
{
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& warnings)
{
    std::string text;
    for (const std::string& w : warnings)
        text += w + "\n";
    return text;
}

TEST(DicomStackGeometry, RegularStackIsSortedAlongTheNormalWithMeanSpacing)
{
    // Given shuffled; the positions alone decide the order.
    const std::vector<StackSlice> slices = stackAtZ({5.0, 0.0, 7.5, 2.5, 10.0});
    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack(slices, warnings);
    EXPECT_EQ(layout.order, (std::vector<std::size_t>{1, 3, 0, 2, 4}));
    const VolumeGeometry& g = layout.geometry;
    EXPECT_EQ(g.direction, glm::dmat3(1.0));
    EXPECT_EQ(g.origin, glm::dvec3(10.0, -20.0, 0.0));
    EXPECT_DOUBLE_EQ(g.spacing.x, 0.75); // columns advance i
    EXPECT_DOUBLE_EQ(g.spacing.y, 0.5);
    EXPECT_DOUBLE_EQ(g.spacing.z, 2.5); // from the positions, not SliceThickness (2)
    EXPECT_TRUE(g.sliceOrigins.empty());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
}

TEST(DicomStackGeometry, ReversedInputAndAFlippedNormalSortAscendingAlongTheNormal)
{
    std::vector<std::string> warnings;
    const StackLayout reversed = layoutStack(stackAtZ({8.0, 6.0, 4.0, 2.0}), warnings);
    EXPECT_EQ(reversed.order, (std::vector<std::size_t>{3, 2, 1, 0}));
    EXPECT_EQ(reversed.geometry.origin.z, 2.0);
    EXPECT_DOUBLE_EQ(reversed.geometry.spacing.z, 2.0);

    // Column (0, -1, 0): the normal row x column points to -z, so the highest z comes first.
    std::vector<StackSlice> flipped = stackAtZ({2.0, 4.0, 6.0, 8.0});
    for (StackSlice& s : flipped)
        s.orientation = std::array<double, 6>{1, 0, 0, 0, -1, 0};
    const StackLayout layout = layoutStack(flipped, warnings);
    EXPECT_EQ(layout.order, (std::vector<std::size_t>{3, 2, 1, 0}));
    EXPECT_EQ(layout.geometry.origin.z, 8.0);
    EXPECT_EQ(layout.geometry.direction[2], glm::dvec3(0.0, 0.0, -1.0));
    EXPECT_DOUBLE_EQ(layout.geometry.spacing.z, 2.0);
    EXPECT_TRUE(layout.geometry.sliceOrigins.empty());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
}

TEST(DicomStackGeometry, UnevenGapKeepsPositionsAndNamesTheMissingSlice)
{
    const std::vector<StackSlice> slices = stackAtZ({0.0, 1.0, 2.0, 4.0, 5.0});
    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack(slices, warnings);
    const VolumeGeometry& g = layout.geometry;
    EXPECT_DOUBLE_EQ(g.spacing.z, 1.25); // the mean gap
    ASSERT_EQ(g.sliceOrigins.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k)
        EXPECT_EQ(g.sliceOrigins[k], *slices[k].position) << k;
    EXPECT_TRUE(anyContains(warnings, "a gap of 2 mm between slices 3 and 4 of 5"))
        << joined(warnings);
    EXPECT_TRUE(anyContains(warnings, "about 1 slice missing")) << joined(warnings);
    EXPECT_TRUE(anyContains(warnings, "uneven slice spacing: gaps from 1 mm to 2 mm"))
        << joined(warnings);
}

TEST(DicomStackGeometry, GantryTiltKeepsPositionsAndGivesTheAngle)
{
    const double shear = std::tan(20.0 * std::numbers::pi / 180.0);
    std::vector<StackSlice> slices;
    for (std::size_t k = 0; k < 6; ++k) {
        const double z = 3.0 * double(k);
        slices.push_back(slice(k, glm::dvec3(0.0, shear * z, z), std::int32_t(k + 1)));
    }
    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack(slices, warnings);
    const VolumeGeometry& g = layout.geometry;
    EXPECT_EQ(g.direction, glm::dmat3(1.0)); // not resampled: the slice plane stays axial
    EXPECT_NEAR(g.spacing.z, 3.0, 1e-12);
    ASSERT_EQ(g.sliceOrigins.size(), 6u);
    for (std::size_t k = 0; k < 6; ++k)
        EXPECT_EQ(g.sliceOrigins[k], *slices[k].position) << k;
    EXPECT_TRUE(anyContains(warnings, "gantry tilt about 20.0 degrees")) << joined(warnings);
    EXPECT_FALSE(anyContains(warnings, "uneven")) << joined(warnings);
}

TEST(DicomStackGeometry, MissingPositionsOrderByInstanceNumberThenFileAndFrame)
{
    std::vector<StackSlice> slices;
    slices.push_back(slice(0, std::nullopt, 3));
    slices.push_back(slice(1, glm::dvec3(0.0, 0.0, 1.0), 1)); // one position is not enough
    slices.push_back(slice(2, std::nullopt, 2));
    slices.push_back(slice(3, std::nullopt)); // no InstanceNumber: after the numbered ones
    // Two frames of one file without numbers: by file name, then frame.
    StackSlice frame1 = slice(4, std::nullopt);
    frame1.file = "a.dcm";
    frame1.frame = 1;
    StackSlice frame0 = frame1;
    frame0.frame = 0;
    slices.push_back(frame1);
    slices.push_back(frame0);
    for (StackSlice& s : slices)
        s.spacingBetweenSlices = 2.5;

    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack(slices, warnings);
    EXPECT_EQ(layout.order, (std::vector<std::size_t>{1, 2, 0, 5, 4, 3}));
    EXPECT_TRUE(layout.geometry.sliceOrigins.empty());
    EXPECT_DOUBLE_EQ(layout.geometry.spacing.z, 2.5);
    EXPECT_EQ(layout.geometry.origin, glm::dvec3(0.0, 0.0, 1.0)); // the first slice's position
    EXPECT_TRUE(anyContains(warnings, "ordered by InstanceNumber")) << joined(warnings);
    EXPECT_TRUE(anyContains(warnings, "slice spacing taken from SpacingBetweenSlices: 2.5 mm"))
        << joined(warnings);

    // Without SpacingBetweenSlices: SliceThickness, then 1 mm, each said in a warning.
    for (StackSlice& s : slices)
        s.spacingBetweenSlices.reset();
    warnings.clear();
    EXPECT_DOUBLE_EQ(layoutStack(slices, warnings).geometry.spacing.z, 2.0);
    EXPECT_TRUE(anyContains(warnings, "taken from SliceThickness")) << joined(warnings);
    for (StackSlice& s : slices)
        s.sliceThickness.reset();
    warnings.clear();
    EXPECT_DOUBLE_EQ(layoutStack(slices, warnings).geometry.spacing.z, 1.0);
    EXPECT_TRUE(anyContains(warnings, "slice spacing unknown: assuming 1 mm")) << joined(warnings);
}

TEST(DicomStackGeometry, SingleSliceTakesSliceThicknessSilently)
{
    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack({slice(0, glm::dvec3(1.0, 2.0, 3.0))}, warnings);
    EXPECT_EQ(layout.order, std::vector<std::size_t>{0});
    EXPECT_EQ(layout.geometry.origin, glm::dvec3(1.0, 2.0, 3.0));
    EXPECT_DOUBLE_EQ(layout.geometry.spacing.z, 2.0);
    EXPECT_TRUE(warnings.empty()) << joined(warnings);

    StackSlice bare = slice(0, std::nullopt);
    bare.sliceThickness.reset();
    const StackLayout unknown = layoutStack({bare}, warnings);
    EXPECT_DOUBLE_EQ(unknown.geometry.spacing.z, 1.0);
    EXPECT_EQ(unknown.geometry.origin, glm::dvec3(0.0));
    EXPECT_TRUE(warnings.empty()) << joined(warnings); // one slice needs no order
}

TEST(DicomStackGeometry, CopiesOfOneImageAreDroppedAndDistinctImagesAtOnePlaceRefused)
{
    std::vector<StackSlice> slices = stackAtZ({0.0, 3.0, 6.0});
    StackSlice copy = slices[1]; // the same SOPInstanceUID and frame, from another file
    copy.fileIndex = 3;
    copy.file = "copy_of_s1.dcm";
    copy.label = "'copy_of_s1.dcm'";
    slices.push_back(copy);
    std::vector<std::string> warnings;
    const StackLayout layout = layoutStack(slices, warnings);
    EXPECT_EQ(layout.order.size(), 3u);
    EXPECT_TRUE(layout.geometry.sliceOrigins.empty());
    EXPECT_DOUBLE_EQ(layout.geometry.spacing.z, 3.0);
    EXPECT_TRUE(anyContains(warnings, "dropped 1 duplicate copy")) << joined(warnings);

    // A different image at an occupied position: several volumes in one series.
    StackSlice echo = slice(4, glm::dvec3(10.0, -20.0, 3.0), 7);
    echo.label = "'echo2.dcm'";
    slices.push_back(echo);
    try {
        (void)layoutStack(slices, warnings);
        FAIL() << "no exception";
    } catch (const InvalidInputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("same position"), std::string::npos) << message;
        EXPECT_NE(message.find("'echo2.dcm'"), std::string::npos) << message;
        EXPECT_NE(message.find("'copy_of_s1.dcm'"), std::string::npos) << message; // kept one
    }
}

TEST(DicomStackGeometry, OrientationMustAgreeAndFallsBackToAxial)
{
    std::vector<StackSlice> slices = stackAtZ({0.0, 1.0});
    slices[1].orientation = std::array<double, 6>{0, 1, 0, 0, 0, -1};
    std::vector<std::string> warnings;
    EXPECT_THROW((void)layoutStack(slices, warnings), InvalidInputError);

    for (StackSlice& s : slices) {
        s.orientation.reset();
        s.pixelSpacing.reset();
    }
    const StackLayout layout = layoutStack(slices, warnings);
    EXPECT_EQ(layout.geometry.direction, glm::dmat3(1.0));
    EXPECT_EQ(layout.geometry.spacing, glm::dvec3(1.0, 1.0, 1.0));
    EXPECT_TRUE(anyContains(warnings, "no ImageOrientationPatient")) << joined(warnings);
    EXPECT_TRUE(anyContains(warnings, "no valid PixelSpacing")) << joined(warnings);
    EXPECT_TRUE(io::dicom::sameOrientation(kAxial, {1, 0, 0, 0, 1, 1e-4}, 1e-3));
    EXPECT_FALSE(io::dicom::sameOrientation(kAxial, {1, 0, 0, 0, 1, 1e-2}, 1e-3));
}

} // namespace
} // namespace isoview
