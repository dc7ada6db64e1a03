#include "io/volume_loader.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "core/protected_inputs.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/metaimage_reader.h"
#include "io/nifti_reader.h"
#include "io/nrrd_reader.h"
#include "io/raw_slice_folder_reader.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;

std::string lowerExtension(const fs::path& path)
{
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

fs::file_status existingStatus(const fs::path& path)
{
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
        throw IoError("cannot open " + detail::quotedPath(path) + ": no such file or folder");
    }
    return status;
}

// The formats a file's name alone decides.
std::optional<VolumeFormat> formatFromExtension(const fs::path& path)
{
    const std::string ext = lowerExtension(path);
    if (ext == ".nrrd" || ext == ".nhdr") return VolumeFormat::Nrrd;
    if (ext == ".mhd" || ext == ".mha") return VolumeFormat::MetaImage;
    if (ext == ".nii" || ext == ".hdr") return VolumeFormat::Nifti;
    if (ext == ".gz") {
        const std::string inner = lowerExtension(path.stem());
        if (inner == ".nii" || inner == ".hdr") return VolumeFormat::Nifti;
    }
    if (ext == ".raw") return VolumeFormat::Raw;
    return std::nullopt;
}

InvalidInputError unknownFormatError(const fs::path& path)
{
    return InvalidInputError(
        "cannot tell what kind of volume " + detail::quotedPath(path) +
        " is: it is not DICOM or NIfTI, and its name does not end in .nrrd, .nhdr, .mhd, .mha, "
        ".nii, .nii.gz, .hdr or .raw "
        "(raw files without that extension need explicit dimensions and voxel type)");
}

// Single-volume formats list themselves as one series named after the file; raw files take
// their dimensions from the name convention when they follow it.
VolumeSource singleVolumeSource(VolumeFormat format, const fs::path& path)
{
    VolumeSource source;
    source.path = path;
    source.format = format;
    SeriesSummary summary;
    summary.description = path.filename().string();
    const std::optional<RawVolumeParameters> parsed =
        format == VolumeFormat::Raw ? parseRawFileName(path.filename().string()) : std::nullopt;
    if (parsed) summary.dims = parsed->dims;
    summary.sliceCount = summary.dims.z;
    source.series.push_back(summary);
    source.needsRawParameters =
        format == VolumeFormat::RawSliceFolder || (format == VolumeFormat::Raw && !parsed);
    return source;
}

// A folder of numbered slices: the layout its name or its files' names state, else a guess
// from the count and size of the files.
VolumeSource rawSliceFolderSource(const fs::path& path, const RawSliceSeries& slices)
{
    VolumeSource source = singleVolumeSource(VolumeFormat::RawSliceFolder, path);
    source.rawSliceFiles = slices.files.size();
    const glm::uint count = glm::uint(slices.files.size());
    std::optional<RawVolumeParameters> named = parseRawLayoutInName(path.filename().string());
    if (!named) named = parseRawLayoutInName(slices.files.front().filename().string());
    if (named) {
        named->dims.z = count; // the files decide how many slices there are
        source.rawGuess = named;
        source.rawGuessFromName = true;
    } else {
        std::error_code error;
        const std::uintmax_t size = fs::file_size(slices.files.front(), error);
        if (!error) source.rawGuess = guessRawSliceLayout(size, slices.files.size());
        // Sizes cannot tell the byte order; the middle slice read both ways can.
        if (source.rawGuess) {
            const fs::path& middle = slices.files[slices.files.size() / 2];
            source.rawGuess->bigEndian =
                guessSliceIsBigEndian(middle, *source.rawGuess).value_or(false);
        }
    }
    SeriesSummary& summary = source.series.front();
    summary.sliceCount = count;
    summary.dims = source.rawGuess ? source.rawGuess->dims : glm::uvec3(0, 0, count);
    return source;
}

