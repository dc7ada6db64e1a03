// Constants shared by C++ and GLSL, emitted as a #define preamble from their one C++
// definition (case-table edge corners, pyramid level formats, the volume sampler type).
#pragma once

#include "gpu/volume_texture.h"

#include <string>

namespace isoview::gpu {

// `labels`: the programs extract every label of a label map at once (ISOVIEW_LABELS; the
// volume's sampler must then be unsigned).
std::string engineShaderDefines(SamplerKind volumeSampler, bool labels = false);

// Whether a volume's slices sit on one affine grid or where the scanner measured them
// (VolumeGeometry::sliceOrigins). Programs that map every vertex are built per kind
// (common/volume_geometry.glsl says why).
enum class SliceGeometry { Regular, Measured };
inline constexpr const char* sliceGeometryDefine(SliceGeometry kind)
{
    return kind == SliceGeometry::Measured ? "#define ISOVIEW_MEASURED_SLICES 1\n"
                                           : "#define ISOVIEW_MEASURED_SLICES 0\n";
}

// hp_reduce_level.comp is built once per storage format of the level it writes.
inline constexpr const char* kReduceTo16BitLevelDefine = "#define HP_TARGET_FORMAT rgba16ui\n";
inline constexpr const char* kReduceTo32BitLevelDefine = "#define HP_TARGET_FORMAT rgba32ui\n";

} // namespace isoview::gpu
