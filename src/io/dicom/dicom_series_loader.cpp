#include "io/dicom/dicom_series_loader.h"

#include "core/error.h"
#include "core/log.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/dicom_frame_decoder.h"
#include "io/dicom/dicom_header.h"
#include "io/dicom/dicom_mosaic.h"
#include "io/dicom/dicom_parsing.h"
#include "io/dicom/dicom_pixel_writer.h"
#include "io/dicom/dicom_sniffing.h"
#include "io/dicom/dicom_stack_geometry.h"
#include "io/dicom/dicom_value_mapping.h"
#include "io/volume_size_check.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <utility>

// Overview. Both loading entry points share one path (scanning is dicom_scan.cpp):
//   Pass 1 (headers): every file is parsed with pixel values left on disk (DCMTK loads values
//   larger than DCM_MaxReadLength on first access; dicom_parsing), its image attributes are
//   read into a DicomHeader (dicom_header), and each frame becomes a SliceRecord (position,
//   orientation, spacing, rescale). layoutStack (dicom_stack_geometry) sorts the slices along
//   the normal and derives the geometry; chooseValueMapping (dicom_value_mapping) picks the
//   voxel type. Everything is validated here, before the voxel buffer is allocated.
//   Pass 2 (pixels): file by file, reusing pass 1's parse and releasing it afterwards, each
//   frame is decoded (dicom_frame_decoder: DCMTK for native, RLE, JPEG and JPEG-LS data;
//   jpeg2000_decoder: OpenJPEG) into one frame buffer, and its stored values (BitsStored bits
//   at HighBit, sign-extended) are written into the frame's slot (dicom_pixel_writer).
// The voxel buffer is allocated between the passes, after every check.

