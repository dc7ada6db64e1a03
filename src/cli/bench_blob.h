// The benchmarks' synthetic "blob" volume, made in memory at any size: the field of
// ../shared/anchors/hpmc/make_blob.py (a sphere and a torus joined by a smooth minimum, a weak
// ripple, 0.5 - 0.5 tanh(6 d) scaled to the type's range), so that 256^3 uint8 is the very
// volume of the HPMC side-by-side (250,428 triangles at 127.5) and the GPU check needs no files
// and no Python for its 512^3 and 1024^3 16-bit volumes.
#pragma once

#include "volume/volume.h"

#include <optional>
#include <string_view>

namespace isoview::bench {

struct BlobSpec {
    unsigned side = 256;
    ScalarType type = ScalarType::UInt8; // UInt8 or UInt16
};

// Parses "blob:N" or "blob:N:uint16" (N from 2 to 2048); nullopt when the text is not a blob.
// Throws InvalidArgument for "blob:..." that is malformed.
std::optional<BlobSpec> parseBlobSpec(std::string_view text);

// The surface d = 0 in the type's units: 127.5 for uint8, 32767.5 for uint16.
double blobSurfaceValue(const BlobSpec& spec);

// side^3 voxels, unit spacing, made on all cores.
Volume makeBlob(const BlobSpec& spec);

} // namespace isoview::bench
