// exportMesh in PLY, STL and OBJ, checked through VTK's own readers (tests/tools/
// read_mesh_vtk.py): counts, positions in LPS, RAS and voxel space (per-slice origins included),
// area and volume of an extracted sphere, outward winding and normals also for mirroring
// geometry, vertex colours; and the failure paths: cancellation, unwritable folder, a write
// that fails part-way, inconsistent meshes. Each failure leaves no file behind and an existing
// file untouched.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/obj_writer.h"
#include "mesh_export/stl_writer.h"
#include "support/child_process.h"
#include "support/locale_guard.h"
#include "support/read_file.h"
#include "support/synthetic_volumes.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <glm/gtc/constants.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <utility>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::ChildResult;
using test::dropRootPrivileges;
using test::expectIoErrorInChild;
using test::GlobalLocaleGuard;
using test::kSetupFailed;
using test::kThrewIoError;
using test::limitFileSize;
using test::readFile;
using test::runInChild;
using test::TempDir;
using test::useCommaDecimalGlobally;

constexpr double kPi = glm::pi<double>();

std::string formatName(MeshFormat format)
{
    return std::string(meshFormatExtension(format));
}

// --- VTK as the independent reader ----------------------------------------------------------

struct VtkMesh {
    int exitStatus = -1;
    std::string output;
    long points = -1;
    long cells = -1;
    long triangles = -1;
    std::array<double, 6> bounds{};
    double area = std::numeric_limits<double>::quiet_NaN();
    double volume = std::numeric_limits<double>::quiet_NaN();
    double signedVolume = std::numeric_limits<double>::quiet_NaN();
    long normals = -1;
    long colorCount = -1;
    glm::ivec3 firstColor{-1};
    std::string stlHeader;
    long stlCount = -1;
    long stlNormalMismatches = -1;
    // With listPoints: VTK's points, point normals and triangles, in VTK's order.
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> pointNormals;
    std::vector<std::array<long, 3>> faces;
};

VtkMesh readWithVtk(const fs::path& path, bool listPoints = false)
{
    const std::string script = std::string(test::kSourceDir) + "/tests/tools/read_mesh_vtk.py";
    const std::string command = std::string(test::kPythonExecutable) + " '" + script + "' '" +
                                path.string() + "'" + (listPoints ? " --points" : "") + " 2>&1";
    VtkMesh mesh;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return mesh;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        mesh.output += buffer;
    }
    mesh.exitStatus = ::pclose(pipe);

    const std::map<std::string, long*> counts = {
        {"points", &mesh.points},       {"cells", &mesh.cells},
        {"triangles", &mesh.triangles}, {"normals", &mesh.normals},
        {"stl_count", &mesh.stlCount},  {"stl_normal_mismatches", &mesh.stlNormalMismatches}};
    const std::map<std::string, double*> reals = {
        {"area", &mesh.area}, {"volume", &mesh.volume}, {"signed_volume", &mesh.signedVolume}};
    std::istringstream lines(mesh.output);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        // Doubles read back exactly what Python's repr printed; VTK's points are floats.
        const auto vec3 = [&fields] {
            double x = 0.0, y = 0.0, z = 0.0;
            fields >> x >> y >> z;
            return glm::vec3(float(x), float(y), float(z));
        };
        if (const auto count = counts.find(key); count != counts.end()) {
            fields >> *count->second;
        } else if (const auto real = reals.find(key); real != reals.end()) {
            fields >> *real->second;
        } else if (key == "bounds") {
            for (double& b : mesh.bounds) {
                fields >> b;
            }
        } else if (key == "colors") {
            fields >> mesh.colorCount >> mesh.firstColor.x >> mesh.firstColor.y >>
                mesh.firstColor.z;
        } else if (key == "stl_header") {
            std::getline(fields >> std::ws, mesh.stlHeader);
        } else if (key == "p") {
            mesh.positions.push_back(vec3());
        } else if (key == "n") {
            mesh.pointNormals.push_back(vec3());
        } else if (key == "t") {
            std::array<long, 3> face{};
            fields >> face[0] >> face[1] >> face[2];
            mesh.faces.push_back(face);
        }
    }
    return mesh;
}

// --- Test meshes and geometries ---------------------------------------------------------------

