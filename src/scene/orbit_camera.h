// The viewer's camera: it orbits a target point in physical (patient/world) millimetres, with a
// virtual trackball, pan, zoom, the six standard views and a perspective/orthographic switch.
// Pure math (glm), no GL and no Qt, so the window, the headless renderer and the tests share it.
//
// Conventions: physical space is right-handed; for DICOM it is LPS (+x patient left,
// +y posterior, +z superior). The camera looks along -z of its view space, +y up.
// The field of view spans the narrower side of the viewport (the height in landscape, the
// width in portrait), so a fitted volume stays whole at any aspect. The orthographic view is as
// large as the perspective one at the target's depth, so switching keeps the apparent size.
// Not thread-safe; cheap (no allocation); never throws.
//
// Example:
//   OrbitCamera camera;
//   camera.fitTo(volumeBounds(volume.geometry(), volume.dims()));
//   camera.setStandardView(StandardView::Anterior);
//   glm::mat4 clip = camera.projectionMatrix(aspect) * camera.viewMatrix();
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <string_view>

namespace isoview {

enum class Projection { Perspective, Orthographic };

// Named for a patient in LPS space: Anterior is the view from the front (camera on the
// patient's anterior side looking posterior, superior up, so the patient's left is on the
// screen's right). Superior and Inferior keep anterior at the top of the screen. For volumes
// without patient space the same views are "-Y", "+Y" and so on (see standardViewName).
enum class StandardView { Anterior, Posterior, Left, Right, Superior, Inferior };

// "Anterior", ... when anatomical; "+X", "-Y", ... (the side the camera is on) otherwise.
std::string_view standardViewName(StandardView view, bool anatomical);

struct Bounds {
    glm::dvec3 min{0.0};
    glm::dvec3 max{0.0};
    glm::dvec3 center() const { return (min + max) * 0.5; }
    double radius() const; // half the diagonal
};

// The axis-aligned physical bounds of the volume's voxel centres (all 8 corners of the index
// box mapped through the geometry, every slice origin included).
Bounds volumeBounds(const VolumeGeometry& geometry, glm::uvec3 dims);

// The view a volume opens at: Anterior, except for a slab (one axis at most a third as long as
// each of the other two, e.g. a few axial slices of a phantom), which is seen face on along its
// thin axis (Superior for z, Left for x): edge on, a disc reads as a rod.
StandardView homeViewFor(const Bounds& bounds);

class OrbitCamera {
public:
    OrbitCamera();

    // Centres the target on the bounds and sets the distance so the bounding sphere fills the
    // view with a small margin, in both projections. Keeps the orientation.
    void fitTo(const Bounds& bounds);
    // The home view (homeViewFor the last bounds given to fitTo), fitted to those bounds.
    void reset();
    void setStandardView(StandardView view);

    // Virtual trackball (Shoemake/Bell): rotates the scene by the drag between two points in
    // normalised device coordinates ([-1, 1]^2, +y up). Dragging right turns the scene right;
    // a drag through the centre across the narrower side turns it 180 degrees; circling near
    // the rim turns it about the view axis. The ball is round on screen at any aspect.
    void rotateByDrag(glm::vec2 fromNdc, glm::vec2 toNdc, float aspect);
    // Moves the target so the scene follows the pointer: a drag of deltaNdc (NDC units) at the
    // target's depth.
    void pan(glm::vec2 deltaNdc, float aspect);
    // factor > 1 moves closer (perspective) or magnifies (orthographic). The distance stays
    // within [1/50, 20] times the fitted distance. Non-positive or non-finite factors are ignored.
    void zoom(float factor);

    void setProjection(Projection projection) { m_projection = projection; }
    Projection projection() const { return m_projection; }
    float verticalFovDegrees() const { return m_fovYDegrees; }

    // physical -> view. In orthographic mode the eye backs away from the target when needed so
    // that the whole bounding sphere stays in front of it (the apparent size does not change).
    glm::mat4 viewMatrix() const;
    // view -> clip (OpenGL, z in [-1, 1]); near/far enclose the bounding sphere of the fitted
    // bounds at any orientation and pan, except in perspective with the eye inside or beside
    // the sphere (zoomed in), where near stops at 1/1000 of its radius; near > 0 always.
    glm::mat4 projectionMatrix(float aspect) const;
    glm::vec3 eyePosition() const; // physical, consistent with viewMatrix()
    glm::vec3 target() const { return glm::vec3(m_target); }
    double distance() const { return m_distance; }
    // Rotation from physical to view space.
    glm::quat orientation() const { return m_orientation; }
    // Normalised; a zero or non-finite quaternion is ignored.
    void setOrientation(const glm::quat& orientation);

    // What restores a view (sessions): the point looked at, the distance to it, the rotation
    // and the projection. The fitted bounds are not part of it: fitTo the same volume first.
    struct Pose {
        glm::dvec3 target{0.0};
        double distance = 1.0;
        glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
        Projection projection = Projection::Perspective;
        bool operator==(const Pose&) const = default;
    };
    Pose pose() const;
    // Keeps the fitted bounds; the distance is clamped as zoom() clamps it. A non-finite target,
    // a non-positive or non-finite distance or a zero orientation leaves that part unchanged.
    void setPose(const Pose& pose);

private:
    glm::dquat rotation() const { return glm::dquat(m_orientation); }
    double halfFovY(double aspect) const;
    double viewDistance() const;
    glm::dmat4 viewMatrixD() const;

    glm::dvec3 m_target{0.0};
    double m_distance = 1.0;
    double m_fitDistance = 1.0;
    double m_sceneRadius = 1.0;
    glm::quat m_orientation{1.0f, 0.0f, 0.0f, 0.0f};
    Projection m_projection = Projection::Perspective;
    float m_fovYDegrees = 30.0f;
    Bounds m_bounds;
};

} // namespace isoview
