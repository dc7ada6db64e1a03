// Area and enclosed volume of an extracted isosurface in physical millimetres, the figures the
// viewer's Measurements panel shows: the whole surface, and its largest connected piece.
//
// Area is the surface's own (the tissue boundary), in mm^2. Enclosed volume needs a closed
// surface (divergence theorem); a marching-cubes surface is closed everywhere except where the
// volume's or crop's border cuts it. There it is closed with the border caps (border_caps.h,
// what --close-borders uses) for the volume figure only: the caps lie on the outermost voxel
// centres, where the surface ends, so the figure is exactly the inside region the view shows,
// the same volume a print-ready export of the surface encloses. openAtBorder says when that
// happened, so the panel can say the volume is cut by the field of view.
//
// Per-slice origins (tilted or unevenly spaced stacks) are honoured (toPhysicalMesh), and a
// mirroring geometry does not flip the sign.
//
// Example:
//   SurfaceMeasurements m = measureSurface(surface, volume, 300.0 /* HU */, crop);
//   std::printf("%.1f mm2, %.2f mL\n", m.areaMm2, m.volumeMl);
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <cstddef>
#include <functional>

namespace isoview {

struct SurfaceMeasurements {
    std::size_t triangles = 0;    // of the surface (caps not counted)
    double areaMm2 = 0.0;         // of the surface (caps not counted)
    bool openAtBorder = false;    // the border cut the surface: the volume is of the capped one
    std::size_t capTriangles = 0; // added to close it for the volume
    double volumeMl = 0.0;        // enclosed, 1 mL = 1000 mm^3
    // Connected pieces (triangles sharing a vertex, caps joining the pieces they close).
    std::size_t pieces = 0;
    // The piece enclosing the most volume: its area (caps not counted) and volume.
    double largestPieceAreaMm2 = 0.0;
    double largestPieceVolumeMl = 0.0;
};

// fraction of the work done, 0..1; return false to cancel (throws CancelledError).
using MeasurementProgress = std::function<bool(double fraction)>;

// surface: the extracted isosurface in index space (CPU reference or GPU capture), extracted at
// isovalue (REAL units; converted to stored units here) from the cells of crop. Throws
// InvalidInputError when surface is not a valid mesh or was not extracted from this volume,
// isovalue and crop (the caps miss a rim vertex), CancelledError when progress says stop. Runs on
// the calling thread; linear in the triangles (about a second for 2 M triangles), memory about
// three copies of the mesh.
SurfaceMeasurements measureSurface(const IsoMesh& surface, const Volume& volume, double isovalue,
                                   const VoxelBox& crop, const MeasurementProgress& progress = {});

} // namespace isoview
