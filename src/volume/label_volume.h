// A label map as the engine extracts it: one uint16 label per voxel (0: background), on the
// source volume's grid. Label maps arrive as whatever type their format stores (D99 is float32,
// Slicer's are int16 or int32, a NIfTI may carry a rescale); the GPU extracts labels from an
// unsigned texture, where every label is exact, at 2 bytes a voxel.
//
// Labels are the volume's real values (the rescale applied), which must be whole numbers in
// 0..65535. Anything else is not a label map: a clear error naming the first offending voxel,
// never a rounded guess.
#pragma once

#include "volume/volume.h"

namespace isoview {

inline constexpr std::uint32_t kMaxLabel = 65535;

// The label map of `volume` as uint16 voxels with its geometry and metadata (identity rescale).
// Throws InvalidInputError when a value is not finite, not whole, negative or over kMaxLabel.
Volume toLabelVolume(const Volume& volume);

} // namespace isoview
