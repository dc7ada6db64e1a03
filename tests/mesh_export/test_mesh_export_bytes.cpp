// exportMesh's exact output: the bytes of a one-triangle STL and its facet normal under a
// mirroring geometry, empty meshes, OBJ text that stays the same under a comma-decimal locale,
// and the processing note every format's header carries.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/mesh_export_test_support.h"
#include "support/file_contents.h"
#include "support/locale_guard.h"
#include "support/synthetic_volumes.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::formatName;
using test::GlobalLocaleGuard;
using test::readFile;
using test::TempDir;
using test::useCommaDecimalGlobally;

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
    ASSERT_EQ(useCommaDecimalGlobally(), "1.234,5") << "the comma locale is not in effect";

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

// --- The processing note ------------------------------------------------------------------------

// The processing applied before export lands in every format's header; text a header cannot
// hold is refused before any file is made.
TEST(MeshExportProcessingNote, EveryFormatRecordsTheStepsApplied)
{
    test::TempDir dir;
    const Volume volume = test::makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
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
