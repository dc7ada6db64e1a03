// The extraction record: 16 uints the pyramid build writes on the GPU (extraction_record.vert)
// and every later pass reads from there, so on OpenGL 4.3 no count has to visit the CPU.
#pragma once

#include <cstddef>
#include <cstdint>

namespace isoview::gl::record {

inline constexpr std::size_t kUints = 16;
inline constexpr std::size_t kBytes = kUints * sizeof(std::uint32_t);
// DrawElementsIndirectCommand {count, instanceCount, firstIndex, baseVertex, baseInstance};
// count is 0 when the mesh buffers are too small for this isovalue.
inline constexpr std::size_t kDrawCommand = 0;
inline constexpr std::size_t kVertexDispatch = 5;   // {groups x, groups y, 1}
inline constexpr std::size_t kTriangleDispatch = 8; // {groups x, groups y, 1}
inline constexpr std::size_t kIndexCount = 11;      // 3 x triangles
inline constexpr std::size_t kVertexCount = 12;     // welded vertices

} // namespace isoview::gl::record
