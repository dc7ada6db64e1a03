// Marching squares: the isocontour of a 2D image of values as line segments, under the same
// rules as the 3D surface (cpu_marching_cubes.h), so that on a slice through voxel centres the
// contour is exactly where the marching-cubes surface crosses that plane.
//
// - Pixel (x, y) is a grid point; a W x H image has (W-1) x (H-1) cells.
// - A value is inside when isInsideIsosurface(v, iso) (v >= iso; NaN and -Inf outside).
// - A crossing on the edge from grid point p0 to its neighbour p1 = p0 + e_axis (the one with
//   the larger coordinate) sits at p0 + t e_axis with t = edgeCrossing(v0, v1, iso).
// - Ambiguous cells (inside corners on one diagonal, outside on the other) are cut as the 3D
//   case tables cut an ambiguous cube face: the contour always separates the inside corners
//   (two segments, each around one inside corner). Both cubes sharing that face make the same
//   choice, so this is the face's own boundary, not a guess from the cell mean.
//
// Example:
//   std::vector<ContourSegment> c = sliceContour(slice, 300.0); // HU
#pragma once

#include "volume/volume_slice.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace isoview {

// A grid edge: (linear index y * width + x of its lower end point) * 2 + axis (0 = x, 1 = y).
using ContourEdge = std::uint64_t;

struct ContourSegment {
    glm::vec2 a; // pixel coordinates
    glm::vec2 b;
    ContourEdge edgeA = 0; // the grid edges a and b lie on
    ContourEdge edgeB = 0;
};

// The contour of `values` (width * height, row-major) at `iso`, in the values' units. Cells
// are visited row by row; each emits 0, 1 or 2 segments. Cost: one pass over the image; no
// allocation beyond the result. Throws std::invalid_argument when values.size() is not
// width * height.
std::vector<ContourSegment> extractContour(std::span<const float> values, int width, int height,
                                           float iso);

// The contour of a volume slice at isovalue in REAL units (converted to the slice's stored
// units here, as the 3D extraction converts it, so the contour lies where the surface crosses
// the slice). Empty for an empty slice.
std::vector<ContourSegment> sliceContour(const VolumeSlice& slice, double isovalue);

} // namespace isoview
