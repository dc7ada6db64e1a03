// Order-independent transparency for the translucent isosurfaces: weighted blended OIT
// (McGuire & Bavoil, "Weighted Blended Order-Independent Transparency", JCGT 2013). The
// translucent surfaces are drawn once each, in any order, into an accumulation target (RGBA16F:
// the weighted premultiplied colours' sum and the revealage, the product of 1 - alpha) and a
// weight target (R16F: the weights' sum), depth tested against the opaque frame's depth without
// writing it, both faces drawn; a full-screen pass then composites their weighted average over
// the opaque frame. Exact for one layer per pixel, an approximation weighted towards the nearer
// layer where several overlap; the result never depends on the drawing order.
//
// The GL 3.3 floor has no per-target blend functions (glBlendFunci is 4.0), so one
// glBlendFuncSeparate serves both targets: colour ONE,ONE (sums in rgb, the weight sum in the
// second target's red) and alpha ZERO,ONE_MINUS_SRC_ALPHA (the revealage product).
//
// Contract: internal to the engine; needs the creating context current. Its targets exist only
// once a frame has translucent surfaces (no memory otherwise) and follow the frame's size.
// Every GL state it changes is restored. Never throws after construction.
#pragma once

#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <functional>

namespace isoview::gpu {

class WeightedBlendedTransparency {
public:
    // Compiles the composite program. Throws ShaderError / GlError.
    WeightedBlendedTransparency();

    // Runs drawTranslucent (which draws each translucent surface with the accumulation output of
    // isosurface.frag) into the accumulation targets, depth tested against depthTexture (the
    // opaque frame's, size x size), then composites the result over colorFramebuffer (the opaque
    // frame's colour). Returns false, having drawn nothing, when the targets cannot be made
    // (logged once per size).
    bool render(glm::ivec2 size, GLuint depthTexture, GLuint colorFramebuffer,
                const std::function<void()>& drawTranslucent);

    // GPU memory of the targets (zero until the first translucent frame).
    std::size_t bytes() const;

private:
    bool resize(glm::ivec2 size, GLuint depthTexture);

    ShaderProgram m_composite;
    VertexArray m_emptyVertexArray = VertexArray::create();
    Texture m_accumulation = Texture::create();
    Texture m_weight = Texture::create();
    Framebuffer m_framebuffer = Framebuffer::create();
    glm::ivec2 m_size{0, 0};
    GLuint m_depthTexture = 0;
    bool m_complete = false;
};

} // namespace isoview::gpu
