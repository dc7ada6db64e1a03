#include "io/nifti_reader.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "io/gzip_stream.h"
#include "io/header_text.h"
#include "io/read_only_file.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nifti2_io.h>
#include <numbers>
#include <optional>
#include <unistd.h>
#include <utility>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using detail::printable;

static_assert(sizeof(nifti_1_header) == 348, "nifticlib's NIfTI-1 header must be 348 bytes");
static_assert(sizeof(nifti_2_header) == 540, "nifticlib's NIfTI-2 header must be 540 bytes");

constexpr std::size_t kNifti1HeaderBytes = 348;
constexpr std::size_t kNifti2HeaderBytes = 540;
constexpr std::size_t kHeadBytes = 544;           // a NIfTI-2 header and its extender
constexpr std::size_t kChunkBytes = 1 << 20;      // read and progress granularity
constexpr std::size_t kCheckAheadBytes = 1 << 18; // decoded past a gzip volume, for damage
constexpr double kTransformsAgreeMm = 0.01;       // qform and sform "agree" within this
constexpr double kMinVoxelMm = 1e-6;              // voxel sizes isoview accepts
constexpr double kMaxVoxelMm = 1e6;

[[noreturn]] void fail(const std::string& message)
{
    throw InvalidInputError(message);
}

std::string number(double value)
{
    std::array<char, 32> text{};
    const auto result =
        std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::general, 6);
    return std::string(text.data(), result.ptr);
}

// The fields isoview uses, widened to NIfTI-2's types so both versions share one reading.
struct Fields {
    int version = 1;
    bool paired = false;
    int datatype = 0;
    int bitpix = 0;
    std::array<std::int64_t, 8> dim{};
    std::array<double, 8> pixdim{};
    double voxOffset = 0.0;
    double sclSlope = 0.0;
    double sclInter = 0.0;
    double toffset = 0.0;
    std::string descrip;
    int qformCode = 0;
    int sformCode = 0;
    std::array<double, 3> quatern{};
    std::array<double, 3> qoffset{};
    std::array<std::array<double, 4>, 3> srow{};
    int xyztUnits = 0;
    int intentCode = 0;
};

std::string fixedText(const char* text, std::size_t size)
{
    const std::string_view view(text, size);
    return std::string(view.substr(0, view.find('\0')));
}

// The fields both header layouts share, in one form: NIfTI-2 stores them in wider types.
template <class Header> Fields sharedFields(const Header& h, int version, bool paired)
{
    Fields f;
    f.version = version;
    f.paired = paired;
    f.datatype = h.datatype;
    f.bitpix = h.bitpix;
    for (int i = 0; i < 8; ++i) {
        f.dim[i] = h.dim[i];
        f.pixdim[i] = h.pixdim[i];
    }
    f.sclSlope = h.scl_slope;
    f.sclInter = h.scl_inter;
    f.toffset = h.toffset;
    f.descrip = fixedText(h.descrip, sizeof h.descrip);
    f.intentCode = int(h.intent_code);
    f.qformCode = h.qform_code;
    f.sformCode = h.sform_code;
    f.quatern = {h.quatern_b, h.quatern_c, h.quatern_d};
    f.qoffset = {h.qoffset_x, h.qoffset_y, h.qoffset_z};
    for (int c = 0; c < 4; ++c) {
        f.srow[0][c] = h.srow_x[c];
        f.srow[1][c] = h.srow_y[c];
        f.srow[2][c] = h.srow_z[c];
    }
    return f;
}

Fields readNifti1(std::string_view bytes, bool swapped, bool paired)
{
    nifti_1_header h{};
    std::memcpy(&h, bytes.data(), sizeof h);
    if (swapped) nifti_swap_as_nifti1(&h);
    Fields f = sharedFields(h, 1, paired);
    f.voxOffset = h.vox_offset;
    f.xyztUnits = static_cast<unsigned char>(h.xyzt_units);
    return f;
}

Fields readNifti2(std::string_view bytes, bool swapped, bool paired)
{
    nifti_2_header h{};
    std::memcpy(&h, bytes.data(), sizeof h);
    if (swapped) nifti_swap_as_nifti2(&h);
    Fields f = sharedFields(h, 2, paired);
    f.voxOffset = h.vox_offset < 0 ? -1.0 : double(h.vox_offset);
    f.xyztUnits = h.xyzt_units;
    return f;
}

