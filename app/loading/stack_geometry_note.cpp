#include "loading/stack_geometry_note.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace isoview::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("StackGeometryNote", text);
}

double degreesBetween(const glm::dvec3& step, const glm::dvec3& normal)
{
    const double length = glm::length(step);
    if (!(length > 0.0)) return 0.0;
    const double c = std::clamp(std::abs(glm::dot(step, normal)) / length, 0.0, 1.0);
    return std::acos(c) * 180.0 / std::numbers::pi;
}

QString number(double v, int significant)
{
    return QString::number(v, 'g', significant);
}

QString range(double lo, double hi, int significant, const QString& unit)
{
    if (number(lo, significant) == number(hi, significant)) return number(lo, significant) + unit;
    return QStringLiteral("%1 – %2%3").arg(number(lo, significant), number(hi, significant), unit);
}

} // namespace

StackGeometrySummary summarizeStackGeometry(const VolumeGeometry& geometry, unsigned depth)
{
    StackGeometrySummary s;
    const glm::dvec3 cross = glm::cross(geometry.direction[0], geometry.direction[1]);
    if (!(glm::length(cross) > 0.0)) return s;
    const glm::dvec3 normal = glm::normalize(cross);

    if (!geometry.hasSliceOrigins()) {
        if (depth < 2) return s;
        const double tilt = degreesBetween(geometry.direction[2], normal);
        s.minGap = s.maxGap =
            geometry.spacing.z * std::abs(glm::dot(geometry.direction[2], normal));
        s.minTiltDegrees = s.maxTiltDegrees = tilt;
        s.tilted = tilt >= kTiltDegrees;
        return s;
    }
    const std::vector<glm::dvec3>& o = geometry.sliceOrigins;
    if (o.size() < 2) return s;
    s.minGap = s.minTiltDegrees = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k + 1 < o.size(); ++k) {
        const glm::dvec3 step = o[k + 1] - o[k];
        const double gap = std::abs(glm::dot(step, normal));
        const double tilt = degreesBetween(step, normal);
        s.minGap = std::min(s.minGap, gap);
        s.maxGap = std::max(s.maxGap, gap);
        s.minTiltDegrees = std::min(s.minTiltDegrees, tilt);
        s.maxTiltDegrees = std::max(s.maxTiltDegrees, tilt);
    }
    s.uneven = s.maxGap - s.minGap > kUnevenFraction * s.maxGap;
    s.tilted = s.maxTiltDegrees >= kTiltDegrees;
    return s;
}

QString stackGeometryNote(const VolumeGeometry& geometry, unsigned depth)
{
    const StackGeometrySummary s = summarizeStackGeometry(geometry, depth);
    QStringList parts;
    if (s.uneven) parts << tr("Uneven slice spacing %1").arg(range(s.minGap, s.maxGap, 4, " mm"));
    if (s.tilted)
        parts << tr("Tilted stack %1")
                     .arg(range(s.minTiltDegrees, s.maxTiltDegrees, 3, QStringLiteral("°")));
    return parts.join(QStringLiteral(" · "));
}

} // namespace isoview::app
