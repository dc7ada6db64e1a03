#include "io/volume_loader.h"

#include "core/error.h"
#include "core/log.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/metaimage_reader.h"
#include "io/nrrd_reader.h"
#include "io/raw_slice_folder_reader.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <cctype>

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

// Decides the format from the path alone (and, for files without a telling extension, from the
// first bytes). Raw folders and raw files without the name convention need explicit
// parameters, which is why the options take part.
VolumeFormat detectFormat(const fs::path& path, const LoadOptions& options)
{
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
        throw IoError("cannot open " + detail::quotedPath(path) + ": no such file or folder");
    }
    if (fs::is_directory(status)) {
        if (options.raw) return VolumeFormat::RawSliceFolder;
        return VolumeFormat::Dicom;
    }
    const std::string ext = lowerExtension(path);
    if (ext == ".nrrd" || ext == ".nhdr") return VolumeFormat::Nrrd;
    if (ext == ".mhd" || ext == ".mha") return VolumeFormat::MetaImage;
    if (ext == ".raw" || options.raw) return VolumeFormat::Raw;
    if (path.filename() == "DICOMDIR" || looksLikeDicom(path)) return VolumeFormat::Dicom;
    throw InvalidInputError(
        "cannot tell what kind of volume " + detail::quotedPath(path) +
        " is: it is not DICOM, and its name does not end in .nrrd, .nhdr, .mhd, .mha or .raw "
        "(raw files without that extension need explicit dimensions and voxel type)");
}

// Single-volume formats list themselves as one series named after the file.
VolumeSourceInfo singleVolumeSource(VolumeFormat format, const fs::path& path,
                                    const std::optional<RawVolumeParameters>& raw)
{
    VolumeSourceInfo info;
    info.format = format;
    SeriesSummary summary;
    summary.description = path.filename().string();
    if (raw) {
        summary.dims = raw->dims;
    } else if (auto parsed = parseRawFileName(path.filename().string());
               parsed && format == VolumeFormat::Raw) {
        summary.dims = parsed->dims;
    }
    summary.sliceCount = summary.dims.z;
    info.series.push_back(summary);
    return info;
}

} // namespace

std::string_view formatName(VolumeFormat format)
{
    switch (format) {
    case VolumeFormat::Dicom: return "DICOM";
    case VolumeFormat::Nrrd: return "NRRD";
    case VolumeFormat::MetaImage: return "MetaImage";
    case VolumeFormat::Raw: return "raw";
    case VolumeFormat::RawSliceFolder: return "raw slice folder";
    }
    return "unknown";
}

VolumeSourceInfo inspectVolumeSource(const fs::path& path, LoadMonitor* monitor)
{
    const VolumeFormat format = detectFormat(path, {});
    if (format != VolumeFormat::Dicom) return singleVolumeSource(format, path, std::nullopt);
    const DicomScan scan = scanDicom(path, monitor);
    VolumeSourceInfo info;
    info.format = VolumeFormat::Dicom;
    for (const DicomSeriesInfo& s : scan.series) info.series.push_back(s.summary);
    info.defaultSeries = scan.defaultSeries;
    info.notes = scan.notes;
    return info;
}

Volume loadVolume(const fs::path& path, const LoadOptions& options, LoadMonitor* monitor)
{
    const VolumeFormat format = detectFormat(path, options);
    log::get("io")->info("loading {} as {}", path.string(), formatName(format));
    switch (format) {
    case VolumeFormat::Nrrd: return readNrrd(path, monitor);
    case VolumeFormat::MetaImage: return readMetaImage(path, monitor);
    case VolumeFormat::Raw: {
        Volume v = options.raw ? readRawVolume(path, *options.raw) : readRawVolume(path);
        VolumeMetadata metadata = v.metadata();
        metadata.sourceFormat = "raw";
        v.setMetadata(metadata);
        return v;
    }
    case VolumeFormat::RawSliceFolder: return readRawSliceFolder(path, *options.raw, monitor);
    case VolumeFormat::Dicom: break;
    }
    const DicomScan scan = scanDicom(path, monitor);
    const std::size_t index = options.seriesIndex.value_or(scan.defaultSeries);
    if (index >= scan.series.size()) {
        throw InvalidInputError("series " + std::to_string(index) + " does not exist: " +
                                detail::quotedPath(path) + " holds " +
                                std::to_string(scan.series.size()) + " series (numbered from 0)");
    }
    return loadDicomSeries(scan.series[index], monitor);
}

} // namespace isoview::io