std::int32_t int32At(std::string_view bytes, std::size_t offset)
{
    std::int32_t value = 0;
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

// Recognises the version and byte order by sizeof_hdr, checks the magic, decodes the fields.
Fields readFields(std::string_view bytes)
{
    if (bytes.size() < 4) {
        fail("the file holds " + std::to_string(bytes.size()) +
             " bytes, too few for a NIfTI "
             "header (348 bytes for NIfTI-1, 540 for NIfTI-2)");
    }
    const std::int32_t size = int32At(bytes, 0);
    const std::int32_t swappedSize = std::int32_t(__builtin_bswap32(std::uint32_t(size)));
    const bool v1 = size == 348 || swappedSize == 348;
    const bool v2 = size == 540 || swappedSize == 540;
    if (!v1 && !v2) {
        fail("not a NIfTI file: sizeof_hdr (bytes 0-3) is " + std::to_string(size) +
             ", not 348 (NIfTI-1) or 540 (NIfTI-2)");
    }
    const bool swapped = size != 348 && size != 540;
    const std::size_t needed = v1 ? kNifti1HeaderBytes : kNifti2HeaderBytes;
    if (bytes.size() < needed) {
        fail("the header ends after " + std::to_string(bytes.size()) + " bytes; a NIfTI-" +
             (v1 ? "1 header has 348" : "2 header has 540"));
    }
    if (v1) {
        const std::string_view magic = bytes.substr(344, 4);
        if (magic == std::string_view("n+1\0", 4) || magic == std::string_view("ni1\0", 4)) {
            return readNifti1(bytes, swapped, magic[1] == 'i');
        }
        fail("no NIfTI-1 magic at byte 344 (found '" + printable(magic) +
             "' instead of 'n+1' "
             "or 'ni1'): an Analyze 7.5 header or a damaged file; isoview reads NIfTI only");
    }
    const std::string_view magic = bytes.substr(4, 8);
    const bool single = magic.substr(0, 4) == std::string_view("n+2\0", 4);
    if (!single && magic.substr(0, 4) != std::string_view("ni2\0", 4)) {
        fail("no NIfTI-2 magic at byte 4 (found '" + printable(magic.substr(0, 4)) +
             "' instead of 'n+2' or 'ni2')");
    }
    // nifticlib 3.0.1 itself writes zeros there; anything else is a damaged file.
    if (magic.substr(4) != std::string_view("\r\n\032\n", 4) &&
        magic.substr(4) != std::string_view("\0\0\0\0", 4)) {
        fail("the NIfTI-2 magic's bytes 8-11 are '" + printable(magic.substr(4)) +
             "' instead "
             "of \\r\\n\\x1A\\n: the file was altered in transfer (end-of-line conversion)");
    }
    return readNifti2(bytes, swapped, !single);
}

std::optional<ScalarType> scalarTypeOf(int datatype)
{
    switch (datatype) {
    case DT_UINT8: return ScalarType::UInt8;
    case DT_INT8: return ScalarType::Int8;
    case DT_UINT16: return ScalarType::UInt16;
    case DT_INT16: return ScalarType::Int16;
    case DT_UINT32: return ScalarType::UInt32;
    case DT_INT32: return ScalarType::Int32;
    case DT_FLOAT32: return ScalarType::Float32;
    case DT_FLOAT64: return ScalarType::Float64;
    default: return std::nullopt;
    }
}

void readLayout(const Fields& f, NiftiHeader& header)
{
    const std::int64_t rank = f.dim[0];
    if (rank < 1 || rank > 7) {
        fail("dim[0] is " + std::to_string(rank) + ": the number of dimensions must be 1 to 7");
    }
    std::array<std::int64_t, 8> dim{};
    for (std::int64_t a = 1; a <= 7; ++a) {
        const std::int64_t n = a <= rank ? f.dim[std::size_t(a)] : 1;
        if (n < 1) {
            fail("dim[" + std::to_string(a) + "] is " + std::to_string(n) +
                 ": every axis needs at least one voxel");
        }
        dim[std::size_t(a)] = n;
    }
    for (std::size_t a = 5; a <= 7; ++a) {
        if (dim[a] > 1) {
            fail("dim[" + std::to_string(a) + "] is " + std::to_string(dim[a]) +
                 ": isoview reads 3-D and 4-D (time series) NIfTI, not vector, matrix or "
                 "statistic components along dims 5-7");
        }
    }
    for (std::size_t a = 1; a <= 3; ++a) {
        if (std::uint64_t(dim[a]) > std::numeric_limits<std::uint32_t>::max()) {
            fail("dim[" + std::to_string(a) + "] is " + std::to_string(dim[a]) +
                 ": more than 2^32 voxels along one axis");
        }
    }
    header.dims = glm::uvec3(glm::uint(dim[1]), glm::uint(dim[2]), glm::uint(dim[3]));
    header.volumeCount = std::uint64_t(dim[4]);

    const std::optional<ScalarType> type = scalarTypeOf(f.datatype);
    if (!type) {
        const std::string name = nifti_datatype_string(f.datatype);
        fail("datatype " + std::to_string(f.datatype) + " (" +
             (name.starts_with("**") ? std::string("unknown") : name) +
             ") is not supported: isoview reads uint8, int8, uint16, int16, uint32, int32, "
             "float32 and float64");
    }
    header.type = *type;
    const std::size_t bits = scalarSize(*type) * 8;
    if (f.bitpix != int(bits)) {
        header.warnings.push_back("bitpix is " + std::to_string(f.bitpix) + " but datatype " +
                                  std::string(scalarTypeName(*type)) + " has " +
                                  std::to_string(bits) + " bits; the datatype was used");
    }
    const std::optional<std::uint64_t> volumeBytes = detail::voxelByteCount(header.dims, *type);
    if (!volumeBytes || !detail::checkedMultiply(*volumeBytes, header.volumeCount)) {
        fail("dim " + std::to_string(dim[1]) + "x" + std::to_string(dim[2]) + "x" +
             std::to_string(dim[3]) + "x" + std::to_string(dim[4]) + " of " +
             std::string(scalarTypeName(*type)) + " needs more than 2^64 bytes");
    }

    const double offset = f.voxOffset;
    if (!std::isfinite(offset) || offset < 0.0 || offset != std::floor(offset) || offset > 9.0e18) {
        fail("vox_offset " + number(offset) + " is not a whole number of bytes >= 0");
    }
    header.voxelOffset = std::uint64_t(offset);
    const std::uint64_t headerEnd = f.version == 1 ? 352 : 544; // header and extender
    if (!f.paired && header.voxelOffset < headerEnd) {
        header.warnings.push_back("vox_offset " + std::to_string(header.voxelOffset) +
                                  " lies inside the header; the voxels were read from byte " +
                                  std::to_string(headerEnd));
        header.voxelOffset = headerEnd;
    }
}

// The world-space (RAS) affine: rows x, y, z of [linear part | offset].
using Affine = std::array<std::array<double, 4>, 3>;

glm::dvec3 apply(const Affine& m, const glm::dvec3& ijk)
{
    glm::dvec3 out;
    for (int r = 0; r < 3; ++r) {
        out[r] = m[r][0] * ijk.x + m[r][1] * ijk.y + m[r][2] * ijk.z + m[r][3];
    }
    return out;
}

// pixdim[1..3] as voxel sizes: nifticlib's rule (zero or non-finite -> 1), with a warning.
glm::dvec3 voxelSizes(const Fields& f, NiftiHeader& header)
{
    glm::dvec3 sizes;
    for (int a = 0; a < 3; ++a) {
        const double d = f.pixdim[std::size_t(a) + 1];
        if (!std::isfinite(d) || d == 0.0) {
            header.warnings.push_back("pixdim[" + std::to_string(a + 1) + "] is " + number(d) +
                                      ", not a voxel size; 1 was used");
            sizes[a] = 1.0;
        } else {
            sizes[a] = std::abs(d);
        }
    }
    return sizes;
}

Affine qformAffine(const Fields& f, const glm::dvec3& sizes)
{
    for (double v : f.quatern) {
        if (!std::isfinite(v)) fail("quatern_b/c/d are not finite numbers; the qform is unusable");
    }
    for (double v : f.qoffset) {
        if (!std::isfinite(v)) fail("qoffset_x/y/z are not finite numbers; the qform is unusable");
    }
    const double qfac = f.pixdim[0] < 0.0 ? -1.0 : 1.0;
    const nifti_dmat44 m =
        nifti_quatern_to_dmat44(f.quatern[0], f.quatern[1], f.quatern[2], f.qoffset[0],
                                f.qoffset[1], f.qoffset[2], sizes.x, sizes.y, sizes.z, qfac);
    Affine a{};
    for (std::size_t r = 0; r < 3; ++r) {
        for (std::size_t c = 0; c < 4; ++c)
            a[r][c] = m.m[r][c];
    }
    return a;
}

Affine sformAffine(const Fields& f)
{
    for (const auto& row : f.srow) {
        for (double v : row) {
            if (!std::isfinite(v))
                fail("srow_x/y/z hold a non-finite number; the sform is "
                     "unusable");
        }
    }
    return f.srow;
}

// The largest distance between where two affines put the volume's corner voxels.
double cornerDisagreement(const Affine& a, const Affine& b, glm::uvec3 dims)
{
    double worst = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        const glm::dvec3 ijk((corner & 1) != 0 ? dims.x - 1.0 : 0.0,
                             (corner & 2) != 0 ? dims.y - 1.0 : 0.0,
                             (corner & 4) != 0 ? dims.z - 1.0 : 0.0);
        worst = std::max(worst, glm::length(apply(a, ijk) - apply(b, ijk)));
    }
    return worst;
}

