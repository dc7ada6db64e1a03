#include "io/dicom/dicom_stack_geometry.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numbers>
#include <numeric>

namespace isoview::io::dicom {
namespace {

// Direction cosines of the stack; identity (with a warning) when absent or degenerate.
glm::dmat3 stackDirection(const std::vector<StackSlice>& slices, std::vector<std::string>& warnings)
{
    const std::optional<std::array<double, 6>>& first = slices.front().orientation;
    for (const StackSlice& slice : slices) {
        const auto& o = slice.orientation;
        if (o.has_value() != first.has_value() || (o && !sameOrientation(*o, *first, 1e-3))) {
            throw InvalidInputError("the slices of the series have different orientations (" +
                                    slices.front().label + " and " + slice.label +
                                    "); isoview stacks slices of one orientation only");
        }
    }
    if (!first) {
        warnings.push_back("the images have no ImageOrientationPatient: assuming axial slices "
                           "(identity direction)");
        return glm::dmat3(1.0);
    }
    const glm::dvec3 row((*first)[0], (*first)[1], (*first)[2]);
    const glm::dvec3 column((*first)[3], (*first)[4], (*first)[5]);
    const glm::dvec3 normal = glm::cross(row, column);
    if (glm::length(row) < 0.5 || glm::length(column) < 0.5 || glm::length(normal) < 0.5) {
        warnings.push_back("ImageOrientationPatient is degenerate: assuming axial slices "
                           "(identity direction)");
        return glm::dmat3(1.0);
    }
    return glm::dmat3(glm::normalize(row), glm::normalize(column), glm::normalize(normal));
}

glm::dvec2 stackPixelSpacing(const std::vector<StackSlice>& slices,
                             std::vector<std::string>& warnings)
{
    const std::optional<glm::dvec2>& first = slices.front().pixelSpacing;
    if (!first || !(first->x > 0.0) || !(first->y > 0.0)) {
        warnings.push_back("the images have no valid PixelSpacing: assuming 1 mm pixels");
        return {1.0, 1.0};
    }
    for (const StackSlice& slice : slices) {
        const auto& s = slice.pixelSpacing;
        if (!s || glm::length(*s - *first) > 1e-4 * glm::length(*first)) {
            warnings.push_back("the pixel spacing differs between slices; using the first "
                               "slice's " +
                               fmt::format("{:g} x {:g} mm", first->y, first->x));
            break;
        }
    }
    return *first;
}

// Warnings about the gaps between consecutive slices, with where they are.
void describeIrregularGaps(const std::vector<double>& along, double mean,
                           std::vector<std::string>& warnings)
{
    std::vector<double> gaps;
    for (std::size_t k = 1; k < along.size(); ++k) {
        gaps.push_back(along[k] - along[k - 1]);
    }
    std::vector<double> sorted = gaps;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double typical = sorted[sorted.size() / 2];
    const std::size_t n = along.size();

    std::vector<std::string> missing;
    for (std::size_t k = 0; k < gaps.size(); ++k) {
        const double ratio = gaps[k] / typical;
        if (ratio > 1.5 && std::abs(ratio - std::round(ratio)) < 0.2) {
            const auto count = long(std::lround(ratio)) - 1;
            missing.push_back(fmt::format(
                "a gap of {} between slices {} and {} of {} (at {} and {} along the slice "
                "normal), about {} slice{} missing",
                mm(gaps[k]), k + 1, k + 2, n, mm(along[k]), mm(along[k + 1]), count,
                count == 1 ? "" : "s"));
        }
    }
    for (std::size_t i = 0; i < missing.size() && i < 5; ++i) {
        warnings.push_back("missing slice(s): " + missing[i] + "; the spacing elsewhere is " +
                           mm(typical));
    }
    if (missing.size() > 5) {
        warnings.push_back("missing slice(s): " + std::to_string(missing.size() - 5) +
                           " more gaps like these");
    }
    const auto [low, high] = std::minmax_element(gaps.begin(), gaps.end());
    warnings.push_back(fmt::format("uneven slice spacing: gaps from {} to {} (mean {}); the "
                                   "slice positions are kept as measured, not resampled",
                                   mm(*low), mm(*high), mm(mean)));
}

} // namespace

bool sameOrientation(const std::array<double, 6>& a, const std::array<double, 6>& b,
                     double tolerance)
{
    for (std::size_t i = 0; i < 6; ++i) {
        if (std::abs(a[i] - b[i]) > tolerance) return false;
    }
    return true;
}

StackLayout layoutStack(const std::vector<StackSlice>& slices, std::vector<std::string>& warnings)
{
    StackLayout layout;
    VolumeGeometry& g = layout.geometry;
    g.direction = stackDirection(slices, warnings);
    const glm::dvec2 pixel = stackPixelSpacing(slices, warnings);
    g.spacing = glm::dvec3(pixel.y, pixel.x, 1.0); // columns advance i, rows advance j
    const glm::dvec3 normal = g.direction[2];

    const auto instance = [](const StackSlice& s) {
        return s.instanceNumber.value_or(std::numeric_limits<std::int32_t>::max());
    };
    const auto sameImage = [](const StackSlice& a, const StackSlice& b) {
        return !a.sopInstanceUid.empty() && a.sopInstanceUid == b.sopInstanceUid &&
               a.frame == b.frame;
    };

    std::vector<std::size_t> order(slices.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const bool havePositions =
        std::all_of(slices.begin(), slices.end(), [](const StackSlice& s) { return s.position; });
    std::vector<double> along(slices.size(), 0.0);
    if (havePositions) {
        for (std::size_t i = 0; i < slices.size(); ++i) {
            along[i] = glm::dot(*slices[i].position, normal);
        }
    } else if (slices.size() > 1) {
        warnings.push_back("slice positions (ImagePositionPatient) are missing: slices are "
                           "ordered by InstanceNumber, then file name and frame, and the slice "
                           "spacing is not measured");
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (havePositions && along[a] != along[b]) return along[a] < along[b];
        if (instance(slices[a]) != instance(slices[b])) {
            return instance(slices[a]) < instance(slices[b]);
        }
        if (slices[a].fileIndex != slices[b].fileIndex) return slices[a].file < slices[b].file;
        return slices[a].frame < slices[b].frame;
    });

    // Duplicates: copies of one image are dropped; distinct images at one position are an error.
    constexpr double kSamePosition = 1e-4; // mm along the normal
    std::size_t dropped = 0;
    std::string droppedExample;
    std::vector<std::size_t> kept;
    for (const std::size_t index : order) {
        bool drop = false;
        for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
            const bool samePlace =
                havePositions && std::abs(along[*it] - along[index]) <= kSamePosition;
            if (sameImage(slices[*it], slices[index])) {
                drop = true;
                if (droppedExample.empty()) {
                    droppedExample = slices[index].label + " repeats " + slices[*it].label;
                }
                break;
            }
            if (samePlace) {
                throw InvalidInputError(
                    "two different images lie at the same position (" + mm(along[index]) +
                    " along the slice normal): " + slices[*it].label + " and " +
                    slices[index].label +
                    ", and nothing distinguishes them as images of different volumes "
                    "(AcquisitionNumber, TemporalPositionIndex, EchoNumbers, image type, "
                    "DimensionIndexValues and rescale agree): repeated slices cannot be stacked "
                    "into one volume");
            }
            if (!havePositions || along[index] - along[*it] > kSamePosition) break;
        }
        if (drop) {
            ++dropped;
        } else {
            kept.push_back(index);
        }
    }
    if (dropped > 0) {
        warnings.push_back(
            "dropped " + std::to_string(dropped) + " duplicate cop" + (dropped == 1 ? "y" : "ies") +
            " of the same image (same SOPInstanceUID and frame), e.g. " + droppedExample);
    }
    layout.order = kept;

