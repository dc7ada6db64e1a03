// The shader sources compiled into the engine (generated from shaders/ by
// cmake/embed_shaders.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace isoview::gpu {

struct EmbeddedShader {
    std::string_view path; // relative to shaders/, e.g. "hp_reduce.frag"
    std::string_view source;
};

const std::vector<EmbeddedShader>& embeddedShaders();

} // namespace isoview::gpu
