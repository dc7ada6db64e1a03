// Smoothed label surfaces: per label, its indicator over its bounding box grown by the kernel's
// radius (and one voxel for the cells), blurred in place one axis at a time, then marched at 0.5
// by the CPU reference's cell loop. Labels are taken from a shared counter by each thread, so a
// few large labels do not leave one core idle while the other works through them.
#include "extraction/smoothed_label_surfaces.h"

#include "core/error.h"
#include "core/parallel_for.h"
#include "extraction/cell_marching.h"
#include "extraction/label_indicator.h"
#include "extraction/label_surfaces_cpu.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <string>

namespace isoview {
namespace {

// A 1-D Gaussian truncated at 3 sigma and normalised: weights[radius + d] for offsets -r..r.
struct Kernel {
    std::uint32_t radius = 0;
    std::vector<float> weights{1.0f};
};

Kernel gaussianKernel(double sigmaVoxels)
{
    Kernel k;
    if (sigmaVoxels <= 0.0) return k;
    k.radius = std::uint32_t(std::ceil(3.0 * sigmaVoxels));
    k.weights.assign(2 * std::size_t(k.radius) + 1, 0.0f);
    double sum = 0.0;
    for (std::size_t i = 0; i < k.weights.size(); ++i) {
        const double d = double(i) - double(k.radius);
        const double w = std::exp(-0.5 * d * d / (sigmaVoxels * sigmaVoxels));
        k.weights[i] = float(w);
        sum += w;
    }
    for (float& w : k.weights)
        w = float(double(w) / sum);
    return k;
}

// The blur, one axis at a time; values beyond the box are 0 (the box reaches a radius past the
// label, or the volume's face, where the indicator is 0). Along y and z whole rows of x are
// weighted and summed (contiguous, vectorised by the compiler) rather than one strided voxel at a
// time, and rows that are all 0 are skipped: most of a label's box is empty.
class SeparableBlur {
public:
    explicit SeparableBlur(SmoothedLabelField& field) : m_field(field) {}

    void alongX(const Kernel& kernel)
    {
        if (kernel.radius == 0) return;
        const glm::uvec3 size = m_field.size;
        const int r = int(kernel.radius);
        const int length = int(size.x);
        m_line.resize(size.x);
        for (std::size_t row = 0; row < std::size_t(size.y) * size.z; ++row) {
            float* values = m_field.values.data() + row * size.x;
            int first = length;
            int last = -1;
            for (int i = 0; i < length; ++i) {
                m_line[std::size_t(i)] = values[i];
                if (values[i] != 0.0f) {
                    first = std::min(first, i);
                    last = i;
                }
            }
            if (last < 0) continue; // an empty row stays empty
            for (int i = std::max(0, first - r); i <= std::min(length - 1, last + r); ++i) {
                const int from = std::max(first, i - r);
                const int to = std::min(last, i + r);
                float sum = 0.0f;
                for (int j = from; j <= to; ++j) {
                    const int tap = j - i + r; // 0 .. 2r
                    sum += kernel.weights[std::size_t(tap)] * m_line[std::size_t(j)];
                }
                values[i] = sum;
            }
        }
    }

    // Along y (rows of one slice) or z (the same row of every slice): `count` rows of
    // size.x floats, `step` floats apart, from `base`.
    void alongRows(const Kernel& kernel, float* base, std::uint32_t count, std::size_t step)
    {
        const std::size_t width = m_field.size.x;
        const int r = int(kernel.radius);
        m_rows.resize(std::size_t(count) * width);
        m_nonZero.assign(count, false);
        bool any = false;
        for (std::uint32_t n = 0; n < count; ++n) {
            const float* row = base + n * step;
            std::copy(row, row + width, m_rows.data() + n * width);
            m_nonZero[n] = std::any_of(row, row + width, [](float v) { return v != 0.0f; });
            any = any || m_nonZero[n];
        }
        if (!any) return;
        for (int n = 0; n < int(count); ++n) {
            float* out = base + std::size_t(n) * step;
            std::fill(out, out + width, 0.0f);
            for (int j = std::max(0, n - r); j <= std::min(int(count) - 1, n + r); ++j) {
                if (!m_nonZero[std::size_t(j)]) continue;
                const int tap = j - n + r; // 0 .. 2r
                const float w = kernel.weights[std::size_t(tap)];
                const float* in = m_rows.data() + std::size_t(j) * width;
                for (std::size_t x = 0; x < width; ++x)
                    out[x] += w * in[x];
            }
        }
    }

    void alongY(const Kernel& kernel)
    {
        if (kernel.radius == 0) return;
        const glm::uvec3 size = m_field.size;
        for (std::uint32_t k = 0; k < size.z; ++k) {
            float* slice = m_field.values.data() + std::size_t(k) * size.x * size.y;
            alongRows(kernel, slice, size.y, size.x);
        }
    }

