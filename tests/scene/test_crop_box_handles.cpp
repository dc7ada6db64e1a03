// The crop box's handle arithmetic: edges, face centres, a face moved and clamped, a handle
// picked under the mouse, and a drag mapped through the axis' direction on screen.
#include "scene/crop_box_handles.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace isoview {
namespace {

constexpr glm::uvec3 kDims{40, 30, 20};
const VoxelBox kBox{{5, 6, 7}, {25, 20, 15}};

TEST(CropBoxHandles, EdgesSplitAlongKAtEverySlice)
{
    const std::vector<glm::vec3> lines = cropBoxEdgeLines(kBox);
    // 8 edges along I and J, 4 along K in 8 slice intervals each, 2 points a segment.
    EXPECT_EQ(lines.size(), std::size_t(2 * (8 + 4 * 8)));
    for (const glm::vec3& p : lines) {
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(p[a], float(kBox.first[a]));
            EXPECT_LE(p[a], float(kBox.last[a]));
        }
    }
}

TEST(CropBoxHandles, FaceCentresLieOnTheirFaces)
{
    EXPECT_EQ(cropFaceCenter(kBox, 0), glm::dvec3(5.0, 13.0, 11.0));
    EXPECT_EQ(cropFaceCenter(kBox, 1), glm::dvec3(25.0, 13.0, 11.0));
    EXPECT_EQ(cropFaceCenter(kBox, 4), glm::dvec3(15.0, 13.0, 7.0));
    EXPECT_EQ(cropFaceCenter(kBox, 5), glm::dvec3(15.0, 13.0, 15.0));
}

TEST(CropBoxHandles, MovedFaceIsRoundedAndClampedKeepingOneCell)
{
    EXPECT_EQ(moveCropFace(kBox, 1, 30.4, kDims).last.x, 30u);
    EXPECT_EQ(moveCropFace(kBox, 1, 99.0, kDims).last.x, 39u);  // the volume's last voxel
    EXPECT_EQ(moveCropFace(kBox, 1, 2.0, kDims).last.x, 6u);    // one cell past first = 5
    EXPECT_EQ(moveCropFace(kBox, 0, -4.0, kDims).first.x, 0u);  // the volume's first
    EXPECT_EQ(moveCropFace(kBox, 0, 40.0, kDims).first.x, 24u); // one cell before last
    EXPECT_EQ(moveCropFace(kBox, 4, 9.6, kDims).first.z, 10u);
    // Only the face moved changes.
    const VoxelBox moved = moveCropFace(kBox, 3, 22.0, kDims);
    EXPECT_EQ(moved.first, kBox.first);
    EXPECT_EQ(moved.last, glm::uvec3(25, 22, 15));
    // No cell possible along an axis of one voxel, and NaN: unchanged.
    EXPECT_EQ(moveCropFace({{0, 0, 0}, {9, 9, 0}}, 5, 3.0, {10, 10, 1}),
              (VoxelBox{{0, 0, 0}, {9, 9, 0}}));
    EXPECT_EQ(moveCropFace(kBox, 1, std::nan(""), kDims), kBox);
}

// Looking along -z at the volume, orthographic, 4 pixels per voxel, 200 x 200 pixels: index
// (i, j) is at window (100 + 4 (i - 20), 100 - 4 (j - 15)).
glm::dmat4 frontCamera()
{
    const glm::dvec3 centre(20.0, 15.0, 10.0);
    return glm::ortho(-25.0, 25.0, -25.0, 25.0, 1.0, 200.0) *
           glm::lookAt(centre + glm::dvec3(0.0, 0.0, 100.0), centre, glm::dvec3(0.0, 1.0, 0.0));
}

TEST(CropBoxHandles, PickFindsTheHandleUnderTheMouse)
{
    const VolumeGeometry g;
    const glm::dvec2 size(200.0, 200.0);
    // I last handle at (25, 13): window (120, 108).
    EXPECT_EQ(pickCropFace(kBox, g, frontCamera(), size, {121.0, 107.0}, 6.0), 1);
    EXPECT_EQ(pickCropFace(kBox, g, frontCamera(), size, {41.0, 109.0}, 6.0), 0);
    EXPECT_EQ(pickCropFace(kBox, g, frontCamera(), size, {80.0, 136.0}, 6.0), 2); // J first
    EXPECT_FALSE(pickCropFace(kBox, g, frontCamera(), size, {150.0, 150.0}, 6.0));
    // The two K handles project onto each other at (80, 108): the nearer (K last, in front).
    EXPECT_EQ(pickCropFace(kBox, g, frontCamera(), size, {80.0, 108.0}, 6.0), 5);
}

TEST(CropBoxHandles, DragFollowsTheAxisOnScreen)
{
    const VolumeGeometry g;
    const glm::dvec2 size(200.0, 200.0);
    // 4 pixels per voxel along +I to the right: 20 pixels right is 5 voxels; up and down
    // do nothing.
    EXPECT_DOUBLE_EQ(*dragCropFace(kBox, 1, g, frontCamera(), size, {20.0, 0.0}), 30.0);
    EXPECT_DOUBLE_EQ(*dragCropFace(kBox, 1, g, frontCamera(), size, {-8.0, 50.0}), 23.0);
    // +J points up on screen: dragging down lowers the index.
    EXPECT_DOUBLE_EQ(*dragCropFace(kBox, 3, g, frontCamera(), size, {0.0, 12.0}), 17.0);
    // K points at the camera: no direction to follow.
    EXPECT_FALSE(dragCropFace(kBox, 5, g, frontCamera(), size, {10.0, 10.0}));
    // Anisotropic spacing: 2 mm voxels along I are 8 pixels each.
    VolumeGeometry wide;
    wide.spacing = {2.0, 1.0, 1.0};
    EXPECT_DOUBLE_EQ(*dragCropFace(kBox, 1, wide, frontCamera(), size, {16.0, 0.0}), 27.0);
}

} // namespace
} // namespace isoview
