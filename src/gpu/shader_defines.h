// Constants shared by C++ and GLSL, emitted as a #define preamble from their one C++
// definition (case-table edge corners, pyramid level formats, the volume sampler type).
#pragma once

#include "gpu/volume_texture.h"

#include <string>

namespace isoview::gl {

std::string engineShaderDefines(SamplerKind volumeSampler);

} // namespace isoview::gl
