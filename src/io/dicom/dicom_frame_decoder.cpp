#include "io/dicom/dicom_frame_decoder.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/jpeg2000_decoder.h"
#include "io/volume_size_check.h"

#include <dcmtk/dcmdata/dcpxitem.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>

namespace isoview::io::dicom {

FrameDecoder::FrameDecoder(const ParsedDicom& parsed, const DicomHeader& header)
    : m_dataset(parsed.dataset()), m_header(header)
{
    DcmElement* element = nullptr;
    if (m_dataset.findAndGetElement(DCM_PixelData, element).bad() || element == nullptr) {
        throw IoError(header.name + " has no pixel data");
    }
    m_pixelData = dynamic_cast<DcmPixelData*>(element);
    if (m_pixelData == nullptr) throw IoError(header.name + ": the pixel data is malformed");

    const std::uint64_t bytes = frameBytes(header);
    if (bytes >= std::numeric_limits<Uint32>::max()) {
        throw InvalidInputError(header.name + ": one frame of " + std::to_string(header.columns) +
                                "x" + std::to_string(header.rows) + " needs " +
                                detail::humanBytes(bytes) + ", too large to decode");
    }
    m_frameBytes = std::size_t(bytes);
    m_buffer.resize(m_frameBytes + (m_frameBytes % 2)); // DCMTK wants an even size

    if (header.codec == PixelCodec::Native) {
        const std::uint64_t expected = expectedPixelBytes(header);
        const std::uint64_t actual = m_pixelData->getLength();
        if (actual < expected) {
            // Pixel data cut short runs to the end of the file.
            const std::uint64_t valueOffset =
                header.byteSize > actual ? header.byteSize - actual : 0;
            throw IoError(describeTruncatedPixelData(header, valueOffset, expected, actual));
        }
    } else if (header.codec == PixelCodec::OpenJpeg) {
        mapJpeg2000Fragments();
    }
}

std::span<const std::uint8_t> FrameDecoder::decode(std::uint32_t index)
{
    if (m_header.codec == PixelCodec::OpenJpeg) {
        decodeJpeg2000(frameCodestream(index), m_header, index, m_buffer);
    } else {
        OFString colourModel;
        const OFCondition status =
            m_pixelData->getUncompressedFrame(&m_dataset, index, m_nextFragment, m_buffer.data(),
                                              Uint32(m_buffer.size()), colourModel, &m_cache);
        if (status.bad()) {
            throw IoError(m_header.name + ": cannot decode frame " + std::to_string(index + 1) +
                          " (" + m_header.transferSyntaxName + "): " + status.text());
        }
    }
    return std::span<const std::uint8_t>(m_buffer.data(), m_frameBytes);
}

DcmPixelSequence& FrameDecoder::pixelSequence()
{
    DcmPixelSequence* sequence = nullptr;
    if (m_pixelData->getEncapsulatedRepresentation(m_header.xfer, nullptr, sequence).bad() ||
        sequence == nullptr) {
        throw IoError(m_header.name + ": the compressed pixel data has no fragments");
    }
    return *sequence;
}

std::span<const std::uint8_t> FrameDecoder::fragment(DcmPixelSequence& sequence,
                                                     unsigned long index)
{
    DcmPixelItem* item = nullptr;
    Uint8* data = nullptr;
    if (sequence.getItem(item, index).bad() || item == nullptr) {
        throw IoError(m_header.name + ": compressed fragment " + std::to_string(index) +
                      " is missing");
    }
    const Uint32 length = item->getLength();
    if (length == 0) return {};
    if (item->getUint8Array(data).bad() || data == nullptr) {
        throw IoError(m_header.name + ": compressed fragment " + std::to_string(index) +
                      " cannot be read");
    }
    return std::span<const std::uint8_t>(data, length);
}

// Which fragments (item indices; item 0 is the offset table) hold which frame: from the
// Basic Offset Table when it has one entry per frame, one fragment per frame when the
// counts agree, else by the codestream markers that start each frame.
void FrameDecoder::mapJpeg2000Fragments()
{
    DcmPixelSequence& sequence = pixelSequence();
    const unsigned long items = sequence.card();
    if (items < 2) throw IoError(m_header.name + ": the compressed pixel data is empty");
    const unsigned long fragments = items - 1;
    const std::uint32_t frames = m_header.frameCount;
    m_frameStarts.clear();
    if (frames == 1) {
        m_frameStarts = {1};
    } else if (fragments == frames) {
        for (std::uint32_t f = 0; f < frames; ++f) {
            m_frameStarts.push_back(f + 1);
        }
    } else {
        const std::span<const std::uint8_t> table = fragment(sequence, 0);
        if (table.size() >= 4 * std::size_t(frames)) {
            // Offsets count bytes from the first fragment's item tag (8-byte item headers).
            std::map<std::uint64_t, unsigned long> itemAtOffset;
            std::uint64_t offset = 0;
            for (unsigned long i = 1; i < items; ++i) {
                itemAtOffset[offset] = i;
                DcmPixelItem* item = nullptr;
                if (sequence.getItem(item, i).bad() || item == nullptr) break;
                offset += 8 + item->getLength();
            }
            for (std::uint32_t f = 0; f < frames; ++f) {
                const auto it = itemAtOffset.find(le32(table.data() + 4 * f));
                if (it == itemAtOffset.end()) break;
                m_frameStarts.push_back(it->second);
            }
        }
        if (m_frameStarts.size() != frames) {
            m_frameStarts.clear();
            for (unsigned long i = 1; i < items; ++i) {
                if (startsJ2kCodestream(fragment(sequence, i))) m_frameStarts.push_back(i);
            }
        }
    }
    if (m_frameStarts.size() != frames || m_frameStarts.front() != 1 ||
        !std::is_sorted(m_frameStarts.begin(), m_frameStarts.end())) {
        throw IoError(m_header.name + ": cannot tell which of the " + std::to_string(fragments) +
                      " JPEG 2000 fragments belong to which of the " + std::to_string(frames) +
                      " frames");
    }
    m_frameStarts.push_back(items);
}

std::span<const std::uint8_t> FrameDecoder::frameCodestream(std::uint32_t index)
{
    DcmPixelSequence& sequence = pixelSequence();
    const unsigned long first = m_frameStarts.at(index);
    const unsigned long end = m_frameStarts.at(index + 1);
    if (end - first == 1) return fragment(sequence, first);
    m_codestream.clear();
    for (unsigned long i = first; i < end; ++i) {
        const std::span<const std::uint8_t> part = fragment(sequence, i);
        m_codestream.insert(m_codestream.end(), part.begin(), part.end());
    }
    return m_codestream;
}

} // namespace isoview::io::dicom
