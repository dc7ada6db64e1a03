// The crop box's faces a camera can look into, with no GL: a camera outside one face sees that
// face alone, a box not wholly beyond the near plane allows no culling, an orthographic camera
// sees by direction, a mirrored geometry swaps the index faces, and stacks with measured slice
// positions check every slice and count every face; back faces are hidden only where no face
// turned to the camera is open.
#include "extraction/crop_face_visibility.h"
#include "extraction/plane_maxima.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cmath>

namespace isoview {
namespace {

// Voxels 0..9 on every axis; on the identity geometry its physical centre is (4.5, 4.5, 4.5).
const VoxelBox kBox{{0, 0, 0}, {9, 9, 9}};
const glm::dvec3 kCenter(4.5);

unsigned face(int axis, int side)
{
    return 1u << unsigned(2 * axis + side);
}

// A perspective camera at `eye` looking at `target`, projection * view.
glm::dmat4 perspectiveFrom(glm::dvec3 eye, glm::dvec3 target, double nearPlane = 0.5)
{
    const glm::dvec3 forward = glm::normalize(target - eye);
    const glm::dvec3 up = std::abs(forward.y) > 0.9 ? glm::dvec3(0, 0, 1) : glm::dvec3(0, 1, 0);
    return glm::perspective(glm::radians(50.0), 1.0, nearPlane, 400.0) *
           glm::lookAt(eye, target, up);
}

// Ten slices one apart along z, each one's position listed (a stack with measured slices).
VolumeGeometry measuredSlices()
{
    VolumeGeometry g;
    for (int k = 0; k < 10; ++k)
        g.sliceOrigins.push_back({0.0, 0.0, double(k)});
    return g;
}

TEST(CropFaceVisibility, ACameraOutsideOneFaceSeesThatFaceAlone)
{
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            glm::dvec3 outward(0.0);
            outward[axis] = side == 0 ? -1.0 : 1.0;
            const glm::dmat4 toClip = perspectiveFrom(kCenter + 30.0 * outward, kCenter);
            EXPECT_EQ(cropFacesTowardCamera(kBox, {}, toClip), face(axis, side))
                << "axis " << axis << ", side " << side;
        }
    }
    // Off a corner: the three faces around it.
    EXPECT_EQ(
        cropFacesTowardCamera(kBox, {}, perspectiveFrom(glm::dvec3(-20.0, 30.0, 40.0), kCenter)),
        face(0, 0) | face(1, 1) | face(2, 1));
}

TEST(CropFaceVisibility, ABoxNotWhollyBeyondTheNearPlaneAllowsNoCulling)
{
    const glm::dvec3 eye = kCenter + glm::dvec3(0.0, 0.0, 8.0); // 3.5 beyond the face z = 9
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, perspectiveFrom(eye, kCenter, 1.0)), face(2, 1));
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, perspectiveFrom(eye, kCenter, 5.0)), kNoCulling)
        << "the near plane cuts the box";
    EXPECT_EQ(
        cropFacesTowardCamera(kBox, {}, perspectiveFrom(kCenter, kCenter + glm::dvec3(1, 0, 0))),
        kNoCulling)
        << "the camera inside the box";
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, perspectiveFrom(eye, eye + glm::dvec3(0, 0, 1))),
              kNoCulling)
        << "the box behind the camera";
}

TEST(CropFaceVisibility, AnOrthographicCameraSeesTheFacesTurnedToItsDirection)
{
    const glm::dmat4 ortho = glm::ortho(-20.0, 20.0, -20.0, 20.0, 0.1, 200.0);
    const glm::dmat4 diagonal =
        ortho * glm::lookAt(kCenter + glm::dvec3(30.0), kCenter, glm::dvec3(0, 1, 0));
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, diagonal), face(0, 1) | face(1, 1) | face(2, 1));
    // Straight down -z: the side faces are seen edge-on, which counts as turned to the camera.
    const glm::dmat4 alongZ =
        ortho * glm::lookAt(kCenter + glm::dvec3(0, 0, 50), kCenter, glm::dvec3(0, 1, 0));
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, alongZ),
              face(0, 0) | face(0, 1) | face(1, 0) | face(1, 1) | face(2, 1));
}

TEST(CropFaceVisibility, AMirroredGeometrySwapsTheIndexFaces)
{
    // Index i runs along physical -x from x = 9: the same physical place as the identity's box.
    VolumeGeometry mirrored;
    mirrored.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    mirrored.origin = {9.0, 0.0, 0.0};
    const glm::dmat4 fromPlusX = perspectiveFrom(kCenter + glm::dvec3(40, 0, 0), kCenter);
    EXPECT_EQ(cropFacesTowardCamera(kBox, {}, fromPlusX), face(0, 1));
    EXPECT_EQ(cropFacesTowardCamera(kBox, mirrored, fromPlusX), face(0, 0));
}

TEST(CropFaceVisibility, MeasuredSlicesCountEveryFaceAndCheckEverySlice)
{
    const glm::dmat4 fromPlusX = perspectiveFrom(kCenter + glm::dvec3(20, 0, 0), kCenter);
    VolumeGeometry stack = measuredSlices();
    EXPECT_EQ(cropFacesTowardCamera(kBox, stack, fromPlusX), PlaneMaxima::kAllFaces);
    // The middle slice bent towards the camera, past it: the first and last slices alone would
    // pass.
    stack.sliceOrigins[5].x = 30.0;
    EXPECT_EQ(cropFacesTowardCamera(kBox, stack, fromPlusX), kNoCulling);
    // A crop that leaves that slice out.
    EXPECT_EQ(cropFacesTowardCamera(VoxelBox{{0, 0, 0}, {9, 9, 4}}, stack, fromPlusX),
              PlaneMaxima::kAllFaces);
}

TEST(CropFaceVisibility, BackFacesAreHiddenOnlyWhereNoFaceTurnedToTheCameraIsOpen)
{
    const unsigned top = face(2, 1);
    EXPECT_TRUE(backFacesHidden(top, 0u));
    EXPECT_TRUE(backFacesHidden(top, face(2, 0) | face(0, 1))) << "open only out of sight";
    EXPECT_FALSE(backFacesHidden(top, top));
    EXPECT_FALSE(backFacesHidden(kNoCulling, 0u));
    EXPECT_FALSE(backFacesHidden(PlaneMaxima::kAllFaces, face(1, 0)));
}

} // namespace
} // namespace isoview
