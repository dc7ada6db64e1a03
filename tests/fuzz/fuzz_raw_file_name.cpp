// libFuzzer target: io::parseRawFileName on arbitrary names. It must never throw; a name it
// accepts must describe a non-empty volume whose byte count fits in 64 bits, and the canonical
// name rebuilt from the result (with _be where the name asked for big-endian) must parse to the
// same parameters.
#include "io/raw_volume_reader.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view name(reinterpret_cast<const char*>(data), size);
    const std::optional<isoview::io::RawVolumeParameters> parsed =
        isoview::io::parseRawFileName(name);
    if (!parsed) return 0;
    const glm::uvec3 dims = parsed->dims;
    if (dims.x == 0 || dims.y == 0 || dims.z == 0 || parsed->headerOffset != 0) {
        __builtin_trap();
    }
    std::uint64_t bytes = isoview::scalarSize(parsed->type);
    for (int axis = 0; axis < 3; ++axis) {
        if (__builtin_mul_overflow(bytes, std::uint64_t(dims[axis]), &bytes)) __builtin_trap();
    }

    const std::string canonical = "v_" + std::to_string(dims.x) + "x" + std::to_string(dims.y) +
                                  "x" + std::to_string(dims.z) + "_" +
                                  std::string(isoview::scalarTypeName(parsed->type)) +
                                  (parsed->bigEndian ? "_be" : "") + ".raw";
    const std::optional<isoview::io::RawVolumeParameters> again =
        isoview::io::parseRawFileName(canonical);
    if (!again || again->dims != dims || again->type != parsed->type ||
        again->bigEndian != parsed->bigEndian) {
        __builtin_trap();
    }
    return 0;
}
