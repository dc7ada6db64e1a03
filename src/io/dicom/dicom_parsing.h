// Parsing DICOM files and in-memory bytes with DCMTK, to a chosen depth.
//
// Contract: parseDicomFile and parseDicomMemory sniff first (dicom_sniffing.h) and throw
// NotDicomError for data that is not DICOM (also when only the first bytes looked like a bare
// dataset and a partial parse then found no DICOM attribute), DamagedDicomError for a Part 10
// file or recognised dataset that DCMTK fails on ("is DICOM but damaged: DCMTK stopped at byte
// N of M in element (gggg,eeee) Name: <DCMTK's condition>"; the position comes from a second,
// diagnostic parse, made only on failure), IoError for a failed full read (truncated pixel data
// is explained: "truncated at byte N", expected and actual byte counts, the first incomplete
// frame).
// Values longer than DCM_MaxReadLength stay on disk until used; in-memory bytes are handed
// to DCMTK as an anonymous in-memory file for the same reason. Call ensureDcmtk() first.
#pragma once

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace isoview::io::dicom {

enum class ReadDepth {
    ImageAttributes, // groups up to 0028 only: enough for a classic single-frame image
    Header,          // stop before the pixel data
    Full,            // everything; values above DCM_MaxReadLength stay on disk until used
};

// An anonymous in-memory file (memfd) holding bytes that DCMTK should read as a file; closed
// when the last DCMTK object that may still read from it is gone.
class MemoryBackedFile {
public:
    MemoryBackedFile(const std::uint8_t* data, std::size_t size);
    ~MemoryBackedFile();
    MemoryBackedFile(const MemoryBackedFile&) = delete;
    MemoryBackedFile& operator=(const MemoryBackedFile&) = delete;

    std::string path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

private:
    int m_fd;
};

struct ParsedDicom {
    // Declared first so that it outlives `file`, whose deferred values may be read from it.
    std::shared_ptr<MemoryBackedFile> backing;
    std::unique_ptr<DcmFileFormat> file = std::make_unique<DcmFileFormat>();
    std::string name; // quoted path, for messages
    std::uint64_t byteSize = 0;
    std::size_t strayBytes = 0;

    DcmDataset& dataset() const { return *file->getDataset(); }
};

ParsedDicom parseDicomFile(const std::filesystem::path& path, ReadDepth depth);
// Parses bytes as one whole object; name is what messages call it.
ParsedDicom parseDicomMemory(const std::uint8_t* data, std::size_t size, std::string name);

struct PixelDataLocation {
    std::uint64_t valueOffset = 0;
    std::uint32_t declaredLength = 0;
};

// Finds the pixel data element in raw file bytes (for error messages only): the first
// (7FE0,0010) header whose length is the expected one, or undefined for compressed data.
std::optional<PixelDataLocation> locatePixelData(std::span<const std::uint8_t> bytes,
                                                 std::uint64_t expectedLength, bool encapsulated);

} // namespace isoview::io::dicom
