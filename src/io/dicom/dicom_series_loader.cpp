#include "io/dicom/dicom_series_loader.h"

#include "core/error.h"
#include "core/log.h"
#include "io/volume_size_check.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dccodec.h>
#include <dcmtk/dcmdata/dcdict.h>
#include <dcmtk/dcmdata/dcfcache.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <dcmtk/dcmjpeg/djdecode.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/oflog/appender.h>
#include <dcmtk/oflog/logger.h>
#include <dcmtk/oflog/spi/logevent.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <numeric>
#include <openjpeg.h>
#include <set>
#include <span>
#include <utility>

// Overview. Both entry points share one path:
//   Pass 1 (headers): every file is parsed with pixel values left on disk (DCMTK loads values
//   larger than DCM_MaxReadLength on first access), its image attributes are read into a
//   DicomHeader, and each frame becomes a SliceRecord (position, orientation, spacing,
//   rescale). layoutStack sorts the records along the slice normal and derives the geometry;
//   chooseValueMapping picks the voxel type. Everything is validated here, before the voxel
//   buffer is allocated.
//   Pass 2 (pixels): file by file, reusing pass 1's parse and releasing it afterwards, each
//   frame is decoded (DCMTK for native, RLE, JPEG and JPEG-LS data; OpenJPEG for JPEG 2000)
//   into one frame buffer, and its stored values (BitsStored bits at HighBit, sign-extended)
//   are written into the frame's slot.
// The voxel buffer is allocated between the passes, after every check.
// Scanning runs only the header part of pass 1, on headers read up to the pixel data.

namespace isoview::io {
namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------------------------------------------
// DCMTK set-up: codecs and logging, once per process.

// DCMTK logs per file (odd lengths, private tags); isoview says what matters in its own words,
// so DCMTK's lines go to the io logger at debug level instead of DCMTK's console appender.
class DcmtkLogToSpdlog final : public dcmtk::log4cplus::Appender {
public:
    ~DcmtkLogToSpdlog() override { destructorImpl(); }
    void close() override {}

protected:
    void append(const dcmtk::log4cplus::spi::InternalLoggingEvent& event) override
    {
        log::get("io")->debug("dcmtk: {}", event.getMessage().c_str());
    }
};

struct DcmtkSetup {
    DcmtkSetup()
    {
        dcmtk::log4cplus::Logger root = dcmtk::log4cplus::Logger::getRoot();
        root.removeAllAppenders();
        root.addAppender(dcmtk::log4cplus::SharedAppenderPtr(new DcmtkLogToSpdlog));
        root.setLogLevel(dcmtk::log4cplus::WARN_LOG_LEVEL);
        DJDecoderRegistration::registerCodecs();
        DJLSDecoderRegistration::registerCodecs();
        DcmRLEDecoderRegistration::registerCodecs();
        dictionaryLoaded = dcmDataDict.isDictionaryLoaded();
    }
    ~DcmtkSetup()
    {
        DcmRLEDecoderRegistration::cleanup();
        DJLSDecoderRegistration::cleanup();
        DJDecoderRegistration::cleanup();
    }
    DcmtkSetup(const DcmtkSetup&) = delete;
    DcmtkSetup& operator=(const DcmtkSetup&) = delete;

    bool dictionaryLoaded = false;
};

void ensureDcmtk()
{
    static const DcmtkSetup setup; // thread-safe one-time initialisation
    if (!setup.dictionaryLoaded) {
        throw IoError("DCMTK's DICOM data dictionary is not available (install DCMTK's dicom.dic "
                      "or set DCMDICTPATH); implicit VR files cannot be read without it");
    }
}

// ------------------------------------------------------------------------------------------
// Small helpers.

std::string quoted(const fs::path& path)
{
    return detail::quotedPath(path);
}

std::string trim(std::string text)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c) && c != '\0'; };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    return text;
}

std::string mm(double value)
{
    return fmt::format("{:.6g} mm", value);
}

std::uint16_t le16(const std::uint8_t* p)
{
    return std::uint16_t(p[0] | (p[1] << 8));
}

std::uint16_t be16(const std::uint8_t* p)
{
    return std::uint16_t((p[0] << 8) | p[1]);
}

std::uint32_t le32(const std::uint8_t* p)
{
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
}

