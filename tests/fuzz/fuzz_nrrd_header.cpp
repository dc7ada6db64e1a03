// libFuzzer target: io::parseNrrdHeader on arbitrary bytes. When the bytes parse as an attached
// header of at most 1 MiB of voxels, io::readNrrd also reads them as a file, which exercises
// the raw and gzip data paths and the size checks. isoview::Error is the expected outcome of
// bad input; anything else (a crash, a sanitizer report, another exception, a broken
// invariant) is a finding.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/nrrd_reader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace {

void checkInvariants(const isoview::io::NrrdHeader& header, std::size_t size)
{
    bool ok = header.dims.x > 0 && header.dims.y > 0 && header.dims.z > 0 &&
              header.headerBytes <= size && header.byteSkip >= -1 &&
              isoview::fuzz::geometryIsSane(header.geometry);
    if (!ok) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    isoview::io::NrrdHeader header;
    try {
        header = isoview::io::parseNrrdHeader(text);
    } catch (const isoview::Error&) {
        return 0;
    }
    checkInvariants(header, size);

    const std::uint64_t voxels = std::uint64_t(header.dims.x) * header.dims.y * header.dims.z;
    if (!header.dataFiles.empty() || voxels > (1u << 20) / 8) return 0;
    const std::optional<isoview::Volume> volume = isoview::fuzz::readAsFile(
        data, size, [](const auto& path) { return isoview::io::readNrrd(path); });
    if (volume && (volume->dims() != header.dims || volume->type() != header.type)) {
        __builtin_trap();
    }
    return 0;
}
