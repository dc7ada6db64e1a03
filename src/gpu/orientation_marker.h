// The orientation marker: three arrows along the physical +x (red), +y (green) and +z (blue)
// axes around a small grey cube, turned by the camera's rotation only and drawn in a square
// viewport in the bottom-left corner, so the user always sees which way the patient faces.
// render/orientation_marker_layout.h says where it lands on screen, so the window can write
// L/P/S or X/Y/Z beside the tips.
//
// Contract: internal to the engine. The constructor and draw() need the creating OpenGL 3.3+
// core context current; the constructor throws GlError / ShaderError, draw() never throws and
// restores the GL state it changes.
//
// Example:
//   OrientationMarker marker;
//   marker.draw(view, viewportSize); // into the bound framebuffer, which needs a depth buffer
#pragma once

#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"
#include "scene/orientation_marker_layout.h"

#include <glm/glm.hpp>

namespace isoview::gpu {

class OrientationMarker {
public:
    OrientationMarker();

    // Clears depth in the marker's square (scissored) and draws the marker there with depth
    // test, into the bound framebuffer of viewportSize.
    void draw(const glm::mat4& view, glm::ivec2 viewportSize);

private:
    ShaderProgram m_program;
    VertexArray m_vertexArray = VertexArray::create();
    Buffer m_vertices = Buffer::create();
    GLsizei m_vertexCount = 0;
};

} // namespace isoview::gpu
