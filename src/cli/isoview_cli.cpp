// isoview-cli: extracts an isosurface headless (EGL, no display server) with the same GPU engine
// as the viewer, optionally prepares it for printing (closed, filtered, smoothed, decimated),
// and writes it as PLY, STL, OBJ or 3MF; or describes a volume (--info).
//
//   isoview-cli PATH --iso VALUE [-o mesh.ply] [--series N] [options]
//   isoview-cli PATH --iso A --iso B ... [-o 'mesh_{iso}.ply'] [--merge-ply all.ply] [options]
//   isoview-cli PATH --info [--series N]
//   isoview-cli LABELMAP --labels [3,10,13] [--label-table F] [-o 'name_{label}.ply'] [options]
//   isoview-cli LABELMAP --info --labels [--label-table F]
//
// PATH is anything the loaders open (DICOM file/folder/DICOMDIR, NRRD, MetaImage, raw).
// VALUE is in the volume's real units (HU for CT). Exit status 0 on success, 1 on bad usage,
// 2 when loading, extraction or writing fails (with the reason on stderr).
#include "cli_labels.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "io/label_table_reader.h"
#include "io/volume_loader.h"
#include "isoview_version.h"
#include "mesh_export/merged_surfaces.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/ply_writer.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/print_preparation.h"
#include "output_names.h"
#include "scene/surface_list.h"
#include "terminal_progress.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

constexpr std::string_view kUsage =
    "Usage: isoview-cli PATH --iso VALUE [-o OUTPUT.ply|.stl|.obj|.3mf] [options]\n"
    "  or:  isoview-cli PATH --iso A --iso B ... [-o 'OUTPUT_{iso}.ply'] [--merge-ply ALL.ply]\n"
    "  or:  isoview-cli PATH --info [--series N]\n"
    "  or:  isoview-cli LABELMAP --labels [L,L,...] [--label-table F] [-o 'OUT_{label}.ply']\n"
    "  or:  isoview-cli LABELMAP --info --labels [--label-table F]\n"
    "\n"
    "Extracts the isosurface of the volume at PATH at VALUE (in the volume's real units, HU for\n"
    "CT) on the GPU and writes it (PLY, STL, OBJ or 3MF by the extension) in physical mm\n"
    "(patient LPS for DICOM and NIfTI). Runs without a display (EGL). PATH: a DICOM file,\n"
    "folder or DICOMDIR; a NRRD (.nrrd, .nhdr); a MetaImage (.mhd, .mha); a NIfTI (.nii,\n"
    ".nii.gz, .hdr/.img; each volume of a 4-D file is a series); a raw file named\n"
    "name_XxYxZ_type.raw (type: uint8 int8 uint16 int16 uint32 int32 float32 float64;\n"
    "little-endian, X fastest); or raw data / a folder of per-slice raw files with --raw-dims\n"
    "and --raw-type.\n"
    "\n"
    "Options:\n"
    "  --iso VALUE      isovalue in real units; repeat it for several surfaces (statistics\n"
    "                   are printed for each)\n"
    "  -o, --output F   mesh file to write: .ply (binary), .stl (binary), .obj or .3mf; any\n"
    "                   other extension is refused (optional: without it only statistics are\n"
    "                   printed). With several --iso, F names one file per surface through {iso}\n"
    "                   (the isovalue, e.g. skin_{iso}.ply -> skin_300.ply) or {n} (its place\n"
    "                   among the --iso options, from 1); a .3mf without them holds every\n"
    "                   surface as a named, coloured object. -o - writes the one surface to\n"
    "                   standard output (the report goes to standard error)\n"
    "  --format F       the format of -o -: ply (default), stl, obj or 3mf\n"
    "  --merge-ply F    also write every surface into one PLY, each vertex coloured by its\n"
    "                   surface in the viewer's palette, in --iso order: red, blue, green,\n"
    "                   amber, violet, cyan, then again from red\n"
    "  --info           print the volume's dimensions, geometry, values and series; no GPU\n"
    "  --labels [L,...]\n"
    "                   the volume is a label map (whole numbers, 0 the background): each\n"
    "                   label is its own surface, the isosurface at 0.5 of where the volume\n"
    "                   holds it, all made in one GPU pass; every non-zero label, or those\n"
    "                   listed. -o names a file per label through {label} (its number) or\n"
    "                   {name} (from the table); --merge-ply colours each label. With --info:\n"
    "                   one line per label, 'label N: NAME, V voxels'\n"
    "  --label-table F  the labels' names and colours: AFNI 'number;abbrev;name', 3D Slicer\n"
    "                   or FreeSurfer 'id name r g b a', ITK-SNAP label descriptions (a\n"
    "                   .seg.nrrd's own segment names are read without it)\n"
    "  --label-smoothing MM\n"
    "                   with --labels: blur each label's indicator by a Gaussian of sigma MM\n"
    "                   millimetres before taking its surface at 0.5 (3D Slicer's smoothing;\n"
    "                   made on the CPU; default 0: the voxels' own surfaces)\n"
    "  --series N       which DICOM series or NIfTI volume to load (as --info numbers them;\n"
    "                   default: the largest series, the first volume)\n"
    "  --strict         refuse a DICOM series with unreadable slices (default: load the rest\n"
    "                   and warn, naming the files and the gaps)\n"
    "  --spacing X Y Z  override the voxel spacing in mm (raw file names carry none)\n"
    "  --crop I0 I1 J0 J1 K0 K1\n"
    "                   only the surface of the cells within voxels I0..I1, J0..J1, K0..K1\n"
    "                   (inclusive, from 0)\n"
    "  --raw-dims X Y Z, --raw-type T, --big-endian, --header-offset BYTES\n"
    "                   read raw data without the name convention (a folder: per-slice files)\n"
    "  --voxel-space    write voxel index coordinates instead of millimetres\n"
    "  --ascii          write ASCII PLY instead of binary\n"
    "\n"
    "print preparation (applied in this order; the report says what changed):\n"
    "  --close-borders  close the surface where it meets the volume's (or crop's) border\n"
    "  --keep-largest   keep only the piece with the most triangles\n"
    "  --min-component N     drop pieces with fewer than N triangles\n"
    "  --min-component-ml V  drop pieces enclosing less than V millilitres\n"
    "  --smooth N       N iterations of Taubin smoothing (volume-preserving)\n"
    "  --decimate F     keep the fraction F (0 < F < 1) of the triangles, topology kept\n"
    "  --decimate-tolerance MM\n"
    "                   how far decimation may move the surface (default: half a voxel)\n"
    "  --gl33           use only OpenGL 3.3 features (the engine's floor)\n"
    "  --verbose        log engine details to stderr\n"
    "  -h, --help       show this help\n"
    "  --version        print the version\n";

