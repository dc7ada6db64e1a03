// The crop box as something to see and grab: its 12 edges and a handle at the centre of each
// of its 6 faces, in index space, and the arithmetic of dragging a face. Shared by the engine's
// outline pass (crop_box_outline.h), which draws them, and the viewer's handle controllers,
// which pick and drag them; no GL, no Qt.
//
// Faces are numbered 2 * axis + (upper ? 1 : 0): 0 = I first, 1 = I last, 2 = J first, ...,
// 5 = K last. A face at `first` lies on the plane index[axis] = first, the one at `last` on
// index[axis] = last (voxel centres: the cells the surface keeps lie between).
//
// Contract: pure functions, any thread, never throw.
#pragma once

#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <optional>
#include <vector>

namespace isoview {

constexpr int kCropBoxFaceCount = 6;

// What the 3D view shows of the crop box (FrameParams::cropBox).
struct CropBoxOverlay {
    bool show = false;
    int highlightedFace = -1; // 0..5 drawn brighter (the handle under the mouse), -1 none
    bool operator==(const CropBoxOverlay&) const = default;
};

inline int cropFaceAxis(int face)
{
    return face / 2;
}
inline bool cropFaceIsLast(int face)
{
    return face % 2 == 1;
}

// The box's 12 edges as a line list (pairs of index-space points). Edges along K are split at
// every slice between, so a stack with measured slice positions bends them where its slices
// are (VolumeGeometry::toPhysical is linear between slices only).
std::vector<glm::vec3> cropBoxEdgeLines(const VoxelBox& box);

// The centre of a face, index space.
glm::dvec3 cropFaceCenter(const VoxelBox& box, int face);

// The box with one face moved to `index` (rounded), clamped to the volume and so that the box
// keeps at least one cell along that axis (first < last); along an axis the volume has one
// voxel in, the box is unchanged.
VoxelBox moveCropFace(const VoxelBox& box, int face, double index, glm::uvec3 dims);

// Window pixels (x right, y down, origin top left) of a physical point, or nullopt behind the
// camera.
std::optional<glm::dvec2> projectToWindow(const glm::dvec3& physical,
                                          const glm::dmat4& physicalToClip,
                                          glm::dvec2 viewportSize);

// The face whose handle's centre is nearest `window` (pixels, as projectToWindow), if within
// `radius` pixels; among handles at about the same distance the one nearer the camera wins.
std::optional<int> pickCropFace(const VoxelBox& box, const VolumeGeometry& geometry,
                                const glm::dmat4& physicalToClip, glm::dvec2 viewportSize,
                                glm::dvec2 window, double radius);

// The face's index after a drag of `windowDelta` pixels that started with the face at
// `startIndex`: the drag is projected onto the screen direction of the face's axis at its
// handle (pixels per voxel measured there), so the face follows the mouse along its axis.
// nullopt when the axis points at the camera (no screen direction to follow).
std::optional<double> dragCropFace(const VoxelBox& startBox, int face,
                                   const VolumeGeometry& geometry, const glm::dmat4& physicalToClip,
                                   glm::dvec2 viewportSize, glm::dvec2 windowDelta);

} // namespace isoview