// A folder is raw slices when looksLikeRawSliceFolder says so and its first slice is not
// DICOM without a preamble either (the sniff the single-file path uses).
std::optional<RawSliceSeries> rawSlicesOf(const fs::path& folder)
{
    if (!looksLikeRawSliceFolder(folder)) return std::nullopt;
    std::optional<RawSliceSeries> slices = findRawSliceSeries(folder);
    if (!slices || looksLikeDicom(slices->files.front())) return std::nullopt;
    return slices;
}

// The most volumes of one NIfTI file listed as series: far beyond any real time series (tens
// of thousands), and a few MiB of entries.
constexpr std::uint64_t kMaxListedNiftiVolumes = 100000;

// A NIfTI file lists one series per volume along its 4th dimension (header read only): those
// its data file can hold, never more than kMaxListedNiftiVolumes, so that dim[4] = 2^40 in a
// 4 KB file costs nothing (niftiVolumesInFile refuses it).
VolumeSource niftiSource(const fs::path& path)
{
    const NiftiHeader header = readNiftiHeader(path);
    const std::uint64_t held = niftiVolumesInFile(path, header);
    const std::uint64_t listed = std::min(held, kMaxListedNiftiVolumes);
    VolumeSource source;
    source.path = path;
    source.format = VolumeFormat::Nifti;
    source.series.reserve(std::size_t(listed));
    for (std::uint64_t i = 0; i < listed; ++i) {
        SeriesSummary summary;
        summary.description = path.filename().string();
        summary.dims = header.dims;
        summary.sliceCount = header.dims.z;
        summary.volumeLabel = niftiVolumeLabel(header, i);
        source.series.push_back(std::move(summary));
    }
    if (held < header.volumeCount) {
        source.notes.push_back("the header claims " + std::to_string(header.volumeCount) +
                               " volumes, but the file can hold only " + std::to_string(held) +
                               " of them: later volumes are missing");
    }
    if (listed < held) {
        source.notes.push_back("only the first " + std::to_string(listed) + " of " +
                               std::to_string(held) + " volumes are listed");
    }
    return source;
}

VolumeSource dicomSource(const fs::path& path, LoadMonitor* monitor)
{
    auto scan = std::make_shared<DicomScan>(scanDicom(path, monitor));
    VolumeSource source;
    source.path = path;
    source.format = VolumeFormat::Dicom;
    for (const DicomSeriesInfo& s : scan->series)
        source.series.push_back(s.summary);
    source.defaultSeries = scan->defaultSeries;
    source.notes = scan->notes;
    source.dicomScan = std::move(scan);
    return source;
}

Volume loadRaw(const VolumeSource& source, const VolumeChoice& choice, LoadMonitor* monitor)
{
    // Without parameters, readRawVolume explains the name convention; other names get the
    // message that says what isoview could not recognise.
    if (!choice.raw && source.needsRawParameters && lowerExtension(source.path) != ".raw") {
        throw unknownFormatError(source.path);
    }
    Volume v = choice.raw ? readRawVolume(source.path, *choice.raw, monitor)
                          : readRawVolume(source.path, monitor);
    VolumeMetadata metadata = v.metadata();
    metadata.sourceFormat = "raw";
    v.setMetadata(metadata);
    return v;
}

} // namespace

std::string_view formatName(VolumeFormat format)
{
    switch (format) {
    case VolumeFormat::Dicom: return "DICOM";
    case VolumeFormat::Nrrd: return "NRRD";
    case VolumeFormat::MetaImage: return "MetaImage";
    case VolumeFormat::Nifti: return "NIfTI";
    case VolumeFormat::Raw: return "raw";
    case VolumeFormat::RawSliceFolder: return "raw slice folder";
    }
    return "unknown";
}