struct Arguments {
    std::string volumePath;
    std::vector<double> isos;
    std::string output;
    std::optional<isoview::MeshFormat> format; // --format: of -o - (standard output)
    std::string mergedPly;
    bool info = false;
    bool labels = false;                  // --labels: a label map
    std::vector<std::uint32_t> labelList; // empty: every non-zero label
    std::string labelTable;
    double labelSmoothingMm = 0.0; // --label-smoothing: Gaussian sigma, 0 none
    bool strict = false;
    std::optional<std::size_t> series;
    std::optional<glm::dvec3> spacing;
    std::optional<glm::uvec3> rawDims;
    std::optional<std::array<std::uint32_t, 6>> crop; // I0 I1 J0 J1 K0 K1
    std::optional<std::string> rawType;
    bool bigEndian = false;
    std::uint64_t headerOffset = 0;
    bool voxelSpace = false;
    bool ascii = false;
    bool gl33 = false;
    bool verbose = false;
    isoview::PrintSteps steps;
};

// Parses a whole number or a finite decimal for the option `name`; nullopt after saying why.
// The print options' bounds, one table so that every message states the range truly.
struct PrintOptionRange {
    const char* name;
    double low;
    double high;
    bool lowExcluded; // the range is (low, high]
    bool whole;
    const char* unit; // after the range in messages
};

constexpr PrintOptionRange kPrintOptionRanges[] = {
    {"--min-component", 0.0, 1e12, false, true, " triangles"},
    {"--min-component-ml", 0.0, 1e9, false, false, " mL"},
    {"--smooth", 0.0, double(isoview::kMaxSmoothIterations), false, true, " iterations"},
    {"--decimate", 0.0, 1.0, true, false, ""},
    {"--decimate-tolerance", 0.0, 1000.0, false, false, " mm (0: half the smallest spacing)"},
};

const PrintOptionRange* printOptionRange(std::string_view option)
{
    for (const PrintOptionRange& range : kPrintOptionRanges) {
        if (option == range.name) return &range;
    }
    return nullptr;
}

std::optional<double> parseInRange(const std::string& text, const PrintOptionRange& range)
{
    char* end = nullptr;
    const double n = std::strtod(text.c_str(), &end);
    const bool number = end != text.c_str() && *end == '\0' && std::isfinite(n);
    if (number && (range.lowExcluded ? n > range.low : n >= range.low) && n <= range.high &&
        (!range.whole || n == std::floor(n))) {
        return n;
    }
    char bounds[96];
    std::snprintf(bounds, sizeof bounds,
                  range.lowExcluded ? "above %g and at most %g" : "from %g to %g", range.low,
                  range.high);
    std::cerr << "isoview-cli: " << range.name << " takes " << (range.whole ? "a whole " : "a ")
              << "number " << bounds << range.unit << ", got '" << text << "'\n";
    return std::nullopt;
}

bool isNamePattern(const std::string& output)
{
    return output.find("{iso}") != std::string::npos || output.find("{n}") != std::string::npos;
}

// "300", "-0.5", "40.5": the isovalue as a file name part.
std::string isoText(double iso)
{
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%g", iso);
    return buffer;
}

