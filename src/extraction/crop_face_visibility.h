// Which faces of the crop box a camera can look into, and whether the back faces of a surface in
// the box can then be culled without changing the frame. Every ray from a camera outside the box
// enters it through a face turned to the camera; where no voxel of such a face is inside the
// surface (PlaneMaxima::openFaces), the ray starts outside the surface and meets a front face
// first, so no back face can be seen.
//
// Contract: pure geometry in double precision, no GL, no allocation; nothing is thrown. Faces are
// PlaneMaxima's bits (face 2a: the plane i_a = first[a], outward -a; face 2a + 1: i_a = last[a]).
// Cost: the box's eight corners (every slice's four for a stack with measured slice positions).
#pragma once

#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

namespace isoview {

// Not a face: part of the box is not beyond the near plane (the camera may be inside it, or the
// near plane cuts the surface open), so no face decides anything and nothing may be culled.
inline constexpr unsigned kNoCulling = 1u << 6;

// The box's faces the camera may look into, or kNoCulling. physicalToClip: projection * view,
// perspective or orthographic. A stack with measured slice positions bends between slices: every
// face counts as turned to the camera there (PlaneMaxima::kAllFaces) once all its slices' corners
// are beyond the near plane.
unsigned cropFacesTowardCamera(const VoxelBox& box, const VolumeGeometry& geometry,
                               const glm::dmat4& physicalToClip);

// Whether no back face of the surface can be seen: `facing` is cropFacesTowardCamera's, and
// openFaces the faces where the surface may be open (PlaneMaxima::openFaces).
bool backFacesHidden(unsigned facing, unsigned openFaces);

} // namespace isoview
