#include "scene/scene.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace isoview {

WindowLevel defaultWindowLevel(const Volume& volume)
{
    const VolumeMetadata& m = volume.metadata();
    if (m.windowCenter && m.windowWidth && *m.windowWidth > 0.0)
        return {*m.windowCenter, *m.windowWidth};
    const ValueRange real = volume.realRange();
    return {(real.min + real.max) / 2.0, std::max(real.max - real.min, 1e-6)};
}

Scene Scene::withSurface(std::shared_ptr<const Volume> volume, double isovalue,
                         std::optional<glm::vec3> color)
{
    Scene scene;
    scene.volume = std::move(volume);
    scene.surfaces.reset({Surface{0, "Surface 1", isovalue, color, 1.0f, true}}, 0);
    return scene;
}

VoxelBox Scene::cropBox() const
{
    if (!volume) return {};
    const glm::uvec3 dims = volume->dims();
    return crop && crop->fitsIn(dims) ? *crop : VoxelBox::whole(dims);
}

void Scene::showTimePoint(std::size_t t)
{
    if (!series) throw InvalidInputError("the volume is not a series of time points");
    if (t >= series->size())
        throw InvalidInputError("time point " + std::to_string(t + 1) + " is outside the series' " +
                                std::to_string(series->size()));
    volume = series->volume(t);
    timePoint = t;
}

bool Scene::slicePlanesShown() const
{
    return volume && slices.planesIn3D && slices.arrangement != ViewArrangement::ThreeDOnly;
}

glm::uvec3 Scene::sliceIndices() const
{
    const glm::dvec3 last = volume ? glm::dvec3(volume->dims() - glm::uvec3(1)) : glm::dvec3(0.0);
    glm::uvec3 index(0);
    for (int a = 0; a < 3; ++a)
        index[a] = std::uint32_t(std::lround(std::clamp(slices.crosshair[a], 0.0, last[a])));
    return index;
}

namespace {
constexpr std::array<std::pair<RenderMode, std::string_view>, 6> kRenderModeNames = {{
    {RenderMode::Surface, "surface"},
    {RenderMode::Volume, "volume"},
    {RenderMode::SurfaceAndVolume, "both"},
    {RenderMode::MaximumIntensity, "mip"},
    {RenderMode::MinimumIntensity, "minip"},
    {RenderMode::AverageIntensity, "average"},
}};
} // namespace

std::string_view renderModeName(RenderMode mode)
{
    for (const auto& [m, name] : kRenderModeNames)
        if (m == mode) return name;
    return "surface";
}

std::optional<RenderMode> renderModeFromName(std::string_view name)
{
    for (const auto& [m, n] : kRenderModeNames)
        if (n == name) return m;
    return std::nullopt;
}

} // namespace isoview
