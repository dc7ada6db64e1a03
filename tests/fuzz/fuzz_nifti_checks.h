// The check both NIfTI fuzz targets make of one input (fuzz_nifti_header: any bytes;
// fuzz_nifti2_header: bytes framed as a NIfTI-2 header): io::parseNiftiHeader, then
// io::niftiVolumesInFile (dim[4] against the file, as the series listing checks it). When the
// bytes parse as a single-file header of at most 1 MiB per volume, or when they are gzip data,
// io::readNifti also reads them as a file (an in-memory memfd), which exercises the raw and gzip
// data paths and the size checks (gzip input is bounded by the reader's own deflate-ratio
// check). isoview::Error is the expected outcome of bad input; anything else (a crash, a
// sanitizer report, another exception, a broken invariant) is a finding. Include it from the
// one source file of a target, after fuzz_support.h.
#pragma once

#include "core/error.h"
#include "fuzz_support.h"
#include "io/nifti_reader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace isoview::fuzz::detail {

inline void checkInvariants(const isoview::io::NiftiHeader& header)
{
    bool ok = header.dims.x > 0 && header.dims.y > 0 && header.dims.z > 0 &&
              header.volumeCount > 0 && (header.version == 1 || header.version == 2) &&
              header.rescale.slope > 0.0 && std::isfinite(header.rescale.slope) &&
              std::isfinite(header.rescale.intercept) && header.timeStepSeconds >= 0.0 &&
              isoview::fuzz::geometryIsSane(header.geometry);
    if (!ok) __builtin_trap();
}

} // namespace isoview::fuzz::detail

namespace isoview::fuzz {

// The NIfTI targets' one check of an input (see the targets' comments).
inline void checkNiftiBytes(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (!gzip) {
        isoview::io::NiftiHeader header;
        try {
            header = isoview::io::parseNiftiHeader(bytes);
        } catch (const isoview::Error&) {
            return;
        }
        detail::checkInvariants(header);
        // The series listing's check of dim[4] against the file: at least one volume, never
        // more than claimed, or an isoview::Error.
        if (!header.pairedFiles) {
            isoview::fuzz::MemoryFile file(data, size);
            try {
                const std::uint64_t held =
                    file.valid() ? isoview::io::niftiVolumesInFile(file.path(), header) : 1;
                if (held == 0 || held > header.volumeCount) __builtin_trap();
            } catch (const isoview::Error&) {
            }
        }
        const std::uint64_t voxels = std::uint64_t(header.dims.x) * header.dims.y * header.dims.z;
        if (header.pairedFiles || voxels > (1u << 20) / 8) return;
    }
    const std::optional<isoview::Volume> volume = isoview::fuzz::readAsFile(
        data, size, [](const auto& path) { return isoview::io::readNifti(path); });
    if (volume &&
        (volume->dims().x == 0 ||
         volume->byteCount() != volume->voxelCount() * isoview::scalarSize(volume->type()))) {
        __builtin_trap();
    }
}

} // namespace isoview::fuzz
