// writePly: exact header text, values read back by an independent reader written here (and by
// VTK), winding under mirroring geometry, locale independence of the ASCII form.
#include "core/error.h"
#include "mesh_export/mesh_export_test_support.h"
#include "mesh_export/ply_writer.h"
#include "support/file_contents.h"
#include "support/locale_guard.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::encodingName;
using test::GlobalLocaleGuard;
using test::makeTetrahedron;
using test::readFile;
using test::TempDir;
using test::useCommaDecimalGlobally;

// --- A small PLY reader, independent of the writer: it knows only the PLY format. ----------

struct PlyFile {
    std::string header; // up to and including "end_header\n"
    std::vector<std::array<float, 6>> vertices;
    std::vector<std::array<std::int32_t, 3>> faces;
};

std::uint32_t littleEndian32(const std::string& bytes, std::size_t at)
{
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
        value = (value << 8) | std::uint8_t(bytes.at(at + i));
    return value;
}

template <class T> T parseToken(std::string_view token)
{
    T value{};
    const auto result = std::from_chars(token.data(), token.data() + token.size(), value);
    if (result.ec != std::errc() || result.ptr != token.data() + token.size()) {
        throw std::runtime_error("bad number '" + std::string(token) + "'");
    }
    return value;
}

PlyFile readPly(const fs::path& path)
{
    const std::string bytes = readFile(path);
    const std::string endHeader = "end_header\n";
    const std::size_t headerEnd = bytes.find(endHeader);
    if (bytes.rfind("ply\n", 0) != 0 || headerEnd == std::string::npos) {
        throw std::runtime_error("not a PLY file");
    }
    PlyFile ply;
    ply.header = bytes.substr(0, headerEnd + endHeader.size());

    std::istringstream header(ply.header);
    std::string line;
    std::string format;
    std::size_t vertexCount = 0;
    std::size_t faceCount = 0;
    while (std::getline(header, line)) {
        if (line.rfind("format ", 0) == 0) format = line.substr(7);
        if (line.rfind("element vertex ", 0) == 0) vertexCount = std::stoul(line.substr(15));
        if (line.rfind("element face ", 0) == 0) faceCount = std::stoul(line.substr(13));
    }

    std::size_t at = ply.header.size();
    if (format == "binary_little_endian 1.0") {
        for (std::size_t v = 0; v < vertexCount; ++v) {
            std::array<float, 6> vertex{};
            for (float& value : vertex) {
                value = std::bit_cast<float>(littleEndian32(bytes, at));
                at += 4;
            }
            ply.vertices.push_back(vertex);
        }
        for (std::size_t f = 0; f < faceCount; ++f) {
            if (std::uint8_t(bytes.at(at)) != 3) throw std::runtime_error("face is no triangle");
            ++at;
            std::array<std::int32_t, 3> face{};
            for (std::int32_t& index : face) {
                index = std::bit_cast<std::int32_t>(littleEndian32(bytes, at));
                at += 4;
            }
            ply.faces.push_back(face);
        }
        if (at != bytes.size()) throw std::runtime_error("trailing bytes after the faces");
    } else if (format == "ascii 1.0") {
        std::vector<std::string_view> tokens;
        const std::string_view body = std::string_view(bytes).substr(at);
        std::size_t start = 0;
        while (start < body.size()) {
            const std::size_t end = body.find_first_of(" \n", start);
            const std::size_t stop = end == std::string_view::npos ? body.size() : end;
            if (stop > start) tokens.push_back(body.substr(start, stop - start));
            start = stop + 1;
        }
        std::size_t t = 0;
        for (std::size_t v = 0; v < vertexCount; ++v) {
            std::array<float, 6> vertex{};
            for (float& value : vertex)
                value = parseToken<float>(tokens.at(t++));
            ply.vertices.push_back(vertex);
        }
        for (std::size_t f = 0; f < faceCount; ++f) {
            if (parseToken<int>(tokens.at(t++)) != 3) throw std::runtime_error("not a triangle");
            std::array<std::int32_t, 3> face{};
            for (std::int32_t& index : face)
                index = parseToken<std::int32_t>(tokens.at(t++));
            ply.faces.push_back(face);
        }
        if (t != tokens.size()) throw std::runtime_error("trailing values after the faces");
    } else {
        throw std::runtime_error("unknown format '" + format + "'");
    }
    return ply;
}