VolumeGeometry anisotropicGeometry()
{
    VolumeGeometry geometry;
    geometry.spacing = {0.9, 0.75, 1.25};
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

// A gantry-tilted stack with uneven gaps: voxel (0, 0, k) at sliceOrigins[k], far from where
// the nominal origin + k * spacing.z would put it.
VolumeGeometry shearedUnevenGeometry()
{
    VolumeGeometry geometry = anisotropicGeometry();
    geometry.sliceOrigins.clear();
    const double gaps[] = {0.0, 1.0, 3.5, 4.0, 7.5, 8.0, 12.0};
    for (double z : gaps) {
        geometry.sliceOrigins.push_back({10.0, -20.0 + 0.4 * z, 30.25 + z});
    }
    return geometry;
}

// A closed tetrahedron in index space, counter-clockwise seen from outside, with outward
// normals expressed in the physical space of geometry (as the extractor would produce them).
IsoMesh makeTetrahedron(const VolumeGeometry& geometry)
{
    IsoMesh mesh;
    mesh.positions = {
        {1.0f, 1.0f, 1.0f}, {3.0f, 1.0f, 1.0f}, {1.0f, 4.0f, 1.0f}, {1.0f, 1.0f, 5.5f}};
    mesh.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    const glm::vec3 centre =
        (mesh.positions[0] + mesh.positions[1] + mesh.positions[2] + mesh.positions[3]) / 4.0f;
    const glm::dmat3 toPhysical = geometry.gradientToPhysical();
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::dvec3 indexNormal = glm::dvec3(mesh.positions[v] - centre);
        mesh.normals.push_back(glm::vec3(glm::normalize(toPhysical * indexNormal)));
        mesh.edgeKeys.push_back(makeEdgeKey(v, 0));
    }
    return mesh;
}

// The isosurface of a signed-distance ball, extracted by the CPU marching cubes.
struct Sphere {
    VolumeGeometry geometry;
    glm::dvec3 centre; // physical (LPS)
    double radius = 0.0;
    IsoMesh mesh;
};

Sphere makeSphereMesh(const VolumeGeometry& geometry)
{
    const glm::uvec3 dims(40, 44, 30);
    Sphere sphere;
    sphere.geometry = geometry;
    sphere.radius = 12.0;
    const glm::dvec3 indexCentre = (glm::dvec3(dims) - 1.0) / 2.0;
    sphere.centre = glm::dvec3(geometry.indexToPhysical() * glm::dvec4(indexCentre, 1.0));
    const Volume volume =
        test::makeSphere(dims, glm::vec3(sphere.centre), float(sphere.radius), geometry);
    sphere.mesh = extractIsosurfaceCpu(volume, 0.0f);
    return sphere;
}

// Where the test expects a vertex: toPhysical, then x and y negated for RAS.
glm::vec3 expectedPosition(const VolumeGeometry& geometry, const glm::vec3& index, PatientAxes axes)
{
    glm::dvec3 p = geometry.toPhysical(glm::dvec3(index));
    if (axes == PatientAxes::Ras) p = {-p.x, -p.y, p.z};
    return glm::vec3(p);
}

// Bounds (x0 x1 y0 y1 z0 z1) of the expected positions of a mesh's vertices.
std::array<double, 6> expectedBounds(const IsoMesh& mesh, const VolumeGeometry& geometry,
                                     PatientAxes axes)
{
    std::array<double, 6> b = {
        std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
        std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
        std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest()};
    for (const glm::vec3& index : mesh.positions) {
        const glm::vec3 p = expectedPosition(geometry, index, axes);
        for (int axis = 0; axis < 3; ++axis) {
            b[2 * axis] = std::min(b[2 * axis], double(p[axis]));
            b[2 * axis + 1] = std::max(b[2 * axis + 1], double(p[axis]));
        }
    }
    return b;
}

// --- Format names -------------------------------------------------------------------------------

TEST(MeshExport, FormatExtensionsAndDetectionFromPath)
{
    EXPECT_EQ(meshFormatExtension(MeshFormat::Ply), "ply");
    EXPECT_EQ(meshFormatExtension(MeshFormat::Stl), "stl");
    EXPECT_EQ(meshFormatExtension(MeshFormat::Obj), "obj");
    EXPECT_EQ(meshFormatForPath("skull.ply"), MeshFormat::Ply);
    EXPECT_EQ(meshFormatForPath("/tmp/a.b/Skull.STL"), MeshFormat::Stl);
    EXPECT_EQ(meshFormatForPath("head.Obj"), MeshFormat::Obj);
    EXPECT_EQ(meshFormatForPath("head.obj.txt"), std::nullopt);
    EXPECT_EQ(meshFormatForPath("/tmp/ply"), std::nullopt);
    EXPECT_EQ(meshFormatForPath("mesh.stla"), std::nullopt);
}

// --- The sphere in every format, space and geometry ---------------------------------------------

struct SphereCase {
    MeshFormat format;
    MeshSpace space;
    PatientAxes axes;
    bool mirrored;
};

std::string caseName(const SphereCase& c)
{
    std::string name = formatName(c.format);
    name += c.space == MeshSpace::VoxelIndex ? "_Voxel"
            : c.axes == PatientAxes::Ras     ? "_Ras"
                                             : "_Lps";
    name += c.mirrored ? "_Mirrored" : "_Anisotropic";
    return name;
}

class MeshExportSphere : public ::testing::TestWithParam<SphereCase> {};