namespace isoview::io {
namespace dicom {
namespace {

namespace fs = std::filesystem;

struct SliceRecord {
    std::size_t file = 0;    // index into the stack's files
    std::uint32_t frame = 0; // frame within the file
    std::uint32_t tile = 0;  // tile within a MOSAIC frame
    FrameInfo info;
};

struct SourceFile {
    fs::path path; // empty for memory input
    DicomHeader header;
    std::unique_ptr<ParsedDicom> parsed; // pass 1's parse; read again when absent
    std::vector<std::uint32_t> frames;   // the frames to load (one volume of several); empty: all
};

std::string frameLabel(const std::vector<SourceFile>& files, const SliceRecord& record)
{
    const DicomHeader& h = files[record.file].header;
    if (h.mosaic) return h.name + " tile " + std::to_string(record.tile + 1);
    return h.frameCount > 1 ? h.name + " frame " + std::to_string(record.frame + 1) : h.name;
}

// A MOSAIC's layout, checked; throws InvalidInputError naming the file when it has none.
MosaicLayout requireMosaicLayout(const DicomHeader& h)
{
    if (!h.mosaic->images) {
        throw InvalidInputError(h.name + ": a MOSAIC image without NumberOfImagesInMosaic "
                                         "((0019,100A) or the CSA image header): its slices "
                                         "cannot be found");
    }
    if (h.frameCount != 1) {
        throw InvalidInputError(h.name + ": a MOSAIC image with " + std::to_string(h.frameCount) +
                                " frames; isoview reads single-frame mosaics");
    }
    return mosaicLayout(*h.mosaic->images, h.columns, h.rows, h.name);
}

// A MOSAIC's tiles as slices, each at its own position (dicom_mosaic.h for the geometry).
void appendMosaicTiles(const DicomHeader& h, std::size_t file, std::vector<SliceRecord>& records,
                       std::vector<std::string>& warnings)
{
    const MosaicLayout layout = requireMosaicLayout(h);
    const FrameInfo info = h.frame(0);
    std::vector<glm::dvec3> positions;
    if (info.position && info.orientation && info.pixelSpacing) {
        const std::array<double, 6>& o = *info.orientation;
        glm::dvec3 normal = glm::cross(glm::dvec3(o[0], o[1], o[2]), glm::dvec3(o[3], o[4], o[5]));
        if (h.mosaic->sliceNormal) {
            normal = *h.mosaic->sliceNormal;
        } else {
            warnings.push_back(h.name + ": the MOSAIC's CSA header gives no SliceNormalVector: "
                                        "its slices are taken to ascend along row x column");
        }
        double spacing = 1.0;
        if (info.spacingBetweenSlices && *info.spacingBetweenSlices > 0.0) {
            spacing = *info.spacingBetweenSlices;
        } else if (info.sliceThickness && *info.sliceThickness > 0.0) {
            spacing = *info.sliceThickness;
            warnings.push_back(h.name +
                               ": MOSAIC slice spacing taken from SliceThickness: " + mm(spacing));
        } else {
            warnings.push_back(h.name + ": MOSAIC slice spacing unknown: assuming 1 mm");
        }
        positions = mosaicTilePositions(layout, h.columns, h.rows, *info.position, o,
                                        *info.pixelSpacing, normal, spacing);
    }
    for (std::uint32_t tile = 0; tile < layout.images; ++tile) {
        FrameInfo tileInfo = info;
        tileInfo.position =
            positions.empty() ? std::nullopt : std::optional<glm::dvec3>(positions[tile]);
        records.push_back(SliceRecord{file, 0, tile, tileInfo});
    }
}

// The stack geometry's view of the slices: where each lies and which image it is.
std::vector<StackSlice> stackSlices(const std::vector<SliceRecord>& records,
                                    const std::vector<SourceFile>& files)
{
    std::vector<StackSlice> slices;
    slices.reserve(records.size());
    for (const SliceRecord& r : records) {
        const DicomHeader& h = files[r.file].header;
        slices.push_back(StackSlice{.position = r.info.position,
                                    .orientation = r.info.orientation,
                                    .pixelSpacing = r.info.pixelSpacing,
                                    .sliceThickness = r.info.sliceThickness,
                                    .spacingBetweenSlices = r.info.spacingBetweenSlices,
                                    .instanceNumber = h.instanceNumber,
                                    .sopInstanceUid = h.sopInstanceUid,
                                    .fileIndex = r.file,
                                    .file = files[r.file].path,
                                    .frame = h.mosaic ? r.tile : r.frame,
                                    .label = frameLabel(files, r)});
    }
    return slices;
}

// The value mapping's view of the kept slices, in stack order.
std::vector<SliceValues> sliceValues(const std::vector<SliceRecord>& records,
                                     const std::vector<std::size_t>& order,
                                     const std::vector<SourceFile>& files)
{
    std::vector<SliceValues> values;
    values.reserve(order.size());
    for (const std::size_t index : order) {
        const SliceRecord& r = records[index];
        const DicomHeader& h = files[r.file].header;
        values.push_back(SliceValues{.bitsStored = h.bitsStored,
                                     .pixelSigned = h.pixelSigned,
                                     .slope = r.info.slope,
                                     .intercept = r.info.intercept,
                                     .slopeText = r.info.slopeText,
                                     .interceptText = r.info.interceptText,
                                     .slopeIsDoseGridScaling = h.slopeIsDoseGridScaling,
                                     .paddingValue = h.paddingValue,
                                     .paddingRangeLimit = h.paddingRangeLimit,
                                     .label = frameLabel(files, r)});
    }
    return values;
}

// ------------------------------------------------------------------------------------------
// Assembly: the shared path of loadDicomSeries and fuzzDicomBytes.

struct LoadLimits {
    std::optional<std::uint64_t> maxVoxelBytes; // beyond the machine's memory
    bool logWarnings = true;                    // off for fuzzing, where they are noise
    bool strict = false; // an unreadable slice is an error instead of being left out
};

// A file or frame that could not be read or decoded, and why (the error's message).
struct UnreadableSlice {
    std::string reason;
};

// "2 of 28 slices could not be read and were left out: <reasons>".
std::string describeUnreadable(const std::vector<UnreadableSlice>& unreadable, std::size_t total)
{
    std::string text = std::to_string(unreadable.size()) + " of " + std::to_string(total) +
                       " slices could not be read and were left out (the stack keeps the "
                       "positions of the others, so where they lay inside it there is a gap): ";
    constexpr std::size_t kListed = 10;
    for (std::size_t i = 0; i < unreadable.size() && i < kListed; ++i) {
        text += (i == 0 ? "" : "; ") + unreadable[i].reason;
    }
    if (unreadable.size() > kListed) {
        text += "; and " + std::to_string(unreadable.size() - kListed) + " more";
    }
    return text;
}

std::string describeNoneReadable(const std::vector<UnreadableSlice>& unreadable)
{
    return "none of the " + std::to_string(unreadable.size()) +
           " slices of the DICOM series can be read: " + unreadable.front().reason +
           (unreadable.size() > 1
                ? "; and " + std::to_string(unreadable.size() - 1) + " more like it"
                : std::string());
}

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
    // A NumberOfFrames the file cannot hold never gets here: readHeader checks it as a claim
    // (volume_size_check.h) before anything is made per frame.
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
                              const std::vector<SliceRecord>& records,
                              const std::vector<std::size_t>& order)
{
    const DicomHeader& h = files[records[order.front()].file].header;
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
    const FrameInfo& info = records[order.front()].info;
    m.windowCenter = info.windowCenter ? info.windowCenter : h.common.windowCenter;
    m.windowWidth = info.windowWidth ? info.windowWidth : h.common.windowWidth;
    return m;
}

Volume assembleVolume(std::vector<SourceFile>& files, LoadMonitor* monitor,
                      const LoadLimits& limits, std::vector<UnreadableSlice> unreadable = {})
{
    std::vector<std::string> warnings;
    for (const SourceFile& file : files) {
        requireLoadable(file);
        warnings.insert(warnings.end(), file.header.warnings.begin(), file.header.warnings.end());
    }
    requireOneImageSize(files);

    const DicomHeader& firstHeader = files.front().header;
    std::vector<SliceRecord> records;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const DicomHeader& h = files[f].header;
        if (h.mosaic.has_value() != firstHeader.mosaic.has_value()) {
            throw InvalidInputError("the series mixes MOSAIC and plain images (" +
                                    firstHeader.name + " and " + h.name + ")");
        }
        if (h.mosaic) {
            appendMosaicTiles(h, f, records, warnings);
            continue;
        }
        const std::vector<std::uint32_t>& wanted = files[f].frames;
        for (std::uint32_t frame = 0; frame < h.frameCount; ++frame) {
            if (wanted.empty() || std::binary_search(wanted.begin(), wanted.end(), frame)) {
                records.push_back(SliceRecord{f, frame, 0, h.frame(frame)});
            }
        }
    }
    if (records.empty()) {
        throw InvalidInputError("the DICOM series " + firstHeader.name +
                                " lists none of its files' frames (DicomSeriesInfo::frames)");
    }
    if (firstHeader.frameCount > 1 && firstHeader.perFrame.empty() &&
        firstHeader.gridFrameOffsets.empty() && files.size() == 1) {
        warnings.push_back(firstHeader.name + " holds " + std::to_string(firstHeader.frameCount) +
                           " frames without per-frame positions (no functional groups): they are "
                           "stacked in frame order");
    }

