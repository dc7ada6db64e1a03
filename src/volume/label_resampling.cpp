#include "volume/label_resampling.h"

#include "core/error.h"
#include "volume/volume_series.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

namespace isoview {
namespace {

// "(-34.2 .. 34.5, -49.8 .. 36.8, -27.5 .. 33.5) mm": the box of a volume's voxel centres.
std::string extentText(const Volume& v)
{
    glm::dvec3 lo(1e300);
    glm::dvec3 hi(-1e300);
    const glm::dvec3 far(glm::dvec3(v.dims()) - 1.0);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::dvec3 p = v.geometry().toPhysical(glm::dvec3(
            corner & 1 ? far.x : 0.0, corner & 2 ? far.y : 0.0, corner & 4 ? far.z : 0.0));
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    std::ostringstream s;
    s.precision(4);
    s << "(" << lo.x << " .. " << hi.x << ", " << lo.y << " .. " << hi.y << ", " << lo.z << " .. "
      << hi.z << ") mm";
    return s.str();
}

} // namespace

LabelsOnImage labelsOnImageGrid(Volume labelMap, const Volume& image)
{
    if (labelMap.type() != ScalarType::UInt16)
        throw InvalidInputError("labelsOnImageGrid takes uint16 labels (toLabelVolume)");
    if (onSameGrid(labelMap, image)) {
        labelMap.setGeometry(image.geometry()); // the image's to the last digit
        return {std::move(labelMap), false, ""};
    }
    const glm::dmat4 physicalToLabel = glm::inverse(labelMap.geometry().indexToPhysical());
    const glm::uvec3 ld = labelMap.dims();
    const glm::uvec3 d = image.dims();
    std::vector<std::byte> bytes(image.voxelCount() * sizeof(std::uint16_t));
    std::uint64_t inside = 0;
    std::size_t at = 0;
    for (std::uint32_t k = 0; k < d.z; ++k) {
        for (std::uint32_t j = 0; j < d.y; ++j) {
            for (std::uint32_t i = 0; i < d.x; ++i, ++at) {
                const glm::dvec3 p = image.geometry().toPhysical(glm::dvec3(i, j, k));
                const glm::dvec3 q = glm::dvec3(physicalToLabel * glm::dvec4(p, 1.0));
                const glm::dvec3 r = glm::round(q);
                std::uint16_t label = 0;
                if (r.x >= 0 && r.y >= 0 && r.z >= 0 && r.x < ld.x && r.y < ld.y && r.z < ld.z) {
                    ++inside;
                    label = std::uint16_t(labelMap.valueAt(std::uint32_t(r.x), std::uint32_t(r.y),
                                                           std::uint32_t(r.z)));
                }
                std::memcpy(bytes.data() + at * sizeof(label), &label, sizeof(label));
            }
        }
    }
    if (inside == 0) {
        throw InvalidInputError("the label map " + extentText(labelMap) +
                                " does not overlap the volume " + extentText(image) +
                                ": it belongs to another scan or another space");
    }
    Volume resampled(d, ScalarType::UInt16, std::move(bytes), image.geometry());
    resampled.setMetadata(labelMap.metadata());
    resampled.protectSourceFiles(labelMap.sharedSourceFileProtection());
    const glm::uvec3 from = labelMap.dims();
    std::ostringstream note;
    note << "the label map's grid (" << from.x << "x" << from.y << "x" << from.z
         << ") is not the volume's: its labels were placed on the volume's voxels by nearest "
            "neighbour ("
         << inside << " of " << image.voxelCount() << " voxels lie in it)";
    return {std::move(resampled), true, note.str()};
}

} // namespace isoview