VolumeSource openSource(const fs::path& path, LoadMonitor* monitor)
{
    if (fs::is_directory(existingStatus(path))) {
        if (const std::optional<RawSliceSeries> slices = rawSlicesOf(path)) {
            return rawSliceFolderSource(path, *slices);
        }
        return dicomSource(path, monitor);
    }
    // Before anything reads it (the DICOM sniff would block on a FIFO).
    requireRegularFile(path, detail::quotedPath(path));
    if (const std::optional<VolumeFormat> format = formatFromExtension(path)) {
        if (*format == VolumeFormat::Nifti) return niftiSource(path);
        return singleVolumeSource(*format, path);
    }
    if (looksLikeNifti(path)) return niftiSource(path);
    if (path.filename() == "DICOMDIR" || looksLikeDicom(path)) return dicomSource(path, monitor);
    VolumeSource source = singleVolumeSource(VolumeFormat::Raw, path);
    // A layout in the name that the strict convention does not take (scan_256x256x99_int16_be.img)
    // is proposed, not used: the user confirms it.
    if (const std::optional<RawVolumeParameters> named =
            parseRawLayoutInName(path.filename().string());
        named && named->dims.z > 0) {
        source.rawGuess = named;
        source.rawGuessFromName = true;
    }
    return source;
}

VolumeSource openRawSource(const fs::path& path)
{
    if (fs::is_directory(existingStatus(path))) {
        return singleVolumeSource(VolumeFormat::RawSliceFolder, path);
    }
    requireRegularFile(path, detail::quotedPath(path));
    const std::optional<VolumeFormat> format = formatFromExtension(path);
    if (format == VolumeFormat::Nifti) return niftiSource(path);
    return singleVolumeSource(format.value_or(VolumeFormat::Raw), path);
}

namespace {

Volume readSource(const VolumeSource& source, const VolumeChoice& choice, LoadMonitor* monitor)
{
    if (choice.raw && source.format != VolumeFormat::Raw &&
        source.format != VolumeFormat::RawSliceFolder) {
        // Never silently ignored: the caller meant a layout the file's header overrides.
        throw InvalidInputError("raw dimensions and voxel type (--raw-dims, --raw-type) describe "
                                "headerless raw data, but " +
                                detail::quotedPath(source.path) + " is " +
                                std::string(formatName(source.format)) +
                                ", whose header gives its size and type: leave them out");
    }
    switch (source.format) {
    case VolumeFormat::Nrrd: return readNrrd(source.path, monitor);
    case VolumeFormat::MetaImage: return readMetaImage(source.path, monitor);
    case VolumeFormat::Nifti: {
        const std::size_t index = choice.seriesIndex.value_or(source.defaultSeries);
        if (index >= source.series.size()) {
            throw InvalidInputError("volume " + std::to_string(index) +
                                    " does not exist: " + detail::quotedPath(source.path) +
                                    " holds " + std::to_string(source.series.size()) +
                                    " volumes (numbered from 0)");
        }
        return readNifti(source.path, index, monitor);
    }
    case VolumeFormat::Raw: return loadRaw(source, choice, monitor);
    case VolumeFormat::RawSliceFolder:
        if (!choice.raw) {
            std::string hint;
            if (const std::optional<RawVolumeParameters>& g = source.rawGuess) {
                hint = std::string(source.rawGuessFromName ? "; its name states"
                                                           : "; its file sizes suggest") +
                       " --raw-dims " + std::to_string(g->dims.x) + " " +
                       std::to_string(g->dims.y) + " " + std::to_string(g->dims.z) +
                       " --raw-type " + std::string(scalarTypeName(g->type)) +
                       (g->bigEndian ? " --big-endian" : "");
            }
            throw InvalidInputError(detail::quotedPath(source.path) +
                                    " is a folder of raw slices: their dimensions and voxel "
                                    "type must be given" +
                                    hint);
        }
        return readRawSliceFolder(source.path, *choice.raw, monitor);
    case VolumeFormat::Dicom: break;
    }
    if (!source.dicomScan) {
        throw InvalidInputError("the DICOM source " + detail::quotedPath(source.path) +
                                " was not opened with openSource");
    }
    const DicomScan& scan = *source.dicomScan;
    const std::size_t index = choice.seriesIndex.value_or(scan.defaultSeries);
    if (index >= scan.series.size()) {
        throw InvalidInputError("series " + std::to_string(index) +
                                " does not exist: " + detail::quotedPath(source.path) + " holds " +
                                std::to_string(scan.series.size()) + " series (numbered from 0)");
    }
    if (choice.strict && !scan.unreadable.empty()) {
        // Their slices may belong to this series: strict loads nothing rather than less.
        throw IoError("refused (strict): " + std::to_string(scan.unreadable.size()) +
                      (scan.unreadable.size() == 1 ? " file or folder" : " files or folders") +
                      " under " + detail::quotedPath(source.path) +
                      " cannot be read, so the series may lack slices: " + scan.unreadable.front() +
                      (scan.unreadable.size() > 1
                           ? "; and " + std::to_string(scan.unreadable.size() - 1) + " more"
                           : ""));
    }
    return loadDicomSeries(scan.series[index], monitor, DicomLoadOptions{.strict = choice.strict});
}

// Float volumes may hold NaN and +-Inf (a division by zero in the program that wrote them):
// one warning with their counts, whichever reader read them, saying what they become.
void warnAboutNonFiniteVoxels(Volume& volume, const fs::path& path)
{
    if (volume.type() != ScalarType::Float32 && volume.type() != ScalarType::Float64) return;
    std::uint64_t nan = 0;
    std::uint64_t plusInf = 0;
    std::uint64_t minusInf = 0;
    const std::size_t n = volume.voxelCount();
    for (std::size_t i = 0; i < n; ++i) {
        const float v = volume.valueAt(i); // as the extraction sees it: a huge double is +-Inf
        if (std::isnan(v)) {
            ++nan;
        } else if (std::isinf(v)) {
            ++(v > 0.0f ? plusInf : minusInf);
        }
    }
    if (nan + plusInf + minusInf == 0) return;
    const std::string warning =
        std::to_string(nan + plusInf + minusInf) + " of " + std::to_string(n) +
        " voxels are not finite (" + std::to_string(nan) + " NaN, " + std::to_string(plusInf) +
        " +Inf, " + std::to_string(minusInf) +
        " -Inf): +Inf counts as inside the surface, NaN and -Inf as outside, and the histogram "
        "and suggested isovalue ignore them all";
    log::get("io")->warn("{}: {}", detail::quotedPath(path), warning);
    VolumeMetadata metadata = volume.metadata();
    metadata.warnings.push_back(warning);
    volume.setMetadata(std::move(metadata));
}

} // namespace