    const std::size_t unreadableBefore = unreadable.size();
    std::vector<std::string> layoutWarnings;
    StackLayout layout = layoutStack(stackSlices(records, files), layoutWarnings);
    std::vector<std::string> valueWarnings;
    const ValueMapping values =
        chooseValueMapping(sliceValues(records, layout.order, files), valueWarnings);

    // Validate the size before the allocation.
    std::optional<MosaicLayout> mosaic;
    if (firstHeader.mosaic) mosaic = requireMosaicLayout(firstHeader);
    glm::uvec3 dims(mosaic ? mosaic->tileColumns : firstHeader.columns,
                    mosaic ? mosaic->tileRows : firstHeader.rows,
                    std::uint32_t(layout.order.size()));
    const std::string subject = "the DICOM series " + firstHeader.name;
    const std::optional<std::uint64_t> bytes = detail::voxelByteCount(dims, values.type);
    if (!bytes) {
        throw InvalidInputError(subject + " (" + detail::dimsText(dims, values.type) +
                                ") is too large: its byte count overflows");
    }
    detail::requireLoadable(monitor, subject, dims, values.type, *bytes);
    if (limits.maxVoxelBytes && *bytes > *limits.maxVoxelBytes) {
        throw InvalidInputError(subject + " (" + detail::dimsText(dims, values.type) +
                                ") exceeds the limit of " +
                                detail::humanBytes(*limits.maxVoxelBytes));
    }
    std::vector<std::byte> voxels(*bytes);

