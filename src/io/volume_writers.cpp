#include "io/volume_writers.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"
#include "io/header_text.h"
#include "io/raw_volume_reader.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <span>
#include <vector>
#include <zlib.h>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using detail::formatDouble;
using detail::quotedPath;

constexpr std::size_t kChunkBytes = 1 << 20; // a multiple of every voxel size

void requireRegularGrid(const fs::path& path, const Volume& volume, std::string_view format)
{
    if (volume.geometry().hasSliceOrigins()) {
        throw InvalidInputError("cannot write " + quotedPath(path) + " as " + std::string(format) +
                                ": the volume's slices are unevenly "
                                "spaced or sheared, which " +
                                std::string(format) + " cannot describe without resampling");
    }
}

// Calls sink with the voxels as little-endian bytes, at most kChunkBytes at a time.
void forEachLittleEndianChunk(const Volume& volume,
                              const std::function<void(const std::byte*, std::size_t)>& sink)
{
    const std::size_t elementSize = scalarSize(volume.type());
    const bool swap = std::endian::native == std::endian::big && elementSize > 1;
    std::vector<std::byte> buffer(swap ? kChunkBytes : 0);
    for (std::size_t offset = 0; offset < volume.byteCount(); offset += kChunkBytes) {
        const std::size_t n = std::min(kChunkBytes, volume.byteCount() - offset);
        if (!swap) {
            sink(volume.bytes() + offset, n);
            continue;
        }
        std::memcpy(buffer.data(), volume.bytes() + offset, n);
        detail::swapByteOrder(std::span<std::byte>(buffer.data(), n), elementSize);
        sink(buffer.data(), n);
    }
}

// Streams gzip-compressed bytes into a writer.
class GzipWriter {
public:
    explicit GzipWriter(AtomicFileWriter& out) : m_out(out), m_buffer(256 * 1024)
    {
        // 15-bit window + 16: a gzip wrapper (what NRRD's "encoding: gzip" means).
        if (deflateInit2(&m_stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            throw IoError("cannot write " + quotedPath(out.finalPath()) +
                          ": zlib could not start compressing");
        }
    }
    ~GzipWriter() { deflateEnd(&m_stream); }
    GzipWriter(const GzipWriter&) = delete;
    GzipWriter& operator=(const GzipWriter&) = delete;

    void write(const std::byte* data, std::size_t n)
    {
        m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data));
        m_stream.avail_in = uInt(n);
        while (m_stream.avail_in > 0)
            pump(Z_NO_FLUSH);
    }
    void finish()
    {
        while (pump(Z_FINISH) != Z_STREAM_END) {
        }
    }

private:
    int pump(int flush)
    {
        m_stream.next_out = reinterpret_cast<Bytef*>(m_buffer.data());
        m_stream.avail_out = uInt(m_buffer.size());
        const int result = deflate(&m_stream, flush);
        if (result == Z_STREAM_ERROR) {
            throw IoError("cannot write " + quotedPath(m_out.finalPath()) +
                          ": zlib failed while compressing");
        }
        m_out.write(m_buffer.data(), m_buffer.size() - m_stream.avail_out);
        return result;
    }

    AtomicFileWriter& m_out;
    z_stream m_stream{};
    std::vector<std::byte> m_buffer;
};

void writeText(AtomicFileWriter& out, const std::string& text)
{
    out.write(text.data(), text.size());
}

void writeVoxels(AtomicFileWriter& out, const Volume& volume, bool gzip)
{
    if (!gzip) {
        forEachLittleEndianChunk(volume,
                                 [&](const std::byte* data, std::size_t n) { out.write(data, n); });
        return;
    }
    GzipWriter compressor(out);
    forEachLittleEndianChunk(
        volume, [&](const std::byte* data, std::size_t n) { compressor.write(data, n); });
    compressor.finish();
}

std::string nrrdTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::Int8: return "signed char";
    case ScalarType::UInt8: return "uchar";
    case ScalarType::Int16: return "short";
    case ScalarType::UInt16: return "ushort";
    case ScalarType::Int32: return "int";
    case ScalarType::UInt32: return "uint";
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
    }
    return "uchar";
}

std::string metaTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::Int8: return "MET_CHAR";
    case ScalarType::UInt8: return "MET_UCHAR";
    case ScalarType::Int16: return "MET_SHORT";
    case ScalarType::UInt16: return "MET_USHORT";
    case ScalarType::Int32: return "MET_INT";
    case ScalarType::UInt32: return "MET_UINT";
    case ScalarType::Float32: return "MET_FLOAT";
    case ScalarType::Float64: return "MET_DOUBLE";
    }
    return "MET_UCHAR";
}

std::string nrrdVector(const glm::dvec3& v)
{
    return "(" + formatDouble(v.x) + "," + formatDouble(v.y) + "," + formatDouble(v.z) + ")";
}

std::string spaced(const glm::dvec3& v)
{
    return formatDouble(v.x) + " " + formatDouble(v.y) + " " + formatDouble(v.z);
}

std::string dimsLine(glm::uvec3 dims)
{
    return std::to_string(dims.x) + " " + std::to_string(dims.y) + " " + std::to_string(dims.z);
}