double spatialUnitToMm(const Fields& f, NiftiHeader& header)
{
    switch (XYZT_TO_SPACE(f.xyztUnits)) {
    case NIFTI_UNITS_METER: return 1000.0;
    case NIFTI_UNITS_MM: return 1.0;
    case NIFTI_UNITS_MICRON: return 0.001;
    case NIFTI_UNITS_UNKNOWN:
        header.warnings.push_back("xyzt_units names no spatial unit; millimetres assumed");
        return 1.0;
    default:
        header.warnings.push_back("xyzt_units " + std::to_string(f.xyztUnits) +
                                  " names an unknown spatial unit; millimetres assumed");
        return 1.0;
    }
}

void readGeometry(const Fields& f, NiftiHeader& header)
{
    header.qformCode = f.qformCode;
    header.sformCode = f.sformCode;
    const double toMm = spatialUnitToMm(f, header);
    Affine affine{};
    if (f.sformCode > 0) {
        header.transform = NiftiTransform::Sform;
        affine = sformAffine(f);
        if (f.qformCode > 0) {
            // Only compared: an unusable qform beside a usable sform is a warning, not an error.
            try {
                NiftiHeader scratch;
                const Affine qform = qformAffine(f, voxelSizes(f, scratch));
                const double apart = cornerDisagreement(affine, qform, header.dims) * toMm;
                if (apart > kTransformsAgreeMm) {
                    header.warnings.push_back(
                        "the qform (code " + std::to_string(f.qformCode) +
                        ") and the sform (code " + std::to_string(f.sformCode) +
                        ") disagree by up to " + number(apart) +
                        " mm at the volume's corners; the sform was used (sform_code > 0 wins)");
                }
            } catch (const InvalidInputError& e) {
                header.warnings.push_back(std::string("the qform is unusable (") + e.what() +
                                          "); the sform was used");
            }
        }
    } else if (f.qformCode > 0) {
        header.transform = NiftiTransform::Qform;
        affine = qformAffine(f, voxelSizes(f, header));
    } else {
        header.transform = NiftiTransform::Pixdim;
        const glm::dvec3 sizes = voxelSizes(f, header);
        for (std::size_t a = 0; a < 3; ++a)
            affine[a][a] = sizes[int(a)];
        header.warnings.push_back("neither qform nor sform is set (both codes 0): voxel sizes "
                                  "from pixdim, origin at 0, orientation unknown (NIfTI "
                                  "method 1)");
    }

    // RAS+ to LPS: x and y change sign. Method 1 has no patient orientation to convert.
    const double flip = header.transform == NiftiTransform::Pixdim ? 1.0 : -1.0;
    const glm::dvec3 rowSign(flip, flip, 1.0);
    VolumeGeometry& g = header.geometry;
    for (int a = 0; a < 3; ++a) {
        glm::dvec3 column;
        for (int r = 0; r < 3; ++r) {
            column[r] = affine[std::size_t(r)][std::size_t(a)] * toMm * rowSign[r];
        }
        const double length = glm::length(column);
        // Outside these bounds no scanner's voxel lies, and unit directions lose precision.
        if (!(length >= kMinVoxelMm && length <= kMaxVoxelMm)) {
            const char* source = header.transform == NiftiTransform::Sform   ? "the sform"
                                 : header.transform == NiftiTransform::Qform ? "the qform"
                                                                             : "pixdim";
            fail(std::string(source) + " makes axis " + std::to_string(a + 1) + " " +
                 number(length) + " mm per voxel; a voxel size must lie between 1e-6 and 1e6 mm");
        }
        g.spacing[a] = length;
        g.direction[a] = column / length;
        g.origin[a] = affine[std::size_t(a)][3] * toMm * rowSign[a];
    }
    if (!std::isfinite(g.origin.x) || !std::isfinite(g.origin.y) || !std::isfinite(g.origin.z)) {
        fail("the transform's origin is not finite in millimetres");
    }
    if (!(std::abs(glm::determinant(g.direction)) > 1e-6)) {
        fail("the transform's axes are (nearly) parallel, so the voxels have no volume");
    }
    double worstCosine = 0.0;
    for (int a = 0; a < 3; ++a) {
        worstCosine =
            std::max(worstCosine, std::abs(glm::dot(g.direction[a], g.direction[(a + 1) % 3])));
    }
    if (worstCosine > 1e-4) {
        const double degrees =
            90.0 - std::acos(std::min(worstCosine, 1.0)) * 180.0 / std::numbers::pi;
        header.warnings.push_back("the sform is sheared (axes up to " + number(degrees) +
                                  " degrees from perpendicular); kept exactly as non-orthogonal "
                                  "axis directions");
    }
}