    // Where each (file, frame, tile) goes, at [frame * tiles + tile]; frames of dropped
    // duplicates and of other volumes go nowhere.
    constexpr std::size_t kNoSlot = std::numeric_limits<std::size_t>::max();
    const std::uint32_t tiles = mosaic ? mosaic->images : 1;
    std::vector<std::vector<std::size_t>> slotOf(files.size());
    for (std::size_t f = 0; f < files.size(); ++f) {
        slotOf[f].assign(std::size_t(files[f].header.frameCount) * tiles, kNoSlot);
    }
    for (std::size_t slot = 0; slot < layout.order.size(); ++slot) {
        const SliceRecord& r = records[layout.order[slot]];
        slotOf[r.file][std::size_t(r.frame) * tiles + r.tile] = slot;
    }
    std::vector<std::uint8_t> tileBuffer(
        mosaic ? std::size_t(dims.x) * dims.y * (firstHeader.bitsAllocated / 8) : 0);

    const std::size_t sliceVoxels = std::size_t(dims.x) * dims.y;
    const std::size_t sliceBytes = sliceVoxels * scalarSize(values.type);
    const std::uint64_t total = layout.order.size();
    std::uint64_t done = 0;
    std::vector<SliceWriteCounts> paddingInSlot(layout.order.size());
    std::vector<char> slotUnreadable(layout.order.size(), 0);
    reportProgress(monitor, "decoding slices", done, total);
    for (std::size_t f = 0; f < files.size(); ++f) {
        SourceFile& file = files[f];
        if (std::all_of(slotOf[f].begin(), slotOf[f].end(),
                        [](std::size_t slot) { return slot == kNoSlot; })) {
            continue; // a copy of images kept from another file
        }
        std::uint32_t frame = 0;
        try {
            std::unique_ptr<ParsedDicom> parsed = std::move(file.parsed);
            if (!parsed) {
                parsed = std::make_unique<ParsedDicom>(parseDicomFile(file.path, ReadDepth::Full));
            }
            FrameDecoder decoder(*parsed, file.header);
            const SampleLayout sampleLayout{file.header.bitsAllocated, file.header.bitsStored,
                                            file.header.highBit, file.header.pixelSigned};
            for (; frame < file.header.frameCount; ++frame) {
                // Frames are decoded in order even when one is not kept: sequential decoding
                // is what lets DCMTK find the fragments of each frame.
                const std::span<const std::uint8_t> raw = decoder.decode(frame);
                for (std::uint32_t tile = 0; tile < tiles; ++tile) {
                    const std::size_t slot = slotOf[f][std::size_t(frame) * tiles + tile];
                    if (slot == kNoSlot) continue;
                    std::span<const std::uint8_t> slice = raw;
                    if (mosaic) {
                        extractTile(raw, *mosaic, file.header.columns,
                                    file.header.bitsAllocated / 8, tile, tileBuffer);
                        slice = tileBuffer;
                    }
                    paddingInSlot[slot] =
                        writeSlice(slice, sampleLayout, values.slices[slot], sliceVoxels,
                                   voxels.data() + slot * sliceBytes);
                    reportProgress(monitor, "decoding slices", ++done, total);
                }
            }
        } catch (const IoError& e) {
            // Truncated or corrupt pixel data, or a file that no longer parses: this frame and
            // the file's later ones (sequential decoding cannot skip a frame) are left out.
            if (limits.strict) throw;
            std::size_t lost = 0;
            for (std::size_t later = std::size_t(frame) * tiles; later < slotOf[f].size();
                 ++later) {
                if (slotOf[f][later] == kNoSlot) continue;
                slotUnreadable[slotOf[f][later]] = 1;
                ++lost;
            }
            unreadable.push_back(
                {std::string(e.what()) +
                 (lost > 1 ? " (and the " + std::to_string(lost - 1) + " frames after it)"
                           : std::string())});
        }
    }