// --- Test meshes -------------------------------------------------------------------------

VolumeGeometry anisotropicGeometry()
{
    VolumeGeometry geometry;
    geometry.spacing = {0.5, 0.75, 2.0};
    geometry.origin = {10.0, -20.0, 30.25};
    return geometry;
}

// Anisotropic, oblique and mirrored (determinant < 0), like a DICOM series whose slices are
// ordered against the slice normal.
VolumeGeometry mirroredGeometry()
{
    VolumeGeometry geometry = anisotropicGeometry();
    const double c = std::cos(0.3);
    const double s = std::sin(0.3);
    geometry.direction =
        glm::dmat3(glm::dvec3(c, s, 0.0), glm::dvec3(-s, c, 0.0), glm::dvec3(0.0, 0.0, -1.0));
    return geometry;
}

glm::vec3 positionOf(const PlyFile& ply, std::size_t v)
{
    return {ply.vertices[v][0], ply.vertices[v][1], ply.vertices[v][2]};
}

glm::vec3 normalOf(const PlyFile& ply, std::size_t v)
{
    return {ply.vertices[v][3], ply.vertices[v][4], ply.vertices[v][5]};
}

// For the convex test mesh: every written triangle, taken counter-clockwise, and every written
// vertex normal must point away from the mesh's centre (affine maps keep the centre and
// convexity, so this holds in any output space when winding and normals are right).
void expectOutwardWindingAndNormals(const PlyFile& ply)
{
    glm::vec3 centre(0.0f);
    for (std::size_t v = 0; v < ply.vertices.size(); ++v)
        centre += positionOf(ply, v);
    centre /= float(ply.vertices.size());
    for (const auto& face : ply.faces) {
        const glm::vec3 a = positionOf(ply, std::size_t(face[0]));
        const glm::vec3 b = positionOf(ply, std::size_t(face[1]));
        const glm::vec3 c = positionOf(ply, std::size_t(face[2]));
        const glm::vec3 faceNormal = glm::cross(b - a, c - a);
        EXPECT_GT(glm::dot(faceNormal, (a + b + c) / 3.0f - centre), 0.0f)
            << "triangle " << face[0] << " " << face[1] << " " << face[2] << " faces inward";
    }
    for (std::size_t v = 0; v < ply.vertices.size(); ++v) {
        EXPECT_GT(glm::dot(normalOf(ply, v), positionOf(ply, v) - centre), 0.0f)
            << "normal of vertex " << v << " points inward";
    }
}

const std::string kBinaryPhysicalHeader = "ply\n"
                                          "format binary_little_endian 1.0\n"
                                          "comment isoview SPACE=LPS units=mm\n"
                                          "element vertex 4\n"
                                          "property float x\n"
                                          "property float y\n"
                                          "property float z\n"
                                          "property float nx\n"
                                          "property float ny\n"
                                          "property float nz\n"
                                          "element face 4\n"
                                          "property list uchar int vertex_indices\n"
                                          "end_header\n";

// --- Tests ---------------------------------------------------------------------------------

TEST(PlyWriter, BinaryHeaderIsExact)
{
    TempDir dir;
    const fs::path path = dir.path() / "mesh.ply";
    writePly(path, makeTetrahedron({}), {});
    const std::string bytes = readFile(path);
    EXPECT_EQ(bytes.substr(0, kBinaryPhysicalHeader.size()), kBinaryPhysicalHeader);
    EXPECT_EQ(bytes.size(), kBinaryPhysicalHeader.size() + 4 * 24 + 4 * 13);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"mesh.ply"});
}