// The file the surface at `index` (from 0) is written to: the -o name, {iso} and {n} replaced.
std::string outputFor(const std::string& pattern, std::size_t index, double iso)
{
    std::string name = pattern;
    isoview::cli::replaceAll(name, "{iso}", isoText(iso));
    isoview::cli::replaceAll(name, "{n}", std::to_string(index + 1));
    return name;
}

// Several surfaces need one name each, and no two outputs may share a name (the second would
// replace the first). Says why and returns false otherwise.
bool checkOutputNames(const Arguments& args)
{
    if (!args.output.empty() && args.isos.size() > 1 && !isNamePattern(args.output) &&
        isoview::meshFormatForPath(args.output) == isoview::MeshFormat::ThreeMf) {
        return true; // every surface an object of one 3MF file
    }
    if (args.isos.size() > 1 && !args.output.empty() && !isNamePattern(args.output)) {
        std::cerr << "isoview-cli: with several --iso, -o needs {iso} or {n} in its name to give "
                     "each surface its own file (e.g. -o 'surface_{iso}.ply'); --merge-ply "
                     "ALL.ply writes them all into one PLY\n";
        return false;
    }
    if (!args.mergedPly.empty()) {
        const std::optional<isoview::MeshFormat> format =
            isoview::meshFormatForPath(args.mergedPly);
        if (format && *format != isoview::MeshFormat::Ply) {
            std::cerr << "isoview-cli: --merge-ply writes PLY (it keeps a colour per vertex), "
                         "not '"
                      << args.mergedPly << "'\n";
            return false;
        }
    }
    std::vector<std::pair<std::string, std::string>> names; // file, what writes it
    if (!args.output.empty()) {
        for (std::size_t i = 0; i < args.isos.size(); ++i) {
            names.emplace_back(outputFor(args.output, i, args.isos[i]),
                               "--iso " + isoText(args.isos[i]));
        }
    }
    if (!args.mergedPly.empty()) names.emplace_back(args.mergedPly, "--merge-ply");
    for (std::size_t i = 0; i < names.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (isoview::cli::sameFile(names[i].first, names[j].first)) {
                std::cerr << "isoview-cli: " << names[j].second << " and " << names[i].second
                          << " would both write '" << names[i].first
                          << "'; give each output its own name\n";
                return false;
            }
        }
    }
    return true;
}

