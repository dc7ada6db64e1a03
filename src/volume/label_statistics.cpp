// Label statistics in one pass: each row of voxels is cut into runs of equal values, and each
// run is checked and counted once (labels fill regions, so runs are long and the per-voxel
// work is one comparison). The loops are instantiated per voxel type to read the bytes
// directly rather than through Volume::valueAt's switch.
#include "volume/label_statistics.h"

#include "volume/scalar_dispatch.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

namespace isoview {
namespace {

template <class T> T load(const std::byte* base, std::size_t index)
{
    T value;
    std::memcpy(&value, base + index * sizeof(T), sizeof(T));
    return value;
}

// Why a value cannot be a label, or null when it can.
template <class T> const char* labelProblem(T value)
{
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value)) return "is not a finite number";
        if (value != std::floor(value)) return "is not a whole number";
    }
    if constexpr (std::is_signed_v<T>) {
        if (value < T(0)) return "is negative";
    }
    if constexpr (sizeof(T) > 2 || std::is_floating_point_v<T>) {
        if (value > T(kMaxLabel)) return "is over 65535, the largest label supported";
    }
    return nullptr;
}

// The label a value names, once labelProblem(value) found nothing wrong (so it is not negative).
template <class T> std::uint32_t asLabel(T value)
{
    if constexpr (std::is_same_v<T, std::int8_t>) {
        return static_cast<std::uint8_t>(value);
    } else {
        return static_cast<std::uint32_t>(value);
    }
}

[[noreturn]] void throwNotALabel(glm::uvec3 voxel, double value, const char* problem)
{
    std::ostringstream message;
    message.precision(std::numeric_limits<double>::max_digits10);
    message << "not a label map: voxel (" << voxel.x << ", " << voxel.y << ", " << voxel.z
            << ") holds " << value << ", which " << problem
            << " (labels are whole numbers 0..65535, 0 the background)";
    throw NotALabelMapError(message.str());
}

// Per-label accumulators, indexed by label (0..kMaxLabel).
struct Accumulators {
    std::vector<std::uint64_t> count = std::vector<std::uint64_t>(kMaxLabel + 1, 0);
    std::vector<glm::uvec3> first = std::vector<glm::uvec3>(kMaxLabel + 1, glm::uvec3(~0u));
    std::vector<glm::uvec3> last = std::vector<glm::uvec3>(kMaxLabel + 1, glm::uvec3(0));
    // Only for stacks with per-slice origins, whose voxels differ in volume from slice to slice.
    std::vector<double> volumeMm3;
};

template <class T> void accumulate(const Volume& volume, Accumulators& acc)
{
    const glm::uvec3 dims = volume.dims();
    const std::byte* base = volume.bytes();
    const bool perSlice = volume.geometry().hasSliceOrigins();
    std::size_t rowStart = 0;
    for (std::uint32_t k = 0; k < dims.z; ++k) {
        const double sliceVoxelMm3 = perSlice ? voxelVolumeMm3(volume.geometry(), k) : 0.0;
        for (std::uint32_t j = 0; j < dims.y; ++j, rowStart += dims.x) {
            std::uint32_t i = 0;
            while (i < dims.x) {
                // One run of equal values: [start, i).
                const T value = load<T>(base, rowStart + i);
                const std::uint32_t start = i;
                do {
                    ++i;
                } while (i < dims.x && load<T>(base, rowStart + i) == value);
                if (const char* problem = labelProblem(value)) {
                    throwNotALabel({start, j, k}, double(value), problem);
                }
                const std::uint32_t label = asLabel(value);
                acc.count[label] += i - start;
                if (perSlice) acc.volumeMm3[label] += double(i - start) * sliceVoxelMm3;
                if (label == 0) continue;
                acc.first[label] = glm::min(acc.first[label], glm::uvec3(start, j, k));
                acc.last[label] = glm::max(acc.last[label], glm::uvec3(i - 1, j, k));
            }
        }
    }
}

} // namespace

const LabelInfo* LabelStatistics::find(std::uint32_t label) const
{
    const auto it =
        std::lower_bound(labels.begin(), labels.end(), label,
                         [](const LabelInfo& a, std::uint32_t l) { return a.label < l; });
    return it != labels.end() && it->label == label ? &*it : nullptr;
}

double voxelVolumeMm3(const VolumeGeometry& geometry, std::size_t k)
{
    // voxelGradientToPhysical is the inverse transpose of the Jacobian whose third column is the
    // slice's central-difference step: its determinant is 1 / det(that Jacobian).
    return 1.0 / std::abs(glm::determinant(geometry.voxelGradientToPhysical(k)));
}

LabelStatistics analyseLabels(const Volume& volume)
{
    Accumulators acc;
    const bool perSlice = volume.geometry().hasSliceOrigins();
    if (perSlice) acc.volumeMm3.assign(kMaxLabel + 1, 0.0);
    withScalarType(volume.type(), [&](auto tag) { accumulate<decltype(tag)>(volume, acc); });

    LabelStatistics stats;
    stats.backgroundVoxels = acc.count[0];
    const double regularVoxelMm3 = perSlice ? 0.0 : voxelVolumeMm3(volume.geometry(), 0);
    for (std::uint32_t label = 1; label <= kMaxLabel; ++label) {
        if (acc.count[label] == 0) continue;
        LabelInfo info;
        info.label = label;
        info.voxelCount = acc.count[label];
        info.first = acc.first[label];
        info.last = acc.last[label];
        info.volumeMm3 =
            perSlice ? acc.volumeMm3[label] : double(acc.count[label]) * regularVoxelMm3;
        stats.labels.push_back(info);
    }
    return stats;
}

bool looksLikeLabelMap(const Volume& volume)
{
    const ValueRange range = volume.storedRange();
    if (range.min != 0.0 || range.max < 1.0 || range.max > double(kMaxLabel)) return false;

    // Whole rows, spread evenly: runs along x are what the coherence test looks at.
    constexpr std::size_t kSampleVoxels = std::size_t(1) << 20;
    const glm::uvec3 dims = volume.dims();
    const std::size_t rows = std::size_t(dims.y) * dims.z;
    const std::size_t rowStep = std::max<std::size_t>(1, rows * dims.x / kSampleVoxels);
    const std::size_t maxDistinct =
        std::min<std::size_t>(1024, std::max<std::size_t>(1, volume.voxelCount() / 100));

    bool looks = true;
    withScalarType(volume.type(), [&](auto tag) {
        using T = decltype(tag);
        const std::byte* base = volume.bytes();
        std::bitset<kMaxLabel + 1> seen;
        std::size_t distinct = 0;
        std::size_t labelledPairs = 0;
        std::size_t equalPairs = 0;
        for (std::size_t row = 0; row < rows; row += rowStep) {
            const std::size_t start = row * dims.x;
            for (std::uint32_t i = 0; i < dims.x; ++i) {
                const T value = load<T>(base, start + i);
                if (labelProblem(value) != nullptr) {
                    looks = false;
                    return;
                }
                const std::uint32_t label = asLabel(value);
                if (!seen.test(label)) {
                    seen.set(label);
                    if (++distinct > maxDistinct) {
                        looks = false;
                        return;
                    }
                }
                if (label != 0 && i + 1 < dims.x) {
                    ++labelledPairs;
                    if (load<T>(base, start + i + 1) == value) ++equalPairs;
                }
            }
        }
        looks = labelledPairs > 0 && equalPairs * 4 >= labelledPairs * 3;
    });
    return looks;
}

} // namespace isoview