    std::vector<std::size_t> keptRecords = layout.order;
    if (unreadable.size() > unreadableBefore) {
        // Lay out the slices that were read, by their own positions: what was lost becomes a
        // gap in the geometry (sliceOrigins), never a silent squeeze, and the kept slices move
        // down over the lost ones.
        std::vector<SliceRecord> survivors;
        std::vector<std::size_t> oldSlotOfSurvivor;
        for (std::size_t slot = 0; slot < layout.order.size(); ++slot) {
            if (slotUnreadable[slot] != 0) continue;
            survivors.push_back(records[layout.order[slot]]);
            oldSlotOfSurvivor.push_back(slot);
        }
        if (survivors.empty()) throw IoError(describeNoneReadable(unreadable));
        layoutWarnings.clear();
        StackLayout kept = layoutStack(stackSlices(survivors, files), layoutWarnings);
        std::vector<std::size_t> oldSlots;
        keptRecords.clear();
        for (const std::size_t survivor : kept.order) {
            oldSlots.push_back(oldSlotOfSurvivor[survivor]);
            keptRecords.push_back(layout.order[oldSlotOfSurvivor[survivor]]);
        }
        std::vector<SliceWriteCounts> keptPadding;
        // Old slots in increasing order lie at or after their new ones: moved in place.
        std::vector<std::byte> moved;
        const bool inPlace = std::is_sorted(oldSlots.begin(), oldSlots.end());
        if (!inPlace) moved.resize(oldSlots.size() * sliceBytes);
        std::byte* target = inPlace ? voxels.data() : moved.data();
        for (std::size_t slot = 0; slot < oldSlots.size(); ++slot) {
            std::memmove(target + slot * sliceBytes, voxels.data() + oldSlots[slot] * sliceBytes,
                         sliceBytes);
            keptPadding.push_back(paddingInSlot[oldSlots[slot]]);
        }
        if (inPlace) {
            voxels.resize(oldSlots.size() * sliceBytes);
            voxels.shrink_to_fit();
        } else {
            voxels = std::move(moved);
        }
        paddingInSlot = std::move(keptPadding);
        layout.geometry = kept.geometry;
        dims.z = std::uint32_t(oldSlots.size());
    }
    if (!unreadable.empty()) {
        warnings.push_back(describeUnreadable(unreadable, records.size() + unreadableBefore));
    }
    warnings.insert(warnings.end(), layoutWarnings.begin(), layoutWarnings.end());
    warnings.insert(warnings.end(), valueWarnings.begin(), valueWarnings.end());
    std::size_t paddingVoxels = 0;
    std::size_t movedOffPadding = 0;
    for (const SliceWriteCounts& counts : paddingInSlot) {
        paddingVoxels += counts.padding;
        movedOffPadding += counts.movedOffPadding;
    }
    if (paddingVoxels > 0) {
        const SliceValues firstValues = sliceValues(records, {keptRecords.front()}, files).front();
        warnings.push_back(std::to_string(paddingVoxels) + " voxels are padding (" +
                           describePadding(firstValues) +
                           "): no data, so they lie outside every surface and are left out of "
                           "the value range, the histogram and the suggested isovalue");
    }
    if (movedOffPadding > 0) {
        warnings.push_back(fmt::format(
            "{} voxels held the stored value {:g}, which now marks padding: they were read as "
            "{:g}",
            movedOffPadding, *values.paddingValue, *values.paddingValue + 1.0));
    }