std::uint32_t be32(const std::uint8_t* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

std::vector<std::uint8_t> readFileBytes(const fs::path& path, std::uint64_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot open " + quoted(path) + " for reading");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(maxBytes));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
    bytes.resize(std::size_t(in.gcount()));
    return bytes;
}

// ------------------------------------------------------------------------------------------
// Recognising DICOM: a Part 10 file, or a bare dataset whose first element looks like one.

// A file whose first bytes do not start a DICOM object. Scanning counts these silently.
class NotDicomError : public IoError {
public:
    using IoError::IoError;
};

constexpr std::size_t kSniffBytes = 512;
// Bare datasets are sometimes written after a few stray bytes (pydicom's no_meta.dcm starts
// with one); a handful are skipped, never more, so that random files are not mistaken.
constexpr std::size_t kMaxStrayBytes = 8;

struct Sniff {
    bool partTen = false;       // "DICM" after a preamble: DCMTK reads the meta header
    std::size_t strayBytes = 0; // bytes before a bare dataset
    E_TransferSyntax xfer = EXS_Unknown;
};

bool isVrCode(const std::uint8_t* p)
{
    static constexpr std::array<const char*, 34> codes = {
        "AE", "AS", "AT", "CS", "DA", "DS", "DT", "FD", "FL", "IS", "LO", "LT",
        "OB", "OD", "OF", "OL", "OV", "OW", "PN", "SH", "SL", "SQ", "SS", "ST",
        "SV", "TM", "UC", "UI", "UL", "UN", "UR", "US", "UT", "UV"};
    return std::any_of(codes.begin(), codes.end(),
                       [p](const char* c) { return p[0] == c[0] && p[1] == c[1]; });
}

bool hasLongLengthField(const std::uint8_t* vr)
{
    static constexpr std::array<const char*, 13> codes = {"OB", "OD", "OF", "OL", "OV", "OW", "SQ",
                                                          "SV", "UC", "UN", "UR", "UT", "UV"};
    return std::any_of(codes.begin(), codes.end(),
                       [vr](const char* c) { return vr[0] == c[0] && vr[1] == c[1]; });
}

// Datasets start with the SOP common, patient or image groups.
bool plausibleFirstGroup(std::uint16_t group)
{
    return group % 2 == 0 && group >= 0x0002 && group <= 0x0028;
}

std::optional<Sniff> sniff(std::span<const std::uint8_t> head, std::uint64_t totalSize)
{
    if (head.size() >= 132 && std::memcmp(head.data() + 128, "DICM", 4) == 0) {
        return Sniff{.partTen = true};
    }
    for (std::size_t offset = 0; offset <= kMaxStrayBytes && offset + 12 <= head.size(); ++offset) {
        const std::uint8_t* p = head.data() + offset;
        const std::uint64_t remaining = totalSize - offset;
        const auto fits = [remaining](std::uint64_t length, std::uint64_t header) {
            return length == 0xFFFFFFFFu || length + header <= remaining;
        };
        if (plausibleFirstGroup(le16(p))) {
            if (isVrCode(p + 4)) {
                const bool longLength = hasLongLengthField(p + 4);
                if (longLength ? (p[6] == 0 && p[7] == 0 && fits(le32(p + 8), 12))
                               : fits(le16(p + 6), 8)) {
                    return Sniff{.strayBytes = offset, .xfer = EXS_LittleEndianExplicit};
                }
            } else if (fits(le32(p + 4), 8)) {
                return Sniff{.strayBytes = offset, .xfer = EXS_LittleEndianImplicit};
            }
        }
        if (plausibleFirstGroup(be16(p)) && isVrCode(p + 4)) {
            const bool longLength = hasLongLengthField(p + 4);
            if (longLength ? (p[6] == 0 && p[7] == 0 && fits(be32(p + 8), 12))
                           : fits(be16(p + 6), 8)) {
                return Sniff{.strayBytes = offset, .xfer = EXS_BigEndianExplicit};
            }
        }
    }
    return std::nullopt;
}

// ------------------------------------------------------------------------------------------
// Parsing files and buffers with DCMTK.

enum class ReadDepth {
    ImageAttributes, // groups up to 0028 only: enough for a classic single-frame image
    Header,          // stop before the pixel data
    Full,            // everything; values above DCM_MaxReadLength stay on disk until used
};

// Where parsing stops: vendors' private groups after 0028 (large in Philips and Siemens
// headers) cost most of the parsing time and are not needed for classic images.
DcmTagKey stopTag(ReadDepth depth)
{
    switch (depth) {
    case ReadDepth::ImageAttributes:
        return DcmTagKey(0x0029, 0x0000);
    case ReadDepth::Header:
        return DCM_PixelData;
    case ReadDepth::Full:
        break;
    }
    return DCM_UndefinedTagKey;
}

// An anonymous in-memory file (memfd) holding bytes that DCMTK should read as a file; closed
// when the last DCMTK object that may still read from it is gone.
class MemoryBackedFile {
public:
    MemoryBackedFile(const std::uint8_t* data, std::size_t size)
        : m_fd(::memfd_create("isoview-dicom", MFD_CLOEXEC))
    {
        if (m_fd < 0) {
            throw IoError("cannot create an in-memory file: " + std::string(std::strerror(errno)));
        }
        for (std::size_t done = 0; done < size;) {
            const ssize_t n = ::write(m_fd, data + done, size - done);
            if (n <= 0) {
                ::close(m_fd);
                throw IoError("cannot fill an in-memory file: " +
                              std::string(std::strerror(errno)));
            }
            done += std::size_t(n);
        }
    }
    ~MemoryBackedFile() { ::close(m_fd); }
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

// Reads DICOM bytes held in memory. DCMTK loads every value it reads from a memory stream,
// allocating whatever length the (possibly corrupt) data declares, while from a file it defers
// values longer than DCM_MaxReadLength until they are used (and checked). So the bytes go to
// DCMTK as an anonymous in-memory file, kept alive with the parsed object.
OFCondition readFromMemory(ParsedDicom& parsed, const std::uint8_t* data, std::size_t size,
                           const Sniff& how, ReadDepth depth)
{
    parsed.backing = std::make_shared<MemoryBackedFile>(data, size);
    const OFFilename name(parsed.backing->path().c_str());
    const E_TransferSyntax xfer = how.partTen ? EXS_Unknown : how.xfer;
    const E_FileReadMode mode = how.partTen ? ERM_autoDetect : ERM_dataset;
    return depth == ReadDepth::Full
               ? parsed.file->loadFile(name, xfer, EGL_noChange, DCM_MaxReadLength, mode)
               : parsed.file->loadFileUntilTag(name, xfer, EGL_noChange, DCM_MaxReadLength, mode,
                                               stopTag(depth));
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

void requireRecognisedContent(const ParsedDicom& parsed)
{
    if (parsed.dataset().card() == 0 || !hasRecognisedContent(parsed.dataset())) {
        throw NotDicomError(parsed.name + " is not a DICOM file (no DICOM attributes found)");
    }
}

struct PixelDataLocation {
    std::uint64_t valueOffset = 0;
    std::uint32_t declaredLength = 0;
};

// Finds the pixel data element in raw file bytes (for error messages only): the first
// (7FE0,0010) header whose length is the expected one, or undefined for compressed data.
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

ParsedDicom parseDicomFile(const fs::path& path, ReadDepth depth);
struct DicomHeader;
DicomHeader readHeader(const ParsedDicom& parsed);
std::uint64_t expectedPixelBytes(const DicomHeader& header);

// Why a full read failed when the header read succeeds: almost always pixel data cut short.
std::string describeFailedFullRead(const fs::path& path, const OFCondition& status);

ParsedDicom parseDicomFile(const fs::path& path, ReadDepth depth)
{
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

    OFCondition status;
    if (how->strayBytes == 0) {
        const OFFilename name(path.c_str());
        const E_TransferSyntax xfer = how->partTen ? EXS_Unknown : how->xfer;
        const E_FileReadMode mode = how->partTen ? ERM_autoDetect : ERM_dataset;
        status = depth == ReadDepth::Full
                     ? parsed.file->loadFile(name, xfer, EGL_noChange, DCM_MaxReadLength, mode)
                     : parsed.file->loadFileUntilTag(name, xfer, EGL_noChange, DCM_MaxReadLength,
                                                     mode, stopTag(depth));
    } else {
        // DCMTK cannot start reading a file at an offset; such files are rare and read whole.
        const std::vector<std::uint8_t> bytes = readFileBytes(path, size);
        status = readFromMemory(parsed, bytes.data() + how->strayBytes,
                                bytes.size() - how->strayBytes, *how, depth);
    }
    if (status.bad()) {
        if (!how->partTen && depth != ReadDepth::Full) {
            // Only the first bytes looked like a dataset: treat it as some other file.
            throw NotDicomError(parsed.name + " is not a DICOM file (" + status.text() + ")");
        }
        if (depth == ReadDepth::Full) throw IoError(describeFailedFullRead(path, status));
        throw IoError(parsed.name + " is a damaged DICOM file: " + status.text());
    }
    requireRecognisedContent(parsed);
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
    requireRecognisedContent(parsed);
    return parsed;
}

// ------------------------------------------------------------------------------------------
// Header attributes.

std::string getString(DcmItem& item, const DcmTagKey& tag)
{
    OFString value;
    if (item.findAndGetOFStringArray(tag, value).good()) return trim(value.c_str());
    return {};
}

std::optional<double> getDouble(DcmItem& item, const DcmTagKey& tag, unsigned long index = 0)
{
    Float64 value = 0.0;
    if (item.findAndGetFloat64(tag, value, index).good() && std::isfinite(value)) return value;
    return std::nullopt;
}

std::optional<std::int32_t> getInteger(DcmItem& item, const DcmTagKey& tag)
{
    Sint32 value = 0;
    if (item.findAndGetSint32(tag, value).good()) return value;
    // Some writers use DS where IS belongs.
    if (const std::optional<double> real = getDouble(item, tag)) {
        if (std::abs(*real) < 2e9) return std::int32_t(std::lround(*real));
    }
    return std::nullopt;
}

std::optional<std::uint16_t> getUnsigned16(DcmItem& item, const DcmTagKey& tag)
{
    Uint16 value = 0;
    if (item.findAndGetUint16(tag, value).good()) return value;
    return std::nullopt;
}

template <std::size_t N>
std::optional<std::array<double, N>> getDoubles(DcmItem& item, const DcmTagKey& tag)
{
    std::array<double, N> values{};
    for (std::size_t i = 0; i < N; ++i) {
        const std::optional<double> value = getDouble(item, tag, i);
        if (!value) return std::nullopt;
        values[i] = *value;
    }
    return values;
}

DcmItem* getSequenceItem(DcmItem& item, const DcmTagKey& sequence, long index = 0)
{
    DcmItem* found = nullptr;
    if (item.findAndGetSequenceItem(sequence, found, index).bad()) return nullptr;
    return found;
}

// What one frame (slice) says about where it is and what its values mean.
struct FrameInfo {
    std::optional<glm::dvec3> position;
    std::optional<std::array<double, 6>> orientation;
    std::optional<glm::dvec2> pixelSpacing; // DICOM order: between rows, between columns
    std::optional<double> sliceThickness;
    std::optional<double> spacingBetweenSlices;
    std::optional<double> slope;
    std::optional<double> intercept;
    std::optional<double> windowCenter;
    std::optional<double> windowWidth;
};

void mergeInto(FrameInfo& info, const FrameInfo& more)
{
    const auto take = [](auto& target, const auto& source) {
        if (source) target = source;
    };
    take(info.position, more.position);
    take(info.orientation, more.orientation);
    take(info.pixelSpacing, more.pixelSpacing);
    take(info.sliceThickness, more.sliceThickness);
    take(info.spacingBetweenSlices, more.spacingBetweenSlices);
    take(info.slope, more.slope);
    take(info.intercept, more.intercept);
    take(info.windowCenter, more.windowCenter);
    take(info.windowWidth, more.windowWidth);
}

// The attributes as they appear at the top level of a classic image.
FrameInfo readImageLevelInfo(DcmItem& item)
{
    FrameInfo info;
    if (const auto p = getDoubles<3>(item, DCM_ImagePositionPatient)) {
        info.position = glm::dvec3((*p)[0], (*p)[1], (*p)[2]);
    }
    info.orientation = getDoubles<6>(item, DCM_ImageOrientationPatient);
    if (const auto s = getDoubles<2>(item, DCM_PixelSpacing)) {
        info.pixelSpacing = glm::dvec2((*s)[0], (*s)[1]);
    }
    info.sliceThickness = getDouble(item, DCM_SliceThickness);
    info.spacingBetweenSlices = getDouble(item, DCM_SpacingBetweenSlices);
    info.slope = getDouble(item, DCM_RescaleSlope);
    info.intercept = getDouble(item, DCM_RescaleIntercept);
    info.windowCenter = getDouble(item, DCM_WindowCenter);
    info.windowWidth = getDouble(item, DCM_WindowWidth);
    return info;
}

// The attributes as enhanced objects nest them in one functional groups item.
FrameInfo readFunctionalGroups(DcmItem& groups)
{
    FrameInfo info;
    const auto nested = [&groups](const DcmTagKey& sequence) {
        return getSequenceItem(groups, sequence);
    };
    if (DcmItem* item = nested(DCM_PlanePositionSequence)) {
        info.position = readImageLevelInfo(*item).position;
    }
    if (DcmItem* item = nested(DCM_PlaneOrientationSequence)) {
        info.orientation = getDoubles<6>(*item, DCM_ImageOrientationPatient);
    }
    if (DcmItem* item = nested(DCM_PixelMeasuresSequence)) {
        const FrameInfo measures = readImageLevelInfo(*item);
        info.pixelSpacing = measures.pixelSpacing;
        info.sliceThickness = measures.sliceThickness;
        info.spacingBetweenSlices = measures.spacingBetweenSlices;
    }
    if (DcmItem* item = nested(DCM_PixelValueTransformationSequence)) {
        info.slope = getDouble(*item, DCM_RescaleSlope);
        info.intercept = getDouble(*item, DCM_RescaleIntercept);
    }
    if (DcmItem* item = nested(DCM_FrameVOILUTSequence)) {
        info.windowCenter = getDouble(*item, DCM_WindowCenter);
        info.windowWidth = getDouble(*item, DCM_WindowWidth);
    }
    return info;
}

enum class PixelCodec { Native, Dcmtk, OpenJpeg, Unsupported };

std::string transferSyntaxName(const std::string& uid, E_TransferSyntax xfer)
{
    // UIDs newer than DCMTK 3.6.7's table.
    static const std::map<std::string, std::string> newer = {
        {"1.2.840.10008.1.2.4.201", "High-Throughput JPEG 2000 Lossless"},
        {"1.2.840.10008.1.2.4.202", "High-Throughput JPEG 2000 with RPCL Options (Lossless)"},
        {"1.2.840.10008.1.2.4.203", "High-Throughput JPEG 2000"},
        {"1.2.840.10008.1.2.4.110", "JPEG XL Lossless"},
        {"1.2.840.10008.1.2.4.111", "JPEG XL JPEG Recompression"},
        {"1.2.840.10008.1.2.4.112", "JPEG XL"},
    };
    if (const auto it = newer.find(uid); it != newer.end()) return it->second;
    if (xfer != EXS_Unknown) return DcmXfer(xfer).getXferName();
    return "unknown transfer syntax";
}

// Everything the loader needs from one file.
struct DicomHeader {
    std::string name; // quoted path, for messages
    std::uint64_t byteSize = 0;
    std::string sopClassUid;
    std::string sopInstanceUid;
    std::string seriesUid;
    std::string modality;
    std::string seriesDescription;
    std::string patientName;
    std::string patientId;
    std::string studyDate;
    std::string photometric;
    std::string units;
    std::string transferSyntaxUid;
    std::string transferSyntaxName;
    E_TransferSyntax xfer = EXS_Unknown;
    PixelCodec codec = PixelCodec::Unsupported;
    bool isDicomDir = false;
    bool isImage = false; // has Rows and Columns
    std::uint32_t rows = 0;
    std::uint32_t columns = 0;
    std::uint32_t samplesPerPixel = 1;
    std::uint32_t bitsAllocated = 0;
    std::uint32_t bitsStored = 0;
    std::uint32_t highBit = 0;
    bool pixelSigned = false;
    std::uint32_t frameCount = 1;
    std::optional<std::int32_t> instanceNumber;
    std::optional<std::int32_t> seriesNumber;
    FrameInfo common;                     // top level, then the shared functional groups
    std::vector<FrameInfo> perFrame;      // per-frame functional groups, when present
    std::vector<double> gridFrameOffsets; // RT dose: frame offsets along the normal
    std::vector<std::string> warnings;    // quirks fixed while reading

    // The merged information of frame `index`.
    FrameInfo frame(std::uint32_t index) const;
};

glm::dvec3 sliceNormal(const std::array<double, 6>& o)
{
    return glm::cross(glm::dvec3(o[0], o[1], o[2]), glm::dvec3(o[3], o[4], o[5]));
}

FrameInfo DicomHeader::frame(std::uint32_t index) const
{
    FrameInfo info = common;
    // A top-level position belongs to the first frame only; other frames need their own.
    if (frameCount > 1) info.position.reset();
    if (index < perFrame.size()) mergeInto(info, perFrame[index]);
    if (!gridFrameOffsets.empty() && index < gridFrameOffsets.size() && common.position &&
        common.orientation) {
        const glm::dvec3 normal = glm::normalize(sliceNormal(*common.orientation));
        info.position = *common.position + normal * (gridFrameOffsets[index] - gridFrameOffsets[0]);
    }
    return info;
}

PixelCodec codecFor(E_TransferSyntax xfer)
{
    if (xfer == EXS_Unknown) return PixelCodec::Unsupported;
    if (xfer == EXS_JPEG2000LosslessOnly || xfer == EXS_JPEG2000) return PixelCodec::OpenJpeg;
    const DcmXfer info(xfer);
    if (info.isReferenced()) return PixelCodec::Unsupported;
    if (info.isNotEncapsulated()) return PixelCodec::Native;
    if (DcmCodecList::canChangeCoding(xfer, EXS_LittleEndianExplicit)) return PixelCodec::Dcmtk;
    return PixelCodec::Unsupported;
}

std::string doseUnits(const std::string& stored)
{
    if (stored == "GY") return "Gy";
    if (stored == "CGY") return "cGy";
    return stored;
}

DicomHeader readHeader(const ParsedDicom& parsed)
{
    DcmDataset& ds = parsed.dataset();
    DcmMetaInfo& meta = *parsed.file->getMetaInfo();
    DicomHeader h;
    h.name = parsed.name;
    h.byteSize = parsed.byteSize;
    if (parsed.strayBytes > 0) {
        h.warnings.push_back(parsed.name + ": skipped " + std::to_string(parsed.strayBytes) +
                             " stray byte(s) before the dataset");
    }

    h.xfer = ds.getOriginalXfer();
    h.transferSyntaxUid = getString(meta, DCM_TransferSyntaxUID);
    if (h.transferSyntaxUid.empty() && h.xfer != EXS_Unknown) {
        h.transferSyntaxUid = DcmXfer(h.xfer).getXferID();
    }
    h.transferSyntaxName = transferSyntaxName(h.transferSyntaxUid, h.xfer);
    h.codec = codecFor(h.xfer);

    h.sopClassUid = getString(ds, DCM_SOPClassUID);
    if (h.sopClassUid.empty()) h.sopClassUid = getString(meta, DCM_MediaStorageSOPClassUID);
    h.isDicomDir = h.sopClassUid == UID_MediaStorageDirectoryStorage ||
                   ds.tagExists(DCM_DirectoryRecordSequence);
    h.sopInstanceUid = getString(ds, DCM_SOPInstanceUID);
    h.seriesUid = getString(ds, DCM_SeriesInstanceUID);
    h.modality = getString(ds, DCM_Modality);
    h.seriesDescription = getString(ds, DCM_SeriesDescription);
    h.patientName = getString(ds, DCM_PatientName);
    h.patientId = getString(ds, DCM_PatientID);
    h.studyDate = getString(ds, DCM_StudyDate);
    h.photometric = getString(ds, DCM_PhotometricInterpretation);
    h.instanceNumber = getInteger(ds, DCM_InstanceNumber);
    h.seriesNumber = getInteger(ds, DCM_SeriesNumber);

    const std::optional<std::uint16_t> rows = getUnsigned16(ds, DCM_Rows);
    const std::optional<std::uint16_t> columns = getUnsigned16(ds, DCM_Columns);
    h.isImage = rows.has_value() && columns.has_value() && !h.isDicomDir;
    h.rows = rows.value_or(0);
    h.columns = columns.value_or(0);
    h.samplesPerPixel = getUnsigned16(ds, DCM_SamplesPerPixel).value_or(1);
    h.bitsAllocated = getUnsigned16(ds, DCM_BitsAllocated).value_or(0);
    h.bitsStored = getUnsigned16(ds, DCM_BitsStored).value_or(std::uint16_t(h.bitsAllocated));
    h.highBit = getUnsigned16(ds, DCM_HighBit).value_or(std::uint16_t(h.bitsStored - 1));
    h.pixelSigned = getUnsigned16(ds, DCM_PixelRepresentation).value_or(0) == 1;
    if (h.bitsStored > 0 && h.bitsStored <= h.bitsAllocated &&
        (h.highBit >= h.bitsAllocated || h.highBit + 1 < h.bitsStored)) {
        h.warnings.push_back(parsed.name + ": HighBit " + std::to_string(h.highBit) +
                             " does not fit BitsStored " + std::to_string(h.bitsStored) +
                             "; assuming " + std::to_string(h.bitsStored - 1));
        h.highBit = h.bitsStored - 1;
    }

    if (const std::optional<std::int32_t> frames = getInteger(ds, DCM_NumberOfFrames)) {
        if (*frames < 1) {
            throw InvalidInputError(parsed.name + ": NumberOfFrames is " + std::to_string(*frames) +
                                    "; it must be at least 1");
        }
        h.frameCount = std::uint32_t(*frames);
    }

    h.common = readImageLevelInfo(ds);
    if (!h.common.pixelSpacing) {
        // Projection images give the spacing at the detector only.
        if (const auto s = getDoubles<2>(ds, DCM_ImagerPixelSpacing)) {
            h.common.pixelSpacing = glm::dvec2((*s)[0], (*s)[1]);
        }
    }
    if (DcmItem* shared = getSequenceItem(ds, DCM_SharedFunctionalGroupsSequence)) {
        mergeInto(h.common, readFunctionalGroups(*shared));
    }
    DcmSequenceOfItems* perFrame = nullptr;
    if (ds.findAndGetSequence(DCM_PerFrameFunctionalGroupsSequence, perFrame).good() &&
        perFrame != nullptr) {
        const unsigned long count = std::min<unsigned long>(perFrame->card(), h.frameCount);
        h.perFrame.reserve(count);
        for (unsigned long i = 0; i < count; ++i) {
            DcmItem* item = perFrame->getItem(i);
            h.perFrame.push_back(item != nullptr ? readFunctionalGroups(*item) : FrameInfo{});
        }
    }
    if (!h.perFrame.empty() && !h.common.windowCenter) {
        h.common.windowCenter = h.perFrame.front().windowCenter;
        h.common.windowWidth = h.perFrame.front().windowWidth;
    }

    if (h.modality == "RTDOSE" || h.sopClassUid == UID_RTDoseStorage) {
        // The dose grid's scaling is its rescale slope; its frames sit at the grid offsets.
        if (!h.common.slope) h.common.slope = getDouble(ds, DCM_DoseGridScaling);
        h.units = doseUnits(getString(ds, DCM_DoseUnits));
        DcmElement* offsets = nullptr;
        if (ds.findAndGetElement(DCM_GridFrameOffsetVector, offsets).good() && offsets) {
            const unsigned long count = std::min<unsigned long>(offsets->getVM(), h.frameCount);
            for (unsigned long i = 0; i < count; ++i) {
                Float64 value = 0.0;
                if (offsets->getFloat64(value, i).bad() || !std::isfinite(value)) break;
                h.gridFrameOffsets.push_back(value);
            }
            if (h.gridFrameOffsets.size() != h.frameCount) h.gridFrameOffsets.clear();
        }
    } else if (h.modality == "CT") {
        h.units = "HU";
    } else if (h.modality == "PT") {
        h.units = getString(ds, DCM_Units);
    }
    return h;
}

// The header for scanning: the image attributes alone, unless the object keeps what the
// loader needs further on (functional groups of enhanced objects, the RT dose grid) or lacks
// a position, in which case it is read again up to the pixel data.
DicomHeader readScanHeader(const fs::path& path)
{
    DicomHeader header = readHeader(parseDicomFile(path, ReadDepth::ImageAttributes));
    if (header.frameCount > 1 || !header.common.position || header.modality == "RTDOSE") {
        header = readHeader(parseDicomFile(path, ReadDepth::Header));
    }
    return header;
}

// Why the images of a header cannot be loaded, or nothing. The transfer syntax comes first:
// it is what a person can act on (convert the files).
std::optional<std::string> unsupportedReason(const DicomHeader& h)
{
    if (h.codec == PixelCodec::Unsupported) {
        return "transfer syntax " + h.transferSyntaxUid + " (" + h.transferSyntaxName +
               ") cannot be decoded by isoview";
    }
    if (h.rows == 0 || h.columns == 0) {
        return "the image size is " + std::to_string(h.columns) + "x" + std::to_string(h.rows);
    }
    const std::string& p = h.photometric;
    if (h.samplesPerPixel != 1 || p == "RGB" || p == "PALETTE COLOR" || p.starts_with("YBR")) {
        return "colour images (SamplesPerPixel " + std::to_string(h.samplesPerPixel) + ", " +
               (p.empty() ? std::string("no PhotometricInterpretation") : p) +
               ") are not supported; isoview loads greyscale volumes";
    }
    if (h.bitsAllocated != 8 && h.bitsAllocated != 16 && h.bitsAllocated != 32) {
        return "BitsAllocated " + std::to_string(h.bitsAllocated) +
               " is not supported (8, 16 or 32)";
    }
    if (h.bitsStored == 0 || h.bitsStored > h.bitsAllocated) {
        return "BitsStored " + std::to_string(h.bitsStored) + " does not fit BitsAllocated " +
               std::to_string(h.bitsAllocated);
    }
    return std::nullopt;
}

std::uint64_t frameBytes(const DicomHeader& h)
{
    return std::uint64_t(h.rows) * h.columns * h.samplesPerPixel * (h.bitsAllocated / 8);
}

std::uint64_t expectedPixelBytes(const DicomHeader& h)
{
    return detail::checkedMultiply(frameBytes(h), h.frameCount)
        .value_or(std::numeric_limits<std::uint64_t>::max());
}

std::string describeFailedFullRead(const fs::path& path, const OFCondition& status)
{
    const std::string generic = quoted(path) + " cannot be read: " + status.text();
    try {
        const DicomHeader header = readHeader(parseDicomFile(path, ReadDepth::Header));
        if (!header.isImage || header.bitsAllocated == 0) return generic;
        const std::uint64_t expected = expectedPixelBytes(header);
        const bool encapsulated = header.codec != PixelCodec::Native;
        const std::vector<std::uint8_t> bytes = readFileBytes(path, header.byteSize);
        const std::optional<PixelDataLocation> where =
            locatePixelData(bytes, expected, encapsulated);
        if (!where) {
            return quoted(path) + ": the pixel data is truncated or damaged (expected " +
                   std::to_string(expected) + " bytes; " + status.text() + ")";
        }
        const std::uint64_t actual =
            bytes.size() > where->valueOffset ? bytes.size() - where->valueOffset : 0;
        if (encapsulated) {
            return quoted(path) + ": the compressed pixel data is truncated: the file ends " +
                   std::to_string(actual) + " bytes into it";
        }
        return quoted(path) + ": the pixel data is truncated: expected " +
               std::to_string(where->declaredLength) + " bytes, the file holds " +
               std::to_string(actual);
    } catch (const Error&) {
        return generic;
    }
}

// ------------------------------------------------------------------------------------------
// JPEG 2000 through OpenJPEG.

struct OpjMemory {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t offset = 0;
};

OPJ_SIZE_T opjRead(void* target, OPJ_SIZE_T count, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (memory->offset >= memory->size) return OPJ_SIZE_T(-1);
    const std::size_t n = std::min<std::size_t>(count, memory->size - memory->offset);
    std::memcpy(target, memory->data + memory->offset, n);
    memory->offset += n;
    return n;
}

OPJ_OFF_T opjSkip(OPJ_OFF_T count, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (count < 0) {
        const std::size_t back = std::min<std::size_t>(std::size_t(-count), memory->offset);
        memory->offset -= back;
        return -OPJ_OFF_T(back);
    }
    const std::size_t n = std::min<std::size_t>(std::size_t(count), memory->size - memory->offset);
    memory->offset += n;
    return OPJ_OFF_T(n);
}

OPJ_BOOL opjSeek(OPJ_OFF_T position, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (position < 0 || std::uint64_t(position) > memory->size) return OPJ_FALSE;
    memory->offset = std::size_t(position);
    return OPJ_TRUE;
}

// opj_codec_t and opj_stream_t are both void*, so each needs a deleter type of its own.
struct OpjCodecDeleter {
    void operator()(opj_codec_t* codec) const { opj_destroy_codec(codec); }
};
struct OpjStreamDeleter {
    void operator()(opj_stream_t* stream) const { opj_stream_destroy(stream); }
};
struct OpjImageDeleter {
    void operator()(opj_image_t* image) const { opj_image_destroy(image); }
};

bool isJp2File(std::span<const std::uint8_t> bytes)
{
    static constexpr std::uint8_t signature[] = {0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50,
                                                 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A};
    return bytes.size() >= sizeof signature &&
           std::memcmp(bytes.data(), signature, sizeof signature) == 0;
}

bool startsJ2kCodestream(std::span<const std::uint8_t> bytes)
{
    return (bytes.size() >= 4 && bytes[0] == 0xFF && bytes[1] == 0x4F && bytes[2] == 0xFF &&
            bytes[3] == 0x51) ||
           isJp2File(bytes);
}

// Decodes one JPEG 2000 codestream (or JP2 file) of a greyscale frame into raw sample words
// of bitsAllocated bits; the integers keep their two's complement bits, which the stored-value
// extraction then reads with the DICOM PixelRepresentation.
void decodeJpeg2000(std::span<const std::uint8_t> code, const DicomHeader& h, std::uint32_t frame,
                    std::span<std::uint8_t> out)
{
    const std::string what = h.name + " frame " + std::to_string(frame + 1) + " (JPEG 2000)";
    std::string errors;
    const auto onError = [](const char* message, void* user) {
        static_cast<std::string*>(user)->append(trim(message) + "; ");
    };
    const auto quiet = [](const char* message, void*) {
        log::get("io")->debug("openjpeg: {}", trim(message));
    };

    std::unique_ptr<opj_codec_t, OpjCodecDeleter> codec(
        opj_create_decompress(isJp2File(code) ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
    if (!codec) throw IoError(what + ": OpenJPEG could not create a decoder");
    opj_set_error_handler(codec.get(), onError, &errors);
    opj_set_warning_handler(codec.get(), quiet, nullptr);
    opj_set_info_handler(codec.get(), quiet, nullptr);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    if (!opj_setup_decoder(codec.get(), &parameters)) {
        throw IoError(what + ": OpenJPEG rejected the decoder set-up: " + errors);
    }

    OpjMemory memory{code.data(), code.size(), 0};
    std::unique_ptr<opj_stream_t, OpjStreamDeleter> stream(opj_stream_create(1 << 16, OPJ_TRUE));
    if (!stream) throw IoError(what + ": OpenJPEG could not create a stream");
    opj_stream_set_user_data(stream.get(), &memory, nullptr);
    opj_stream_set_user_data_length(stream.get(), code.size());
    opj_stream_set_read_function(stream.get(), opjRead);
    opj_stream_set_skip_function(stream.get(), opjSkip);
    opj_stream_set_seek_function(stream.get(), opjSeek);

    opj_image_t* rawImage = nullptr;
    const bool headerRead = opj_read_header(stream.get(), codec.get(), &rawImage);
    std::unique_ptr<opj_image_t, OpjImageDeleter> image(rawImage);
    if (!headerRead || !image) {
        throw IoError(what + ": cannot read the codestream header: " + errors);
    }
    if (!opj_decode(codec.get(), stream.get(), image.get()) ||
        !opj_end_decompress(codec.get(), stream.get())) {
        throw IoError(what + ": decoding failed: " + errors);
    }
    if (image->numcomps != 1) {
        throw InvalidInputError(what + ": the codestream has " + std::to_string(image->numcomps) +
                                " components; isoview loads greyscale images");
    }
    const opj_image_comp_t& component = image->comps[0];
    if (component.w != h.columns || component.h != h.rows || component.data == nullptr) {
        throw IoError(what + ": the codestream is " + std::to_string(component.w) + "x" +
                      std::to_string(component.h) + ", the DICOM header says " +
                      std::to_string(h.columns) + "x" + std::to_string(h.rows));
    }
    const std::size_t count = std::size_t(h.rows) * h.columns;
    const std::size_t wordBytes = h.bitsAllocated / 8;
    for (std::size_t i = 0; i < count; ++i) {
        const auto bits = std::uint32_t(component.data[i]);
        if (wordBytes == 1) {
            out[i] = std::uint8_t(bits);
        } else if (wordBytes == 2) {
            const auto word = std::uint16_t(bits);
            std::memcpy(out.data() + 2 * i, &word, 2);
        } else {
            std::memcpy(out.data() + 4 * i, &bits, 4);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Frame decoding: one object's frames into raw sample words in host byte order.

class FrameDecoder {
public:
    FrameDecoder(const ParsedDicom& parsed, const DicomHeader& header)
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
            throw InvalidInputError(header.name + ": one frame of " +
                                    std::to_string(header.columns) + "x" +
                                    std::to_string(header.rows) + " needs " +
                                    detail::humanBytes(bytes) + ", too large to decode");
        }
        m_frameBytes = std::size_t(bytes);
        m_buffer.resize(m_frameBytes + (m_frameBytes % 2)); // DCMTK wants an even size

        if (header.codec == PixelCodec::Native) {
            const std::uint64_t expected = expectedPixelBytes(header);
            const std::uint64_t actual = m_pixelData->getLength();
            if (actual < expected) {
                throw IoError(header.name + ": the pixel data is truncated: expected " +
                              std::to_string(expected) + " bytes (" +
                              std::to_string(header.frameCount) + " frame(s) of " +
                              std::to_string(header.columns) + "x" + std::to_string(header.rows) +
                              ", " + std::to_string(header.bitsAllocated) +
                              " bits), the file holds " + std::to_string(actual));
            }
        } else if (header.codec == PixelCodec::OpenJpeg) {
            mapJpeg2000Fragments();
        }
    }

    // The raw words of frame `index`: rows x columns samples of BitsAllocated bits.
    std::span<const std::uint8_t> decode(std::uint32_t index)
    {
        if (m_header.codec == PixelCodec::OpenJpeg) {
            decodeJpeg2000(frameCodestream(index), m_header, index, m_buffer);
        } else {
            OFString colourModel;
            const OFCondition status = m_pixelData->getUncompressedFrame(
                &m_dataset, index, m_nextFragment, m_buffer.data(), Uint32(m_buffer.size()),
                colourModel, &m_cache);
            if (status.bad()) {
                throw IoError(m_header.name + ": cannot decode frame " + std::to_string(index + 1) +
                              " (" + m_header.transferSyntaxName + "): " + status.text());
            }
        }
        return std::span<const std::uint8_t>(m_buffer.data(), m_frameBytes);
    }

private:
    DcmPixelSequence& pixelSequence()
    {
        DcmPixelSequence* sequence = nullptr;
        if (m_pixelData->getEncapsulatedRepresentation(m_header.xfer, nullptr, sequence).bad() ||
            sequence == nullptr) {
            throw IoError(m_header.name + ": the compressed pixel data has no fragments");
        }
        return *sequence;
    }

    std::span<const std::uint8_t> fragment(DcmPixelSequence& sequence, unsigned long index)
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
    void mapJpeg2000Fragments()
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
            throw IoError(m_header.name + ": cannot tell which of the " +
                          std::to_string(fragments) +
                          " JPEG 2000 fragments belong to which of the " + std::to_string(frames) +
                          " frames");
        }
        m_frameStarts.push_back(items);
    }

    std::span<const std::uint8_t> frameCodestream(std::uint32_t index)
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

// ------------------------------------------------------------------------------------------
// Stored values into voxels.

struct SampleLayout {
    std::uint32_t bitsAllocated = 16;
    std::uint32_t bitsStored = 16;
    std::uint32_t highBit = 15;
    bool isSigned = false;
};

// How the stored values of one slice become voxels.
struct SliceMapping {
    ScalarType type = ScalarType::Int16;
    bool negate = false; // a negative rescale slope made positive
    bool toReal = false; // float voxels holding stored * slope + intercept
    double slope = 1.0;
    double intercept = 0.0;
};

// Calls store(i, value) with the stored value of each sample: the BitsStored bits that end at
// HighBit, sign-extended from the top one when the samples are signed.
template <typename Word, typename Store>
void forEachStoredValue(const std::uint8_t* raw, std::size_t count, const SampleLayout& layout,
                        Store&& store)
{
    const unsigned shift = layout.highBit + 1 - layout.bitsStored;
    const std::uint64_t mask = (std::uint64_t(1) << layout.bitsStored) - 1;
    const std::uint64_t signBit = std::uint64_t(1) << (layout.bitsStored - 1);
    for (std::size_t i = 0; i < count; ++i) {
        Word word;
        std::memcpy(&word, raw + i * sizeof(Word), sizeof(Word));
        auto value = std::int64_t((std::uint64_t(word) >> shift) & mask);
        if (layout.isSigned && (std::uint64_t(value) & signBit) != 0) {
            value -= std::int64_t(mask) + 1;
        }
        store(i, value);
    }
}

template <typename Word>
void writeSliceFromWords(const std::uint8_t* raw, std::size_t count, const SampleLayout& layout,
                         const SliceMapping& mapping, std::byte* target)
{
    const auto run = [&]<typename Out>(Out /*tag*/) {
        forEachStoredValue<Word>(raw, count, layout, [&](std::size_t i, std::int64_t value) {
            Out out;
            if constexpr (std::is_floating_point_v<Out>) {
                out = Out(double(value) * mapping.slope + mapping.intercept);
            } else {
                out = Out(mapping.negate ? -value : value);
            }
            std::memcpy(target + i * sizeof(Out), &out, sizeof(Out));
        });
    };
    switch (mapping.type) {
    case ScalarType::UInt8:
        run(std::uint8_t{});
        break;
    case ScalarType::Int8:
        run(std::int8_t{});
        break;
    case ScalarType::UInt16:
        run(std::uint16_t{});
        break;
    case ScalarType::Int16:
        run(std::int16_t{});
        break;
    case ScalarType::UInt32:
        run(std::uint32_t{});
        break;
    case ScalarType::Int32:
        run(std::int32_t{});
        break;
    case ScalarType::Float32:
        run(float{});
        break;
    case ScalarType::Float64:
        if (mapping.toReal) {
            run(double{});
        } else {
            // A negated uint32 range: exact in double.
            forEachStoredValue<Word>(raw, count, layout, [&](std::size_t i, std::int64_t value) {
                const double out = double(mapping.negate ? -value : value);
                std::memcpy(target + i * sizeof(double), &out, sizeof(double));
            });
        }
        break;
    }
}

void writeSlice(std::span<const std::uint8_t> raw, const SampleLayout& layout,
                const SliceMapping& mapping, std::size_t count, std::byte* target)
{
    switch (layout.bitsAllocated) {
    case 8:
        writeSliceFromWords<std::uint8_t>(raw.data(), count, layout, mapping, target);
        break;
    case 16:
        writeSliceFromWords<std::uint16_t>(raw.data(), count, layout, mapping, target);
        break;
    default:
        writeSliceFromWords<std::uint32_t>(raw.data(), count, layout, mapping, target);
        break;
    }
}

// The smallest integer type holding [low, high]; float64 (exact to 2^53) beyond int32/uint32.
ScalarType smallestIntegerType(std::int64_t low, std::int64_t high)
{
    if (low >= 0) {
        if (high <= 0xFF) return ScalarType::UInt8;
        if (high <= 0xFFFF) return ScalarType::UInt16;
        if (high <= 0xFFFFFFFFll) return ScalarType::UInt32;
    }
    if (low >= -128 && high <= 127) return ScalarType::Int8;
    if (low >= -32768 && high <= 32767) return ScalarType::Int16;
    if (low >= std::numeric_limits<std::int32_t>::min() &&
        high <= std::numeric_limits<std::int32_t>::max()) {
        return ScalarType::Int32;
    }
    return ScalarType::Float64;
}

// ------------------------------------------------------------------------------------------
// Stack layout: slice order and geometry.

struct SliceRecord {
    std::size_t file = 0;    // index into the stack's files
    std::uint32_t frame = 0; // frame within the file
    FrameInfo info;
};

struct SourceFile {
    fs::path path; // empty for memory input
    DicomHeader header;
    std::unique_ptr<ParsedDicom> parsed; // pass 1's parse; read again when absent
};

struct StackLayout {
    std::vector<std::size_t> order; // record indices in slice order, duplicates removed
    VolumeGeometry geometry;
};

std::string frameLabel(const std::vector<SourceFile>& files, const SliceRecord& record)
{
    const DicomHeader& h = files[record.file].header;
    return h.frameCount > 1 ? h.name + " frame " + std::to_string(record.frame + 1) : h.name;
}

bool sameOrientation(const std::array<double, 6>& a, const std::array<double, 6>& b,
                     double tolerance)
{
    for (std::size_t i = 0; i < 6; ++i) {
        if (std::abs(a[i] - b[i]) > tolerance) return false;
    }
    return true;
}

// Direction cosines of the stack; identity (with a warning) when absent or degenerate.
glm::dmat3 stackDirection(const std::vector<SliceRecord>& records,
                          const std::vector<SourceFile>& files, std::vector<std::string>& warnings)
{
    const std::optional<std::array<double, 6>>& first = records.front().info.orientation;
    for (const SliceRecord& record : records) {
        const auto& o = record.info.orientation;
        if (o.has_value() != first.has_value() || (o && !sameOrientation(*o, *first, 1e-3))) {
            throw InvalidInputError("the slices of the series have different orientations (" +
                                    frameLabel(files, records.front()) + " and " +
                                    frameLabel(files, record) +
                                    "); isoview stacks slices of one orientation only");
        }
    }
    if (!first) {
        warnings.push_back("the images have no ImageOrientationPatient: assuming axial slices "
                           "(identity direction)");
        return glm::dmat3(1.0);
    }
    const glm::dvec3 row((*first)[0], (*first)[1], (*first)[2]);
    const glm::dvec3 column((*first)[3], (*first)[4], (*first)[5]);
    const glm::dvec3 normal = glm::cross(row, column);
    if (glm::length(row) < 0.5 || glm::length(column) < 0.5 || glm::length(normal) < 0.5) {
        warnings.push_back("ImageOrientationPatient is degenerate: assuming axial slices "
                           "(identity direction)");
        return glm::dmat3(1.0);
    }
    return glm::dmat3(glm::normalize(row), glm::normalize(column), glm::normalize(normal));
}

glm::dvec2 stackPixelSpacing(const std::vector<SliceRecord>& records,
                             std::vector<std::string>& warnings)
{
    const std::optional<glm::dvec2>& first = records.front().info.pixelSpacing;
    if (!first || !(first->x > 0.0) || !(first->y > 0.0)) {
        warnings.push_back("the images have no valid PixelSpacing: assuming 1 mm pixels");
        return {1.0, 1.0};
    }
    for (const SliceRecord& record : records) {
        const auto& s = record.info.pixelSpacing;
        if (!s || glm::length(*s - *first) > 1e-4 * glm::length(*first)) {
            warnings.push_back("the pixel spacing differs between slices; using the first "
                               "slice's " +
                               fmt::format("{:g} x {:g} mm", first->y, first->x));
            break;
        }
    }
    return *first;
}

// Warnings about the gaps between consecutive slices, with where they are.
void describeIrregularGaps(const std::vector<double>& along, double mean,
                           std::vector<std::string>& warnings)
{
    std::vector<double> gaps;
    for (std::size_t k = 1; k < along.size(); ++k) {
        gaps.push_back(along[k] - along[k - 1]);
    }
    std::vector<double> sorted = gaps;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double typical = sorted[sorted.size() / 2];
    const std::size_t n = along.size();

    std::vector<std::string> missing;
    for (std::size_t k = 0; k < gaps.size(); ++k) {
        const double ratio = gaps[k] / typical;
        if (ratio > 1.5 && std::abs(ratio - std::round(ratio)) < 0.2) {
            const auto count = long(std::lround(ratio)) - 1;
            missing.push_back(fmt::format(
                "a gap of {} between slices {} and {} of {} (at {} and {} along the slice "
                "normal), about {} slice{} missing",
                mm(gaps[k]), k + 1, k + 2, n, mm(along[k]), mm(along[k + 1]), count,
                count == 1 ? "" : "s"));
        }
    }
    for (std::size_t i = 0; i < missing.size() && i < 5; ++i) {
        warnings.push_back("missing slice(s): " + missing[i] + "; the spacing elsewhere is " +
                           mm(typical));
    }
    if (missing.size() > 5) {
        warnings.push_back("missing slice(s): " + std::to_string(missing.size() - 5) +
                           " more gaps like these");
    }
    const auto [low, high] = std::minmax_element(gaps.begin(), gaps.end());
    warnings.push_back(fmt::format("uneven slice spacing: gaps from {} to {} (mean {}); the "
                                   "slice positions are kept as measured, not resampled",
                                   mm(*low), mm(*high), mm(mean)));
}

// Sorts the slices along the normal, drops copies of one image, and derives the geometry.
StackLayout layoutStack(const std::vector<SliceRecord>& records,
                        const std::vector<SourceFile>& files, std::vector<std::string>& warnings)
{
    StackLayout layout;
    VolumeGeometry& g = layout.geometry;
    g.direction = stackDirection(records, files, warnings);
    const glm::dvec2 pixel = stackPixelSpacing(records, warnings);
    g.spacing = glm::dvec3(pixel.y, pixel.x, 1.0); // columns advance i, rows advance j
    const glm::dvec3 normal = g.direction[2];

    const auto instance = [&](const SliceRecord& r) {
        return files[r.file].header.instanceNumber.value_or(
            std::numeric_limits<std::int32_t>::max());
    };
    const auto sameImage = [&](const SliceRecord& a, const SliceRecord& b) {
        const std::string& uid = files[a.file].header.sopInstanceUid;
        return !uid.empty() && uid == files[b.file].header.sopInstanceUid && a.frame == b.frame;
    };

    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const bool havePositions = std::all_of(records.begin(), records.end(),
                                           [](const SliceRecord& r) { return r.info.position; });
    std::vector<double> along(records.size(), 0.0);
    if (havePositions) {
        for (std::size_t i = 0; i < records.size(); ++i) {
            along[i] = glm::dot(*records[i].info.position, normal);
        }
    } else if (records.size() > 1) {
        warnings.push_back("slice positions (ImagePositionPatient) are missing: slices are "
                           "ordered by InstanceNumber, then file name and frame, and the slice "
                           "spacing is not measured");
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (havePositions && along[a] != along[b]) return along[a] < along[b];
        if (instance(records[a]) != instance(records[b])) {
            return instance(records[a]) < instance(records[b]);
        }
        if (records[a].file != records[b].file) {
            return files[records[a].file].path < files[records[b].file].path;
        }
        return records[a].frame < records[b].frame;
    });

    // Duplicates: copies of one image are dropped; distinct images at one position are an error.
    constexpr double kSamePosition = 1e-4; // mm along the normal
    std::size_t dropped = 0;
    std::string droppedExample;
    std::vector<std::size_t> kept;
    for (const std::size_t index : order) {
        bool drop = false;
        for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
            const bool samePlace =
                havePositions && std::abs(along[*it] - along[index]) <= kSamePosition;
            if (sameImage(records[*it], records[index])) {
                drop = true;
                if (droppedExample.empty()) {
                    droppedExample = frameLabel(files, records[index]) + " repeats " +
                                     frameLabel(files, records[*it]);
                }
                break;
            }
            if (samePlace) {
                throw InvalidInputError(
                    "two different images lie at the same position (" + mm(along[index]) +
                    " along the slice normal): " + frameLabel(files, records[*it]) + " and " +
                    frameLabel(files, records[index]) +
                    ". The series holds several volumes (echoes, phases or time points) or "
                    "repeated slices, which isoview cannot stack into one volume");
            }
            if (!havePositions || along[index] - along[*it] > kSamePosition) break;
        }
        if (drop) {
            ++dropped;
        } else {
            kept.push_back(index);
        }
    }
    if (dropped > 0) {
        warnings.push_back(
            "dropped " + std::to_string(dropped) + " duplicate cop" + (dropped == 1 ? "y" : "ies") +
            " of the same image (same SOPInstanceUID and frame), e.g. " + droppedExample);
    }
    layout.order = kept;

    const SliceRecord& first = records[kept.front()];
    g.origin = first.info.position.value_or(glm::dvec3(0.0));
    const std::size_t n = kept.size();
    if (!havePositions || n == 1) {
        const FrameInfo& info = first.info;
        double z = info.sliceThickness.value_or(1.0);
        if (n > 1) {
            if (info.spacingBetweenSlices && *info.spacingBetweenSlices > 0.0) {
                z = *info.spacingBetweenSlices;
                warnings.push_back("slice spacing taken from SpacingBetweenSlices: " + mm(z));
            } else if (info.sliceThickness && *info.sliceThickness > 0.0) {
                warnings.push_back("slice spacing taken from SliceThickness: " + mm(z));
            } else {
                z = 1.0;
                warnings.push_back("slice spacing unknown: assuming 1 mm");
            }
        }
        g.spacing.z = z > 0.0 ? z : 1.0;
        return layout;
    }

    std::vector<double> sortedAlong;
    std::vector<glm::dvec3> positions;
    for (const std::size_t index : kept) {
        sortedAlong.push_back(along[index]);
        positions.push_back(*records[index].info.position);
    }
    const double mean = (sortedAlong.back() - sortedAlong.front()) / double(n - 1);
    if (!std::isfinite(mean) || !(mean > 0.0)) {
        throw InvalidInputError("the slice positions of the series are not usable (they span " +
                                mm(sortedAlong.back() - sortedAlong.front()) + ")");
    }
    g.spacing.z = mean;

    bool regular = true;
    for (std::size_t k = 1; k < n; ++k) {
        const double gap = sortedAlong[k] - sortedAlong[k - 1];
        if (std::abs(gap - mean) > std::max(1e-3 * mean, 1e-4)) regular = false;
    }
    if (!regular) describeIrregularGaps(sortedAlong, mean, warnings);

    // Shear: the part of each slice's offset from the first that is not along the normal.
    double worstLateral = 0.0;
    bool sheared = false;
    for (std::size_t k = 1; k < n; ++k) {
        const glm::dvec3 offset = positions[k] - positions[0];
        const double normalPart = sortedAlong[k] - sortedAlong[0];
        const double lateral = glm::length(offset - normal * normalPart);
        worstLateral = std::max(worstLateral, lateral);
        if (lateral > 0.01 + 1e-4 * normalPart) sheared = true;
    }
    if (sheared) {
        const glm::dvec3 span = positions.back() - positions.front();
        const double lateral = glm::length(span - normal * glm::dot(span, normal));
        const double degrees = std::atan2(lateral, sortedAlong.back() - sortedAlong.front()) *
                               180.0 / std::numbers::pi;
        warnings.push_back(fmt::format(
            "sheared stack (gantry tilt about {:.1f} degrees): the slice positions move up to "
            "{} across the slice plane; they are kept as measured, not resampled",
            degrees, mm(worstLateral)));
    }
    if (!regular || sheared) g.sliceOrigins = positions;
    return layout;
}

// ------------------------------------------------------------------------------------------
// Voxel type and rescale.

struct ValueMapping {
    ScalarType type = ScalarType::Int16;
    ValueRescale rescale;
    std::vector<SliceMapping> slices; // per kept slice
};

ValueMapping chooseValueMapping(const std::vector<SliceRecord>& records,
                                const std::vector<std::size_t>& order,
                                const std::vector<SourceFile>& files,
                                std::vector<std::string>& warnings)
{
    std::int64_t low = std::numeric_limits<std::int64_t>::max();
    std::int64_t high = std::numeric_limits<std::int64_t>::min();
    std::vector<ValueRescale> rescales;
    bool zeroSlope = false;
    for (const std::size_t index : order) {
        const SliceRecord& r = records[index];
        const DicomHeader& h = files[r.file].header;
        const std::int64_t bits = h.bitsStored;
        low = std::min(low, h.pixelSigned ? -(std::int64_t(1) << (bits - 1)) : 0);
        high = std::max(high, h.pixelSigned ? (std::int64_t(1) << (bits - 1)) - 1
                                            : (std::int64_t(1) << bits) - 1);
        ValueRescale rescale{r.info.slope.value_or(1.0), r.info.intercept.value_or(0.0)};
        if (rescale.slope == 0.0) {
            zeroSlope = true;
            rescale.slope = 1.0;
        }
        rescales.push_back(rescale);
    }
    if (zeroSlope) warnings.push_back("RescaleSlope 0 is not usable; 1 was used instead");

    const auto close = [](double a, double b) {
        return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
    };
    const ValueRescale& first = rescales.front();
    const bool shared = std::all_of(rescales.begin(), rescales.end(), [&](const ValueRescale& r) {
        return close(r.slope, first.slope) && close(r.intercept, first.intercept);
    });

    ValueMapping mapping;
    if (!shared) {
        const auto [lowSlope, highSlope] = std::minmax_element(
            rescales.begin(), rescales.end(),
            [](const ValueRescale& a, const ValueRescale& b) { return a.slope < b.slope; });
        const auto [lowIntercept, highIntercept] = std::minmax_element(
            rescales.begin(), rescales.end(),
            [](const ValueRescale& a, const ValueRescale& b) { return a.intercept < b.intercept; });
        warnings.push_back(fmt::format(
            "the slices have different rescales (slopes {:g} to {:g}, intercepts {:g} to {:g}): "
            "values were converted to real units and stored as float32",
            lowSlope->slope, highSlope->slope, lowIntercept->intercept, highIntercept->intercept));
        mapping.type = ScalarType::Float32;
        for (const ValueRescale& r : rescales) {
            mapping.slices.push_back(SliceMapping{.type = ScalarType::Float32,
                                                  .toReal = true,
                                                  .slope = r.slope,
                                                  .intercept = r.intercept});
        }
        return mapping;
    }

    const bool negate = first.slope < 0.0;
    if (negate) {
        warnings.push_back(fmt::format("RescaleSlope {:g} is negative: the stored values were "
                                       "negated so that the slope is positive ({:g})",
                                       first.slope, -first.slope));
        std::tie(low, high) = std::pair(-high, -low);
    }
    mapping.type = smallestIntegerType(low, high);
    mapping.rescale = ValueRescale{std::abs(first.slope), first.intercept};
    mapping.slices.assign(order.size(), SliceMapping{.type = mapping.type, .negate = negate});
    return mapping;
}

// ------------------------------------------------------------------------------------------
// Assembly: the shared path of loadDicomSeries and fuzzDicomBytes.

struct LoadLimits {
    std::optional<std::uint64_t> maxVoxelBytes; // beyond the machine's memory
    bool logWarnings = true;                    // off for fuzzing, where they are noise
};

void requireLoadable(const SourceFile& file)
{
    const DicomHeader& h = file.header;
    if (h.isDicomDir || !h.isImage) {
        throw InvalidInputError(
            h.name + " is not an image (" +
            std::string(dcmFindNameOfUID(h.sopClassUid.c_str(), "unknown SOP class")) + ")");
    }
    if (const std::optional<std::string> reason = unsupportedReason(h)) {
        if (h.codec == PixelCodec::Unsupported) throw IoError(h.name + ": " + *reason);
        throw InvalidInputError(h.name + ": " + *reason);
    }
    // Each frame takes at least one byte of the file (8 when compressed): a NumberOfFrames
    // beyond that is a lie, caught before per-frame records are made.
    if (h.frameCount > h.byteSize) {
        throw InvalidInputError(h.name + ": NumberOfFrames " + std::to_string(h.frameCount) +
                                " is more than a " + std::to_string(h.byteSize) +
                                "-byte file can hold");
    }
}

void requireOneImageSize(const std::vector<SourceFile>& files)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> sizes;
    for (const SourceFile& file : files) {
        sizes[{file.header.columns, file.header.rows}] += file.header.frameCount;
    }
    if (sizes.size() <= 1) return;
    std::string list;
    for (const auto& [size, count] : sizes) {
        if (!list.empty()) list += ", ";
        list += std::to_string(size.first) + "x" + std::to_string(size.second) + " (" +
                std::to_string(count) + " slice" + (count == 1 ? "" : "s") + ")";
    }
    throw InvalidInputError("the series mixes image sizes: " + list +
                            "; each size must be loaded as a series of its own");
}

VolumeMetadata describeVolume(const std::vector<SourceFile>& files,
                              const std::vector<SliceRecord>& records, const StackLayout& layout)
{
    const DicomHeader& h = files[records[layout.order.front()].file].header;
    VolumeMetadata m;
    m.sourceFormat = "DICOM";
    m.patientSpace = true;
    m.modality = h.modality;
    m.units = h.units;
    m.patientName = h.patientName;
    m.patientId = h.patientId;
    m.studyDate = h.studyDate;
    m.seriesDescription = h.seriesDescription;
    m.seriesInstanceUid = h.seriesUid;
    const FrameInfo& info = records[layout.order.front()].info;
    m.windowCenter = info.windowCenter ? info.windowCenter : h.common.windowCenter;
    m.windowWidth = info.windowWidth ? info.windowWidth : h.common.windowWidth;
    return m;
}

Volume assembleVolume(std::vector<SourceFile>& files, LoadMonitor* monitor,
                      const LoadLimits& limits)
{
    std::vector<std::string> warnings;
    for (const SourceFile& file : files) {
        requireLoadable(file);
        warnings.insert(warnings.end(), file.header.warnings.begin(), file.header.warnings.end());
    }
    requireOneImageSize(files);

    std::vector<SliceRecord> records;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const DicomHeader& h = files[f].header;
        for (std::uint32_t frame = 0; frame < h.frameCount; ++frame) {
            records.push_back(SliceRecord{f, frame, h.frame(frame)});
        }
    }
    const DicomHeader& firstHeader = files.front().header;
    if (firstHeader.frameCount > 1 && firstHeader.perFrame.empty() &&
        firstHeader.gridFrameOffsets.empty() && files.size() == 1) {
        warnings.push_back(firstHeader.name + " holds " + std::to_string(firstHeader.frameCount) +
                           " frames without per-frame positions (no functional groups): they are "
                           "stacked in frame order");
    }

    const StackLayout layout = layoutStack(records, files, warnings);
    const ValueMapping values = chooseValueMapping(records, layout.order, files, warnings);

    // Validate the size before the allocation.
    const glm::uvec3 dims(firstHeader.columns, firstHeader.rows,
                          std::uint32_t(layout.order.size()));
    const std::string subject = "the DICOM series " + firstHeader.name;
    const std::optional<std::uint64_t> bytes = detail::voxelByteCount(dims, values.type);
    if (!bytes) {
        throw InvalidInputError(subject + " (" + detail::dimsText(dims, values.type) +
                                ") is too large: its byte count overflows");
    }
    detail::requireFitsInMemory(subject, dims, values.type, *bytes);
    if (limits.maxVoxelBytes && *bytes > *limits.maxVoxelBytes) {
        throw InvalidInputError(subject + " (" + detail::dimsText(dims, values.type) +
                                ") exceeds the limit of " +
                                detail::humanBytes(*limits.maxVoxelBytes));
    }
    std::vector<std::byte> voxels(*bytes);

    // Where each (file, frame) goes; frames of dropped duplicates go nowhere.
    constexpr std::size_t kNoSlot = std::numeric_limits<std::size_t>::max();
    std::vector<std::vector<std::size_t>> slotOf(files.size());
    for (std::size_t f = 0; f < files.size(); ++f) {
        slotOf[f].assign(files[f].header.frameCount, kNoSlot);
    }
    for (std::size_t slot = 0; slot < layout.order.size(); ++slot) {
        const SliceRecord& r = records[layout.order[slot]];
        slotOf[r.file][r.frame] = slot;
    }

    const std::size_t sliceVoxels = std::size_t(dims.x) * dims.y;
    const std::size_t sliceBytes = sliceVoxels * scalarSize(values.type);
    const std::uint64_t total = layout.order.size();
    std::uint64_t done = 0;
    reportProgress(monitor, "decoding slices", done, total);
    for (std::size_t f = 0; f < files.size(); ++f) {
        SourceFile& file = files[f];
        if (std::all_of(slotOf[f].begin(), slotOf[f].end(),
                        [](std::size_t slot) { return slot == kNoSlot; })) {
            continue; // a copy of images kept from another file
        }
        std::unique_ptr<ParsedDicom> parsed = std::move(file.parsed);
        if (!parsed) {
            parsed = std::make_unique<ParsedDicom>(parseDicomFile(file.path, ReadDepth::Full));
        }
        FrameDecoder decoder(*parsed, file.header);
        const SampleLayout sampleLayout{file.header.bitsAllocated, file.header.bitsStored,
                                        file.header.highBit, file.header.pixelSigned};
        for (std::uint32_t frame = 0; frame < file.header.frameCount; ++frame) {
            // Frames are decoded in order even when one is not kept: sequential decoding is
            // what lets DCMTK find the fragments of each frame.
            const std::span<const std::uint8_t> raw = decoder.decode(frame);
            const std::size_t slot = slotOf[f][frame];
            if (slot == kNoSlot) continue;
            writeSlice(raw, sampleLayout, values.slices[slot], sliceVoxels,
                       voxels.data() + slot * sliceBytes);
            reportProgress(monitor, "decoding slices", ++done, total);
        }
    }

    Volume volume(dims, values.type, std::move(voxels), layout.geometry, values.rescale);
    VolumeMetadata metadata = describeVolume(files, records, layout);
    metadata.warnings = warnings;
    if (limits.logWarnings) {
        const auto logger = log::get("io");
        for (const std::string& warning : warnings) {
            logger->warn("DICOM: {}", warning);
        }
    }
    volume.setMetadata(std::move(metadata));
    return volume;
}

// ------------------------------------------------------------------------------------------
// Scanning: files, DICOMDIR, grouping.

std::vector<fs::path> listFilesRecursively(const fs::path& folder, std::vector<std::string>& notes)
{
    std::vector<fs::path> files;
    std::error_code error;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied,
                                        error);
    if (error) throw IoError("cannot list the folder " + quoted(folder) + ": " + error.message());
    for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (error) {
            notes.push_back("stopped listing " + quoted(folder) + " early: " + error.message());
            break;
        }
        std::error_code typeError;
        if (it->is_regular_file(typeError)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) ==
                      std::toupper(static_cast<unsigned char>(y));
           });
}

