// The crop box in the 3D view: its 12 edges and a square handle at the centre of each face,
// drawn over the frame without depth test, so the box and its handles stay visible and
// grabbable behind the surface. Positions come from VolumeGeometry::toPhysical on the CPU
// (render/crop_box_handles.h gives them in index space), so a stack with measured slice
// positions bends the edges along K slice by slice as the isosurface bends. Handles keep a
// fixed size in pixels; the one under the mouse (CropBoxOverlay::highlightedFace) is brighter.
//
// Contract: internal to the engine (SceneRenderer drives it). Every call needs the creating
// OpenGL 3.3+ core context current. The constructor throws GlError / ShaderError; draw()
// never throws, never waits for the GPU and restores every GL state it changes. Cost: a few
// hundred vertices, re-uploaded only when the box or the geometry changes.
//
// Example:
//   CropBoxOutline outline;
//   outline.setGeometry(volume.geometry());
//   outline.draw(box, physicalToClip, viewportSize, {.show = true, .highlightedFace = 1});
#pragma once

#include "extraction/voxel_box.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"
#include "scene/crop_box_handles.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <optional>

namespace isoview::gpu {

class CropBoxOutline {
public:
    static constexpr float kHandleHalfSizePixels = 5.0f;

    // Compiles the program. Throws GlError / ShaderError.
    CropBoxOutline();

    // The volume's index -> physical map (slice origins included). No GL work.
    void setGeometry(const VolumeGeometry& geometry);

    // Draws into the bound framebuffer and viewport. Does nothing unless overlay.show.
    void draw(const VoxelBox& box, const glm::mat4& physicalToClip, glm::ivec2 viewportSize,
              const CropBoxOverlay& overlay);

private:
    void upload(const VoxelBox& box);

    ShaderProgram m_program;
    VertexArray m_vertexArray = VertexArray::create();
    Buffer m_vertices = Buffer::create();
    VolumeGeometry m_geometry;
    std::optional<VoxelBox> m_uploadedBox; // none: geometry changed, upload again
    GLsizei m_lineVertexCount = 0;
    GLsizei m_handleVertexCount = 0;
};

} // namespace isoview::gpu
