#include "io/dicom/dicom_header.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/dicom_sniffing.h"
#include "io/dicom/siemens_csa_header.h"
#include "io/volume_size_check.h"

#include <dcmtk/dcmdata/dccodec.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

namespace isoview::io::dicom {
namespace {

namespace fs = std::filesystem;

std::optional<double> getDouble(DcmItem& item, const DcmTagKey& tag, unsigned long index = 0)
{
    Float64 value = 0.0;
    if (item.findAndGetFloat64(tag, value, index).good() && std::isfinite(value)) return value;
    return std::nullopt;
}

// A rescale value: nothing when absent or empty, NaN when its text is not a number, and
// non-finite values kept as they are, so that the value mapping can refuse them by name
// instead of taking them as 1 (text: the value as stored).
std::optional<double> getRescaleValue(DcmItem& item, const DcmTagKey& tag, std::string& text)
{
    DcmElement* element = nullptr;
    if (item.findAndGetElement(tag, element).bad() || element == nullptr) return std::nullopt;
    OFString stored;
    if (element->getOFString(stored, 0).bad()) stored.clear();
    text = trim(stored.c_str());
    if (text.empty()) return std::nullopt;
    Float64 value = 0.0;
    if (element->getFloat64(value, 0).bad()) return std::numeric_limits<double>::quiet_NaN();
    return value;
}

void readRescale(DcmItem& item, FrameInfo& info)
{
    info.slope = getRescaleValue(item, DCM_RescaleSlope, info.slopeText);
    info.intercept = getRescaleValue(item, DCM_RescaleIntercept, info.interceptText);
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

// A US-or-SS attribute in the pixels' own representation: the 16 bits as stored, read as
// signed when PixelRepresentation is 1 (implicit VR files cannot say which VR they meant).
std::optional<std::int64_t> getPaddingAttribute(DcmItem& item, const DcmTagKey& tag,
                                                bool pixelSigned)
{
    Uint16 bits = 0;
    DcmElement* element = nullptr;
    if (item.findAndGetElement(tag, element).bad() || element == nullptr) return std::nullopt;
    if (element->getVR() == EVR_SS) {
        Sint16 value = 0;
        if (element->getSint16(value).bad()) return std::nullopt;
        bits = Uint16(value);
    } else if (element->getUint16(bits).bad()) {
        return std::nullopt;
    }
    return pixelSigned ? std::int64_t(std::int16_t(bits)) : std::int64_t(bits);
}

// The image pixel attributes must have their VR: one that DCMTK read with an unknown VR
// (corrupted header bytes; DCMTK then guesses a length and reads on) cannot be taken as a
// number, and reporting the image as "not an image" would send a person the wrong way.
void requireReadableImageAttributes(DcmItem& item, const std::string& name)
{
    const DcmTagKey tags[] = {DCM_SamplesPerPixel,    DCM_Rows,       DCM_Columns,
                              DCM_BitsAllocated,      DCM_BitsStored, DCM_HighBit,
                              DCM_PixelRepresentation};
    for (const DcmTagKey& key : tags) {
        DcmElement* element = nullptr;
        if (item.findAndGetElement(key, element).bad() || element == nullptr) continue;
        const DcmEVR vr = element->getTag().getEVR();
        if (vr == EVR_UNKNOWN || vr == EVR_UNKNOWN2B || vr == EVR_UN) {
            DcmTag tag(key);
            throw DamagedDicomError(name + " is DICOM but damaged: element " +
                                    tag.toString().c_str() + " " + tag.getTagName() +
                                    " has an invalid value representation (the header bytes "
                                    "are corrupt), so its " +
                                    std::to_string(element->getLength()) +
                                    "-byte value cannot be read");
        }
    }
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
    if (more.slope) {
        info.slope = more.slope;
        info.slopeText = more.slopeText;
    }
    if (more.intercept) {
        info.intercept = more.intercept;
        info.interceptText = more.interceptText;
    }
    take(info.windowCenter, more.windowCenter);
    take(info.windowWidth, more.windowWidth);
    take(info.temporalPositionIndex, more.temporalPositionIndex);
    if (!more.dimensionIndexValues.empty()) info.dimensionIndexValues = more.dimensionIndexValues;
    if (!more.imageType.empty()) info.imageType = more.imageType;
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
    readRescale(item, info);
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
        readRescale(*item, info);
    }
    if (DcmItem* item = nested(DCM_FrameVOILUTSequence)) {
        info.windowCenter = getDouble(*item, DCM_WindowCenter);
        info.windowWidth = getDouble(*item, DCM_WindowWidth);
    }
    if (DcmItem* item = nested(DCM_FrameContentSequence)) {
        Uint32 temporal = 0; // UL: findAndGetSint32 refuses it
        if (item->findAndGetUint32(DCM_TemporalPositionIndex, temporal).good()) {
            info.temporalPositionIndex = std::int32_t(std::min<Uint32>(temporal, 0x7FFFFFFF));
        }
        for (unsigned long i = 0; i < 16; ++i) {
            Uint32 value = 0;
            if (item->findAndGetUint32(DCM_DimensionIndexValues, value, i).bad()) break;
            info.dimensionIndexValues.push_back(std::int32_t(std::min<Uint32>(value, 0x7FFFFFFF)));
        }
    }
    for (const DcmTagKey& sequence : {DCM_MRImageFrameTypeSequence, DCM_CTImageFrameTypeSequence}) {
        if (DcmItem* item = nested(sequence)) info.imageType = getString(*item, DCM_FrameType);
    }
    return info;
}

// The element at `offset` of the private block that `creator` reserved in `group`.
std::optional<DcmTagKey> privateTag(DcmItem& item, Uint16 group, const std::string& creator,
                                    Uint16 offset)
{
    for (Uint16 block = 0x10; block <= 0xFF; ++block) {
        if (getString(item, DcmTagKey(group, block)) == creator) {
            return DcmTagKey(group, Uint16((block << 8) | offset));
        }
    }
    return std::nullopt;
}

// A private US value, whether DCMTK knew its VR (explicit VR) or read two raw bytes (UN).
std::optional<std::uint32_t> privateUnsigned16(DcmItem& item, const DcmTagKey& tag)
{
    if (const auto value = getUnsigned16(item, tag)) return *value;
    const Uint8* bytes = nullptr;
    unsigned long count = 0;
    if (item.findAndGetUint8Array(tag, bytes, &count).good() && bytes != nullptr && count == 2) {
        return le16(bytes);
    }
    return std::nullopt;
}

// MOSAIC: the image count from (0019,xx0A), else the CSA image header, and the CSA's slice
// normal. A damaged CSA header is a warning; the loader says what is missing, if anything.
MosaicInfo readMosaicInfo(DcmItem& ds, const std::string& name, std::vector<std::string>& warnings)
{
    MosaicInfo mosaic;
    if (const auto tag = privateTag(ds, 0x0019, "SIEMENS MR HEADER", 0x0A)) {
        mosaic.images = privateUnsigned16(ds, *tag);
    }
    const auto csaTag = privateTag(ds, 0x0029, "SIEMENS CSA HEADER", 0x10);
    const Uint8* bytes = nullptr;
    unsigned long count = 0;
    if (!csaTag || ds.findAndGetUint8Array(*csaTag, bytes, &count).bad() || bytes == nullptr) {
        return mosaic;
    }
    try {
        const CsaHeader csa = parseCsaHeader(
            std::span(bytes, count), name + " CSA image header " + csaTag->toString().c_str());
        if (!mosaic.images) {
            if (const auto n = csa.number("NumberOfImagesInMosaic"); n && *n >= 0 && *n < 65536) {
                mosaic.images = std::uint32_t(*n);
            }
        }
        const auto x = csa.number("SliceNormalVector", 0);
        const auto y = csa.number("SliceNormalVector", 1);
        const auto z = csa.number("SliceNormalVector", 2);
        if (x && y && z && glm::length(glm::dvec3(*x, *y, *z)) > 0.5) {
            mosaic.sliceNormal = glm::dvec3(*x, *y, *z);
        }
    } catch (const InvalidInputError& e) {
        warnings.push_back(std::string(e.what()) + "; it is ignored");
    }
    return mosaic;
}

bool hasImageTypeValue(const std::string& imageType, const std::string& value)
{
    std::size_t start = 0;
    while (start <= imageType.size()) {
        const std::size_t end = std::min(imageType.find('\\', start), imageType.size());
        if (trim(imageType.substr(start, end - start)) == value) return true;
        start = end + 1;
    }
    return false;
}

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

glm::dvec3 sliceNormal(const std::array<double, 6>& o)
{
    return glm::cross(glm::dvec3(o[0], o[1], o[2]), glm::dvec3(o[3], o[4], o[5]));
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

} // namespace

std::string getString(DcmItem& item, const DcmTagKey& tag)
{
    OFString value;
    if (item.findAndGetOFStringArray(tag, value).good()) return trim(value.c_str());
    return {};
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

namespace {

// NumberOfFrames (IS, up to 2^31 - 1 by the standard; read as text, so a larger or negative
// value is named as written, never wrapped), checked as a claim against the file before
// anything is made per frame: every frame must start inside the file, taking its bytes when
// stored as is and at least an item header (8 bytes) when encapsulated.
std::uint32_t readFrameCount(DcmItem& ds, const DicomHeader& h)
{
    if (!ds.tagExists(DCM_NumberOfFrames)) return 1;
    const std::string text = getString(ds, DCM_NumberOfFrames);
    std::uint64_t frames = 0;
    const char* end = text.data() + text.size();
    const char* start = text.data() + (text.starts_with('+') ? 1 : 0);
    const auto parsed = std::from_chars(start, end, frames);
    if (parsed.ec != std::errc() || parsed.ptr != end) {
        // Some writers use DS where IS belongs.
        const std::optional<std::int32_t> whole = getInteger(ds, DCM_NumberOfFrames);
        if (!whole) return 1; // unreadable: as absent
        if (*whole < 1) {
            throw InvalidInputError(h.name + ": NumberOfFrames is " + detail::printable(text) +
                                    "; it must be at least 1");
        }
        frames = std::uint64_t(*whole);
    }
    if (frames < 1 || frames > std::numeric_limits<std::int32_t>::max()) {
        throw InvalidInputError(h.name + ": NumberOfFrames is " + detail::printable(text) +
                                "; it must be 1 to 2147483647");
    }
    const std::uint64_t perFrame = frameBytes(h);
    const bool encapsulated = h.codec != PixelCodec::Native;
    detail::itemsInFile(detail::HeaderClaim{.subject = h.name,
                                            .itemName = "frame",
                                            .itemText = std::to_string(h.columns) + "x" +
                                                        std::to_string(h.rows) + " at " +
                                                        std::to_string(h.bitsAllocated) + " bits" +
                                                        (encapsulated ? ", compressed" : ""),
                                            .count = frames,
                                            .itemBytes = perFrame,
                                            .fileBytes = h.byteSize,
                                            .minStoredItemBytes = encapsulated ? 8 : perFrame},
                        detail::ClaimShortfall::Refuse);
    return std::uint32_t(frames);
}

} // namespace

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
    h.acquisitionNumber = getInteger(ds, DCM_AcquisitionNumber);
    h.echoNumber = getInteger(ds, DCM_EchoNumbers);

    requireReadableImageAttributes(ds, parsed.name);
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

    h.paddingValue = getPaddingAttribute(ds, DCM_PixelPaddingValue, h.pixelSigned);
    if (h.paddingValue) {
        h.paddingRangeLimit = getPaddingAttribute(ds, DCM_PixelPaddingRangeLimit, h.pixelSigned);
    }

    h.frameCount = readFrameCount(ds, h);
    h.common = readImageLevelInfo(ds);
    h.common.imageType = getString(ds, DCM_ImageType);
    if (hasImageTypeValue(h.common.imageType, "MOSAIC")) {
        h.mosaic = readMosaicInfo(ds, parsed.name, h.warnings);
    }
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
        if (!h.common.slope) {
            h.common.slope = getRescaleValue(ds, DCM_DoseGridScaling, h.common.slopeText);
            h.slopeIsDoseGridScaling = h.common.slope.has_value();
        }
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
    // A MOSAIC without (0019,xx0A) keeps its image count in the CSA header, group 0029.
    if (header.frameCount > 1 || !header.common.position || header.modality == "RTDOSE" ||
        (header.mosaic && !header.mosaic->images)) {
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

std::string describeTruncatedPixelData(const DicomHeader& h, std::uint64_t valueOffset,
                                       std::uint64_t expected, std::uint64_t actual)
{
    const std::uint64_t perFrame = std::max<std::uint64_t>(frameBytes(h), 1);
    const std::uint64_t firstIncomplete = std::min<std::uint64_t>(actual / perFrame, h.frameCount);
    const std::string frames = firstIncomplete + 1 >= h.frameCount
                                   ? "frame " + std::to_string(h.frameCount) + " of " +
                                         std::to_string(h.frameCount) + " is incomplete"
                                   : "frames " + std::to_string(firstIncomplete + 1) + " to " +
                                         std::to_string(h.frameCount) + " of " +
                                         std::to_string(h.frameCount) + " are incomplete";
    return h.name + " is truncated at byte " + std::to_string(valueOffset + actual) +
           ": its pixel data (from byte " + std::to_string(valueOffset) + ") should hold " +
           std::to_string(h.frameCount) + " frame(s) of " + std::to_string(h.columns) + "x" +
           std::to_string(h.rows) + " at " + std::to_string(h.bitsAllocated) + " bits, expected " +
           std::to_string(expected) + " bytes, the file holds " + std::to_string(actual) + "; " +
           frames;
}

std::string describeFailedFullRead(const fs::path& path, const OFCondition& status,
                                   const std::string& otherwise)
{
    try {
        DicomHeader header = readHeader(parseDicomFile(path, ReadDepth::Header));
        if (!header.isImage || header.bitsAllocated == 0) return otherwise;
        const std::uint64_t expected = expectedPixelBytes(header);
        const bool encapsulated = header.codec != PixelCodec::Native;
        const std::vector<std::uint8_t> bytes = readFileBytes(path, header.byteSize);
        const std::optional<PixelDataLocation> where =
            locatePixelData(bytes, expected, encapsulated);
        if (!where) {
            return quoted(path) + ": the pixel data is truncated or damaged (expected " +
                   std::to_string(expected) + " bytes); " + otherwise;
        }
        const std::uint64_t actual =
            bytes.size() > where->valueOffset ? bytes.size() - where->valueOffset : 0;
        if (encapsulated) {
            return quoted(path) + " is truncated at byte " + std::to_string(bytes.size()) +
                   ": the compressed pixel data (from byte " + std::to_string(where->valueOffset) +
                   ") ends " + std::to_string(actual) + " bytes into it (" + status.text() + ")";
        }
        header.name = quoted(path);
        return describeTruncatedPixelData(header, where->valueOffset, where->declaredLength,
                                          actual);
    } catch (const Error&) {
        return otherwise;
    }
}

} // namespace isoview::io::dicom