// VTK reads the counts, the exact positions, the area and volume of the ball, and sees every
// triangle wound counter-clockwise from outside (positive signed volume) with outward normals.
TEST_P(MeshExportSphere, VtkReadsTheSphereInPlaceAndOutward)
{
    const SphereCase c = GetParam();
    const Sphere sphere = makeSphereMesh(c.mirrored ? mirroredGeometry() : anisotropicGeometry());
    ASSERT_EQ(sphere.geometry.isMirrored(), c.mirrored);
    const IsoMesh& mesh = sphere.mesh;
    ASSERT_GT(mesh.triangleCount(), 1000u);

    TempDir dir;
    const fs::path path = dir.path() / ("sphere." + formatName(c.format));
    MeshExportOptions options;
    options.format = c.format;
    options.space = c.space;
    options.axes = c.axes;
    exportMesh(path, mesh, sphere.geometry, options);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{path.filename().string()});

    const VtkMesh vtk = readWithVtk(path, true);
    ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
    EXPECT_EQ(vtk.triangles, long(mesh.triangleCount()));
    EXPECT_EQ(vtk.cells, long(mesh.triangleCount()));
    // vtkSTLReader merges coincident corners: the welded vertices come back.
    EXPECT_EQ(vtk.points, long(mesh.vertexCount()));

    const bool voxel = c.space == MeshSpace::VoxelIndex;
    // Area and volume in the output space, as isoview's own metrics measure the mesh there.
    const glm::dmat4 toSpace = voxel ? glm::dmat4(1.0) : sphere.geometry.indexToPhysical();
    const double area = surfaceArea(mesh, toSpace);
    const double enclosed = std::abs(enclosedVolume(mesh, toSpace));
    EXPECT_NEAR(vtk.area / area, 1.0, 1e-5) << vtk.area << " vs " << area;
    EXPECT_NEAR(vtk.volume / enclosed, 1.0, 1e-5) << vtk.volume << " vs " << enclosed;
    EXPECT_NEAR(vtk.signedVolume / enclosed, 1.0, 1e-5)
        << "triangles are not wound counter-clockwise seen from outside";
    if (!voxel) {
        const double r = sphere.radius;
        EXPECT_NEAR(vtk.area / (4.0 * kPi * r * r), 1.0, 0.02) << vtk.area;
        EXPECT_NEAR(vtk.volume / (4.0 / 3.0 * kPi * r * r * r), 1.0, 0.02) << vtk.volume;
    }

    // Bounds: LPS and RAS differ by the sign of x and y, so a mix-up cannot pass.
    const std::array<double, 6> bounds =
        voxel ? expectedBounds(mesh, VolumeGeometry{}, PatientAxes::Lps)
              : expectedBounds(mesh, sphere.geometry, c.axes);
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        EXPECT_NEAR(vtk.bounds[i], bounds[i], 1e-4) << "bound " << i << "\n" << vtk.output;
    }
    if (!voxel) {
        glm::dvec3 centre = sphere.centre;
        if (c.axes == PatientAxes::Ras) centre = {-centre.x, -centre.y, centre.z};
        for (int axis = 0; axis < 3; ++axis) {
            const double middle = (vtk.bounds[2 * axis] + vtk.bounds[2 * axis + 1]) / 2.0;
            EXPECT_NEAR(middle, centre[axis], 0.2) << "axis " << axis;
        }
    }

    if (c.format == MeshFormat::Stl) {
        EXPECT_EQ(vtk.stlCount, long(mesh.triangleCount()));
        EXPECT_EQ(vtk.stlNormalMismatches, 0) << "facet normals disagree with the winding";
        const std::string space = voxel                        ? "SPACE=voxel units=index"
                                  : c.axes == PatientAxes::Ras ? "SPACE=RAS units=mm"
                                                               : "SPACE=LPS units=mm";
        EXPECT_EQ(vtk.stlHeader, "isoview binary STL " + space);
        return;
    }

    // PLY and OBJ keep the vertex order: every position and normal is where it belongs.
    ASSERT_EQ(vtk.positions.size(), mesh.vertexCount());
    ASSERT_EQ(vtk.pointNormals.size(), mesh.vertexCount());
    EXPECT_EQ(vtk.normals, long(mesh.vertexCount()));
    const glm::vec3 outputCentre =
        voxel ? glm::vec3(0.0f)
              : expectedPosition(VolumeGeometry{}, glm::vec3(sphere.centre), c.axes);
    glm::vec3 indexCentre(0.0f);
    for (const glm::vec3& p : mesh.positions) {
        indexCentre += p / float(mesh.vertexCount());
    }
    std::size_t wrongPositions = 0;
    std::size_t inwardNormals = 0;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::vec3 expected =
            voxel ? mesh.positions[v]
                  : expectedPosition(sphere.geometry, mesh.positions[v], c.axes);
        if (vtk.positions[v] != expected) ++wrongPositions;
        const glm::vec3 centre = voxel ? indexCentre : outputCentre;
        if (glm::dot(vtk.pointNormals[v], vtk.positions[v] - centre) <= 0.0f) ++inwardNormals;
    }
    EXPECT_EQ(wrongPositions, 0u);
    EXPECT_EQ(inwardNormals, 0u);
    // The faces are the mesh's, reversed exactly when the geometry mirrors physical space.
    const bool reversed = !voxel && c.mirrored;
    ASSERT_EQ(vtk.faces.size(), mesh.triangleCount());
    std::size_t wrongFaces = 0;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::array<long, 3> expected = {long(mesh.indices[3 * t]),
                                              long(mesh.indices[3 * t + (reversed ? 2 : 1)]),
                                              long(mesh.indices[3 * t + (reversed ? 1 : 2)])};
        if (vtk.faces[t] != expected) ++wrongFaces;
    }
    EXPECT_EQ(wrongFaces, 0u);
}