// A ReferencedFileID ("DIR\SUBDIR\FILE") under the DICOMDIR's folder; components are matched
// without regard to case, since media written on other systems often differ in case.
std::optional<fs::path> resolveFileId(const fs::path& base, const std::string& fileId)
{
    fs::path current = base;
    std::size_t start = 0;
    while (start <= fileId.size()) {
        const std::size_t end = std::min(fileId.find('\\', start), fileId.size());
        const std::string component = trim(fileId.substr(start, end - start));
        start = end + 1;
        if (component.empty() || component == "." || component == ".." ||
            component.find('/') != std::string::npos) {
            return std::nullopt;
        }
        std::error_code error;
        if (fs::exists(current / component, error)) {
            current /= component;
            continue;
        }
        std::optional<fs::path> match;
        for (fs::directory_iterator it(current, error), end; !error && it != end;
             it.increment(error)) {
            if (equalsIgnoringCase(it->path().filename().string(), component)) {
                match = it->path();
                break;
            }
        }
        if (!match) return std::nullopt;
        current = *match;
    }
    return current;
}

// The files a DICOMDIR lists, or nullopt when the file is not a DICOMDIR.
std::optional<std::vector<fs::path>> filesOfDicomDir(const fs::path& file,
                                                     std::vector<std::string>& notes)
{
    std::optional<ParsedDicom> parsed;
    try {
        parsed.emplace(parseDicomFile(file, ReadDepth::Header));
    } catch (const IoError&) {
        return std::nullopt;
    }
    DcmSequenceOfItems* records = nullptr;
    if (parsed->dataset().findAndGetSequence(DCM_DirectoryRecordSequence, records).bad() ||
        records == nullptr) {
        return std::nullopt;
    }
    std::vector<fs::path> files;
    std::size_t missing = 0;
    std::string firstMissing;
    for (unsigned long i = 0; i < records->card(); ++i) {
        DcmItem* record = records->getItem(i);
        if (record == nullptr) continue;
        const std::string fileId = getString(*record, DCM_ReferencedFileID);
        if (fileId.empty()) continue;
        if (const std::optional<fs::path> path = resolveFileId(file.parent_path(), fileId)) {
            files.push_back(*path);
        } else {
            if (missing++ == 0) firstMissing = fileId;
        }
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    if (missing > 0) {
        notes.push_back(quoted(file) + " lists " + std::to_string(missing) +
                        " file(s) that do not exist (e.g. " + firstMissing + ")");
    }
    return files;
}

struct ScannedImage {
    fs::path path;
    DicomHeader header;
};

// One stack under construction.
struct ScanStack {
    std::string uid;
    std::uint32_t rows = 0;
    std::uint32_t columns = 0;
    std::optional<std::array<double, 6>> orientation;
    std::vector<const ScannedImage*> images;
    std::set<std::string> instances;
};

DicomSeriesInfo describeStack(const ScanStack& stack, std::size_t index, std::size_t stacksOfUid)
{
    const DicomHeader& first = stack.images.front()->header;
    DicomSeriesInfo info;
    info.seriesInstanceUid = stack.uid;
    info.transferSyntaxUid = first.transferSyntaxUid;
    info.rows = stack.rows;
    info.columns = stack.columns;
    info.orientation = stack.orientation;
    for (const ScannedImage* image : stack.images) {
        info.files.push_back(image->path);
        info.frameCount += image->header.frameCount;
        if (info.summary.note.empty()) {
            if (const auto reason = unsupportedReason(image->header)) info.summary.note = *reason;
        }
    }
    std::sort(info.files.begin(), info.files.end());
    SeriesSummary& s = info.summary;
    s.uid = stacksOfUid > 1 ? stack.uid + "#" + std::to_string(index + 1) : stack.uid;
    s.description = first.seriesDescription.empty() ? stack.images.front()->path.filename().string()
                                                    : first.seriesDescription;
    if (stacksOfUid > 1) {
        s.description += " (stack " + std::to_string(index + 1) + " of " +
                         std::to_string(stacksOfUid) + ", " + std::to_string(stack.columns) + "x" +
                         std::to_string(stack.rows) + ")";
    }
    s.modality = first.modality;
    s.sliceCount = info.frameCount;
    s.dims = glm::uvec3(stack.columns, stack.rows,
                        std::uint32_t(std::min<std::size_t>(info.frameCount, 0xFFFFFFFFu)));
    return info;
}

std::string joinNotes(const std::vector<std::string>& notes, std::size_t limit)
{
    std::string text;
    for (std::size_t i = 0; i < notes.size() && i < limit; ++i) {
        text += (i == 0 ? "" : "; ") + notes[i];
    }
    if (notes.size() > limit) text += "; and " + std::to_string(notes.size() - limit) + " more";
    return text;
}

} // namespace