void readValues(const Fields& f, NiftiHeader& header)
{
    const double slope = f.sclSlope;
    if (!std::isfinite(slope)) {
        header.warnings.push_back("scl_slope is " + number(slope) + ": no value scaling");
    } else if (slope < 0.0) {
        header.warnings.push_back("scl_slope " + number(slope) +
                                  " is negative, which isoview "
                                  "cannot apply: values are shown as stored");
    } else if (slope > 0.0) {
        header.rescale.slope = slope;
        if (std::isfinite(f.sclInter)) {
            header.rescale.intercept = f.sclInter;
        } else {
            header.warnings.push_back("scl_inter is " + number(f.sclInter) + "; 0 was used");
        }
    } // 0: no scaling, as the standard says

    double toSeconds = 0.0;
    switch (XYZT_TO_TIME(f.xyztUnits)) {
    case NIFTI_UNITS_SEC: toSeconds = 1.0; break;
    case NIFTI_UNITS_MSEC: toSeconds = 1e-3; break;
    case NIFTI_UNITS_USEC: toSeconds = 1e-6; break;
    default: break; // no time unit, or Hz / ppm / rad/s: not a time axis
    }
    const double step = f.pixdim[4] * toSeconds;
    if (std::isfinite(step) && step > 0.0) {
        header.timeStepSeconds = step;
        const double offset = f.toffset * toSeconds;
        header.timeOffsetSeconds = std::isfinite(offset) ? offset : 0.0;
    }
    header.description = f.descrip;
    header.declaresLabels = f.intentCode == NIFTI_INTENT_LABEL;
}