// Returns nullopt after printing the problem (or the help) when the arguments are unusable.
std::optional<Arguments> parseArguments(int argc, char** argv, int& exitCode)
{
    Arguments args;
    exitCode = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= argc) {
                std::cerr << "isoview-cli: " << name << " needs a value\n";
                return std::nullopt;
            }
            return std::string(argv[++i]);
        };
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            exitCode = 0;
            return std::nullopt;
        } else if (a == "--version") {
            std::cout << "isoview-cli " << isoview::kVersion << "\n";
            exitCode = 0;
            return std::nullopt;
        } else if (a == "--iso") {
            const auto v = value("--iso");
            if (!v) return std::nullopt;
            char* end = nullptr;
            const double iso = std::strtod(v->c_str(), &end);
            if (end == v->c_str() || *end != '\0') {
                std::cerr << "isoview-cli: --iso expects a number, got '" << *v << "'\n";
                return std::nullopt;
            }
            // NaN and infinities would classify every corner alike: an empty mesh, exit 0.
            if (!std::isfinite(iso)) {
                std::cerr << "isoview-cli: --iso expects a finite number, got '" << *v << "'\n";
                return std::nullopt;
            }
            args.isos.push_back(iso);
        } else if (a == "--labels") {
            args.labels = true;
            // An optional list: the next argument when it is numbers and commas only.
            if (i + 1 < argc && *argv[i + 1] != '\0' &&
                std::string_view(argv[i + 1]).find_first_not_of("0123456789,") ==
                    std::string_view::npos) {
                std::string error;
                const auto list = isoview::cli::parseLabelList(argv[++i], error);
                if (!list) {
                    std::cerr << "isoview-cli: " << error << "\n";
                    return std::nullopt;
                }
                args.labelList = *list;
            }
        } else if (a == "--label-table") {
            const auto v = value("--label-table");
            if (!v) return std::nullopt;
            args.labelTable = *v;
        } else if (a == "--label-smoothing") {
            const auto v = value("--label-smoothing");
            if (!v) return std::nullopt;
            // The upper bound depends on the grid (validateLabelSmoothing, once it is loaded).
            static constexpr PrintOptionRange kSigma{
                "--label-smoothing", 0.0, 1e6, false, false, " mm"};
            const std::optional<double> n = parseInRange(*v, kSigma);
            if (!n) return std::nullopt;
            args.labelSmoothingMm = *n;
        } else if (a == "--format") {
            const auto v = value("--format");
            if (!v) return std::nullopt;
            args.format = isoview::meshFormatForPath("mesh." + *v);
            if (!args.format || v->find('.') != std::string::npos) {
                std::cerr << "isoview-cli: --format takes ply, stl, obj or 3mf, got '" << *v
                          << "'\n";
                return std::nullopt;
            }
        } else if (a == "-o" || a == "--output") {
            const auto v = value("-o");
            if (!v) return std::nullopt;
            args.output = *v;
        } else if (a == "--merge-ply") {
            const auto v = value("--merge-ply");
            if (!v) return std::nullopt;
            args.mergedPly = *v;
        } else if (a == "--spacing") {
            glm::dvec3 spacing;
            for (int axis = 0; axis < 3; ++axis) {
                const auto v = value("--spacing");
                if (!v) return std::nullopt;
                char* end = nullptr;
                spacing[axis] = std::strtod(v->c_str(), &end);
                if (end == v->c_str() || *end != '\0' || !(spacing[axis] > 0.0) ||
                    !std::isfinite(spacing[axis])) {
                    std::cerr << "isoview-cli: --spacing expects three positive numbers, got '"
                              << *v << "'\n";
                    return std::nullopt;
                }
            }
            args.spacing = spacing;
        } else if (a == "--info") {
            args.info = true;
        } else if (a == "--strict") {
            args.strict = true;
        } else if (a == "--series" || a == "--header-offset") {
            const auto v = value(a == "--series" ? "--series" : "--header-offset");
            if (!v) return std::nullopt;
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
            if (end == v->c_str() || *end != '\0' || (*v)[0] == '-' || errno == ERANGE) {
                std::cerr << "isoview-cli: " << a << " expects a whole number from 0"
                          << (a == "--series" ? " (as --info numbers the series)" : "") << ", got '"
                          << *v << "'\n";
                return std::nullopt;
            }
            if (a == "--series") {
                args.series = std::size_t(n);
            } else {
                args.headerOffset = n;
            }
        } else if (a == "--raw-dims") {
            glm::uvec3 dims;
            for (int axis = 0; axis < 3; ++axis) {
                const auto v = value("--raw-dims");
                if (!v) return std::nullopt;
                char* end = nullptr;
                const unsigned long n = std::strtoul(v->c_str(), &end, 10);
                if (end == v->c_str() || *end != '\0' || n == 0 || n > 0xFFFFFFFFul) {
                    std::cerr << "isoview-cli: --raw-dims expects three positive whole numbers, "
                                 "got '"
                              << *v << "'\n";
                    return std::nullopt;
                }
                dims[axis] = std::uint32_t(n);
            }
            args.rawDims = dims;
        } else if (a == "--crop") {
            std::array<std::uint32_t, 6> range{};
            for (std::uint32_t& n : range) {
                const auto v = value("--crop");
                if (!v) return std::nullopt;
                char* end = nullptr;
                const unsigned long x = std::strtoul(v->c_str(), &end, 10);
                if (end == v->c_str() || *end != '\0' || (*v)[0] == '-' || x > 0xFFFFFFFFul) {
                    std::cerr << "isoview-cli: --crop expects six voxel indices I0 I1 J0 J1 K0 "
                                 "K1, got '"
                              << *v << "'\n";
                    return std::nullopt;
                }
                n = std::uint32_t(x);
            }
            args.crop = range;
        } else if (a == "--raw-type") {
            const auto v = value("--raw-type");
            if (!v) return std::nullopt;
            args.rawType = *v;
        } else if (a == "--big-endian") {
            args.bigEndian = true;
        } else if (a == "--voxel-space") {
            args.voxelSpace = true;
        } else if (a == "--ascii") {
            args.ascii = true;
        } else if (a == "--gl33") {
            args.gl33 = true;
        } else if (a == "--verbose") {
            args.verbose = true;
        } else if (a == "--close-borders") {
            args.steps.closeBorders = true;
        } else if (a == "--keep-largest") {
            args.steps.keepLargest = true;
        } else if (const PrintOptionRange* range = printOptionRange(a)) {
            const auto v = value(range->name);
            if (!v) return std::nullopt;
            const std::optional<double> n = parseInRange(*v, *range);
            if (!n) return std::nullopt;
            if (a == "--min-component") {
                args.steps.minComponentTriangles = std::size_t(*n);
            } else if (a == "--min-component-ml") {
                args.steps.minComponentMl = *n;
            } else if (a == "--smooth") {
                args.steps.smoothIterations = int(*n);
            } else if (a == "--decimate") {
                args.steps.decimateFraction = *n;
            } else {
                args.steps.decimateToleranceMm = *n;
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "isoview-cli: unknown option " << a << "\n" << kUsage;
            return std::nullopt;
        } else if (args.volumePath.empty()) {
            args.volumePath = std::string(a);
        } else {
            std::cerr << "isoview-cli: more than one volume given (" << args.volumePath << ", " << a
                      << ")\n";
            return std::nullopt;
        }
    }
    if (args.volumePath.empty() || (args.isos.empty() && !args.info && !args.labels)) {
        std::cerr << kUsage;
        return std::nullopt;
    }
    if (args.labels && !args.isos.empty()) {
        std::cerr << "isoview-cli: --labels makes a surface per label; --iso does not apply to a "
                     "label map\n";
        return std::nullopt;
    }
    if (!args.labelTable.empty() && !args.labels) {
        std::cerr << "isoview-cli: --label-table names the labels of --labels\n";
        return std::nullopt;
    }
    if (args.labelSmoothingMm > 0.0 && !args.labels) {
        std::cerr << "isoview-cli: --label-smoothing smooths the labels of --labels\n";
        return std::nullopt;
    }
    try {
        isoview::validateSteps(args.steps);
    } catch (const isoview::Error& e) {
        std::cerr << "isoview-cli: " << e.what() << "\n";
        return std::nullopt;
    }
    if (args.rawDims.has_value() != args.rawType.has_value()) {
        std::cerr << "isoview-cli: raw data needs both --raw-dims and --raw-type\n";
        return std::nullopt;
    }
    if (args.format && args.output != isoview::kStandardOutput) {
        std::cerr << "isoview-cli: --format sets the format of -o - (standard output); a file's "
                     "extension gives its own\n";
        return std::nullopt;
    }
    if (args.output == isoview::kStandardOutput) {
        if (args.labels || args.isos.size() != 1 || args.mergedPly == isoview::kStandardOutput) {
            std::cerr << "isoview-cli: -o - writes one surface to standard output: give one "
                         "--iso, without --labels (or write files)\n";
            return std::nullopt;
        }
        if (args.format == isoview::MeshFormat::ThreeMf && args.voxelSpace) {
            std::cerr << "isoview-cli: 3MF holds millimetres, not voxel indices: --voxel-space "
                         "needs --format ply, stl or obj\n";
            return std::nullopt;
        }
    } else if (!args.output.empty() &&
               !isoview::cli::checkOutputFormat(args.output, args.voxelSpace)) {
        return std::nullopt;
    }
    if (!args.labels && !checkOutputNames(args)) return std::nullopt; // labels: checkLabelExport
    return args;
}

