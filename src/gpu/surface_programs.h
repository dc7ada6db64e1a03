// The programs that draw a welded surface mesh: isosurface.vert maps its vertices to physical
// space (common/volume_geometry.glsl), isosurface.frag shades them, opaque or into the
// accumulation pass of weighted blended transparency. The live surface (IsosurfaceExtractor)
// and the stored layers (StoredSurfaceProgram) build the same pair from their own defines.
#pragma once

#include "gpu/shader_program.h"

#include <string>

namespace isoview::gpu {

struct SurfacePrograms {
    ShaderProgram opaque;
    ShaderProgram translucent; // isosurface.frag built with kTranslucentSurfaceDefine
};

// Compiles and links both; `label` names them in GL debug output and errors ("... translucent"
// for the second). The samplers are left for the caller to point at its units. Throws
// ShaderError.
SurfacePrograms buildSurfacePrograms(const std::string& label, const std::string& defines);

} // namespace isoview::gpu