// ---- files ----

bool isGzip(detail::ReadOnlyFile& file)
{
    std::array<unsigned char, 2> magic{};
    return file.readSome(0, magic.data(), 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

// A file's bytes read in order, decompressed when it is gzip. IoError names `label`.
class ByteStream {
public:
    ByteStream(const fs::path& path, const std::string& prefix, const std::string& label)
        : m_file(path, prefix, label)
    {
        if (isGzip(m_file)) m_gzip.emplace(m_file, 0, m_file.size());
    }
    ByteStream(const ByteStream&) = delete;
    ByteStream& operator=(const ByteStream&) = delete;

    bool compressed() const { return m_gzip.has_value(); }
    std::uint64_t fileSize() const { return m_file.size(); }
    std::uint64_t position() const { return m_position; }
    const std::string& label() const { return m_file.label(); }

    // Moves forward to a (decompressed) position; raw files just jump there.
    void skipTo(std::uint64_t target, LoadMonitor* monitor, const std::string& stage)
    {
        if (!m_gzip) {
            m_position = target;
            return;
        }
        if (target < m_position) { // back to the start (the header was read past target)
            m_gzip.reset();
            m_gzip.emplace(m_file, 0, m_file.size());
            m_position = 0;
        }
        std::vector<std::byte> scratch(kChunkBytes);
        const std::uint64_t start = m_position;
        while (m_position < target) {
            reportProgress(monitor, stage, m_position - start, target - start);
            const std::size_t n =
                std::size_t(std::min<std::uint64_t>(kChunkBytes, target - m_position));
            if (read(scratch.data(), n) < n) return; // the caller sees position() < target
        }
    }

    // Reads up to n bytes; fewer only at the end of the data (incomplete() then says whether a
    // gzip stream was cut short). IoError for corrupt compressed data and read failures.
    std::size_t read(std::byte* destination, std::size_t n)
    {
        std::size_t done = 0;
        if (m_gzip) {
            done = m_gzip->read(destination, n);
            m_gzip->throwIfCorrupt();
        } else {
            while (done < n) {
                const std::size_t got =
                    m_file.readSome(m_position + done, destination + done, n - done);
                if (got == 0) break;
                done += got;
            }
        }
        m_position += done;
        return done;
    }

    // Decodes up to n bytes past the position without keeping them, up to the end of the gzip
    // member at most: damage soon after the bytes read is an IoError, among it a wrong check
    // value of a stream that decodes a little longer than the header says. Raw files: nothing.
    void checkAhead(std::size_t n)
    {
        if (!m_gzip) return;
        std::vector<std::byte> scratch(n);
        m_position += m_gzip->readInMember(scratch.data(), n);
        m_gzip->throwIfCorrupt();
    }

    bool incomplete() const
    {
        return m_gzip && m_gzip->state() == detail::GzipStream::State::Truncated;
    }

private:
    detail::ReadOnlyFile m_file;
    std::optional<detail::GzipStream> m_gzip; // only for gzip files
    std::uint64_t m_position = 0;
};

// The .img of a .hdr (.img.gz of a .hdr.gz), in the header name's letter case.
fs::path imageFileOf(const fs::path& headerPath)
{
    std::string name = headerPath.filename().string();
    const std::string lower = detail::lowerCase(name);
    const std::size_t at = lower.ends_with(".hdr.gz") ? name.size() - 7
                           : lower.ends_with(".hdr")  ? name.size() - 4
                                                      : std::string::npos;
    if (at == std::string::npos) {
        throw InvalidInputError("cannot read NIfTI " + detail::quotedPath(headerPath) +
                                ": its header says the voxels are in a separate .img file, but "
                                "its name does not end in .hdr or .hdr.gz");
    }
    const bool upper = name[at + 1] == 'H';
    name.replace(at + 1, 3, upper ? "IMG" : "img");
    return headerPath.parent_path() / name;
}

NiftiHeader parseWithPrefix(std::string_view bytes, const std::string& what, bool compressed,
                            bool incomplete)
{
    try {
        return parseNiftiHeader(bytes);
    } catch (const InvalidInputError& e) {
        if (compressed && incomplete) {
            throw IoError("cannot read " + what + ": the compressed data end after " +
                          std::to_string(bytes.size()) +
                          " bytes, inside the header (the file "
                          "is truncated)");
        }
        throw InvalidInputError("cannot read " + what + ": " + e.what());
    }
}

std::string plural(std::uint64_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

NiftiHeader parseNiftiHeader(std::string_view bytes)
{
    const Fields fields = readFields(bytes);
    NiftiHeader header;
    header.version = fields.version;
    header.pairedFiles = fields.paired;
    header.bigEndian = (int32At(bytes, 0) == 348 || int32At(bytes, 0) == 540) ==
                       (std::endian::native == std::endian::big);
    readLayout(fields, header);
    readGeometry(fields, header);
    readValues(fields, header);
    return header;
}

NiftiHeader readNiftiHeader(const fs::path& path)
{
    const std::string what = "NIfTI " + detail::quotedPath(path);
    ByteStream stream(path, "cannot read " + what + ": ", "the file");
    std::string head(kHeadBytes, '\0');
    head.resize(stream.read(reinterpret_cast<std::byte*>(head.data()), head.size()));
    return parseWithPrefix(head, what, stream.compressed(), stream.incomplete());
}

bool looksLikeNifti(const fs::path& path)
{
    try {
        const InputFile file = InputFile::open(path, detail::quotedPath(path));
        std::array<char, kNifti1HeaderBytes> head{};
        if (::pread(file.fd(), head.data(), head.size(), 0) != ssize_t(head.size())) return false;
        const std::string_view bytes(head.data(), head.size());
        const std::int32_t size = int32At(bytes, 0);
        const std::int32_t swapped = std::int32_t(__builtin_bswap32(std::uint32_t(size)));
        if (size == 348 || swapped == 348) {
            return bytes.substr(344, 4) == std::string_view("n+1\0", 4);
        }
        return (size == 540 || swapped == 540) &&
               bytes.substr(4, 4) == std::string_view("n+2\0", 4);
    } catch (const Error&) {
        return false;
    }
}

std::string niftiVolumeLabel(const NiftiHeader& header, std::uint64_t volumeIndex)
{
    if (header.volumeCount <= 1) return {};
    std::string label =
        "volume " + std::to_string(volumeIndex + 1) + " of " + std::to_string(header.volumeCount);
    if (header.timeStepSeconds > 0.0) {
        const double t = header.timeOffsetSeconds + double(volumeIndex) * header.timeStepSeconds;
        label += " (t = " + number(t) + " s)";
    }
    return label;
}

std::uint64_t niftiVolumesInFile(const fs::path& path, const NiftiHeader& header)
{
    const std::string what = "NIfTI " + detail::quotedPath(path);
    const fs::path dataPath = header.pairedFiles ? imageFileOf(path) : path;
    detail::ReadOnlyFile file(dataPath, "cannot read " + what + ": ",
                              header.pairedFiles ? "image file " + detail::quotedPath(dataPath)
                                                 : "the file");
    const std::uint64_t volumeBytes = *detail::voxelByteCount(header.dims, header.type);
    detail::HeaderClaim claim{.subject = what,
                              .itemName = "volume",
                              .itemText = detail::dimsText(header.dims, header.type),
                              .count = header.volumeCount,
                              .itemBytes = volumeBytes};
    if (isGzip(file)) {
        // Offsets count decoded bytes; the compressed ones bound them (deflate's 1032:1).
        claim.subject += " (gzip)";
        claim.fileBytes = file.size();
        claim.minStoredItemBytes = volumeBytes / detail::kMaxDeflateRatio;
    } else {
        claim.subject += " (voxels from byte " + std::to_string(header.voxelOffset) + ")";
        claim.fileBytes = file.size() > header.voxelOffset ? file.size() - header.voxelOffset : 0;
        claim.minStoredItemBytes = volumeBytes;
    }
    return detail::itemsInFile(claim, detail::ClaimShortfall::Count);
}

Volume readNifti(const fs::path& path, std::uint64_t volumeIndex, LoadMonitor* monitor)
{
    const std::string what = "NIfTI " + detail::quotedPath(path);
    const std::string prefix = "cannot read " + what + ": ";
    reportProgress(monitor, "reading header", 0, 0);
    std::optional<ByteStream> stream;
    stream.emplace(path, prefix, "the file");
    std::string head(kHeadBytes, '\0');
    head.resize(stream->read(reinterpret_cast<std::byte*>(head.data()), head.size()));
    const NiftiHeader header =
        parseWithPrefix(head, what, stream->compressed(), stream->incomplete());
    if (volumeIndex >= header.volumeCount) {
        throw InvalidInputError("volume " + std::to_string(volumeIndex) +
                                " does not exist: " + detail::quotedPath(path) + " holds " +
                                plural(header.volumeCount, "volume") + " (numbered from 0)");
    }
    if (header.pairedFiles) {
        const fs::path image = imageFileOf(path);
        stream.reset();
        stream.emplace(image, prefix, "image file " + detail::quotedPath(image));
    }

    // Every count is checked before the voxel buffer exists.
    const std::uint64_t volumeBytes = *detail::voxelByteCount(header.dims, header.type);
    const std::uint64_t start = header.voxelOffset + volumeIndex * volumeBytes;
    const std::uint64_t end = start + volumeBytes;
    const std::uint64_t allEnd = header.voxelOffset + header.volumeCount * volumeBytes;
    if (end < start || allEnd < header.voxelOffset) {
        throw InvalidInputError(prefix + "vox_offset " + std::to_string(header.voxelOffset) +
                                " plus the voxels exceeds 2^64 bytes");
    }
    detail::requireLoadable(monitor, what, header.dims, header.type, volumeBytes);
    const std::string which = header.volumeCount > 1
                                  ? "volume " + std::to_string(volumeIndex + 1) + " of " +
                                        std::to_string(header.volumeCount) + " (" +
                                        detail::dimsText(header.dims, header.type) + ")"
                                  : detail::dimsText(header.dims, header.type);
    const std::string needs = which + " needs bytes " + std::to_string(start) + " to " +
                              std::to_string(end) + " (vox_offset " +
                              std::to_string(header.voxelOffset) + ")";
    std::vector<std::string> warnings = header.warnings;
    const std::uint64_t fileSize = stream->fileSize();
    if (!stream->compressed()) {
        if (fileSize < end) {
            throw IoError(prefix + stream->label() + " holds " + std::to_string(fileSize) +
                          " bytes, but " + needs +
                          "; the file is truncated, or the header's "
                          "dimensions or type are wrong");
        }
        if (fileSize < allEnd) {
            warnings.push_back(stream->label() + " holds " + std::to_string(fileSize) +
                               " bytes, fewer than the " + std::to_string(allEnd) + " of all " +
                               plural(header.volumeCount, "volume") +
                               ": later volumes are missing");
        }
    } else if (fileSize == 0 || end / detail::kMaxDeflateRatio > fileSize) {
        throw IoError(prefix + stream->label() + " holds only " + std::to_string(fileSize) +
                      " bytes of compressed data, which cannot decompress to the " +
                      std::to_string(end) + " bytes that " + which +
                      " ends at; the file is "
                      "truncated, or the header's dimensions or type are wrong");
    }

    stream->skipTo(start, monitor, "skipping to volume " + std::to_string(volumeIndex + 1));
    std::vector<std::byte> voxels;
    voxels.reserve(std::size_t(volumeBytes)); // filled as the data arrive
    while (stream->position() == start + voxels.size() && voxels.size() < volumeBytes) {
        reportProgress(monitor, "reading voxels", voxels.size(), volumeBytes);
        const std::size_t at = voxels.size();
        const std::size_t n = std::size_t(std::min<std::uint64_t>(kChunkBytes, volumeBytes - at));
        voxels.resize(at + n);
        const std::size_t got = stream->read(voxels.data() + at, n);
        voxels.resize(at + got);
        if (got < n) break;
    }
    if (voxels.size() < volumeBytes) {
        throw IoError(prefix + "the " + std::string(stream->compressed() ? "compressed " : "") +
                      "data in " + stream->label() + " end after " +
                      std::to_string(stream->position()) + " bytes" +
                      (stream->compressed() ? " decompressed" : "") + ", but " + needs +
                      (stream->incomplete() ? "; the compressed stream is cut short" : "") +
                      "; the file is truncated");
    }
    stream->checkAhead(kCheckAheadBytes);
    reportProgress(monitor, "reading voxels", volumeBytes, volumeBytes);
    if (header.bigEndian != (std::endian::native == std::endian::big)) {
        detail::swapByteOrder(voxels, scalarSize(header.type));
    }

    Volume volume(header.dims, header.type, std::move(voxels), header.geometry, header.rescale);
    VolumeMetadata metadata;
    metadata.sourceFormat = header.version == 1 ? "NIfTI-1" : "NIfTI-2";
    metadata.patientSpace = header.transform != NiftiTransform::Pixdim;
    metadata.seriesDescription = header.description;
    metadata.declaresLabelMap = header.declaresLabels;
    metadata.warnings = std::move(warnings);
    for (const std::string& warning : metadata.warnings) {
        log::get("io")->warn("{}: {}", what, warning);
    }
    volume.setMetadata(std::move(metadata));
    const VolumeGeometry& g = header.geometry;
    log::get("io")->info("read {} ({}{}, {}, spacing {} x {} x {})", what,
                         detail::dimsText(header.dims, header.type),
                         header.volumeCount > 1 ? ", " + niftiVolumeLabel(header, volumeIndex)
                                                : std::string(),
                         header.transform == NiftiTransform::Sform   ? "sform"
                         : header.transform == NiftiTransform::Qform ? "qform"
                                                                     : "pixdim",
                         g.spacing.x, g.spacing.y, g.spacing.z);
    return volume;
}

} // namespace isoview::io
