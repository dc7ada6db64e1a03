#include "extraction/crop_face_visibility.h"

#include "extraction/plane_maxima.h"

#include <cmath>
#include <cstdint>

namespace isoview {

unsigned cropFacesTowardCamera(const VoxelBox& box, const VolumeGeometry& geometry,
                               const glm::dmat4& physicalToClip)
{
    const auto inFront = [&](glm::dvec3 index) {
        const glm::dvec4 c = physicalToClip * glm::dvec4(geometry.toPhysical(index), 1.0);
        return c.z + c.w > 1e-6 * std::abs(c.w);
    };
    const glm::dvec3 lo(box.first);
    const glm::dvec3 hi(box.last);
    // Stacks with measured slice positions bend between slices: every slice's corners, and
    // every face counts as turned to the camera.
    const bool everySlice = !geometry.sliceOrigins.empty();
    for (std::uint32_t k = box.first.z; k <= box.last.z;
         k = everySlice || k == box.last.z ? k + 1 : box.last.z) {
        for (const double x : {lo.x, hi.x})
            for (const double y : {lo.y, hi.y})
                if (!inFront({x, y, double(k)})) return kNoCulling;
    }
    if (everySlice) return PlaneMaxima::kAllFaces;
    // The camera in homogeneous physical coordinates: a point (w > 0) for a perspective
    // projection, the direction towards the viewer (w = 0) for an orthographic one.
    const glm::dvec4 eye = glm::inverse(physicalToClip) * glm::dvec4(0.0, 0.0, -1.0, 0.0);
    const glm::dmat3 normalToPhysical = geometry.gradientToPhysical();
    unsigned facing = 0;
    for (int a = 0; a < 3; ++a) {
        for (int side = 0; side < 2; ++side) {
            glm::dvec3 outward(0.0);
            outward[a] = side == 0 ? -1.0 : 1.0;
            const glm::dvec3 n = normalToPhysical * outward;
            const glm::dvec3 onFace = geometry.toPhysical(side == 0 ? lo : hi);
            // Strictly behind the face's plane, the camera cannot look into it.
            const double towards = glm::dot(n, glm::dvec3(eye)) - eye.w * glm::dot(n, onFace);
            if (!(towards < 0.0)) facing |= 1u << unsigned(2 * a + side);
        }
    }
    return facing;
}

bool backFacesHidden(unsigned facing, unsigned openFaces)
{
    return (facing & kNoCulling) == 0 && (openFaces & facing) == 0;
}

} // namespace isoview
