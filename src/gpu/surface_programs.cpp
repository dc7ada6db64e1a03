#include "gpu/surface_programs.h"

#include "gpu/isosurface_extractor.h" // kTranslucentSurfaceDefine

#include <vector>

namespace isoview::gpu {

SurfacePrograms buildSurfacePrograms(const std::string& label, const std::string& defines)
{
    const std::vector<ShaderStage> stages = {{GL_VERTEX_SHADER, "isosurface.vert"},
                                             {GL_FRAGMENT_SHADER, "isosurface.frag"}};
    return SurfacePrograms{
        ShaderProgram(label, stages, defines),
        ShaderProgram(label + " translucent", stages, defines + kTranslucentSurfaceDefine)};
}

} // namespace isoview::gpu