std::string text(const glm::dvec3& v)
{
    char buffer[96];
    std::snprintf(buffer, sizeof(buffer), "%g %g %g", v.x, v.y, v.z);
    return buffer;
}

// Prints what a person needs to know about a source and the volume loaded from it.
void printInfo(const isoview::io::VolumeSourceInfo& source, const isoview::Volume& volume)
{
    using namespace isoview;
    std::printf("format: %s\n", std::string(io::formatName(source.format)).c_str());
    if (source.format == io::VolumeFormat::Dicom || source.series.size() > 1) {
        std::printf("series: %zu (default %zu)\n", source.series.size(), source.defaultSeries);
        // A bounded listing: a 4-D NIfTI may hold thousands of volumes, each a series.
        constexpr std::size_t kMaxSeriesLines = 20;
        const std::size_t shown = std::min(source.series.size(), kMaxSeriesLines);
        for (std::size_t i = 0; i < shown; ++i) {
            const io::SeriesSummary& s = source.series[i];
            // "[1] fMRI | volume 2 of 2: time point 2 | MR | ...": which volume of a series.
            // NIfTI has no modality: its field is left out rather than shown empty.
            std::printf("  [%zu] %s%s%s%s%s | %zu slices | %ux%ux%u%s%s\n", i,
                        s.description.c_str(), s.volumeLabel.empty() ? "" : " | ",
                        s.volumeLabel.c_str(), s.modality.empty() ? "" : " | ", s.modality.c_str(),
                        s.sliceCount, s.dims.x, s.dims.y, s.dims.z, s.note.empty() ? "" : " | ",
                        s.note.c_str());
        }
        if (shown < source.series.size()) {
            std::printf("  ... and %zu more series (--series %zu to %zu)\n",
                        source.series.size() - shown, shown, source.series.size() - 1);
        }
        for (const std::string& note : source.notes)
            std::printf("note: %s\n", note.c_str());
    }
    const VolumeGeometry& g = volume.geometry();
    const VolumeMetadata& m = volume.metadata();
    const glm::uvec3 d = volume.dims();
    std::printf("dimensions: %ux%ux%u %s\n", d.x, d.y, d.z,
                std::string(scalarTypeName(volume.type())).c_str());
    std::printf("spacing: %s\n", text(g.spacing).c_str());
    std::printf("origin: %s\n", text(g.origin).c_str());
    std::printf("direction: [%s] [%s] [%s] (columns: i, j, k)\n", text(g.direction[0]).c_str(),
                text(g.direction[1]).c_str(), text(g.direction[2]).c_str());
    if (g.hasSliceOrigins()) {
        std::printf("slice positions: kept per slice (uneven spacing or tilt), first %s, last "
                    "%s\n",
                    text(g.sliceOrigins.front()).c_str(), text(g.sliceOrigins.back()).c_str());
    }
    const ValueRange r = volume.storedRange();
    const ValueRange real = volume.realRange();
    std::printf("stored range: %g .. %g\n", r.min, r.max);
    std::printf("value range: %g .. %g %s (real = stored * %g + %g)\n", real.min, real.max,
                m.units.c_str(), volume.rescale().slope, volume.rescale().intercept);
    if (!m.modality.empty()) std::printf("modality: %s\n", m.modality.c_str());
    if (!m.seriesDescription.empty()) {
        std::printf("series description: %s\n", m.seriesDescription.c_str());
    }
    if (!m.patientName.empty() || !m.patientId.empty()) {
        std::printf("patient: %s (%s)\n", m.patientName.c_str(), m.patientId.c_str());
    }
    if (!m.studyDate.empty()) std::printf("study date: %s\n", m.studyDate.c_str());
    if (m.windowCenter && m.windowWidth) {
        std::printf("window: centre %g width %g\n", *m.windowCenter, *m.windowWidth);
    }
    if (m.declaresLabelMap)
        std::printf("label map: the file declares one (--labels makes a surface per label)\n");
    for (const std::string& w : m.warnings)
        std::printf("warning: %s\n", w.c_str());
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// Refuses a volume the renderer's GPU cannot hold from its size and type, before its voxels are
// read: a 10 GB raw then costs a file name's parsing, not a minute of reading and 10 GB.
class GpuAdmissionMonitor final : public isoview::io::LoadMonitor {
public:
    explicit GpuAdmissionMonitor(isoview::gpu::SceneRenderer::VolumeAdmission admission)
        : m_admission(std::move(admission))
    {
    }
    void admitVolume(glm::uvec3 dims, isoview::ScalarType type) override
    {
        m_admission(dims, type);
    }

private:
    isoview::gpu::SceneRenderer::VolumeAdmission m_admission;
};

// --labels: the label map's statistics (which also refuse a volume that is not one), its
// table, then --info's list or the surfaces (cli/cli_labels.h).
int runLabels(const Arguments& args, const isoview::io::VolumeSource& source,
              const isoview::Volume& volume, double loadMs)
{
    using namespace isoview;
    const LabelStatistics statistics = analyseLabels(volume);
    LabelTable table;
    if (!args.labelTable.empty()) {
        table = io::readLabelTable(args.labelTable);
    } else if (source.format == io::VolumeFormat::Nrrd) {
        table = io::readSegNrrdLabelTable(args.volumePath).value_or(LabelTable{});
    }
    if (args.info) {
        printInfo(source, volume);
        cli::printLabelInfo(statistics, table);
        std::printf("load_ms: %.2f\n", loadMs);
        return 0;
    }
    cli::LabelExport request;
    request.labels = args.labelList;
    request.table = std::move(table);
    request.output = args.output;
    request.mergedPly = args.mergedPly;
    request.crop = args.crop;
    request.steps = args.steps;
    request.smoothingSigmaMm = args.labelSmoothingMm;
    request.voxelSpace = args.voxelSpace;
    request.ascii = args.ascii;
    request.gl33 = args.gl33;
    request.verbose = args.verbose;
    std::printf("load_ms: %.2f\n", loadMs);
    return cli::runLabelExport(request, volume, statistics, args.volumePath);
}

} // namespace

