#include "io/dicom/dicom_scan.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/dicom_header.h"
#include "io/dicom/dicom_mosaic.h"
#include "io/dicom/dicom_sniffing.h"
#include "io/dicom/dicom_stack_geometry.h"
#include "io/dicom/dicom_volume_grouping.h"
#include "io/dicom/dicomdir_reader.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace isoview::io {
namespace dicom {
namespace {

namespace fs = std::filesystem;

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

// One image of a stack: a frame of a file (a MOSAIC file is one image of many slices).
struct StackImage {
    const ScannedImage* image = nullptr;
    std::uint32_t frame = 0;
};

// The images of a stack, as the volume grouping sees them.
std::vector<StackImage> imagesOf(const ScanStack& stack, std::vector<VolumeImage>& described)
{
    std::vector<StackImage> images;
    for (const ScannedImage* scanned : stack.images) {
        const DicomHeader& h = scanned->header;
        const std::uint32_t frames = h.mosaic ? 1 : h.frameCount;
        for (std::uint32_t frame = 0; frame < frames; ++frame) {
            const FrameInfo info = h.frame(frame);
            images.push_back(StackImage{scanned, frame});
            described.push_back(VolumeImage{.position = info.position,
                                            .sopInstanceUid = h.sopInstanceUid,
                                            .frame = frame,
                                            .file = scanned->path.string(),
                                            .instanceNumber = h.instanceNumber,
                                            .temporalPositionIndex = info.temporalPositionIndex,
                                            .acquisitionNumber = h.acquisitionNumber,
                                            .echoNumber = h.echoNumber,
                                            .imageType = info.imageType,
                                            .dimensionIndexValues = info.dimensionIndexValues,
                                            .slope = info.slope,
                                            .intercept = info.intercept});
        }
    }
    return images;
}

// A MOSAIC's slices: tile size and count, or why they cannot be had.
std::optional<MosaicLayout> mosaicOf(const DicomHeader& h, std::string& note)
{
    if (!h.mosaic) return std::nullopt;
    if (!h.mosaic->images) {
        note = "a MOSAIC image without NumberOfImagesInMosaic ((0019,100A) or the CSA header)";
        return std::nullopt;
    }
    try {
        return mosaicLayout(*h.mosaic->images, h.columns, h.rows, h.name);
    } catch (const InvalidInputError& e) {
        note = e.what();
        return std::nullopt;
    }
}

// One entry of the series list: one volume of one stack.
DicomSeriesInfo describeVolume(const ScanStack& stack, const std::vector<StackImage>& members,
                               const std::string& volumeLabel, std::size_t index,
                               std::size_t stacksOfUid)
{
    const DicomHeader& first = members.front().image->header;
    DicomSeriesInfo info;
    info.seriesInstanceUid = stack.uid;
    info.transferSyntaxUid = first.transferSyntaxUid;
    info.rows = stack.rows;
    info.columns = stack.columns;
    info.orientation = stack.orientation;
    std::map<fs::path, std::pair<const ScannedImage*, std::vector<std::uint32_t>>> framesOfFile;
    std::size_t slices = 0;
    for (const StackImage& member : members) {
        const DicomHeader& h = member.image->header;
        auto [it, inserted] = framesOfFile.try_emplace(member.image->path, member.image,
                                                       std::vector<std::uint32_t>{});
        it->second.second.push_back(member.frame);
        ++info.frameCount;
        std::string note;
        const std::optional<MosaicLayout> mosaic = mosaicOf(h, note);
        slices += mosaic ? mosaic->images : 1;
        if (info.summary.note.empty()) {
            if (const auto reason = unsupportedReason(h)) {
                info.summary.note = *reason;
            } else if (!note.empty()) {
                info.summary.note = note;
            }
        }
        if (mosaic) {
            info.columns = mosaic->tileColumns;
            info.rows = mosaic->tileRows;
        }
    }
    // Every frame of a file listed: the loader needs no selection for it.
    for (auto& [path, imageFrames] : framesOfFile) {
        const auto& [image, frames] = imageFrames;
        const bool all = image->header.mosaic || frames.size() == image->header.frameCount;
        info.files.push_back(path);
        info.frames.push_back(all ? std::vector<std::uint32_t>{} : frames);
    }
    if (std::all_of(info.frames.begin(), info.frames.end(),
                    [](const auto& frames) { return frames.empty(); })) {
        info.frames.clear();
    }
    SeriesSummary& s = info.summary;
    s.uid = stacksOfUid > 1 ? stack.uid + "#" + std::to_string(index + 1) : stack.uid;
    s.description = first.seriesDescription.empty()
                        ? members.front().image->path.filename().string()
                        : first.seriesDescription;
    if (stacksOfUid > 1) {
        s.description += " (stack " + std::to_string(index + 1) + " of " +
                         std::to_string(stacksOfUid) + ", " + std::to_string(stack.columns) + "x" +
                         std::to_string(stack.rows) + ")";
    }
    s.volumeLabel = volumeLabel;
    s.modality = first.modality;
    s.sliceCount = slices;
    s.dims = glm::uvec3(info.columns, info.rows,
                        std::uint32_t(std::min<std::size_t>(slices, 0xFFFFFFFFu)));
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

std::vector<fs::path> listFilesRecursively(const fs::path& folder, std::vector<std::string>& notes,
                                           std::vector<std::string>* unreadable)
{
    std::vector<fs::path> files;
    std::error_code error;
    fs::recursive_directory_iterator it(folder, fs::directory_options::none, error);
    if (error) throw IoError("cannot list the folder " + quoted(folder) + ": " + error.message());
    for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (error) {
            notes.push_back("stopped listing " + quoted(folder) + " early: " + error.message());
            if (unreadable) unreadable->push_back(notes.back());
            break;
        }
        std::error_code typeError;
        if (it->is_directory(typeError)) {
            // A subfolder that cannot be listed is named and left out, not silently skipped:
            // its slices may belong to the series.
            std::error_code listError;
            fs::directory_iterator probe(it->path(), listError);
            if (listError) {
                const std::string why =
                    "cannot list the folder " + quoted(it->path()) + ": " + listError.message();
                notes.push_back(why + "; skipped");
                if (unreadable) unreadable->push_back(why);
                it.disable_recursion_pending();
            }
        } else if (it->is_regular_file(typeError)) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace dicom

DicomScan scanDicom(const std::filesystem::path& input, LoadMonitor* monitor)
{
    using namespace dicom;
    ensureDcmtk();
    DicomScan scan;
    std::error_code error;
    const fs::file_status status = fs::status(input, error);
    if (error || !fs::exists(status)) {
        throw IoError("cannot open " + quoted(input) + ": no such file or folder");
    }
    std::vector<fs::path> files;
    if (fs::is_directory(status)) {
        files = listFilesRecursively(input, scan.notes, &scan.unreadable);
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
    std::size_t damaged = 0; // DICOM files that DCMTK could not parse
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
        } catch (const DamagedDicomError& e) {
            ++damaged;
            scan.notes.push_back(std::string(e.what()) + "; skipped");
        } catch (const IoError& e) {
            // Cannot be opened or read (permissions, I/O errors): said, and kept for --strict.
            scan.notes.push_back(std::string(e.what()) + "; skipped");
            scan.unreadable.push_back(e.what());
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
    // Each stack's volumes follow each other, the first one first.
    struct Ordered {
        std::int32_t seriesNumber;
        std::size_t stackIndex;
        std::size_t volumeIndex;
        DicomSeriesInfo info;
    };
    std::vector<Ordered> ordered;
    for (const std::string& uid : uidOrder) {
        const std::vector<ScanStack>& stacks = stacksByUid[uid];
        const std::int32_t number = stacks.front().images.front()->header.seriesNumber.value_or(
            std::numeric_limits<std::int32_t>::max());
        for (std::size_t s = 0; s < stacks.size(); ++s) {
            std::vector<VolumeImage> described;
            const std::vector<StackImage> images = imagesOf(stacks[s], described);
            const bool mosaic = stacks[s].images.front()->header.mosaic.has_value();
            const std::vector<VolumeGroup> volumes = groupVolumes(described, mosaic);
            for (std::size_t v = 0; v < volumes.size(); ++v) {
                std::vector<StackImage> members;
                for (const std::size_t i : volumes[v].images) {
                    members.push_back(images[i]);
                }
                ordered.push_back(Ordered{
                    number, s, v,
                    describeVolume(stacks[s], members, volumes[v].label, s, stacks.size())});
            }
        }
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Ordered& a, const Ordered& b) {
        return std::tie(a.seriesNumber, a.info.seriesInstanceUid, a.stackIndex, a.volumeIndex) <
               std::tie(b.seriesNumber, b.info.seriesInstanceUid, b.stackIndex, b.volumeIndex);
    });

    std::optional<std::size_t> best;
    std::uint64_t bestVoxels = 0;
    std::optional<std::size_t> anyLoadable; // when no stack's first volume loads
    std::vector<std::string> unloadable;
    for (Ordered& o : ordered) {
        const SeriesSummary& s = o.info.summary;
        const std::uint64_t voxels = std::uint64_t(s.dims.x) * s.dims.y * s.dims.z;
        if (s.note.empty() && !anyLoadable) anyLoadable = scan.series.size();
        // A later volume of a stack is never the default: its first volume is.
        if (s.note.empty() && o.volumeIndex == 0 && (!best || voxels > bestVoxels)) {
            best = scan.series.size();
            bestVoxels = voxels;
        }
        if (!s.note.empty()) {
            unloadable.push_back("series " + (s.description.empty() ? s.uid : s.description) +
                                 ": " + s.note);
        }
        scan.series.push_back(std::move(o.info));
    }
    if (!best) best = anyLoadable;
    if (!best) {
        std::vector<std::string> reasons = unloadable;
        reasons.insert(reasons.end(), scan.notes.begin(), scan.notes.end());
        // Damaged DICOM files are not "no DICOM": say what was found.
        const std::string found = images.empty() && damaged > 0
                                      ? "no readable DICOM image series in " + quoted(input) +
                                            ": " + std::to_string(damaged) + " DICOM file" +
                                            (damaged == 1 ? " is" : "s are") + " damaged"
                                      : "no DICOM image series found in " + quoted(input);
        throw IoError(found + (reasons.empty() ? std::string() : ": " + joinNotes(reasons, 5)));
    }
    scan.defaultSeries = *best;
    return scan;
}

} // namespace isoview::io