    const StackSlice& first = slices[kept.front()];
    g.origin = first.position.value_or(glm::dvec3(0.0));
    const std::size_t n = kept.size();
    if (!havePositions || n == 1) {
        double z = first.sliceThickness.value_or(1.0);
        if (n > 1) {
            if (first.spacingBetweenSlices && *first.spacingBetweenSlices > 0.0) {
                z = *first.spacingBetweenSlices;
                warnings.push_back("slice spacing taken from SpacingBetweenSlices: " + mm(z));
            } else if (first.sliceThickness && *first.sliceThickness > 0.0) {
                warnings.push_back("slice spacing taken from SliceThickness: " + mm(z));
            } else {
                z = 1.0;
                warnings.push_back("slice spacing unknown: assuming 1 mm");
            }
        }
        g.spacing.z = z > 0.0 ? z : 1.0;
        return layout;
    }

    std::vector<double> sortedAlong;
    std::vector<glm::dvec3> positions;
    for (const std::size_t index : kept) {
        sortedAlong.push_back(along[index]);
        positions.push_back(*slices[index].position);
    }
    const double mean = (sortedAlong.back() - sortedAlong.front()) / double(n - 1);
    if (!std::isfinite(mean) || !(mean > 0.0)) {
        throw InvalidInputError("the slice positions of the series are not usable (they span " +
                                mm(sortedAlong.back() - sortedAlong.front()) + ")");
    }
    g.spacing.z = mean;

    bool regular = true;
    for (std::size_t k = 1; k < n; ++k) {
        const double gap = sortedAlong[k] - sortedAlong[k - 1];
        if (std::abs(gap - mean) > std::max(1e-3 * mean, 1e-4)) regular = false;
    }
    if (!regular) describeIrregularGaps(sortedAlong, mean, warnings);

    // Shear: the part of each slice's offset from the first that is not along the normal.
    double worstLateral = 0.0;
    bool sheared = false;
    for (std::size_t k = 1; k < n; ++k) {
        const glm::dvec3 offset = positions[k] - positions[0];
        const double normalPart = sortedAlong[k] - sortedAlong[0];
        const double lateral = glm::length(offset - normal * normalPart);
        worstLateral = std::max(worstLateral, lateral);
        if (lateral > 0.01 + 1e-4 * normalPart) sheared = true;
    }
    if (sheared) {
        const glm::dvec3 span = positions.back() - positions.front();
        const double lateral = glm::length(span - normal * glm::dot(span, normal));
        const double degrees = std::atan2(lateral, sortedAlong.back() - sortedAlong.front()) *
                               180.0 / std::numbers::pi;
        warnings.push_back(fmt::format(
            "sheared stack (gantry tilt about {:.1f} degrees): the slice positions move up to "
            "{} across the slice plane; they are kept as measured, not resampled",
            degrees, mm(worstLateral)));
    }
    if (!regular || sheared) g.sliceOrigins = positions;
    return layout;
}

} // namespace isoview::io::dicom
