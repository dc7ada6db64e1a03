#include "io/dicom/dicom_parsing.h"

#include "core/error.h"
#include "core/input_file.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/dicom_header.h"
#include "io/dicom/dicom_nesting.h"
#include "io/dicom/dicom_sniffing.h"

#include <dcmtk/dcmdata/dcistrmf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace isoview::io::dicom {
namespace {

namespace fs = std::filesystem;

// Where parsing stops: vendors' private groups after 0028 (large in Philips and Siemens
// headers) cost most of the parsing time and are not needed for classic images.
DcmTagKey stopTag(ReadDepth depth)
{
    switch (depth) {
    case ReadDepth::ImageAttributes: return DcmTagKey(0x0029, 0x0000);
    case ReadDepth::Header: return DCM_PixelData;
    case ReadDepth::Full: break;
    }
    return DCM_UndefinedTagKey;
}

// Runs one of DCMTK's reads. DCMTK throws from some reads of damaged data (a DICOMDIR record
// whose type string it mis-trims threw std::out_of_range past every caller, found by
// fuzz_dicomdir): such a throw is the file's damage, said as DCMTK's failure to read it.
template <class Read> OFCondition guardedRead(const std::string& name, Read&& read)
{
    try {
        return read();
    } catch (const std::exception& e) {
        throw DamagedDicomError(name + " is DICOM but damaged: DCMTK failed reading it (" +
                                e.what() + ")");
    }
}

// Reads DICOM bytes held in memory. DCMTK loads every value it reads from a memory stream,
// allocating whatever length the (possibly corrupt) data declares, while from a file it defers
// values longer than DCM_MaxReadLength until they are used (and checked). So the bytes go to
// DCMTK as an anonymous in-memory file, kept alive with the parsed object.
OFCondition readFromMemory(ParsedDicom& parsed, const std::uint8_t* data, std::size_t size,
                           const Sniff& how, ReadDepth depth)
{
    parsed.backing = std::make_shared<MemoryBackedFile>(data, size);
    // The walk DCMTK needs first (files with stray bytes had it already; memory had not).
    Sniff atStart = how;
    atStart.strayBytes = 0;
    requireShallowSequences(parsed.backing->path(), atStart, size, parsed.name);
    const OFFilename name(parsed.backing->path().c_str());
    const E_TransferSyntax xfer = how.partTen ? EXS_Unknown : how.xfer;
    const E_FileReadMode mode = how.partTen ? ERM_autoDetect : ERM_dataset;
    return guardedRead(parsed.name, [&] {
        return depth == ReadDepth::Full
                   ? parsed.file->loadFile(name, xfer, EGL_noChange, DCM_MaxReadLength, mode)
                   : parsed.file->loadFileUntilTag(name, xfer, EGL_noChange, DCM_MaxReadLength,
                                                   mode, stopTag(depth));
    });
}

// Anything DCMTK parsed from random bytes would lack all of these.
bool hasRecognisedContent(DcmDataset& dataset)
{
    const DcmTagKey tags[] = {DCM_SOPClassUID,
                              DCM_Modality,
                              DCM_Rows,
                              DCM_SeriesInstanceUID,
                              DCM_StudyInstanceUID,
                              DCM_PatientID,
                              DCM_DirectoryRecordSequence,
                              DCM_PixelData};
    return std::any_of(std::begin(tags), std::end(tags),
                       [&dataset](const DcmTagKey& tag) { return dataset.tagExists(tag); });
}

// "(0028,0010) Rows" for an element, its sequence items followed: the innermost last one.
std::string lastElementName(DcmItem& item, bool& complete)
{
    const unsigned long count = item.card();
    if (count == 0) return {};
    DcmElement* element = item.getElement(count - 1);
    if (element == nullptr) return {};
    complete = element->transferState() == ERW_ready;
    DcmTag tag = element->getTag(); // getTagName() is not const
    std::string name = std::string(tag.toString().c_str()) + " " + tag.getTagName();
    if (auto* sequence = dynamic_cast<DcmSequenceOfItems*>(element);
        sequence != nullptr && sequence->card() > 0) {
        bool innerComplete = true;
        const std::string inner =
            lastElementName(*sequence->getItem(sequence->card() - 1), innerComplete);
        if (!inner.empty()) {
            complete = complete && innerComplete;
            name += " > " + inner;
        }
    }
    return name;
}

// Part 10 files are DICOM by their "DICM" marker: one without attributes is damaged (e.g.
// cut after the preamble), not "not DICOM", which would send a person the wrong way.
void requireRecognisedContent(const ParsedDicom& parsed, bool partTen)
{
    if (parsed.dataset().card() == 0 || !hasRecognisedContent(parsed.dataset())) {
        if (partTen) {
            bool complete = true;
            std::string last = lastElementName(parsed.dataset(), complete);
            if (last.empty()) last = lastElementName(*parsed.file->getMetaInfo(), complete);
            throw DamagedDicomError(parsed.name +
                                    " is DICOM but damaged: it has the DICM marker but its " +
                                    std::to_string(parsed.byteSize) + " bytes end " +
                                    (last.empty() ? std::string("after the 132-byte preamble")
                                                  : "after element " + last) +
                                    ", before any image attribute");
        }
        throw NotDicomError(parsed.name + " is not a DICOM file (no DICOM attributes found)");
    }
}

// Where DCMTK stopped in a damaged file: it is parsed again through a stream whose position
// can be asked (loadFile cannot say), and the last element that parse created is named.
std::string describeStop(const fs::path& path, const Sniff& how, ReadDepth depth,
                         std::uint64_t fileSize, const OFCondition& status)
{
    std::string where;
    DcmInputFileStream stream(OFFilename(path.c_str()));
    if (stream.good()) {
        DcmFileFormat file;
        DcmDataset dataset;
        DcmObject& target = how.partTen ? static_cast<DcmObject&>(file) : dataset;
        target.transferInit();
        const E_TransferSyntax xfer = how.partTen ? EXS_Unknown : how.xfer;
        // Damaged files only come here; a throw ends the description with what DCMTK said.
        try {
            if (how.partTen) {
                (void)file.readUntilTag(stream, xfer, EGL_noChange, DCM_MaxReadLength,
                                        stopTag(depth));
            } else {
                (void)dataset.readUntilTag(stream, xfer, EGL_noChange, DCM_MaxReadLength,
                                           stopTag(depth));
            }
        } catch (const std::exception& e) {
            return std::string(status.text()) + " (" + e.what() + ")";
        }
        bool complete = true;
        std::string element;
        if (how.partTen) {
            // The dataset when it holds anything, else the meta header.
            element = lastElementName(*file.getDataset(), complete);
            if (element.empty()) element = lastElementName(*file.getMetaInfo(), complete);
        } else {
            element = lastElementName(dataset, complete);
        }
        target.transferEnd();
        where = "DCMTK stopped at byte " + std::to_string(stream.tell()) + " of " +
                std::to_string(fileSize);
        if (!element.empty()) {
            where += (complete ? " after element " : " in element ") + element;
        } else {
            where += " before the first element";
        }
    } else {
        where = "DCMTK stopped reading its " + std::to_string(fileSize) + " bytes";
    }
    return where + ": " + status.text();
}

} // namespace

