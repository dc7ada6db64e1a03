#include "scene/transfer_function.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

namespace isoview {
namespace {

// The shortest text that reads back as the same number ("1.5", "nan", "inf"), for messages.
template <typename T> std::string formatNumber(T x)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

bool inUnitRange(float x)
{
    return x >= 0.0f && x <= 1.0f; // false for NaN
}

bool valueLess(const TransferPoint& a, const TransferPoint& b)
{
    return a.value < b.value;
}

std::string pointLabel(std::size_t index)
{
    return "transfer function point " + std::to_string(index + 1);
}

void checkIndex(std::size_t index, std::size_t size)
{
    if (index >= size) {
        throw InvalidInputError("transfer function has no point " + std::to_string(index + 1) +
                                " (it has " + std::to_string(size) + ")");
    }
}

// Interpolation weight of x between a < b. The halved form keeps b - a finite when the two
// values lie more than DBL_MAX apart (a point near -DBL_MAX and one near +DBL_MAX).
double weightBetween(double a, double b, double x)
{
    const double span = b - a;
    const double t =
        std::isfinite(span) ? (x - a) / span : (x * 0.5 - a * 0.5) / (b * 0.5 - a * 0.5);
    return std::clamp(t, 0.0, 1.0);
}

glm::dvec4 rgba(const TransferPoint& p)
{
    return glm::dvec4(glm::dvec3(p.color), double(p.opacity));
}

} // namespace

void validateTransferPoint(const TransferPoint& point, std::string_view what)
{
    if (!std::isfinite(point.value)) {
        throw InvalidInputError(std::string(what) + " has value " + formatNumber(point.value) +
                                ", expected a finite number");
    }
    const glm::vec3& c = point.color;
    if (!inUnitRange(c.r) || !inUnitRange(c.g) || !inUnitRange(c.b)) {
        throw InvalidInputError(std::string(what) + " has color [" + formatNumber(c.r) + ", " +
                                formatNumber(c.g) + ", " + formatNumber(c.b) +
                                "], expected each component in 0..1");
    }
    if (!inUnitRange(point.opacity)) {
        throw InvalidInputError(std::string(what) + " has opacity " + formatNumber(point.opacity) +
                                ", expected 0..1");
    }
}

TransferFunction::TransferFunction(std::vector<TransferPoint> points, std::string name)
    : m_points(std::move(points)), m_name(std::move(name))
{
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        validateTransferPoint(m_points[i], pointLabel(i));
    }
    // Stable, so that points of equal value (a step) keep the order they were given in.
    std::stable_sort(m_points.begin(), m_points.end(), valueLess);
}

std::size_t TransferFunction::addPoint(const TransferPoint& point)
{
    validateTransferPoint(point, "new transfer function point");
    // After any points of equal value: the newest point of a step is its right-hand side.
    const auto at = std::upper_bound(m_points.begin(), m_points.end(), point, valueLess);
    const auto inserted = m_points.insert(at, point);
    return std::size_t(std::distance(m_points.begin(), inserted));
}

void TransferFunction::removePoint(std::size_t index)
{
    checkIndex(index, m_points.size());
    m_points.erase(m_points.begin() + std::ptrdiff_t(index));
}

std::size_t TransferFunction::movePoint(std::size_t index, double value, float opacity)
{
    checkIndex(index, m_points.size());
    TransferPoint moved = m_points[index];
    moved.value = value;
    moved.opacity = opacity;
    validateTransferPoint(moved, pointLabel(index));

    m_points.erase(m_points.begin() + std::ptrdiff_t(index));
    // Among the sorted places for the new value, the one nearest the old index: a point
    // dragged onto its neighbour's value stays on its side of it instead of jumping over.
    const auto first = std::lower_bound(m_points.begin(), m_points.end(), moved, valueLess);
    const auto last = std::upper_bound(first, m_points.end(), moved, valueLess);
    const std::size_t lo = std::size_t(std::distance(m_points.begin(), first));
    const std::size_t hi = std::size_t(std::distance(m_points.begin(), last));
    const std::size_t target = std::clamp(index, lo, hi);
    m_points.insert(m_points.begin() + std::ptrdiff_t(target), moved);
    return target;
}

void TransferFunction::setColor(std::size_t index, glm::vec3 color)
{
    checkIndex(index, m_points.size());
    TransferPoint changed = m_points[index];
    changed.color = color;
    validateTransferPoint(changed, pointLabel(index));
    m_points[index] = changed;
}

glm::vec4 TransferFunction::evaluate(double value) const
{
    // NaN (an undefined voxel) is transparent; evaluate never throws, it runs per sample.
    if (m_points.empty() || std::isnan(value)) return glm::vec4(0.0f);

    // The first point strictly above value; its predecessor is the last point at or below it,
    // so at a step (equal values) the later point wins: the function is right-continuous.
    const auto above =
        std::upper_bound(m_points.begin(), m_points.end(), value,
                         [](double v, const TransferPoint& p) { return v < p.value; });
    if (above == m_points.begin()) return glm::vec4(rgba(m_points.front()));
    if (above == m_points.end()) return glm::vec4(rgba(m_points.back()));
    const TransferPoint& below = *std::prev(above);
    const double t = weightBetween(below.value, above->value, value);
    // a + (b - a) t rather than a (1 - t) + b t: exact on flat segments and monotonic in t,
    // so a constant stretch of the curve evaluates to exactly its constant.
    const glm::dvec4 a = rgba(below);
    return glm::vec4(glm::clamp(a + (rgba(*above) - a) * t, 0.0, 1.0));
}

std::vector<glm::vec4> TransferFunction::sample(double min, double max, std::size_t n) const
{
    if (n == 0) throw InvalidInputError("transfer function sample count must be at least 1");
    if (!std::isfinite(min) || !std::isfinite(max)) {
        throw InvalidInputError("transfer function sample range [" + formatNumber(min) + ", " +
                                formatNumber(max) + "] is not finite");
    }
    std::vector<glm::vec4> samples(n);
    const double step = (max - min) / double(n);
    for (std::size_t i = 0; i < n; ++i) {
        samples[i] = evaluate(min + (double(i) + 0.5) * step);
    }
    return samples;
}

} // namespace isoview