std::vector<SphereCase> sphereCases()
{
    std::vector<SphereCase> cases;
    for (MeshFormat format : {MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj}) {
        for (bool mirrored : {false, true}) {
            cases.push_back({format, MeshSpace::Physical, PatientAxes::Lps, mirrored});
            cases.push_back({format, MeshSpace::Physical, PatientAxes::Ras, mirrored});
        }
        cases.push_back({format, MeshSpace::VoxelIndex, PatientAxes::Ras, true});
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Formats, MeshExportSphere, ::testing::ValuesIn(sphereCases()),
                         [](const auto& info) { return caseName(info.param); });

// --- Per-slice origins --------------------------------------------------------------------------

class MeshExportSliceOrigins : public ::testing::TestWithParam<MeshFormat> {};

// A tilted, unevenly spaced stack: vertices land at their measured slice positions, not at the
// nominal origin + k * spacing.z.
TEST_P(MeshExportSliceOrigins, VerticesSitAtTheirSlicePositions)
{
    const VolumeGeometry geometry = shearedUnevenGeometry();
    const IsoMesh mesh = makeTetrahedron(geometry);
    VolumeGeometry nominal = geometry;
    nominal.sliceOrigins.clear();
    ASSERT_NE(expectedBounds(mesh, geometry, PatientAxes::Lps),
              expectedBounds(mesh, nominal, PatientAxes::Lps))
        << "the test geometry must differ from its nominal grid";

    TempDir dir;
    const fs::path path = dir.path() / ("stack." + formatName(GetParam()));
    exportMesh(path, mesh, geometry, {.format = GetParam()});
    const VtkMesh vtk = readWithVtk(path, true);
    ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
    EXPECT_EQ(vtk.triangles, 4);
    EXPECT_EQ(vtk.bounds, expectedBounds(mesh, geometry, PatientAxes::Lps)) << vtk.output;
    EXPECT_GT(vtk.signedVolume, 0.0);
    if (GetParam() != MeshFormat::Stl) {
        ASSERT_EQ(vtk.positions.size(), mesh.vertexCount());
        for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
            EXPECT_EQ(vtk.positions[v],
                      glm::vec3(geometry.toPhysical(glm::dvec3(mesh.positions[v]))));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, MeshExportSliceOrigins,
                         ::testing::Values(MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj),
                         [](const auto& info) { return formatName(info.param); });

// --- PLY options: colour, normals, RAS ----------------------------------------------------------

class MeshExportPlyColor : public ::testing::TestWithParam<PlyEncoding> {};

TEST_P(MeshExportPlyColor, VertexColourIsReadBackByVtk)
{
    TempDir dir;
    const fs::path path = dir.path() / "coloured.ply";
    const IsoMesh mesh = makeTetrahedron({});
    MeshExportOptions options;
    options.plyEncoding = GetParam();
    options.vertexColor = glm::u8vec3(200, 100, 7);
    exportMesh(path, mesh, {}, options);

    const std::string bytes = readFile(path);
    EXPECT_NE(bytes.find("property float nz\n"
                         "property uchar red\n"
                         "property uchar green\n"
                         "property uchar blue\n"
                         "element face 4\n"),
              std::string::npos)
        << bytes.substr(0, 400);
    const VtkMesh vtk = readWithVtk(path);
    ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
    EXPECT_EQ(vtk.points, 4);
    EXPECT_EQ(vtk.triangles, 4);
    EXPECT_EQ(vtk.normals, 4);
    EXPECT_EQ(vtk.colorCount, 1) << vtk.output;
    EXPECT_EQ(vtk.firstColor, glm::ivec3(200, 100, 7)) << vtk.output;
}

TEST_P(MeshExportPlyColor, WithoutNormalsTheColourFollowsThePosition)
{
    TempDir dir;
    const fs::path path = dir.path() / "plain.ply";
    MeshExportOptions options;
    options.plyEncoding = GetParam();
    options.normals = false;
    options.vertexColor = glm::u8vec3(0, 255, 128);
    exportMesh(path, makeTetrahedron({}), {}, options);

    const std::string bytes = readFile(path);
    EXPECT_EQ(bytes.find("property float nx"), std::string::npos);
    EXPECT_NE(bytes.find("property float z\nproperty uchar red\n"), std::string::npos);
    if (GetParam() == PlyEncoding::BinaryLittleEndian) {
        // 3 floats + 3 bytes per vertex, 13 bytes per face.
        EXPECT_EQ(bytes.size(), bytes.find("end_header\n") + 11 + 4 * 15 + 4 * 13);
    } else {
        EXPECT_NE(bytes.find("\n1 1 1 0 255 128\n"), std::string::npos) << bytes;
    }
    const VtkMesh vtk = readWithVtk(path);
    ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
    EXPECT_EQ(vtk.points, 4);
    EXPECT_EQ(vtk.normals, 0);
    EXPECT_EQ(vtk.firstColor, glm::ivec3(0, 255, 128)) << vtk.output;
}

INSTANTIATE_TEST_SUITE_P(Encodings, MeshExportPlyColor,
                         ::testing::Values(PlyEncoding::BinaryLittleEndian, PlyEncoding::Ascii),
                         [](const auto& info) {
                             return info.param == PlyEncoding::Ascii ? std::string("Ascii")
                                                                     : std::string("Binary");
                         });

TEST(MeshExport, PlyCommentNamesTheAxes)
{
    TempDir dir;
    const IsoMesh mesh = makeTetrahedron({});
    exportMesh(dir.path() / "ras.ply", mesh, {}, {.axes = PatientAxes::Ras});
    exportMesh(dir.path() / "lps.ply", mesh, {}, {.axes = PatientAxes::Lps});
    exportMesh(dir.path() / "voxel.ply", mesh, {},
               {.space = MeshSpace::VoxelIndex, .axes = PatientAxes::Ras});
    EXPECT_NE(readFile(dir.path() / "ras.ply").find("\ncomment isoview SPACE=RAS units=mm\n"),
              std::string::npos);
    EXPECT_NE(readFile(dir.path() / "lps.ply").find("\ncomment isoview SPACE=LPS units=mm\n"),
              std::string::npos);
    EXPECT_NE(
        readFile(dir.path() / "voxel.ply").find("\ncomment isoview SPACE=voxel units=index\n"),
        std::string::npos);
}

// The per-format entry points, called as their headers' examples call them.
TEST(MeshExport, WritersTakeDesignatedOptions)
{
    TempDir dir;
    const IsoMesh mesh = makeTetrahedron({});
    writePly(dir.path() / "m.ply", mesh, {},
             {.encoding = PlyEncoding::Ascii, .space = MeshSpace::VoxelIndex});
    writeStl(dir.path() / "m.stl", mesh, {}, {.axes = PatientAxes::Ras});
    writeObj(dir.path() / "m.obj", mesh, {}, {.normals = false});
    EXPECT_EQ(readFile(dir.path() / "m.ply")
                  .rfind("ply\nformat ascii 1.0\n"
                         "comment isoview SPACE=voxel units=index\n",
                         0),
              0u);
    EXPECT_EQ(readFile(dir.path() / "m.stl").rfind("isoview binary STL SPACE=RAS units=mm", 0), 0u);
    EXPECT_EQ(readFile(dir.path() / "m.obj").find("vn"), std::string::npos);
    for (const char* name : {"m.ply", "m.stl", "m.obj"}) {
        const VtkMesh vtk = readWithVtk(dir.path() / name);
        ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
        EXPECT_EQ(vtk.triangles, 4) << name;
        EXPECT_GT(vtk.signedVolume, 0.0) << name;
    }
}

// --- Exact STL and OBJ bytes --------------------------------------------------------------------

std::string littleEndianFloats(std::initializer_list<float> values)
{
    std::string bytes;
    for (float value : values) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
        for (int i = 0; i < 4; ++i) {
            bytes += char((bits >> (8 * i)) & 0xffu);
        }
    }
    return bytes;
}

IsoMesh oneTriangle()
{
    IsoMesh mesh;
    mesh.positions = {{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    mesh.normals.assign(3, glm::vec3(0.0f, 0.0f, 1.0f));
    mesh.indices = {0, 1, 2};
    return mesh;
}

TEST(MeshExport, StlBytesAreExact)
{
    TempDir dir;
    const fs::path path = dir.path() / "one.stl";
    VolumeGeometry geometry;
    geometry.origin = {1.0, 2.0, 3.0};
    exportMesh(path, oneTriangle(), geometry, {.format = MeshFormat::Stl});

    std::string expected = "isoview binary STL SPACE=LPS units=mm";
    expected.resize(80, '\0');
    expected += std::string("\x01\x00\x00\x00", 4);
    expected += littleEndianFloats(
        {0.0f, 0.0f, 1.0f, 1.0f, 2.0f, 3.0f, 3.0f, 2.0f, 3.0f, 1.0f, 3.0f, 3.0f});
    expected += std::string("\x00\x00", 2);
    EXPECT_EQ(readFile(path), expected);
}

// The 12 floats of STL triangle t: normal, then three corners.
std::array<glm::vec3, 4> stlTriangle(const std::string& bytes, std::size_t t)
{
    std::array<glm::vec3, 4> values{};
    for (std::size_t i = 0; i < 12; ++i) {
        std::uint32_t bits = 0;
        for (std::size_t b = 0; b < 4; ++b) {
            bits |= std::uint32_t(std::uint8_t(bytes.at(84 + 50 * t + 4 * i + b))) << (8 * b);
        }
        values[i / 3][int(i % 3)] = std::bit_cast<float>(bits);
    }
    return values;
}

TEST(MeshExport, StlFacetNormalFollowsTheWrittenCorners)
{
    // z mirrored: the winding is reversed, and the facet normal, computed from the corners as
    // written, turns with it; RAS then negates x and y of the corners and keeps z.
    VolumeGeometry geometry;
    geometry.direction[2] = glm::dvec3(0.0, 0.0, -1.0);
    ASSERT_TRUE(geometry.isMirrored());
    TempDir dir;
    const fs::path path = dir.path() / "mirrored.stl";
    exportMesh(path, oneTriangle(), geometry,
               {.format = MeshFormat::Stl, .axes = PatientAxes::Ras});
    const std::string bytes = readFile(path);
    ASSERT_EQ(bytes.size(), 134u);
    EXPECT_EQ(bytes.substr(0, 38), std::string("isoview binary STL SPACE=RAS units=mm\0", 38));
    const std::array<glm::vec3, 4> written = stlTriangle(bytes, 0);
    EXPECT_EQ(written[0], glm::vec3(0.0f, 0.0f, -1.0f));
    EXPECT_EQ(written[1], glm::vec3(0.0f, 0.0f, 0.0f));
    EXPECT_EQ(written[2], glm::vec3(0.0f, -1.0f, 0.0f)); // corner 2
    EXPECT_EQ(written[3], glm::vec3(-2.0f, 0.0f, 0.0f)); // corner 1

    // Unmirrored, LPS: the corners in their own order and the normal +z.
    exportMesh(path, oneTriangle(), {}, {.format = MeshFormat::Stl});
    const std::array<glm::vec3, 4> plain = stlTriangle(readFile(path), 0);
    EXPECT_EQ(plain[0], glm::vec3(0.0f, 0.0f, 1.0f));
    EXPECT_EQ(plain[2], glm::vec3(2.0f, 0.0f, 0.0f));
}

TEST(MeshExport, EmptyMeshGivesValidFiles)
{
    TempDir dir;
    exportMesh(dir.path() / "empty.stl", IsoMesh{}, {}, {.format = MeshFormat::Stl});
    exportMesh(dir.path() / "empty.obj", IsoMesh{}, {}, {.format = MeshFormat::Obj});
    std::string expectedStl = "isoview binary STL SPACE=LPS units=mm";
    expectedStl.resize(84, '\0');
    EXPECT_EQ(readFile(dir.path() / "empty.stl"), expectedStl);
    EXPECT_EQ(readFile(dir.path() / "empty.obj"), "# isoview OBJ SPACE=LPS units=mm\n"
                                                  "# 0 vertices, 0 triangles\n");
}

TEST(MeshExport, ObjTextIsExactUnderACommaLocale)
{
    const GlobalLocaleGuard guard;
    useCommaDecimalGlobally();
    std::ostringstream probe;
    probe << 1234.5;
    ASSERT_EQ(probe.str(), "1.234,5") << "the comma locale is not in effect";

    IsoMesh mesh;
    mesh.positions = {{1234.5f, 0.25f, -2.5f}, {1.0e-7f, 123456.789f, 0.1f}, {0.0f, 0.0f, 1.0f}};
    mesh.normals = {{0.6f, 0.8f, 0.0f}, {0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}};
    mesh.indices = {0, 1, 2};
    TempDir dir;
    exportMesh(dir.path() / "n.obj", mesh, {}, {.format = MeshFormat::Obj});
    exportMesh(dir.path() / "plain.obj", mesh, {},
               {.format = MeshFormat::Obj, .space = MeshSpace::VoxelIndex, .normals = false});
    EXPECT_EQ(readFile(dir.path() / "n.obj"), "# isoview OBJ SPACE=LPS units=mm\n"
                                              "# 3 vertices, 1 triangles\n"
                                              "v 1234.5 0.25 -2.5\n"
                                              "vn 0.6 0.8 0\n"
                                              "v 1e-07 123456.79 0.1\n"
                                              "vn 0 0 1\n"
                                              "v 0 0 1\n"
                                              "vn 0 0 0\n"
                                              "f 1//1 2//2 3//3\n");
    EXPECT_EQ(readFile(dir.path() / "plain.obj"), "# isoview OBJ SPACE=voxel units=index\n"
                                                  "# 3 vertices, 1 triangles\n"
                                                  "v 1234.5 0.25 -2.5\n"
                                                  "v 1e-07 123456.79 0.1\n"
                                                  "v 0 0 1\n"
                                                  "f 1 2 3\n");
}

// --- Progress and cancellation ------------------------------------------------------------------

// A flat grid of n x n vertices and 2 (n-1)^2 triangles: large and cheap.
IsoMesh makeGrid(std::uint32_t n)
{
    IsoMesh mesh;
    for (std::uint32_t j = 0; j < n; ++j) {
        for (std::uint32_t i = 0; i < n; ++i) {
            mesh.positions.push_back({float(i), float(j), 0.0f});
            mesh.normals.push_back({0.0f, 0.0f, 1.0f});
        }
    }
    for (std::uint32_t j = 0; j + 1 < n; ++j) {
        for (std::uint32_t i = 0; i + 1 < n; ++i) {
            const std::uint32_t a = j * n + i;
            mesh.indices.insert(mesh.indices.end(), {a, a + 1, a + n + 1, a, a + n + 1, a + n});
        }
    }
    return mesh;
}

class MeshExportProgress : public ::testing::TestWithParam<MeshFormat> {};

TEST_P(MeshExportProgress, ReportsEvery64kRecordsAndOnceAtTheEnd)
{
    const IsoMesh mesh = makeGrid(300);
    const MeshFormat format = GetParam();
    // STL has no vertex records; PLY and OBJ write the vertices first.
    const std::uint64_t total =
        mesh.triangleCount() + (format == MeshFormat::Stl ? 0 : mesh.vertexCount());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    TempDir dir;
    const fs::path path = dir.path() / ("grid." + formatName(format));
    MeshExportOptions options;
    options.format = format;
    options.progress = [&calls, &path](std::uint64_t done, std::uint64_t all) {
        EXPECT_FALSE(fs::exists(path)) << "the file must appear only after the last report";
        calls.emplace_back(done, all);
        return true;
    };
    exportMesh(path, mesh, {}, options);

    ASSERT_EQ(calls.size(), total / kExportProgressInterval + 1);
    std::uint64_t previous = 0;
    for (const auto& [done, all] : calls) {
        EXPECT_EQ(all, total);
        EXPECT_GT(done, previous);
        EXPECT_LE(done - previous, kExportProgressInterval);
        previous = done;
    }
    EXPECT_EQ(calls.back().first, total);
    const VtkMesh vtk = readWithVtk(path);
    ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
    EXPECT_EQ(vtk.triangles, long(mesh.triangleCount()));
}

TEST_P(MeshExportProgress, CancelPartWayThrowsAndLeavesNoFile)
{
    const IsoMesh mesh = makeGrid(300);
    TempDir dir;
    int calls = 0;
    MeshExportOptions options;
    options.format = GetParam();
    options.progress = [&calls](std::uint64_t done, std::uint64_t total) {
        ++calls;
        EXPECT_LT(done, total) << "the first report must come part-way";
        return false;
    };
    EXPECT_THROW(exportMesh(dir.path() / ("grid." + formatName(GetParam())), mesh, {}, options),
                 CancelledError);
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(dir.entries().empty()) << "a temporary file was left behind";
}

TEST_P(MeshExportProgress, CancelAtTheLastReportLeavesTheOldFileUntouched)
{
    TempDir dir;
    const fs::path path = dir.path() / ("mesh." + formatName(GetParam()));
    std::ofstream(path, std::ios::binary) << "old content";
    MeshExportOptions options;
    options.format = GetParam();
    options.progress = [](std::uint64_t done, std::uint64_t total) { return done < total; };
    try {
        exportMesh(path, makeTetrahedron({}), {}, options);
        FAIL() << "expected CancelledError";
    } catch (const CancelledError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    EXPECT_EQ(readFile(path), "old content");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{path.filename().string()});
}

INSTANTIATE_TEST_SUITE_P(Formats, MeshExportProgress,
                         ::testing::Values(MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj),
                         [](const auto& info) { return formatName(info.param); });

// --- Failures -----------------------------------------------------------------------------------

class MeshExportFailure : public ::testing::TestWithParam<MeshFormat> {};

TEST_P(MeshExportFailure, UnwritableFolderThrowsIoErrorAndLeavesNothing)
{
    TempDir dir;
    const fs::path locked = dir.path() / "locked";
    fs::create_directory(locked);
    fs::permissions(dir.path(), fs::perms(0755));
    fs::permissions(locked, fs::perms(0555));
    const fs::path target = locked / ("mesh." + formatName(GetParam()));
    const IsoMesh mesh = makeTetrahedron({});

    // Root ignores folder permissions, so the child gives up root first.
    const ChildResult child = runInChild([&](std::string& message) {
        if (!dropRootPrivileges()) {
            message = "cannot drop root privileges";
            return kSetupFailed;
        }
        return expectIoErrorInChild([&] { exportMesh(target, mesh, {}, {.format = GetParam()}); },
                                    message, [&] { return fs::is_empty(locked); });
    });
    fs::permissions(locked, fs::perms(0755));

    ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
    EXPECT_EQ(child.exitCode, kThrewIoError) << child.message;
    EXPECT_NE(child.message.find(target.string()), std::string::npos) << child.message;
    EXPECT_NE(child.message.find("Permission denied"), std::string::npos) << child.message;
    EXPECT_TRUE(fs::is_empty(locked));
}

TEST_P(MeshExportFailure, InconsistentMeshIsRejectedAndNoFileIsWritten)
{
    TempDir dir;
    const fs::path path = dir.path() / ("bad." + formatName(GetParam()));
    const MeshExportOptions options{.format = GetParam()};
    const IsoMesh good = makeTetrahedron({});

    IsoMesh badIndex = good;
    badIndex.indices[5] = 4;
    EXPECT_THROW(exportMesh(path, badIndex, {}, options), InvalidInputError);
    IsoMesh missingNormal = good;
    missingNormal.normals.pop_back();
    EXPECT_THROW(exportMesh(path, missingNormal, {}, options), InvalidInputError);
    IsoMesh partialTriangle = good;
    partialTriangle.indices.pop_back();
    EXPECT_THROW(exportMesh(path, partialTriangle, {}, options), InvalidInputError);
    IsoMesh notFinite = good;
    notFinite.positions[3].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(exportMesh(path, notFinite, {}, options), InvalidInputError);

    EXPECT_TRUE(dir.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(Formats, MeshExportFailure,
                         ::testing::Values(MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj),
                         [](const auto& info) { return formatName(info.param); });

// A full disk, simulated by a file-size limit: RLIMIT_FSIZE makes write() fail with EFBIG
// ("File too large") part-way through the file, the same path as ENOSPC in AtomicFileWriter
// (whose own tests cover failures in write() and in commit()). The STL must fail cleanly and
// leave neither a partial file nor the temporary one, and an older file must survive.
TEST(MeshExport, StlWriteFailingPartWayThrowsIoErrorAndLeavesNoFile)
{
    const Sphere sphere = makeSphereMesh(anisotropicGeometry());
    constexpr rlim_t kLimit = 16 * 1024;
    ASSERT_GT(84 + 50 * sphere.mesh.triangleCount(), 4 * kLimit);

    TempDir dir;
    const fs::path target = dir.path() / "sphere.stl";
    std::ofstream(target, std::ios::binary) << "old content";
    const ChildResult child = runInChild([&](std::string& message) {
        if (!limitFileSize(kLimit, message)) return kSetupFailed;
        return expectIoErrorInChild(
            [&] { exportMesh(target, sphere.mesh, sphere.geometry, {.format = MeshFormat::Stl}); },
            message);
    });

    ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
    EXPECT_EQ(child.exitCode, kThrewIoError) << child.message;
    EXPECT_NE(child.message.find(target.string()), std::string::npos) << child.message;
    EXPECT_NE(child.message.find("File too large"), std::string::npos) << child.message;
    EXPECT_EQ(readFile(target), "old content");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"sphere.stl"});
}

// --- The reader script itself must be able to fail ----------------------------------------------

TEST(MeshExportVtkCheck, BrokenFilesMakeTheScriptFail)
{
    TempDir dir;
    // An STL whose count promises more triangles than it holds (VTK alone would not notice).
    const fs::path stl = dir.path() / "short.stl";
    exportMesh(stl, makeTetrahedron({}), {}, {.format = MeshFormat::Stl});
    std::string bytes = readFile(stl);
    bytes[80] = char(5);
    std::ofstream(stl, std::ios::binary | std::ios::trunc) << bytes;
    EXPECT_NE(readWithVtk(stl).exitStatus, 0);

    const fs::path ply = dir.path() / "broken.ply";
    std::ofstream(ply, std::ios::binary) << "ply\nformat binary_little_endian 1.0\n"
                                            "element vertex 100\nproperty float x\n"
                                            "end_header\n\x01\x02";
    EXPECT_NE(readWithVtk(ply).exitStatus, 0);

    EXPECT_NE(readWithVtk(dir.path() / "missing.obj").exitStatus, 0);
}

} // namespace
} // namespace isoview

namespace isoview {
namespace {

// The processing applied before export lands in every format's header; text a header cannot
// hold is refused before any file is made.
TEST(MeshExportProcessingNote, EveryFormatRecordsTheStepsApplied)
{
    test::TempDir dir;
    const Volume volume = test::makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, 0.0f);
    const std::string steps = "close-borders keep-largest smooth=10 decimate=0.25";
    for (MeshFormat format : {MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj}) {
        const fs::path path = dir.path() / ("note." + formatName(format));
        exportMesh(path, mesh, volume.geometry(), {.format = format, .processing = steps});
        const std::string bytes = readFile(path);
        const std::string expected = format == MeshFormat::Ply   ? "comment isoview processing: "
                                     : format == MeshFormat::Obj ? "# isoview processing: "
                                                                 : "processing: ";
        const std::string head = bytes.substr(0, format == MeshFormat::Stl ? 80 : 400);
        EXPECT_NE(
            head.find(expected + (format == MeshFormat::Stl ? "close-borders keep-l" : steps)),
            std::string::npos)
            << formatName(format);
        // Without processing, no such line.
        exportMesh(path, mesh, volume.geometry(), {.format = format});
        EXPECT_EQ(readFile(path).substr(0, 400).find("processing"), std::string::npos);

        const fs::path refused = dir.path() / ("refused." + formatName(format));
        EXPECT_THROW(exportMesh(refused, mesh, volume.geometry(),
                                {.format = format, .processing = "smooth=1\nend_header"}),
                     InvalidInputError);
        EXPECT_FALSE(fs::exists(refused));
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 3);
}

} // namespace
} // namespace isoview
