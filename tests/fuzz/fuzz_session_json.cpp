// libFuzzer target: sessionFromJson on arbitrary bytes, the parser of the files File > Open
// Session reads (and a double-click on one). InvalidInputError is the expected outcome of bad
// input; anything else (a crash, a sanitizer report, another exception) is a finding. A session
// that parses must hold the invariants the window relies on when it applies one, and survive a
// save/parse round trip unchanged.
#include "core/error.h"
#include "fuzz_support.h"
#include "session/session.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

bool finite(glm::dvec3 v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void checkInvariants(const isoview::Session& s)
{
    bool ok = std::isfinite(s.isovalue) && !s.volume.path.empty() && s.volume.path.is_absolute();
    if (s.volume.raw) {
        ok = ok && glm::all(glm::greaterThan(s.volume.raw->dims, glm::uvec3(0))) &&
             finite(s.volume.raw->spacing) &&
             glm::all(glm::greaterThan(s.volume.raw->spacing, glm::dvec3(0.0)));
    }
    if (s.camera) {
        const float length = glm::length(s.camera->orientation);
        ok = ok && finite(s.camera->target) && std::isfinite(s.camera->distance) &&
             s.camera->distance > 0.0 && length > 0.5f && length < 1.5f;
    }
    if (s.crop) ok = ok && glm::all(glm::lessThanEqual(s.crop->first, s.crop->last));
    if (s.surfaceColor) {
        const glm::vec3 c = *s.surfaceColor;
        ok = ok && glm::all(glm::greaterThanEqual(c, glm::vec3(0.0f))) &&
             glm::all(glm::lessThanEqual(c, glm::vec3(1.0f)));
    }
    ok = ok && !s.surfaces.empty() && s.selectedSurface < s.surfaces.size() &&
         s.isovalue == s.surfaces[s.selectedSurface].isovalue;
    for (const isoview::Surface& surface : s.surfaces) {
        ok = ok && !surface.name.empty() && std::isfinite(surface.isovalue) &&
             surface.opacity >= 0.0f && surface.opacity <= 1.0f;
        if (surface.color) {
            ok = ok && glm::all(glm::greaterThanEqual(*surface.color, glm::vec3(0.0f))) &&
                 glm::all(glm::lessThanEqual(*surface.color, glm::vec3(1.0f)));
        }
    }
    if (s.distance) ok = ok && finite((*s.distance)[0]) && finite((*s.distance)[1]);
    if (s.sliceViews && s.sliceViews->windowWidth) ok = ok && *s.sliceViews->windowWidth > 0.0;
    if (s.sliceViews && s.sliceViews->crosshair) ok = ok && finite(*s.sliceViews->crosshair);
    if (!ok) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // A folder that does not exist: relative paths resolve against it and never find a file.
    const std::filesystem::path file = "/nonexistent-isoview-fuzz/session.isoview";
    isoview::Session s;
    try {
        s = isoview::sessionFromJson(text, file);
    } catch (const isoview::InvalidInputError&) {
        return 0;
    }
    checkInvariants(s);
    const isoview::Session again = isoview::sessionFromJson(isoview::sessionToJson(s, file), file);
    const bool same =
        again.volume.path == s.volume.path && again.volume.folder == s.volume.folder &&
        again.volume.seriesIndex == s.volume.seriesIndex && again.isovalue == s.isovalue &&
        again.transferFunction.size() == s.transferFunction.size() && again.camera == s.camera &&
        again.crop == s.crop && again.renderMode == s.renderMode &&
        again.orientationMarker == s.orientationMarker && again.surfaceColor == s.surfaceColor &&
        again.sliceViews == s.sliceViews && again.surfaces == s.surfaces &&
        again.selectedSurface == s.selectedSurface && again.distance == s.distance &&
        again.volume.raw.has_value() == s.volume.raw.has_value();
    if (!same) __builtin_trap();
    return 0;
}
