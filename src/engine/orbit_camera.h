// The viewer's camera: it orbits a target point in physical (patient/world) millimetres, with a
// virtual trackball, pan, zoom, the six standard views and a perspective/orthographic switch.
// Pure math (glm), no GL and no Qt, so the window, the headless renderer and the tests share it.
//
// Conventions: physical space is right-handed; for DICOM it is LPS (+x patient left,
// +y posterior, +z superior). The camera looks along -z of its view space, +y up.
//
// Example:
//   OrbitCamera camera;
//   camera.fitTo(volumeBounds(volume.geometry(), volume.dims()));
//   camera.setStandardView(StandardView::Anterior);
//   glm::mat4 clip = camera.projectionMatrix(aspect) * camera.viewMatrix();
#pragma once

#include "engine/volume.h"

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

class OrbitCamera {
public:
    OrbitCamera();

    // Centres the target on the bounds and sets the distance so the bounding sphere fills the
    // view with a small margin, in both projections. Keeps the orientation.
    void fitTo(const Bounds& bounds);
    // The anterior view, fitted to the last bounds given to fitTo.
    void reset();
    void setStandardView(StandardView view);

    // Virtual trackball (Shoemake/Bell): rotates the scene by the drag between two points in
    // normalised device coordinates ([-1, 1]^2, +y up). Dragging right turns the scene right.
    void rotateByDrag(glm::vec2 fromNdc, glm::vec2 toNdc, float aspect);
    // Moves the target so the scene follows the pointer: a drag of deltaNdc (NDC units) at the
    // target's depth.
    void pan(glm::vec2 deltaNdc, float aspect);
    // factor > 1 moves closer (perspective) or magnifies (orthographic). Clamped to a sane
    // range relative to the fitted size.
    void zoom(float factor);

    void setProjection(Projection projection) { m_projection = projection; }
    Projection projection() const { return m_projection; }
    float verticalFovDegrees() const { return m_fovYDegrees; }

    glm::mat4 viewMatrix() const;                   // physical -> view
    glm::mat4 projectionMatrix(float aspect) const; // view -> clip; near/far enclose the bounds
    glm::vec3 eyePosition() const;                  // physical
    glm::vec3 target() const { return glm::vec3(m_target); }
    double distance() const { return m_distance; }
    // Rotation from physical to view space.
    glm::quat orientation() const { return m_orientation; }
    void setOrientation(const glm::quat& orientation);

private:
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