TEST(PlyWriter, AsciiVoxelHeaderIsExact)
{
    TempDir dir;
    const fs::path path = dir.path() / "mesh.ply";
    PlyOptions options;
    options.encoding = PlyEncoding::Ascii;
    options.space = MeshSpace::VoxelIndex;
    writePly(path, makeTetrahedron({}), {}, options);
    const std::string expected = "ply\n"
                                 "format ascii 1.0\n"
                                 "comment isoview SPACE=voxel units=index\n"
                                 "element vertex 4\n"
                                 "property float x\n"
                                 "property float y\n"
                                 "property float z\n"
                                 "property float nx\n"
                                 "property float ny\n"
                                 "property float nz\n"
                                 "element face 4\n"
                                 "property list uchar int vertex_indices\n"
                                 "end_header\n";
    EXPECT_EQ(readPly(path).header, expected);
}

TEST(PlyWriter, CustomSpaceNameGoesIntoTheComment)
{
    TempDir dir;
    const fs::path path = dir.path() / "mesh.ply";
    PlyOptions options;
    options.physicalSpaceName = "RAS";
    writePly(path, makeTetrahedron({}), {}, options);
    EXPECT_NE(readPly(path).header.find("\ncomment isoview SPACE=RAS units=mm\n"),
              std::string::npos);
}

TEST(PlyWriter, BinaryRoundTripInPhysicalSpace)
{
    TempDir dir;
    const fs::path path = dir.path() / "mesh.ply";
    const VolumeGeometry geometry = anisotropicGeometry();
    const IsoMesh mesh = makeTetrahedron(geometry);
    writePly(path, mesh, geometry);

    const PlyFile ply = readPly(path);
    ASSERT_EQ(ply.vertices.size(), mesh.vertexCount());
    ASSERT_EQ(ply.faces.size(), mesh.triangleCount());
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 expected =
            geometry.origin + geometry.spacing * glm::dvec3(mesh.positions[v]);
        EXPECT_EQ(positionOf(ply, v), glm::vec3(expected)) << "vertex " << v;
        EXPECT_EQ(normalOf(ply, v), mesh.normals[v]) << "vertex " << v;
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        for (std::size_t c = 0; c < 3; ++c) {
            EXPECT_EQ(ply.faces[t][c], std::int32_t(mesh.indices[3 * t + c]));
        }
    }
    expectOutwardWindingAndNormals(ply);
}

TEST(PlyWriter, BinaryIsLittleEndian)
{
    TempDir dir;
    const fs::path path = dir.path() / "one.ply";
    IsoMesh mesh;
    mesh.positions = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    mesh.normals.assign(3, glm::vec3(0.0f));
    mesh.indices = {0, 1, 2};
    writePly(path, mesh, {});
    const std::string bytes = readFile(path);
    const std::size_t body = bytes.find("end_header\n") + 11;
    // 1.0f is 0x3f800000: least significant byte first.
    EXPECT_EQ(bytes.substr(body, 4), std::string("\x00\x00\x80\x3f", 4));
    // The face record: count 3, then int 0, 1, 2 little-endian.
    EXPECT_EQ(bytes.substr(body + 3 * 24), std::string("\x03"
                                                       "\x00\x00\x00\x00"
                                                       "\x01\x00\x00\x00"
                                                       "\x02\x00\x00\x00",
                                                       13));
}

