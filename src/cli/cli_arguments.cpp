#include "cli_arguments.h"

#include "cli_labels.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "isoview_version.h"
#include "output_names.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <utility>

namespace isoview::cli {

namespace {

constexpr std::string_view kUsage =
    "Usage: isoview-cli PATH --iso VALUE [-o OUTPUT.ply|.stl|.obj|.3mf] [options]\n"
    "  or:  isoview-cli PATH --iso A --iso B ... [-o 'OUTPUT_{iso}.ply'] [--merge-ply ALL.ply]\n"
    "  or:  isoview-cli PATH --info [--series N]\n"
    "  or:  isoview-cli PATH --series all --iso VALUE -o 'OUTPUT_{t}.ply' (every time point)\n"
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

} // namespace

bool isNamePattern(const std::string& output)
{
    return output.find("{iso}") != std::string::npos || output.find("{n}") != std::string::npos ||
           output.find("{t}") != std::string::npos;
}

// "300", "-0.5", "40.5": the isovalue as a file name part.
std::string isoText(double iso)
{
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%g", iso);
    return buffer;
}

// The file the surface at `index` (from 0) is written to: the -o name, {iso} and {n} replaced.
std::string outputFor(const std::string& pattern, std::size_t index, double iso,
                      std::size_t timePoint)
{
    std::string name = pattern;
    replaceAll(name, "{iso}", isoText(iso));
    replaceAll(name, "{n}", std::to_string(index + 1));
    replaceAll(name, "{t}", std::to_string(timePoint + 1));
    return name;
}

namespace {

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

} // namespace

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
            if (a == "--series" && *v == "all") {
                args.allTimePoints = true;
                continue;
            }
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
    if (args.allTimePoints) {
        if (args.labels || args.info) {
            std::cerr << "isoview-cli: --series all extracts --iso surfaces of every time point; "
                         "it does not apply to --labels or --info\n";
            return std::nullopt;
        }
        if (!args.mergedPly.empty() || args.output == isoview::kStandardOutput ||
            (!args.output.empty() && args.output.find("{t}") == std::string::npos)) {
            std::cerr << "isoview-cli: --series all writes one file per time point: -o needs {t} "
                         "in its name (e.g. -o 'surface_{t}.ply'; with several --iso, {iso} or "
                         "{n} too)\n";
            return std::nullopt;
        }
    }
    if (!args.labels && !checkOutputNames(args)) return std::nullopt; // labels: checkLabelExport
    return args;
}

} // namespace isoview::cli