MemoryBackedFile::MemoryBackedFile(const std::uint8_t* data, std::size_t size)
    : m_fd(::memfd_create("isoview-dicom", MFD_CLOEXEC))
{
    if (m_fd < 0) {
        throw IoError("cannot create an in-memory file: " + std::string(std::strerror(errno)));
    }
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(m_fd, data + done, size - done);
        if (n <= 0) {
            ::close(m_fd);
            throw IoError("cannot fill an in-memory file: " + std::string(std::strerror(errno)));
        }
        done += std::size_t(n);
    }
}

MemoryBackedFile::~MemoryBackedFile()
{
    ::close(m_fd);
}

std::optional<PixelDataLocation> locatePixelData(std::span<const std::uint8_t> bytes,
                                                 std::uint64_t expectedLength, bool encapsulated)
{
    const auto acceptable = [&](std::uint32_t length) {
        return encapsulated ? length == 0xFFFFFFFFu
                            : (length == expectedLength || length == expectedLength + 1);
    };
    for (std::size_t i = 0; i + 12 <= bytes.size(); ++i) {
        const std::uint8_t* p = bytes.data() + i;
        const bool otherVr = p[4] == 'O' && (p[5] == 'B' || p[5] == 'W') && p[6] == 0 && p[7] == 0;
        if (p[0] == 0xE0 && p[1] == 0x7F && p[2] == 0x10 && p[3] == 0x00) {
            if (otherVr && acceptable(le32(p + 8))) return PixelDataLocation{i + 12, le32(p + 8)};
            if (acceptable(le32(p + 4))) return PixelDataLocation{i + 8, le32(p + 4)};
        }
        if (p[0] == 0x7F && p[1] == 0xE0 && p[2] == 0x00 && p[3] == 0x10 && otherVr &&
            acceptable(be32(p + 8))) {
            return PixelDataLocation{i + 12, be32(p + 8)};
        }
    }
    return std::nullopt;
}