bool looksLikeDicom(const std::filesystem::path& file)
{
    try {
        ensureDcmtk();
        (void)parseDicomFile(file, ReadDepth::ImageAttributes);
        return true;
    } catch (const Error&) {
        return false;
    }
}

DicomScan scanDicom(const std::filesystem::path& input, LoadMonitor* monitor)
{
    ensureDcmtk();
    DicomScan scan;
    std::error_code error;
    const fs::file_status status = fs::status(input, error);
    if (error || !fs::exists(status)) {
        throw IoError("cannot open " + quoted(input) + ": no such file or folder");
    }
    std::vector<fs::path> files;
    if (fs::is_directory(status)) {
        files = listFilesRecursively(input, scan.notes);
    } else if (fs::is_regular_file(status)) {
        if (auto listed = filesOfDicomDir(input, scan.notes)) {
            files = std::move(*listed);
            if (files.empty()) {
                throw IoError("the DICOMDIR " + quoted(input) + " lists no existing files" +
                              (scan.notes.empty() ? "" : ": " + joinNotes(scan.notes, 3)));
            }
        } else {
            files = {input};
        }
    } else {
        throw IoError("cannot open " + quoted(input) + ": it is neither a file nor a folder");
    }

    std::vector<ScannedImage> images;
    std::size_t notDicom = 0;
    std::string firstNotDicom;
    for (std::size_t i = 0; i < files.size(); ++i) {
        reportProgress(monitor, "scanning files", i, files.size());
        try {
            DicomHeader header = readScanHeader(files[i]);
            if (header.isDicomDir) {
                scan.notes.push_back(quoted(files[i]) +
                                     " skipped: a DICOMDIR index (open it to load what it lists)");
                continue;
            }
            if (!header.isImage) {
                scan.notes.push_back(
                    quoted(files[i]) + " skipped: not an image (" +
                    dcmFindNameOfUID(header.sopClassUid.c_str(), header.sopClassUid.empty()
                                                                     ? "no SOP class"
                                                                     : header.sopClassUid.c_str()) +
                    ")");
                continue;
            }
            images.push_back(ScannedImage{files[i], std::move(header)});
        } catch (const NotDicomError& e) {
            if (notDicom++ == 0) firstNotDicom = e.what();
        } catch (const CancelledError&) {
            throw;
        } catch (const Error& e) {
            scan.notes.push_back(std::string(e.what()) + "; skipped");
        }
    }
    reportProgress(monitor, "scanning files", files.size(), files.size());
    if (notDicom == 1) {
        scan.notes.push_back(firstNotDicom);
    } else if (notDicom > 1) {
        scan.notes.push_back(std::to_string(notDicom) +
                             " files are not DICOM and were skipped "
                             "(e.g. " +
                             firstNotDicom + ")");
    }

    // Group by SeriesInstanceUID, keeping the first-seen order, then split into stacks.
    std::vector<std::string> uidOrder;
    std::map<std::string, std::vector<ScanStack>> stacksByUid;
    for (const ScannedImage& image : images) {
        const DicomHeader& h = image.header;
        auto [it, inserted] = stacksByUid.try_emplace(h.seriesUid);
        if (inserted) uidOrder.push_back(h.seriesUid);
        const std::optional<std::array<double, 6>> orientation = h.frame(0).orientation;
        auto stack = std::find_if(it->second.begin(), it->second.end(), [&](const ScanStack& s) {
            return s.rows == h.rows && s.columns == h.columns &&
                   s.orientation.has_value() == orientation.has_value() &&
                   (!orientation || sameOrientation(*s.orientation, *orientation, 1e-4));
        });
        if (stack == it->second.end()) {
            it->second.push_back(ScanStack{h.seriesUid, h.rows, h.columns, orientation, {}, {}});
            stack = std::prev(it->second.end());
        }
        if (!h.sopInstanceUid.empty() && !stack->instances.insert(h.sopInstanceUid).second) {
            scan.notes.push_back(quoted(image.path) + " skipped: it repeats SOPInstanceUID " +
                                 h.sopInstanceUid);
            continue;
        }
        stack->images.push_back(&image);
    }

    // Series by SeriesNumber (of the UID's first image), then UID; stacks of one UID together.
    struct Ordered {
        std::int32_t seriesNumber;
        std::size_t stackIndex;
        DicomSeriesInfo info;
    };
    std::vector<Ordered> ordered;
    for (const std::string& uid : uidOrder) {
        const std::vector<ScanStack>& stacks = stacksByUid[uid];
        const std::int32_t number = stacks.front().images.front()->header.seriesNumber.value_or(
            std::numeric_limits<std::int32_t>::max());
        for (std::size_t s = 0; s < stacks.size(); ++s) {
            ordered.push_back(Ordered{number, s, describeStack(stacks[s], s, stacks.size())});
        }
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Ordered& a, const Ordered& b) {
        return std::tie(a.seriesNumber, a.info.seriesInstanceUid, a.stackIndex) <
               std::tie(b.seriesNumber, b.info.seriesInstanceUid, b.stackIndex);
    });

    std::optional<std::size_t> best;
    std::uint64_t bestVoxels = 0;
    std::vector<std::string> unloadable;
    for (Ordered& o : ordered) {
        const SeriesSummary& s = o.info.summary;
        const std::uint64_t voxels = std::uint64_t(s.dims.x) * s.dims.y * s.dims.z;
        if (s.note.empty() && (!best || voxels > bestVoxels)) {
            best = scan.series.size();
            bestVoxels = voxels;
        }
        if (!s.note.empty()) {
            unloadable.push_back("series " + (s.description.empty() ? s.uid : s.description) +
                                 ": " + s.note);
        }
        scan.series.push_back(std::move(o.info));
    }
    if (!best) {
        std::vector<std::string> reasons = unloadable;
        reasons.insert(reasons.end(), scan.notes.begin(), scan.notes.end());
        throw IoError("no DICOM image series found in " + quoted(input) +
                      (reasons.empty() ? std::string() : ": " + joinNotes(reasons, 5)));
    }
    scan.defaultSeries = *best;
    return scan;
}

