// A label map as the engine extracts it: one uint16 label per voxel (0: background), on the
// source volume's grid. Label maps arrive as whatever type their format stores (D99 is float32,
// Slicer's are int16 or int32); the GPU extracts labels from an unsigned texture, where every
// label is exact, at 2 bytes a voxel.
//
// Labels are the stored values (label_statistics.h): whole numbers in 0..65535. Anything else
// is not a label map: analyseLabels' clear error naming the first offending voxel, never a
// rounded guess.
#pragma once

#include "volume/label_statistics.h"
#include "volume/volume.h"

namespace isoview {

// The label map of `volume` as uint16 voxels with its geometry and metadata (identity rescale).
// Throws NotALabelMapError as analyseLabels does (call that first to have the statistics too).
Volume toLabelVolume(const Volume& volume);
// The same when analyseLabels(volume) has already passed: no second check.
Volume toLabelVolume(const Volume& volume, const LabelStatistics& checked);

} // namespace isoview
