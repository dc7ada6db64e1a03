// The extraction record: 8 uints the pyramid build writes on the GPU (extraction_record.vert):
// the draw command, so on OpenGL 4.3 no count has to visit the CPU before the draw, and the
// counts the CPU reads back when it needs them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace isoview::gpu::record {

inline constexpr std::size_t kUints = 8;
inline constexpr std::size_t kBytes = kUints * sizeof(std::uint32_t);
// DrawElementsIndirectCommand {count, instanceCount, firstIndex, baseVertex, baseInstance};
// count is 0 when the mesh buffers are too small for this isovalue.
inline constexpr std::size_t kDrawCommand = 0;
inline constexpr std::size_t kIndexCount = 5;  // 3 x triangles
inline constexpr std::size_t kVertexCount = 6; // welded vertices

} // namespace isoview::gpu::record