    Volume volume(dims, values.type, std::move(voxels), layout.geometry, values.rescale);
    VolumeMetadata metadata = describeVolume(files, records, keptRecords);
    metadata.warnings = warnings;
    if (paddingVoxels > 0) metadata.paddingValue = values.paddingValue;
    if (limits.logWarnings) {
        const auto logger = log::get("io");
        for (const std::string& warning : warnings) {
            logger->warn("DICOM: {}", warning);
        }
    }
    volume.setMetadata(std::move(metadata));
    return volume;
}

} // namespace
} // namespace dicom

bool looksLikeDicom(const std::filesystem::path& file)
{
    // Outside the try: without DCMTK's dictionary no file is readable as DICOM, and the user
    // must hear that rather than "not DICOM" (a bundle carried without it, packaging/gpu-check.sh).
    dicom::ensureDcmtk();
    try {
        (void)dicom::parseDicomFile(file, dicom::ReadDepth::ImageAttributes);
        return true;
    } catch (const dicom::DamagedDicomError&) {
        return true; // DICOM, damaged: the loader says where, rather than "not DICOM"
    } catch (const Error&) {
        return false;
    }
}

Volume loadDicomSeries(const DicomSeriesInfo& series, LoadMonitor* monitor,
                       const DicomLoadOptions& options)
{
    using namespace dicom;
    ensureDcmtk();
    if (series.files.empty()) throw InvalidInputError("the DICOM series lists no files");
    std::vector<SourceFile> files;
    std::vector<UnreadableSlice> unreadable;
    files.reserve(series.files.size());
    for (std::size_t i = 0; i < series.files.size(); ++i) {
        reportProgress(monitor, "reading headers", i, series.files.size());
        try {
            // Kept for pass 2: the pixel values stay on disk, so this costs header memory only.
            auto parsed =
                std::make_unique<ParsedDicom>(parseDicomFile(series.files[i], ReadDepth::Full));
            DicomHeader header = readHeader(*parsed);
            // Pixel data promised by the header but not in the file is caught before
            // allocating.
            if (header.isImage && header.codec == PixelCodec::Native &&
                !unsupportedReason(header)) {
                FrameDecoder check(*parsed, header);
            }
            std::vector<std::uint32_t> frames;
            if (i < series.frames.size()) frames = series.frames[i];
            std::sort(frames.begin(), frames.end());
            files.push_back(SourceFile{series.files[i], std::move(header), std::move(parsed),
                                       std::move(frames)});
        } catch (const IoError& e) {
            // Damaged or truncated since the scan, or cut short in its pixel data.
            if (options.strict) throw;
            unreadable.push_back({e.what()});
        }
    }
    reportProgress(monitor, "reading headers", series.files.size(), series.files.size());
    if (files.empty()) throw IoError(describeNoneReadable(unreadable));
    Volume volume = assembleVolume(
        files, monitor,
        LoadLimits{.maxVoxelBytes = std::nullopt, .logWarnings = true, .strict = options.strict},
        std::move(unreadable));
    // Which volume of several this is goes with the series description (the window title).
    if (!series.summary.volumeLabel.empty()) {
        VolumeMetadata metadata = volume.metadata();
        metadata.seriesDescription +=
            (metadata.seriesDescription.empty() ? "" : ", ") + series.summary.volumeLabel;
        volume.setMetadata(std::move(metadata));
    }
    return volume;
}

void fuzzDicomBytes(const std::uint8_t* data, std::size_t size)
{
    using namespace dicom;
    try {
        ensureDcmtk();
        auto parsed = std::make_unique<ParsedDicom>(parseDicomMemory(data, size, "fuzz input"));
        std::vector<SourceFile> files;
        files.push_back(SourceFile{{}, readHeader(*parsed), std::move(parsed), {}});
        (void)assembleVolume(files, nullptr,
                             LoadLimits{.maxVoxelBytes = 256ull << 20, .logWarnings = false});
    } catch (const Error&) {
        // Clear errors are the expected outcome of malformed input.
    }
}

} // namespace isoview::io
