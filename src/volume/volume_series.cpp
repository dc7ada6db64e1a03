#include "volume/volume_series.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>

namespace isoview {

bool onSameGrid(const Volume& a, const Volume& b)
{
    if (a.dims() != b.dims()) return false;
    const VolumeGeometry& ga = a.geometry();
    const VolumeGeometry& gb = b.geometry();
    if (ga.sliceOrigins != gb.sliceOrigins) return false;
    const glm::dvec3 s = ga.spacing;
    const double tolerance = 1e-3 * std::min({std::abs(s.x), std::abs(s.y), std::abs(s.z)});
    const glm::dvec3 far(glm::dvec3(a.dims()) - 1.0);
    // The grids agree when their corners do.
    for (int corner = 0; corner < 8; ++corner) {
        const glm::dvec3 p(corner & 1 ? far.x : 0.0, corner & 2 ? far.y : 0.0,
                           corner & 4 ? far.z : 0.0);
        if (glm::length(ga.toPhysical(p) - gb.toPhysical(p)) > tolerance) return false;
    }
    return true;
}

VolumeSeries::VolumeSeries(std::vector<std::shared_ptr<const Volume>> volumes,
                           std::vector<std::string> labels)
    : m_volumes(std::move(volumes)), m_labels(std::move(labels))
{
    if (m_volumes.size() < 2) throw InvalidInputError("a series to play needs two volumes or more");
    if (m_labels.size() != m_volumes.size())
        throw InvalidInputError("a series to play needs one label per volume");
    for (std::size_t i = 0; i < m_volumes.size(); ++i) {
        if (!m_volumes[i]) throw InvalidInputError("a series to play has no null volumes");
        const Volume& first = *m_volumes.front();
        const Volume& v = *m_volumes[i];
        if (v.type() != first.type() || !onSameGrid(v, first))
            throw InvalidInputError("volume " + std::to_string(i + 1) + " of the series (" +
                                    m_labels[i] +
                                    ") is not on the first one's grid, or not of its type: the "
                                    "series cannot be played as time");
    }
}

std::size_t VolumeSeries::indexOf(const Volume* volume) const
{
    const auto it = std::find_if(m_volumes.begin(), m_volumes.end(),
                                 [&](const auto& v) { return v.get() == volume; });
    return std::size_t(it - m_volumes.begin());
}

std::uint64_t VolumeSeries::byteCount() const
{
    std::uint64_t bytes = 0;
    for (const auto& v : m_volumes)
        bytes += v->voxelCount() * scalarSize(v->type());
    return bytes;
}

} // namespace isoview
