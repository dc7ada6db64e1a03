// mergeSurfaces and PLY's per-vertex colours: parts follow one another with offset indices and
// their own colour on every vertex; the ASCII file holds exactly those colours; a colour list
// of the wrong length and inconsistent parts are refused with a message.
#include "core/error.h"
#include "mesh_export/merged_surfaces.h"
#include "mesh_export/ply_writer.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace isoview {
namespace {

IsoMesh triangle(float x)
{
    IsoMesh mesh;
    mesh.positions = {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.edgeKeys = {0, 3, 6};
    mesh.indices = {0, 1, 2};
    return mesh;
}

IsoMesh square(float x)
{
    IsoMesh mesh;
    mesh.positions = {{x, 0, 1}, {x + 1, 0, 1}, {x + 1, 1, 1}, {x, 1, 1}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.edgeKeys = {0, 3, 6, 9};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    return mesh;
}

TEST(MergedSurfaces, PartsFollowOneAnotherEachInItsColour)
{
    const IsoMesh a = square(0.0f);
    const IsoMesh b = triangle(5.0f);
    const MergedSurfaces merged = mergeSurfaces({{&a, {255, 0, 0}}, {&b, {0, 0, 255}}});
    ASSERT_EQ(merged.mesh.vertexCount(), 7u);
    EXPECT_EQ(merged.mesh.triangleCount(), 3u);
    EXPECT_EQ(merged.mesh.indices, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6}));
    EXPECT_EQ(merged.mesh.positions[4], glm::vec3(5, 0, 0));
    ASSERT_EQ(merged.vertexColors.size(), 7u);
    EXPECT_EQ(merged.vertexColors[3], glm::u8vec3(255, 0, 0));
    EXPECT_EQ(merged.vertexColors[4], glm::u8vec3(0, 0, 255));
    EXPECT_TRUE(mergeSurfaces({}).mesh.positions.empty());
}

TEST(MergedSurfaces, InconsistentPartIsRefusedByNumber)
{
    const IsoMesh good = triangle(0.0f);
    IsoMesh bad = triangle(1.0f);
    bad.normals.pop_back();
    try {
        mergeSurfaces({{&good, {}}, {&bad, {}}});
        FAIL() << "expected InvalidInputError";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("surface 2"), std::string::npos) << e.what();
    }
}

TEST(MergedSurfaces, ColoursInOneByteEachClamped)
{
    EXPECT_EQ(toColor8({0.0f, 0.5f, 1.0f}), glm::u8vec3(0, 128, 255));
    EXPECT_EQ(toColor8({-1.0f, 2.0f, 0.2f}), glm::u8vec3(0, 255, 51));
}

TEST(PlyVertexColors, AsciiFileHoldsEachVertexsColour)
{
    const test::TempDir dir;
    const IsoMesh a = square(0.0f);
    const IsoMesh b = triangle(5.0f);
    const MergedSurfaces merged = mergeSurfaces({{&a, {10, 20, 30}}, {&b, {200, 100, 0}}});
    const auto path = dir.path() / "both.ply";
    writePly(path, merged.mesh, VolumeGeometry{},
             {.encoding = PlyEncoding::Ascii, .vertexColors = merged.vertexColors});
    std::ifstream in(path);
    std::string line;
    std::string header;
    while (std::getline(in, line) && line != "end_header")
        header += line + "\n";
    EXPECT_NE(header.find("element vertex 7\nproperty float x\nproperty float y\nproperty float "
                          "z\nproperty float nx\nproperty float ny\nproperty float nz\nproperty "
                          "uchar red\nproperty uchar green\nproperty uchar blue\n"),
              std::string::npos)
        << header;
    std::vector<glm::ivec3> colors;
    for (int v = 0; v < 7 && std::getline(in, line); ++v) {
        std::istringstream fields(line);
        float ignored = 0.0f;
        for (int i = 0; i < 6; ++i)
            fields >> ignored;
        glm::ivec3 c;
        fields >> c.r >> c.g >> c.b;
        colors.push_back(c);
    }
    ASSERT_EQ(colors.size(), 7u);
    EXPECT_EQ(colors[0], glm::ivec3(10, 20, 30));
    EXPECT_EQ(colors[3], glm::ivec3(10, 20, 30));
    EXPECT_EQ(colors[4], glm::ivec3(200, 100, 0));
    EXPECT_EQ(colors[6], glm::ivec3(200, 100, 0));
}

TEST(PlyVertexColors, WrongNumberOfColoursIsRefused)
{
    const test::TempDir dir;
    const IsoMesh a = square(0.0f);
    PlyOptions options;
    options.vertexColors = {{1, 2, 3}};
    EXPECT_THROW(writePly(dir.path() / "bad.ply", a, VolumeGeometry{}, options), InvalidInputError);
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "bad.ply"));
}

} // namespace
} // namespace isoview
