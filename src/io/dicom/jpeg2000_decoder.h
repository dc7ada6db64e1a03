// JPEG 2000 frames through OpenJPEG (open-source DCMTK has no JPEG 2000 codec).
//
// Contract: decodeJpeg2000 decodes one codestream (or JP2 file) of a greyscale frame of the
// header's size into `out`: rows x columns raw words of BitsAllocated bits, host byte order,
// two's complement bits kept (the stored-value extraction applies PixelRepresentation). Throws
// IoError (undecodable data, a size other than the header's) or InvalidInputError (more than
// one component), naming the file and frame. OpenJPEG's warnings go to the "io" logger.
#pragma once

#include "io/dicom/dicom_header.h"

#include <cstdint>
#include <span>

namespace isoview::io::dicom {

// Whether a fragment starts a J2K codestream (SOC + SIZ markers) or a JP2 file.
bool startsJ2kCodestream(std::span<const std::uint8_t> bytes);

void decodeJpeg2000(std::span<const std::uint8_t> code, const DicomHeader& h, std::uint32_t frame,
                    std::span<std::uint8_t> out);

} // namespace isoview::io::dicom