Volume loadVolume(const VolumeSource& source, const VolumeChoice& choice, LoadMonitor* monitor)
{
    log::get("io")->info("loading {} as {}", source.path.string(), formatName(source.format));
    // Every file the readers open is recorded, whatever the format, and protected from being
    // overwritten for as long as the volume lives.
    const InputFileRecorder recorder;
    Volume volume = readSource(source, choice, monitor);
    warnAboutNonFiniteVoxels(volume, source.path);
    volume.protectSourceFiles(std::make_shared<const InputProtection>(recorder.files()));
    return volume;
}

std::vector<std::size_t> volumesOnOneGrid(const VolumeSourceInfo& info, std::size_t index)
{
    if (index >= info.series.size())
        throw InvalidInputError("there is no series " + std::to_string(index) + " (" +
                                std::to_string(info.series.size()) + " listed)");
    const SeriesSummary& chosen = info.series[index];
    const auto together = [&](const SeriesSummary& s) {
        return !s.volumeLabel.empty() && s.note.empty() && s.uid == chosen.uid &&
               s.description == chosen.description && s.modality == chosen.modality &&
               s.dims == chosen.dims;
    };
    if (!together(chosen)) return {index};
    std::size_t first = index;
    while (first > 0 && together(info.series[first - 1]))
        --first;
    std::size_t last = index;
    while (last + 1 < info.series.size() && together(info.series[last + 1]))
        ++last;
    std::vector<std::size_t> group;
    for (std::size_t i = first; i <= last; ++i)
        group.push_back(i);
    return group;
}

Volume loadVolume(const fs::path& path, const LoadOptions& options, LoadMonitor* monitor)
{
    const VolumeSource source = options.raw ? openRawSource(path) : openSource(path, monitor);
    return loadVolume(source, options, monitor);
}

} // namespace isoview::io