ParsedDicom parseDicomFile(const fs::path& path, ReadDepth depth)
{
    requireRegularFile(path, quoted(path)); // before DCMTK or anything else opens it
    std::error_code error;
    const std::uint64_t size = fs::file_size(path, error);
    if (error) throw IoError("cannot read " + quoted(path) + ": " + error.message());

    ParsedDicom parsed;
    parsed.name = quoted(path);
    parsed.byteSize = size;
    const std::vector<std::uint8_t> head =
        readFileBytes(path, std::min<std::uint64_t>(size, kSniffBytes));
    const std::optional<Sniff> how = sniff(head, size);
    if (!how) {
        throw NotDicomError(parsed.name + " is not a DICOM file" +
                            (size == 0 ? std::string(" (it is empty)") : std::string()));
    }
    parsed.strayBytes = how->strayBytes;
    requireShallowSequences(path, *how, size, parsed.name); // DCMTK recurses per level

    OFCondition status;
    if (how->strayBytes == 0) {
        const OFFilename name(path.c_str());
        const E_TransferSyntax xfer = how->partTen ? EXS_Unknown : how->xfer;
        const E_FileReadMode mode = how->partTen ? ERM_autoDetect : ERM_dataset;
        status = guardedRead(parsed.name, [&] {
            return depth == ReadDepth::Full
                       ? parsed.file->loadFile(name, xfer, EGL_noChange, DCM_MaxReadLength, mode)
                       : parsed.file->loadFileUntilTag(name, xfer, EGL_noChange, DCM_MaxReadLength,
                                                       mode, stopTag(depth));
        });
    } else {
        // DCMTK cannot start reading a file at an offset; such files are rare and read whole.
        const std::vector<std::uint8_t> bytes = readFileBytes(path, size);
        status = readFromMemory(parsed, bytes.data() + how->strayBytes,
                                bytes.size() - how->strayBytes, *how, depth);
    }
    if (status.bad()) {
        // A Part 10 file, or a bare dataset whose start DCMTK recognised as DICOM, is damaged
        // DICOM; a bare "dataset" that yields nothing known was some other file.
        const bool recognised =
            how->partTen || (parsed.dataset().card() > 0 && hasRecognisedContent(parsed.dataset()));
        if (!recognised && depth != ReadDepth::Full) {
            throw NotDicomError(parsed.name + " is not a DICOM file (" + status.text() + ")");
        }
        const std::string damage =
            parsed.name + " is DICOM but damaged: " +
            (how->strayBytes == 0 ? describeStop(path, *how, depth, size, status)
                                  : std::string(status.text()));
        if (depth == ReadDepth::Full) throw IoError(describeFailedFullRead(path, status, damage));
        throw DamagedDicomError(damage);
    }
    requireRecognisedContent(parsed, how->partTen);
    return parsed;
}

ParsedDicom parseDicomMemory(const std::uint8_t* data, std::size_t size, std::string name)
{
    ParsedDicom parsed;
    parsed.name = std::move(name);
    parsed.byteSize = size;
    const std::optional<Sniff> how =
        sniff(std::span<const std::uint8_t>(data, std::min(size, kSniffBytes)), size);
    if (!how) throw NotDicomError(parsed.name + " is not DICOM data");
    parsed.strayBytes = how->strayBytes;
    const OFCondition status = readFromMemory(parsed, data + how->strayBytes,
                                              size - how->strayBytes, *how, ReadDepth::Full);
    if (status.bad()) throw IoError(parsed.name + " is damaged DICOM data: " + status.text());
    requireRecognisedContent(parsed, how->partTen);
    return parsed;
}

} // namespace isoview::io::dicom
