// The status bar's note on a stack that is not a regular grid: slices unevenly spaced (the
// range of the gaps along the slice normal, mm) or tilted (gantry tilt: the range of angles
// between the slice-to-slice step and the slice normal, degrees). Such stacks are kept as
// measured (VolumeGeometry::sliceOrigins), never resampled, and the user should know. A sheared
// affine without per-slice origins (NIfTI, NRRD) reads as tilted by its single angle.
// Pure function of the geometry; nothing throws; any thread.
#pragma once

#include "volume/volume.h"

#include <QString>

namespace isoview::app {

// Gaps that differ by less than this fraction of the largest, and angles under kTiltDegrees,
// count as even and untilted (rounding in the files' positions).
inline constexpr double kUnevenFraction = 1e-3;
inline constexpr double kTiltDegrees = 0.01;

struct StackGeometrySummary {
    double minGap = 0.0; // mm along the slice normal, between neighbouring slices
    double maxGap = 0.0;
    double minTiltDegrees = 0.0;
    double maxTiltDegrees = 0.0;
    bool uneven = false;
    bool tilted = false;
};

StackGeometrySummary summarizeStackGeometry(const VolumeGeometry& geometry, unsigned depth);
// "Uneven slice spacing 1.25 – 2.5 mm", "Tilted stack 15°", both joined, or empty for a
// regular grid.
QString stackGeometryNote(const VolumeGeometry& geometry, unsigned depth);

} // namespace isoview::app