TEST(PlyWriter, MirroredGeometryReversesWinding)
{
    TempDir dir;
    const fs::path path = dir.path() / "mirrored.ply";
    const VolumeGeometry geometry = mirroredGeometry();
    ASSERT_TRUE(geometry.isMirrored());
    const IsoMesh mesh = makeTetrahedron(geometry);
    writePly(path, mesh, geometry);

    const PlyFile ply = readPly(path);
    ASSERT_EQ(ply.faces.size(), mesh.triangleCount());
    const glm::dmat4 toPhysical = geometry.indexToPhysical();
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 expected = glm::dvec3(toPhysical * glm::dvec4(mesh.positions[v], 1.0));
        EXPECT_EQ(positionOf(ply, v), glm::vec3(expected)) << "vertex " << v;
        EXPECT_EQ(normalOf(ply, v), mesh.normals[v]) << "vertex " << v;
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        EXPECT_EQ(ply.faces[t][0], std::int32_t(mesh.indices[3 * t]));
        EXPECT_EQ(ply.faces[t][1], std::int32_t(mesh.indices[3 * t + 2]));
        EXPECT_EQ(ply.faces[t][2], std::int32_t(mesh.indices[3 * t + 1]));
    }
    expectOutwardWindingAndNormals(ply);
}

TEST(PlyWriter, VoxelIndexSpaceKeepsPositionsAndWindingAndConvertsNormals)
{
    TempDir dir;
    const fs::path path = dir.path() / "index.ply";
    const VolumeGeometry geometry = mirroredGeometry();
    const IsoMesh mesh = makeTetrahedron(geometry);
    PlyOptions options;
    options.space = MeshSpace::VoxelIndex;
    writePly(path, mesh, geometry, options);

    const PlyFile ply = readPly(path);
    const IsoMesh indexMesh = makeTetrahedron(VolumeGeometry{}); // index-space normals
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        EXPECT_EQ(positionOf(ply, v), mesh.positions[v]);
        const glm::vec3 n = normalOf(ply, v);
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_NEAR(n[axis], indexMesh.normals[v][axis], 1e-6) << "vertex " << v;
        }
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        for (std::size_t c = 0; c < 3; ++c) {
            EXPECT_EQ(ply.faces[t][c], std::int32_t(mesh.indices[3 * t + c]));
        }
    }
    expectOutwardWindingAndNormals(ply);
}

TEST(PlyWriter, AsciiRoundTripIsExact)
{
    TempDir dir;
    const fs::path path = dir.path() / "ascii.ply";
    const VolumeGeometry geometry = mirroredGeometry();
    IsoMesh mesh = makeTetrahedron(geometry);
    mesh.positions[1] = {1.0e-7f, 123456.789f, 0.1f}; // needs exponent / many digits
    PlyOptions options;
    options.encoding = PlyEncoding::Ascii;
    writePly(path, mesh, geometry, options);

    const fs::path binaryPath = dir.path() / "binary.ply";
    writePly(binaryPath, mesh, geometry);
    const PlyFile ascii = readPly(path);
    const PlyFile binary = readPly(binaryPath);
    EXPECT_EQ(ascii.vertices, binary.vertices);
    EXPECT_EQ(ascii.faces, binary.faces);
}