    void alongZ(const Kernel& kernel)
    {
        if (kernel.radius == 0) return;
        const glm::uvec3 size = m_field.size;
        for (std::uint32_t j = 0; j < size.y; ++j) {
            float* column = m_field.values.data() + std::size_t(j) * size.x;
            alongRows(kernel, column, size.z, std::size_t(size.x) * size.y);
        }
    }

private:
    SmoothedLabelField& m_field;
    std::vector<float> m_line;
    std::vector<float> m_rows;
    std::vector<bool> m_nonZero;
};

std::array<Kernel, 3> kernelsFor(double sigmaMm, const VolumeGeometry& geometry)
{
    std::array<Kernel, 3> kernels;
    for (int a = 0; a < 3; ++a)
        kernels[std::size_t(a)] = gaussianKernel(sigmaMm / geometry.spacing[a]);
    return kernels;
}

// Every voxel the blur reaches lies within the radius of the label's box; every cell with such a
// corner, one voxel further.
VoxelBox grownBox(const LabelInfo& info, glm::uvec3 dims, const std::array<Kernel, 3>& kernels)
{
    VoxelBox grown;
    for (int a = 0; a < 3; ++a) {
        const std::uint32_t reach = kernels[std::size_t(a)].radius + 1;
        grown.first[a] = info.first[a] > reach ? info.first[a] - reach : 0;
        grown.last[a] = std::min(info.last[a] + reach, dims[a] - 1);
    }
    return grown;
}

SmoothedLabelField blurredIndicator(const Volume& volume, const LabelInfo& info,
                                    const VoxelBox& grown, const std::array<Kernel, 3>& kernels)
{
    SmoothedLabelField field{grown.first, grown.voxelCount(), {}};
    {
        const std::vector<std::uint8_t> inside = labelIndicator(volume, info.label, grown);
        field.values.assign(inside.begin(), inside.end());
    }
    SeparableBlur blur(field);
    blur.alongX(kernels[0]);
    blur.alongY(kernels[1]);
    blur.alongZ(kernels[2]);
    return field;
}

IsoMesh smoothedSurface(const Volume& volume, const LabelInfo& info, const VoxelBox& crop,
                        const std::array<Kernel, 3>& kernels)
{
    const glm::uvec3 dims = volume.dims();
    const VoxelBox grown = grownBox(info, dims, kernels);
    const VoxelBox cells{glm::max(grown.first, crop.first), glm::min(grown.last, crop.last)};
    if (!glm::all(glm::lessThanEqual(cells.first, cells.last))) return {};
    const SmoothedLabelField field = blurredIndicator(volume, info, grown, kernels);
    return marching::marchCells(field, dims, volume.geometry(), kLabelIsovalue, cells);
}

} // namespace

SmoothedLabelField smoothedLabelField(const Volume& volume, const LabelInfo& info, double sigmaMm)
{
    validateLabelSmoothing(sigmaMm, volume.geometry());
    const std::array<Kernel, 3> kernels = kernelsFor(sigmaMm, volume.geometry());
    return blurredIndicator(volume, info, grownBox(info, volume.dims(), kernels), kernels);
}

double maxLabelSmoothingSigmaMm(const VolumeGeometry& geometry)
{
    const glm::dvec3 s = geometry.spacing;
    return kMaxLabelSmoothingVoxels * std::min({s.x, s.y, s.z});
}

void validateLabelSmoothing(double sigmaMm, const VolumeGeometry& geometry)
{
    const double most = maxLabelSmoothingSigmaMm(geometry);
    if (!std::isfinite(sigmaMm) || sigmaMm < 0.0 || sigmaMm > most) {
        char message[160];
        std::snprintf(message, sizeof message,
                      "label smoothing sigma must be from 0 to %g mm (%g voxels of this grid), "
                      "got %g",
                      most, kMaxLabelSmoothingVoxels, sigmaMm);
        throw InvalidInputError(message);
    }
}

std::vector<LabelSurface> extractSmoothedLabelSurfacesCpu(const Volume& volume,
                                                          const LabelStatistics& statistics,
                                                          double sigmaMm,
                                                          const std::vector<std::uint32_t>& labels,
                                                          const std::optional<VoxelBox>& crop,
                                                          const LabelSmoothingProgress& progress)
{
    validateLabelSmoothing(sigmaMm, volume.geometry());
    const VoxelBox box = crop.value_or(VoxelBox::whole(volume.dims()));
    requireInside(box, volume.dims());
    const std::vector<std::uint32_t> wanted = wantedLabels(statistics, labels);

    const std::array<Kernel, 3> kernels = kernelsFor(sigmaMm, volume.geometry());

    std::vector<LabelSurface> surfaces(wanted.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressLock; // the callback is the caller's: one thread at a time
    parallelFor(parallelThreads(), 1, [&](std::size_t, std::size_t) {
        for (std::size_t i = next++; i < wanted.size() && !cancelled; i = next++) {
            const LabelInfo* info = statistics.find(wanted[i]);
            surfaces[i].label = wanted[i];
            if (info) surfaces[i].mesh = smoothedSurface(volume, *info, box, kernels);
            const std::size_t finished = ++done;
            if (progress) {
                const std::lock_guard lock(progressLock);
                if (!cancelled && !progress(double(finished) / double(wanted.size())))
                    cancelled = true;
            }
        }
    });
    if (cancelled) throw CancelledError("label smoothing cancelled");
    return surfaces;
}

} // namespace isoview
