// Draws one frame of the viewer's scene: a background, the isosurface (HistoPyramid
// extraction, IsosurfaceExtractor), direct volume rendering (VolumeRaycaster: ray casting
// through the same flat-3D volume texture with the transfer function) or both composited by
// depth, and an orientation marker. The window, the headless screenshots and the image tests
// all render through it, so what the tests see is what the user sees.
//
// Per frame: setIsovalue() only records the newest value; render() rebuilds the pyramid at most
// once, for the newest value, so a slider drag never queues work behind itself.
//
// Contract: every call, the constructor and the destructor need the same OpenGL 3.3+ core
// context current. render() never throws and never waits for the GPU (timings come from
// timer queries read a frame or more later). No GL type appears in this header (so Qt's GL
// headers and the engine's loader never meet in one translation unit).
//
// Example:
//   SceneRenderer scene;
//   scene.setVolume(volume);
//   scene.setTransferFunction(defaultTransferFunction(volume));
//   scene.setIsovalue(float(volume.rescale().toStored(300.0)));
//   scene.render({.view = camera.viewMatrix(), .projection = camera.projectionMatrix(aspect),
//                 .viewportSize = {w, h}, .targetFramebuffer = fbo});
#pragma once

#include "engine/gl/gl_loader.h"
#include "engine/gl/isosurface_extractor.h"
#include "engine/transfer_function.h"
#include "engine/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

namespace isoview::gl {

enum class RenderMode { Surface, Volume, SurfaceAndVolume };

struct SceneParams {
    glm::mat4 view{1.0f};       // physical -> view
    glm::mat4 projection{1.0f}; // view -> clip
    glm::ivec2 viewportSize{1, 1};
    // GL framebuffer name the frame ends up in (glBlitFramebuffer from the renderer's own
    // target, so it must be single-sampled, as QOpenGLWidget's is by default)
    unsigned int targetFramebuffer = 0;
    RenderMode mode = RenderMode::Surface;
    glm::vec3 surfaceColor{0.9f, 0.85f, 0.75f};
    glm::vec3 backgroundTop{0.32f, 0.34f, 0.43f};
    glm::vec3 backgroundBottom{0.05f, 0.05f, 0.08f};
    bool orientationMarker = true;
    // Ray-casting step in voxels, and the fraction of the viewport's resolution the volume
    // is ray cast at (the viewer lowers it while the user drags, for a fluid frame rate).
    float volumeStepVoxels = 0.5f;
    float volumeResolutionScale = 1.0f;
    // Headlight shading of the volume by its gradient: clearer shapes, about twice the cost
    // where the volume is not transparent.
    bool volumeShading = true;
};

// Where the orientation marker is drawn, in pixels from the viewport's bottom-left corner, so
// that the window can label the axes' tips (L/P/S or X/Y/Z) with its own text renderer.
struct OrientationMarkerLayout {
    glm::vec2 center{0.0f};
    float radius = 0.0f;
    std::array<glm::vec2, 3> axisTips{}; // +x, +y, +z of physical space
    std::array<float, 3> tipDepth{};     // view-space z of each tip: larger is nearer the eye
};
OrientationMarkerLayout orientationMarkerLayout(const SceneParams& params);

// GPU time of the most recent frame whose timer queries have completed; nullopt where the
// driver lacks timer queries or no frame has completed yet.
struct FrameGpuTimes {
    std::optional<double> extractMs; // HistoPyramid build for a new isovalue (nullopt when the
                                     // frame did not rebuild)
    std::optional<double> surfaceMs; // vertex-shader extraction + shading of the surface
    std::optional<double> volumeMs;  // ray casting
};

class SceneRenderer {
public:
    // Compiles every program. Throws GlError / ShaderError.
    SceneRenderer();
    explicit SceneRenderer(const IsosurfaceExtractor::Options& options);
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    const GlCapabilities& capabilities() const;

    // Uploads the volume (texture + pyramid). Throws GlError naming the limit when it does not
    // fit; the previous volume stays then. The isovalue must be set again afterwards.
    void setVolume(const Volume& volume);
    bool hasVolume() const;

    // Stored units. Recorded only; the next render() extracts it.
    void setIsovalue(float storedIsovalue);
    // Uploads the lookup table over the volume's real value range (call after setVolume).
    void setTransferFunction(const TransferFunction& tf);

    void render(const SceneParams& params);

    // The isovalue of the last extraction (what is on screen), and the extractor itself for
    // counts (pollVertexCount) and capture() for export.
    std::optional<float> renderedIsovalue() const;
    IsosurfaceExtractor& extractor();
    // Collects the timer results that have completed since the last call (asks
    // GL_QUERY_RESULT_AVAILABLE first: never waits). Needs the context current.
    FrameGpuTimes lastGpuTimes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace isoview::gl
