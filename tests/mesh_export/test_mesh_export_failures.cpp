// exportMesh's progress reports and its failure paths, in every format: cancellation part-way
// and at the last report, an unwritable folder, inconsistent meshes, and a write that fails
// part-way (a file-size limit standing in for a full disk). Each failure leaves no file behind
// and an existing file untouched.
#include "core/error.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/mesh_export_test_support.h"
#include "support/child_process.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <sys/resource.h>
#include <utility>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::anisotropicGeometry;
using test::ChildResult;
using test::expectIoErrorInChild;
using test::expectIoErrorWithoutRoot;
using test::formatName;
using test::kSetupFailed;
using test::kThrewIoError;
using test::limitFileSize;
using test::makeSphereMesh;
using test::makeTetrahedron;
using test::readFile;
using test::readWithVtk;
using test::runInChild;
using test::Sphere;
using test::TempDir;
using test::VtkMesh;

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
    const ChildResult child =
        expectIoErrorWithoutRoot([&] { exportMesh(target, mesh, {}, {.format = GetParam()}); },
                                 [&] { return fs::is_empty(locked); });
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

} // namespace
} // namespace isoview