std::string lowerExtension(const fs::path& path)
{
    return detail::lowerCase(path.extension().string());
}

} // namespace

void writeNrrd(const std::filesystem::path& path, const Volume& volume, bool gzip)
{
    requireRegularGrid(path, volume, "NRRD");
    const VolumeGeometry& g = volume.geometry();
    const bool detached = lowerExtension(path) == ".nhdr";
    const fs::path dataPath =
        detached ? path.parent_path() / (path.stem().string() + (gzip ? ".raw.gz" : ".raw")) : path;

    std::string header = "NRRD0004\n# Written by isoview\n";
    header += "type: " + nrrdTypeName(volume.type()) + "\n";
    header += "dimension: 3\n";
    header += "space: left-posterior-superior\n";
    header += "sizes: " + dimsLine(volume.dims()) + "\n";
    header += "space directions:";
    for (int a = 0; a < 3; ++a)
        header += " " + nrrdVector(g.direction[a] * g.spacing[a]);
    header += "\nkinds: domain domain domain\n";
    if (scalarSize(volume.type()) > 1) header += "endian: little\n";
    header += std::string("encoding: ") + (gzip ? "gzip" : "raw") + "\n";
    header += "space origin: " + nrrdVector(g.origin) + "\n";
    if (volume.rescale().slope != 1.0 || volume.rescale().intercept != 0.0) {
        header += "isoview_rescale_slope:=" + formatDouble(volume.rescale().slope) + "\n";
        header += "isoview_rescale_intercept:=" + formatDouble(volume.rescale().intercept) + "\n";
    }
    if (detached) header += "data file: " + dataPath.filename().string() + "\n";

    if (detached) {
        AtomicFileWriter data(dataPath);
        writeVoxels(data, volume, gzip);
        data.commit();
        AtomicFileWriter out(path);
        writeText(out, header);
        out.commit();
    } else {
        AtomicFileWriter out(path);
        writeText(out, header + "\n");
        writeVoxels(out, volume, gzip);
        out.commit();
    }
    log::get("io")->info("wrote NRRD {} ({}, {})", path.string(),
                         detail::dimsText(volume.dims(), volume.type()), gzip ? "gzip" : "raw");
}

void writeMetaImage(const std::filesystem::path& path, const Volume& volume)
{
    const std::string extension = lowerExtension(path);
    if (extension != ".mhd" && extension != ".mha") {
        throw InvalidInputError("cannot write MetaImage " + quotedPath(path) +
                                ": the name must "
                                "end in .mhd (header + .raw data file) or .mha (one file)");
    }
    requireRegularGrid(path, volume, "MetaImage");
    const VolumeGeometry& g = volume.geometry();
    const bool local = extension == ".mha";
    const fs::path dataPath = path.parent_path() / (path.stem().string() + ".raw");

    std::string header = "ObjectType = Image\nNDims = 3\nBinaryData = True\n"
                         "BinaryDataByteOrderMSB = False\nCompressedData = False\n";
    header += "TransformMatrix = " + spaced(g.direction[0]) + " " + spaced(g.direction[1]) + " " +
              spaced(g.direction[2]) + "\n";
    header += "Offset = " + spaced(g.origin) + "\n";
    header += "CenterOfRotation = 0 0 0\n";
    header += "ElementSpacing = " + spaced(g.spacing) + "\n";
    header += "DimSize = " + dimsLine(volume.dims()) + "\n";
    header += "ElementType = " + metaTypeName(volume.type()) + "\n";
    header +=
        "ElementDataFile = " + (local ? std::string("LOCAL") : dataPath.filename().string()) + "\n";

    if (local) {
        AtomicFileWriter out(path);
        writeText(out, header);
        writeVoxels(out, volume, false);
        out.commit();
    } else {
        AtomicFileWriter data(dataPath);
        writeVoxels(data, volume, false);
        data.commit();
        AtomicFileWriter out(path);
        writeText(out, header);
        out.commit();
    }
    log::get("io")->info("wrote MetaImage {} ({})", path.string(),
                         detail::dimsText(volume.dims(), volume.type()));
}

std::string rawVolumeFileName(std::string_view name, const Volume& volume)
{
    const glm::uvec3 dims = volume.dims();
    return std::string(name) + "_" + std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
           std::to_string(dims.z) + "_" + std::string(scalarTypeName(volume.type())) + ".raw";
}

void writeRawVolume(const std::filesystem::path& path, const Volume& volume)
{
    const std::optional<RawVolumeParameters> named = parseRawFileName(path.filename().string());
    if (!named || named->dims != volume.dims() || named->type != volume.type()) {
        throw InvalidInputError("cannot write raw volume " + quotedPath(path) +
                                ": its name must give the " +
                                detail::dimsText(volume.dims(), volume.type()) +
                                " volume's size and type so that "
                                "it can be read back, e.g. '" +
                                rawVolumeFileName(path.stem().string(), volume) + "'");
    }
    AtomicFileWriter out(path);
    writeVoxels(out, volume, false);
    out.commit();
    log::get("io")->info("wrote raw volume {} ({})", path.string(),
                         detail::dimsText(volume.dims(), volume.type()));
}

} // namespace isoview::io
