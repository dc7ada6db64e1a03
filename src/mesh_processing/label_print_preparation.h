// Print preparation of one label of a label map: print_preparation.h's steps on the label's
// surface, with closing done right for labels. A label's surface is the isosurface at 0.5 of its
// indicator (extraction/label_surface.h), or of that indicator blurred when the labels are
// smoothed (extraction/smoothed_label_surfaces.h), so it is closed against that field, not
// against the label numbers; and only where the label reaches the crop's faces: a label inside
// the box is closed already, and closing it would only weld and measure it again. isoview-cli
// (--labels) and the viewer's File > Export All Surfaces and Labels call this one function.
//
// Example:
//   for (LabelSurface& s : extractor.capture()) {
//       const LabelInfo& info = *statistics.find(s.label);
//       PreparedMesh p = prepareLabelMesh(s.mesh, labelMap, info, 0.0, crop, steps);
//       exportMesh(path, p.mesh, VolumeGeometry{}, {.processing = describeSteps(steps)});
//   }
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "mesh_processing/print_preparation.h"
#include "volume/label_statistics.h"
#include "volume/volume.h"

namespace isoview {

// Whether any of the label's voxels lies on a face of the box (or beyond it): only then is its
// surface open there and in need of closing.
bool labelTouchesBoxFaces(const LabelInfo& info, const VoxelBox& box);

// surface: label info.label's surface in index space (the CPU reference's or the GPU's
// capture, or the smoothed one of smoothingSigmaMm > 0), extracted from the cells of crop of
// labelMap (stored label numbers, any scalar type; the viewer's and the CLI's are uint16 from
// toLabelVolume). steps.closeBorders applies only when labelTouchesBoxFaces (a smoothed surface
// lies within its label's box too: outside it, most of the blur falls outside the label); the
// label is then closed against which voxels its field puts inside, made for this call: one
// zeroed byte per voxel of the whole grid (the surface's edge keys are the whole volume's), set
// only on the crop's faces, which is all that closing reads (smoothed: after blurring the
// label's box again, as the smoothing did). The report's steps are those that ran (no
// close-borders for a label inside the box). Runs on the calling thread; throws as prepareMesh
// does (CancelledError included).
PreparedMesh prepareLabelMesh(const IsoMesh& surface, const Volume& labelMap, const LabelInfo& info,
                              double smoothingSigmaMm, const VoxelBox& crop,
                              const PrintSteps& steps, const PreparationProgress& progress = {});

} // namespace isoview
