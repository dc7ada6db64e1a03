#include "bench_blob.h"

#include "core/error.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

namespace isoview::bench {
namespace {

// The anchor's shape, in p-units of the box [-1, 1]^3.
constexpr double kSphereCentre[3] = {-0.40, 0.00, 0.05};
constexpr double kSphereRadius = 0.48;
constexpr double kTorusCentre[3] = {0.26, 0.00, -0.05};
constexpr double kTorusMajor = 0.48;
constexpr double kTorusMinor = 0.17;
constexpr double kBlend = 0.17;
constexpr double kRippleAmplitude = 0.012;
constexpr double kRippleFrequency = 9.0 * std::numbers::pi;
constexpr double kSharpness = 6.0;

double smoothMin(double a, double b, double k)
{
    const double h = std::clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return b * (1.0 - h) + a * h - k * h * (1.0 - h);
}

} // namespace

std::optional<BlobSpec> parseBlobSpec(std::string_view text)
{
    constexpr std::string_view kPrefix = "blob:";
    if (!text.starts_with(kPrefix)) return std::nullopt;
    std::string_view rest = text.substr(kPrefix.size());
    BlobSpec spec;
    const std::size_t colon = rest.find(':');
    const std::string_view side = rest.substr(0, colon);
    const auto [end, error] = std::from_chars(side.data(), side.data() + side.size(), spec.side);
    if (error != std::errc() || end != side.data() + side.size() || spec.side < 2 ||
        spec.side > 2048) {
        throw InvalidInputError("blob volume '" + std::string(text) +
                                "': the side must be a whole number from 2 to 2048");
    }
    if (colon != std::string_view::npos) {
        const std::string_view type = rest.substr(colon + 1);
        if (type == "uint8") {
            spec.type = ScalarType::UInt8;
        } else if (type == "uint16") {
            spec.type = ScalarType::UInt16;
        } else {
            throw InvalidInputError("blob volume '" + std::string(text) +
                                    "': the type must be uint8 or uint16");
        }
    }
    return spec;
}

double blobSurfaceValue(const BlobSpec& spec)
{
    return spec.type == ScalarType::UInt8 ? 127.5 : 32767.5;
}

Volume makeBlob(const BlobSpec& spec)
{
    const std::size_t n = spec.side;
    const std::size_t bytesPerVoxel = scalarSize(spec.type);
    const double top = spec.type == ScalarType::UInt8 ? 255.0 : 65535.0;
    std::vector<std::byte> voxels(n * n * n * bytesPerVoxel);
    // Lattice sample k sits at (k + 0.5) / n, mapped to (-1, 1); the ripple is separable.
    std::vector<double> coordinate(n);
    std::vector<double> ripple(n);
    for (std::size_t k = 0; k < n; ++k) {
        coordinate[k] = (double(k) + 0.5) / double(n) * 2.0 - 1.0;
        ripple[k] = std::sin(kRippleFrequency * coordinate[k]);
    }
    parallelFor(n * n, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
            const std::size_t zi = row / n;
            const std::size_t yi = row % n;
            const double z = coordinate[zi];
            const double y = coordinate[yi];
            for (std::size_t xi = 0; xi < n; ++xi) {
                const double x = coordinate[xi];
                const double sx = x - kSphereCentre[0];
                const double sy = y - kSphereCentre[1];
                const double sz = z - kSphereCentre[2];
                const double sphere = std::sqrt(sx * sx + sy * sy + sz * sz) - kSphereRadius;
                const double tx = x - kTorusCentre[0];
                const double ty = y - kTorusCentre[1];
                const double tz = z - kTorusCentre[2];
                const double q = std::sqrt(tx * tx + ty * ty) - kTorusMajor;
                const double torus = std::sqrt(q * q + tz * tz) - kTorusMinor;
                const double d = smoothMin(sphere, torus, kBlend) +
                                 kRippleAmplitude * ripple[xi] * ripple[yi] * ripple[zi];
                const double value = std::clamp(
                    std::nearbyint(top * (0.5 - 0.5 * std::tanh(kSharpness * d))), 0.0, top);
                const std::size_t index = row * n + xi;
                if (spec.type == ScalarType::UInt8) {
                    voxels[index] = std::byte(std::uint8_t(value));
                } else {
                    const std::uint16_t v = std::uint16_t(value);
                    std::memcpy(&voxels[index * 2], &v, 2);
                }
            }
        }
    });
    return Volume({spec.side, spec.side, spec.side}, spec.type, std::move(voxels));
}

} // namespace isoview::bench