Volume loadDicomSeries(const DicomSeriesInfo& series, LoadMonitor* monitor)
{
    ensureDcmtk();
    if (series.files.empty()) throw InvalidInputError("the DICOM series lists no files");
    std::vector<SourceFile> files;
    files.reserve(series.files.size());
    for (std::size_t i = 0; i < series.files.size(); ++i) {
        reportProgress(monitor, "reading headers", i, series.files.size());
        // Kept for pass 2: the pixel values stay on disk, so this costs header memory only.
        auto parsed =
            std::make_unique<ParsedDicom>(parseDicomFile(series.files[i], ReadDepth::Full));
        DicomHeader header = readHeader(*parsed);
        // Pixel data promised by the header but not in the file is caught before allocating.
        if (header.isImage && header.codec == PixelCodec::Native && !unsupportedReason(header)) {
            FrameDecoder check(*parsed, header);
        }
        files.push_back(SourceFile{series.files[i], std::move(header), std::move(parsed)});
    }
    reportProgress(monitor, "reading headers", series.files.size(), series.files.size());
    return assembleVolume(files, monitor, LoadLimits{});
}

void fuzzDicomBytes(const std::uint8_t* data, std::size_t size)
{
    try {
        ensureDcmtk();
        auto parsed = std::make_unique<ParsedDicom>(parseDicomMemory(data, size, "fuzz input"));
        std::vector<SourceFile> files;
        files.push_back(SourceFile{{}, readHeader(*parsed), std::move(parsed)});
        (void)assembleVolume(files, nullptr,
                             LoadLimits{.maxVoxelBytes = 256ull << 20, .logWarnings = false});
    } catch (const Error&) {
        // Clear errors are the expected outcome of malformed input.
    }
}

} // namespace isoview::io