int main(int argc, char** argv)
{
    isoview::keepFreedHeapForReuse(); // mesh capture reuses freed blocks (core/heap_reuse.h)
    // Past the file-size limit (ulimit -f) a write fails with EFBIG, which the writer reports
    // and cleans up after, instead of SIGXFSZ ending the process with nothing said.
    std::signal(SIGXFSZ, SIG_IGN);
    using namespace isoview;
    int exitCode = 0;
    const std::optional<Arguments> args = parseArguments(argc, argv, exitCode);
    if (!args) return exitCode;
    if (args->output == kStandardOutput) {
        // The mesh goes to standard output and everything the CLI prints to standard error:
        // the original fd 1 is kept for the mesh, and fd 1 becomes a copy of fd 2.
        std::fflush(stdout);
        const int meshFd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        if (meshFd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            std::fprintf(stderr, "isoview-cli: cannot keep standard output for the mesh: %s\n",
                         std::strerror(errno));
            return 2;
        }
        setStandardOutputDescriptor(meshFd);
    }
    // The CLI prints the volume's warnings itself (VolumeMetadata::warnings); the log adds
    // detail only with --verbose.
    log::setLevel(args->verbose ? spdlog::level::debug : spdlog::level::err);

    try {
        auto start = std::chrono::steady_clock::now();
        io::LoadOptions loadOptions;
        loadOptions.seriesIndex = args->series;
        loadOptions.strict = args->strict;
        if (args->rawDims) {
            io::RawVolumeParameters raw;
            raw.dims = *args->rawDims;
            raw.type = parseScalarType(*args->rawType);
            raw.bigEndian = args->bigEndian;
            raw.headerOffset = args->headerOffset;
            loadOptions.raw = raw;
        }
        // One open serves the load and --info's series list: a DICOM folder is scanned once.
        const io::VolumeSource source = loadOptions.raw ? io::openRawSource(args->volumePath)
                                                        : io::openSource(args->volumePath);
        const double openMs = millisecondsSince(start);
        // The GPU comes before the voxels, so that it can refuse a volume it cannot hold before
        // a byte of it is read (--info and label maps do not extract here).
        std::optional<gpu::HeadlessContext> context;
        std::optional<gpu::SceneRenderer> renderer;
        std::optional<GpuAdmissionMonitor> admission;
        if (!args->info && !args->labels) {
            context.emplace(gpu::HeadlessContext::Options{.debug = args->verbose});
            renderer.emplace(gpu::SceneRenderer::Options{args->gl33});
            admission.emplace(renderer->volumeAdmission());
        }
        start = std::chrono::steady_clock::now();
        Volume volume = io::loadVolume(source, loadOptions, admission ? &*admission : nullptr);
        // The output is checked now, not after a long extraction: a FIFO, a device or one of
        // the files just read is refused before any work (and checked again when written).
        // (Label maps' outputs are checked by checkLabelExport, per label.)
        if (!args->output.empty() && !args->labels) {
            for (std::size_t i = 0; i < args->isos.size(); ++i)
                requireReplaceableDestination(outputFor(args->output, i, args->isos[i]));
        }
        if (!args->mergedPly.empty()) requireReplaceableDestination(args->mergedPly);
        if (args->spacing) {
            VolumeGeometry geometry = volume.geometry();
            geometry.spacing = *args->spacing;
            volume.setGeometry(geometry);
        }
        const double loadMs = openMs + millisecondsSince(start); // not the GPU's set-up
        if (args->labels) return runLabels(*args, source, volume, loadMs);
        if (args->info) {
            printInfo(source, volume);
            std::printf("load_ms: %.2f\n", loadMs);
            return 0;
        }
        for (const std::string& w : volume.metadata().warnings) {
            std::fprintf(stderr, "isoview-cli: warning: %s\n", w.c_str());
        }
        const glm::uvec3 d = volume.dims();
        const glm::dvec3 s = volume.geometry().spacing;

        start = std::chrono::steady_clock::now();
        renderer->setVolume(volume);
        // What is extracted: one surface at a time, in the crop box when one is given (in real
        // units, as the user gave them; the engine converts).
        Scene scene = Scene::withSurface(nullptr, args->isos.front());
        if (args->crop) {
            const auto& c = *args->crop;
            const VoxelBox box{{c[0], c[2], c[4]}, {c[1], c[3], c[5]}};
            requireInside(box, volume.dims()); // Error names the problem
            scene.crop = box;
        }
        renderer->setScene(scene); // a crop's pyramid is allocated here, in the upload's time
        gpu::finishGpuWork();
        const double uploadMs = millisecondsSince(start);

        const gpu::GpuMemoryUse memory = renderer->memoryUse();
        std::printf("volume: %s\n", args->volumePath.c_str());
        std::printf("dimensions: %ux%ux%u %s, spacing %g %g %g\n", d.x, d.y, d.z,
                    std::string(scalarTypeName(volume.type())).c_str(), s.x, s.y, s.z);
        std::printf("renderer: %s (%s)\n", renderer->capabilities().summary().c_str(),
                    context->platformDescription().c_str());
        std::printf("bricks: %zu\n", renderer->brickCount());
        std::printf("load_ms: %.2f\nupload_ms: %.2f\n", loadMs, uploadMs);
        std::printf("gpu_bytes: volume %zu, pyramid %zu (%.2f bytes per voxel)\n",
                    memory.volumeTextureBytes, memory.pyramidBytes,
                    double(memory.volumeTextureBytes + memory.pyramidBytes) /
                        double(memory.voxels));

        // One surface after the other through the same pyramid; each is kept for --merge-ply.
        const bool several = args->isos.size() > 1;
        std::vector<IsoMesh> surfaces;
        surfaces.reserve(args->isos.size());
        // Print preparation works in millimetres; the files then get the prepared meshes with
        // an identity geometry (or, for --voxel-space, the meshes mapped back to voxel indices).
        VolumeGeometry writtenGeometry = volume.geometry();
        if (args->steps.any() && !args->voxelSpace) writtenGeometry = VolumeGeometry{};
        for (std::size_t i = 0; i < args->isos.size(); ++i) {
            const double iso = args->isos[i];
            // Pyramid build plus the count read-back: the per-isovalue work before drawing.
            start = std::chrono::steady_clock::now();
            scene.setLiveIsovalue(iso);
            renderer->setScene(scene);
            renderer->extractSurface();
            const std::uint32_t vertexCount = renderer->vertexCount();
            const double extractMs = millisecondsSince(start);

            start = std::chrono::steady_clock::now();
            gpu::CapturedSurface captured = renderer->capture(scene.surfaces.selected().id);
            IsoMesh mesh = std::move(captured.mesh);
            const double captureMs = millisecondsSince(start);

            // Zero-area triangles (vertices on voxels that hold the isovalue) never reach a
            // file; print preparation drops them itself, after closing.
            const std::size_t zeroArea = args->steps.any() ? 0 : weldCoincidentVertices(mesh);

            if (several) std::printf("surface: %zu\n", i + 1);
            std::printf("isovalue: %g\n", iso);
            if (zeroArea > 0) std::printf("zero_area_triangles_removed: %zu\n", zeroArea);
            std::printf("triangles: %zu\n", mesh.triangleCount());
            if (mesh.triangleCount() == 0) {
                const ValueRange real = volume.realRange();
                std::fprintf(stderr,
                             "isoview-cli: warning: the surface at %g is empty (the volume's "
                             "values span %g .. %g)%s\n",
                             iso, real.min, real.max,
                             args->output.empty() ? "" : "; its file holds no triangles");
            }
            std::printf("vertices: %zu\n", mesh.vertexCount());
            std::printf("unwelded_vertices: %u\n", vertexCount);
            std::printf("extraction_ms: %.2f\ncapture_ms: %.2f\n", extractMs, captureMs);

            if (args->steps.any()) {
                start = std::chrono::steady_clock::now();
                PreparedMesh p = [&] {
                    const cli::TerminalProgress shown("preparing"); // cleared before the report
                    return prepareMesh(mesh, volume, iso, captured.crop, args->steps,
                                       shown.callback());
                }();
                std::printf("%s", p.report.text().c_str());
                std::printf("processing_ms: %.2f\n", millisecondsSince(start));
                mesh =
                    args->voxelSpace ? toIndexMesh(p.mesh, volume.geometry()) : std::move(p.mesh);
            }
            surfaces.push_back(std::move(mesh));
        }

        const std::string processing =
            args->steps.any() ? describeSteps(args->steps) : std::string();
        const MeshSpace space = args->voxelSpace ? MeshSpace::VoxelIndex : MeshSpace::Physical;
        PlyOptions plyOptions;
        plyOptions.encoding = args->ascii ? PlyEncoding::Ascii : PlyEncoding::BinaryLittleEndian;
        plyOptions.space = space;
        // DICOM, NRRD and MetaImage geometry is patient LPS; raw files carry none.
        const std::string& sourceFormat = volume.metadata().sourceFormat;
        plyOptions.physicalSpaceName =
            sourceFormat.empty() || sourceFormat == "raw" ? "world" : "LPS";
        plyOptions.processing = processing;
        // -o -: --format's, else the extension's.
        const auto formatOf = [&](const std::string& path) -> std::optional<MeshFormat> {
            return path == kStandardOutput ? args->format.value_or(MeshFormat::Ply)
                                           : meshFormatForPath(path);
        };
        const bool oneThreeMf = !args->output.empty() && !isNamePattern(args->output) &&
                                formatOf(args->output) == MeshFormat::ThreeMf;
        if (oneThreeMf) {
            const std::vector<glm::vec3>& palette = SurfaceList::palette();
            std::vector<NamedMesh> parts;
            for (std::size_t i = 0; i < surfaces.size(); ++i) {
                parts.push_back({&surfaces[i], "iso " + isoText(args->isos[i]),
                                 toColor8(palette[i % palette.size()])});
            }
            exportSurfaces3mf(args->output, parts, writtenGeometry,
                              {.space = space, .processing = processing});
            std::printf("wrote: %s\n",
                        args->output == kStandardOutput ? "standard output" : args->output.c_str());
        } else if (!args->output.empty()) {
            for (std::size_t i = 0; i < surfaces.size(); ++i) {
                const std::string path = outputFor(args->output, i, args->isos[i]);
                const std::optional<MeshFormat> format = formatOf(path);
                if (format != MeshFormat::Ply) { // checked: a known format
                    exportMesh(path, surfaces[i], writtenGeometry,
                               {.format = *format, .space = space, .processing = processing});
                } else {
                    writePly(path, surfaces[i], writtenGeometry, plyOptions);
                }
                std::printf("wrote: %s\n",
                            path == kStandardOutput ? "standard output" : path.c_str());
            }
        }
        if (!args->mergedPly.empty()) {
            const std::vector<glm::vec3>& palette = SurfaceList::palette();
            std::vector<ColoredSurface> parts;
            for (std::size_t i = 0; i < surfaces.size(); ++i)
                parts.push_back({&surfaces[i], toColor8(palette[i % palette.size()])});
            const MergedSurfaces merged = mergeSurfaces(parts);
            PlyOptions mergedOptions = plyOptions;
            mergedOptions.vertexColors = merged.vertexColors;
            writePly(args->mergedPly, merged.mesh, writtenGeometry, mergedOptions);
            std::printf("wrote: %s (%zu surfaces, %zu triangles)\n", args->mergedPly.c_str(),
                        surfaces.size(), merged.mesh.triangleCount());
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoview-cli: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "isoview-cli: unexpected error: %s\n", e.what());
        return 2;
    }
}
