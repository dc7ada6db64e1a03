// The three slice planes in the 3D view: the index planes i = index.x, j = index.y and
// k = index.z through the slice views' crosshair, textured with the volume's voxels through the
// slice views' window/level in grey and drawn opaque with depth, so the isosurface cuts through
// them and the ray caster's rays stop at them (it reads the frame's depth). Sampled from the
// flat-3D texture the other passes read (nearest voxel: the slice views' pixels); a plane along
// k bends with a tilted or unevenly spaced stack exactly as the isosurface does.
//
// A bricked volume (more than one texture) draws its planes from the ray caster's subsampled
// copy: the same planes, at the copy's coarser grid.
//
// Contract: internal to the engine (SceneRenderer drives it). Every call needs the creating
// OpenGL 3.3+ core context current. prepare() throws ShaderError; draw() never throws, never
// waits for the GPU and restores every GL state it changes. Cost: three quads (one per slice
// interval for a plane along k of a stack with measured slice positions), one fetch a pixel.
//
// Example:
//   SlicePlanes planes;
//   planes.prepare(SamplerKind::Unsigned);                 // before the volume's upload
//   planes.draw(gpuVolume, volume.dims(), physicalToClip, settings); // depth-tested, bound FBO
#pragma once

#include "gpu/gl_objects.h"
#include "gpu/scene_renderer.h"
#include "gpu/shader_program.h"
#include "gpu/volume_texture.h"

#include <glm/glm.hpp>

#include <array>
#include <optional>

namespace isoview::gpu {

class GpuVolume;

// The three planes (i = index.x, j = index.y, k = index.z; clamped to the volume), in grey
// through a window/level in real units. SceneRenderer derives them from the scene's slice views.
struct SlicePlaneSettings {
    bool show = false;
    glm::uvec3 index{0};
    double windowCenter = 40.0; // real units
    double windowWidth = 400.0; // > 0
    bool operator==(const SlicePlaneSettings&) const = default;
};

class SlicePlanes {
public:
    SlicePlanes() = default;

    // Compiles the program for a volume sampler type (once per type). Throws ShaderError.
    void prepare(SamplerKind kind);

    // Draws the planes into the bound framebuffer (which needs a depth buffer) with depth test
    // and depth writes. `sampled` is the texture the planes read; `volumeDims` are the dims
    // settings.index counts in (the whole volume's; larger than sampled.dims() for a
    // subsampled copy, whose grid step is found from the two). Does nothing when
    // !settings.show or the program for the volume's type was not prepared.
    void draw(const GpuVolume& sampled, glm::uvec3 volumeDims, const glm::mat4& physicalToClip,
              const SlicePlaneSettings& settings);

private:
    std::array<std::optional<ShaderProgram>, 3> m_programs; // by SamplerKind
    VertexArray m_emptyVertexArray = VertexArray::create();
};

} // namespace isoview::gpu
