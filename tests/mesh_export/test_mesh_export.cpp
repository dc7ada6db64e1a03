// exportMesh in PLY, STL and OBJ, checked through VTK's own readers (tests/tools/
// read_mesh_vtk.py): format names, counts, positions in LPS, RAS and voxel space (per-slice
// origins included), area and volume of an extracted sphere, outward winding and normals also
// for mirroring geometry, vertex colours and the header comments, and that the reader script
// itself fails on broken files. Exact bytes are in test_mesh_export_bytes.cpp, progress and
// the failure paths in test_mesh_export_failures.cpp.
#include "extraction/mesh_metrics.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/mesh_export_test_support.h"
#include "mesh_export/obj_writer.h"
#include "mesh_export/stl_writer.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <glm/gtc/constants.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::anisotropicGeometry;
using test::encodingName;
using test::formatName;
using test::makeSphereMesh;
using test::makeTetrahedron;
using test::readFile;
using test::readWithVtk;
using test::Sphere;
using test::TempDir;
using test::VtkMesh;

constexpr double kPi = glm::pi<double>();

// --- Test geometries ------------------------------------------------------------------------

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
                         [](const auto& info) { return encodingName(info.param); });

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
