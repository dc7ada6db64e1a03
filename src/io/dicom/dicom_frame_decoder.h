// Frame decoding: one object's frames into raw sample words in host byte order, through
// DCMTK (native, RLE, JPEG, JPEG-LS) or OpenJPEG (JPEG 2000, whose fragments are mapped to
// frames from the Basic Offset Table, the fragment count or the codestream markers).
//
// Contract: the constructor checks, before anything is decoded, that the object has pixel
// data, that one frame fits a 32-bit size, and that native pixel data is as long as the header
// promises (IoError with expected and actual byte counts). decode() returns a view of an
// internal buffer valid until the next call; frames must be decoded in order, since
// sequential decoding is what lets DCMTK find the fragments of each frame. The parsed object
// and the header must outlive the decoder.
#pragma once

#include "io/dicom/dicom_header.h"
#include "io/dicom/dicom_parsing.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcfcache.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace isoview::io::dicom {

class FrameDecoder {
public:
    FrameDecoder(const ParsedDicom& parsed, const DicomHeader& header);

    // The raw words of frame `index`: rows x columns samples of BitsAllocated bits.
    std::span<const std::uint8_t> decode(std::uint32_t index);

private:
    DcmPixelSequence& pixelSequence();
    std::span<const std::uint8_t> fragment(DcmPixelSequence& sequence, unsigned long index);
    void mapJpeg2000Fragments();
    std::span<const std::uint8_t> frameCodestream(std::uint32_t index);

    DcmDataset& m_dataset;
    const DicomHeader& m_header;
    DcmPixelData* m_pixelData = nullptr;
    std::size_t m_frameBytes = 0;
    std::vector<std::uint8_t> m_buffer;
    Uint32 m_nextFragment = 0;
    DcmFileCache m_cache;
    std::vector<unsigned long> m_frameStarts; // JPEG 2000: first item of each frame, then end
    std::vector<std::uint8_t> m_codestream;
};

} // namespace isoview::io::dicom
