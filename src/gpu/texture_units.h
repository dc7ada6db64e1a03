// Fixed texture units of the engine's programs: every sampler has its own unit, so samplers of
// different types never share one (which GL rejects at draw time).
#pragma once

namespace isoview::gpu::units {

inline constexpr int kVolume = 0;
inline constexpr int kCaseTable = 1;
inline constexpr int kHpBase = 2;
inline constexpr int kHp8 = 3;
inline constexpr int kHp16 = 4;
inline constexpr int kHp32 = 5;
inline constexpr int kReduceSource = 6;
inline constexpr int kSliceOrigins = 7;
inline constexpr int kVp8 = 8; // the vertex pyramid's levels
inline constexpr int kVp16 = 9;
inline constexpr int kVp32 = 10;
inline constexpr int kVertexReduceSource = 11;
inline constexpr int kLabelStyles = 12; // a label map's colours and opacities, per label
inline constexpr int kCount = 13;       // the 2D units above (ScopedTextureUnits binds them all)

// Buffer textures of the compute index pass, past the 2D units and the raycaster's three
// (volume_raycaster.cpp): its rank queries read the active blocks' slots and their cells' first
// welded vertices through the texture path (gpu/texel_buffer_view.h).
inline constexpr int kBlockSlots = 16;
inline constexpr int kCellFirstVertex = 17;

} // namespace isoview::gpu::units