TEST(PlyWriter, AsciiUsesDotDecimalPointUnderACommaLocale)
{
    const GlobalLocaleGuard guard;
    ASSERT_EQ(useCommaDecimalGlobally(), "1.234,5") << "the comma locale is not in effect";

    TempDir dir;
    const fs::path path = dir.path() / "locale.ply";
    IsoMesh mesh;
    mesh.positions = {{1234.5f, 0.25f, -2.5f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    mesh.normals = {{0.6f, 0.8f, 0.0f}, {0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f}};
    mesh.indices = {0, 1, 2};
    PlyOptions options;
    options.encoding = PlyEncoding::Ascii;
    writePly(path, mesh, {}, options);

    const std::string bytes = readFile(path);
    const std::string body = bytes.substr(bytes.find("end_header\n") + 11);
    EXPECT_EQ(body.find(','), std::string::npos) << body;
    EXPECT_EQ(body, "1234.5 0.25 -2.5 0.6 0.8 0\n"
                    "0 1 0 0 0 1\n"
                    "0 0 1 0 0 1\n"
                    "3 0 1 2\n");
}

TEST(PlyWriter, EmptyMeshIsAValidFile)
{
    TempDir dir;
    const fs::path path = dir.path() / "empty.ply";
    writePly(path, IsoMesh{}, {});
    const PlyFile ply = readPly(path);
    EXPECT_NE(ply.header.find("element vertex 0\n"), std::string::npos);
    EXPECT_NE(ply.header.find("element face 0\n"), std::string::npos);
    EXPECT_TRUE(ply.vertices.empty());
}

TEST(PlyWriter, InconsistentMeshIsRejectedAndNoFileIsWritten)
{
    TempDir dir;
    const fs::path path = dir.path() / "bad.ply";
    const IsoMesh good = makeTetrahedron({});

    IsoMesh badIndex = good;
    badIndex.indices[5] = 4;
    EXPECT_THROW(writePly(path, badIndex, {}), InvalidInputError);

    IsoMesh missingNormal = good;
    missingNormal.normals.pop_back();
    EXPECT_THROW(writePly(path, missingNormal, {}), InvalidInputError);

    IsoMesh partialTriangle = good;
    partialTriangle.indices.pop_back();
    EXPECT_THROW(writePly(path, partialTriangle, {}), InvalidInputError);

    IsoMesh notFinite = good;
    notFinite.positions[3].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(writePly(path, notFinite, {}), InvalidInputError);

    PlyOptions badName;
    badName.physicalSpaceName = "L P S";
    EXPECT_THROW(writePly(path, good, {}, badName), InvalidInputError);

    EXPECT_TRUE(dir.entries().empty());
}

TEST(PlyWriter, MissingFolderThrowsIoError)
{
    TempDir dir;
    EXPECT_THROW(writePly(dir.path() / "missing" / "mesh.ply", makeTetrahedron({}), {}), IoError);
}

// VTK's PLY reader, a third-party implementation, must load what we write.
struct VtkCounts {
    long points = -1;
    long cells = -1;
    int exitStatus = -1;
    std::string output;
};

VtkCounts readWithVtk(const fs::path& ply)
{
    const std::string script = std::string(test::kSourceDir) + "/tests/tools/read_ply_vtk.py";
    const std::string command =
        std::string(test::kPythonExecutable) + " '" + script + "' '" + ply.string() + "' 2>&1";
    VtkCounts counts;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return counts;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
        counts.output += buffer;
    counts.exitStatus = ::pclose(pipe);
    std::istringstream lines(counts.output);
    std::string word;
    long value = 0;
    while (lines >> word) {
        if (word == "points" && lines >> value) counts.points = value;
        if (word == "cells" && lines >> value) counts.cells = value;
    }
    return counts;
}

class PlyWriterVtk : public ::testing::TestWithParam<PlyEncoding> {};

TEST_P(PlyWriterVtk, VtkReadsTheCounts)
{
    TempDir dir;
    const fs::path path = dir.path() / "vtk.ply";
    const VolumeGeometry geometry = mirroredGeometry();
    PlyOptions options;
    options.encoding = GetParam();
    writePly(path, makeTetrahedron(geometry), geometry, options);

    const VtkCounts counts = readWithVtk(path);
    ASSERT_EQ(counts.exitStatus, 0) << counts.output;
    EXPECT_EQ(counts.points, 4) << counts.output;
    EXPECT_EQ(counts.cells, 4) << counts.output;
}

INSTANTIATE_TEST_SUITE_P(Encodings, PlyWriterVtk,
                         ::testing::Values(PlyEncoding::BinaryLittleEndian, PlyEncoding::Ascii),
                         [](const auto& info) { return encodingName(info.param); });

TEST(PlyWriterVtkCheck, CorruptFileMakesTheVtkScriptFail)
{
    // The VTK check above is only worth something if the script notices a broken file.
    TempDir dir;
    const fs::path path = dir.path() / "broken.ply";
    std::ofstream(path, std::ios::binary) << "ply\nformat binary_little_endian 1.0\n"
                                             "element vertex 100\nproperty float x\n"
                                             "end_header\n\x01\x02";
    EXPECT_NE(readWithVtk(path).exitStatus, 0);
}

} // namespace
} // namespace isoview
