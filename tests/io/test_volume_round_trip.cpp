// Writers and readers together: every voxel type written as NRRD (attached and detached, raw
// and gzip), MetaImage (.mhd and .mha) and raw reads back with identical bytes, and NRRD and
// MetaImage with identical geometry (anisotropic spacing, a rotated and a mirrored direction,
// an origin). Also the writers' refusals and atomicity, and real files converted between
// formats.
#include "core/error.h"
#include "io/io_test_support.h"
#include "io/metaimage_reader.h"
#include "io/nrrd_reader.h"
#include "io/raw_volume_reader.h"
#include "io/volume_writers.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::messageOf;
using test::TempDir;

constexpr ScalarType kAllTypes[] = {ScalarType::UInt8,   ScalarType::Int8,   ScalarType::UInt16,
                                    ScalarType::Int16,   ScalarType::UInt32, ScalarType::Int32,
                                    ScalarType::Float32, ScalarType::Float64};

// A 5x4x3 volume whose bytes are all different (so any reordering or byte swap shows), with
// anisotropic spacing, a direction rotated 30 degrees about (1, 2, 3), and an origin.
Volume testVolume(ScalarType type, bool mirrored = false)
{
    const glm::uvec3 dims{5, 4, 3};
    std::vector<std::byte> bytes(std::size_t(dims.x) * dims.y * dims.z * scalarSize(type));
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = std::byte((i * 37 + 11) & 0xff);
    if (type == ScalarType::Float32 || type == ScalarType::Float64) {
        // Finite, varied values: -0.5 * i for float, 1/(i+1) for double.
        for (std::size_t i = 0; i < std::size_t(dims.x) * dims.y * dims.z; ++i) {
            if (type == ScalarType::Float32) {
                const float v = -0.5f * float(i) + 0.1f;
                std::memcpy(bytes.data() + 4 * i, &v, 4);
            } else {
                const double v = 1.0 / double(i + 1);
                std::memcpy(bytes.data() + 8 * i, &v, 8);
            }
        }
    }
    VolumeGeometry geometry;
    geometry.spacing = {0.4296875, 0.75, 2.5};
    geometry.origin = {-120.25, 7.125, 1003.5};
    geometry.direction = glm::dmat3(
        glm::rotate(glm::dmat4(1.0), glm::radians(30.0), glm::normalize(glm::dvec3(1, 2, 3))));
    if (mirrored) geometry.direction[1] = -geometry.direction[1];
    return Volume(dims, type, std::move(bytes), geometry);
}

void expectSameVoxels(const Volume& expected, const Volume& actual, const std::string& what)
{
    ASSERT_EQ(actual.dims(), expected.dims()) << what;
    ASSERT_EQ(actual.type(), expected.type()) << what;
    ASSERT_EQ(actual.byteCount(), expected.byteCount()) << what;
    EXPECT_EQ(std::memcmp(actual.bytes(), expected.bytes(), expected.byteCount()), 0) << what;
}

// MetaImage stores spacing and direction separately: the geometry comes back bit for bit.
void expectExactGeometry(const VolumeGeometry& expected, const VolumeGeometry& actual,
                         const std::string& what)
{
    EXPECT_EQ(actual.spacing, expected.spacing) << what;
    EXPECT_EQ(actual.origin, expected.origin) << what;
    for (int a = 0; a < 3; ++a)
        EXPECT_EQ(actual.direction[a], expected.direction[a]) << what;
}

// NRRD stores direction * spacing: splitting it again is exact to rounding.
void expectNearGeometry(const VolumeGeometry& expected, const VolumeGeometry& actual,
                        const std::string& what)
{
    EXPECT_EQ(actual.origin, expected.origin) << what;
    for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(actual.spacing[a], expected.spacing[a], 1e-14) << what;
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(actual.direction[a][c], expected.direction[a][c], 1e-15) << what;
        }
    }
    EXPECT_EQ(actual.isMirrored(), expected.isMirrored()) << what;
    const glm::dvec3 corner{4, 3, 2};
    const glm::dvec3 distance = actual.toPhysical(corner) - expected.toPhysical(corner);
    EXPECT_LT(glm::length(distance), 1e-12) << what;
}

TEST(VolumeRoundTrip, NrrdAttachedAndDetachedRawAndGzipEveryType)
{
    TempDir dir;
    for (ScalarType type : kAllTypes) {
        for (bool mirrored : {false, true}) {
            const Volume volume = testVolume(type, mirrored);
            for (const char* extension : {".nrrd", ".nhdr"}) {
                for (bool gzip : {false, true}) {
                    const std::string what = std::string(scalarTypeName(type)) + extension +
                                             (gzip ? " gzip" : " raw") +
                                             (mirrored ? " mirrored" : "");
                    const fs::path path = dir.path() / ("v" + std::string(extension));
                    writeNrrd(path, volume, gzip);
                    const Volume back = readNrrd(path);
                    expectSameVoxels(volume, back, what);
                    expectNearGeometry(volume.geometry(), back.geometry(), what);
                    EXPECT_TRUE(back.metadata().warnings.empty()) << what;
                }
            }
        }
    }
    // Only the final files are left: no temporary files, detached data beside the header.
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"v.nhdr", "v.nrrd", "v.raw", "v.raw.gz"}));
}

TEST(VolumeRoundTrip, NrrdFilesAreWhatTheyClaim)
{
    TempDir dir;
    const Volume volume = testVolume(ScalarType::Int16);
    writeNrrd(dir.path() / "g.nhdr", volume, true);
    const std::string data = test::readFile(dir.path() / "g.raw.gz");
    ASSERT_GE(data.size(), 2u);
    EXPECT_EQ(data.substr(0, 2), "\x1f\x8b"); // a real gzip stream
    const std::string header = test::readFile(dir.path() / "g.nhdr");
    EXPECT_TRUE(contains(header, "space: left-posterior-superior\n")) << header;
    EXPECT_TRUE(contains(header, "data file: g.raw.gz\n")) << header;
    EXPECT_TRUE(contains(header, "endian: little\n")) << header;

    writeNrrd(dir.path() / "r.nrrd", volume);
    const std::string attached = test::readFile(dir.path() / "r.nrrd");
    ASSERT_GT(attached.size(), volume.byteCount());
    const std::size_t start = attached.size() - volume.byteCount();
    EXPECT_EQ(attached.substr(start - 2, 2), "\n\n");
    // Little-endian on disk: the first int16 voxel's low byte comes first.
    EXPECT_EQ(std::memcmp(attached.data() + start, volume.bytes(), volume.byteCount()), 0);
}

TEST(VolumeRoundTrip, NrrdKeepsTheValueRescale)
{
    TempDir dir;
    const Volume plain = testVolume(ScalarType::Int16);
    const Volume ct(plain.dims(), plain.type(),
                    std::vector<std::byte>(plain.bytes(), plain.bytes() + plain.byteCount()),
                    plain.geometry(), ValueRescale{2.5, -1024.0});
    writeNrrd(dir.path() / "ct.nrrd", ct, true);
    const Volume back = readNrrd(dir.path() / "ct.nrrd");
    EXPECT_EQ(back.rescale().slope, 2.5);
    EXPECT_EQ(back.rescale().intercept, -1024.0);
    expectSameVoxels(ct, back, "rescaled");
}

TEST(VolumeRoundTrip, MetaImageMhdAndMhaEveryType)
{
    TempDir dir;
    for (ScalarType type : kAllTypes) {
        for (bool mirrored : {false, true}) {
            const Volume volume = testVolume(type, mirrored);
            for (const char* name : {"v.mhd", "v.mha"}) {
                const std::string what =
                    std::string(scalarTypeName(type)) + " " + name + (mirrored ? " mirrored" : "");
                writeMetaImage(dir.path() / name, volume);
                const Volume back = readMetaImage(dir.path() / name);
                expectSameVoxels(volume, back, what);
                expectExactGeometry(volume.geometry(), back.geometry(), what);
                EXPECT_TRUE(back.metadata().warnings.empty()) << what;
            }
        }
    }
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"v.mha", "v.mhd", "v.raw"}));
    const std::string header = test::readFile(dir.path() / "v.mhd");
    EXPECT_TRUE(contains(header, "ElementDataFile = v.raw\n")) << header;
}

TEST(VolumeRoundTrip, MetaImageTransformMatrixListsDirectionColumns)
{
    // A 90 degree turn about z: axis i along +y, axis j along -x. The header must list the
    // direction of axis i first, as ITK does.
    TempDir dir;
    VolumeGeometry geometry;
    geometry.direction = glm::dmat3(glm::dvec3(0, 1, 0), glm::dvec3(-1, 0, 0), glm::dvec3(0, 0, 1));
    geometry.spacing = {2, 3, 4};
    const Volume volume({2, 2, 2}, ScalarType::UInt8, std::vector<std::byte>(8), geometry);
    writeMetaImage(dir.path() / "turn.mha", volume);
    const std::string header = test::readFile(dir.path() / "turn.mha");
    EXPECT_TRUE(contains(header, "TransformMatrix = 0 1 0 -1 0 0 0 0 1\n")) << header;
    EXPECT_TRUE(contains(header, "ElementSpacing = 2 3 4\n")) << header;
    const Volume back = readMetaImage(dir.path() / "turn.mha");
    EXPECT_EQ(back.geometry().toPhysical({1, 0, 0}), glm::dvec3(0, 2, 0));
}

TEST(VolumeRoundTrip, RawEveryType)
{
    TempDir dir;
    for (ScalarType type : kAllTypes) {
        const Volume volume = testVolume(type);
        const fs::path path = dir.path() / rawVolumeFileName("t", volume);
        writeRawVolume(path, volume);
        EXPECT_EQ(fs::file_size(path), volume.byteCount());
        const Volume back = readRawVolume(path);
        expectSameVoxels(volume, back, path.filename().string());
    }
    EXPECT_EQ(rawVolumeFileName("head", testVolume(ScalarType::Int16)), "head_5x4x3_int16.raw");
}

TEST(VolumeRoundTrip, WritersRefuseWhatTheyCannotWrite)
{
    TempDir dir;
    const Volume volume = testVolume(ScalarType::UInt16);

    std::string message = messageOf([&] { writeRawVolume(dir.path() / "head.raw", volume); });
    EXPECT_TRUE(contains(message, "e.g. 'head_5x4x3_uint16.raw'")) << message;
    EXPECT_THROW(writeRawVolume(dir.path() / "head_5x4x3_int16.raw", volume), InvalidInputError);

    message = messageOf([&] { writeMetaImage(dir.path() / "head.mhx", volume); });
    EXPECT_TRUE(contains(message, "must end in .mhd")) << message;

    Volume uneven = testVolume(ScalarType::UInt8);
    VolumeGeometry geometry = uneven.geometry();
    geometry.sliceOrigins = {{0, 0, 0}, {0, 0, 1}, {0, 0, 3}};
    uneven.setGeometry(geometry);
    message = messageOf([&] { writeNrrd(dir.path() / "uneven.nrrd", uneven); });
    EXPECT_TRUE(contains(message, "unevenly spaced or sheared")) << message;
    EXPECT_THROW(writeMetaImage(dir.path() / "uneven.mha", uneven), InvalidInputError);

    // Into a folder that does not exist: IoError, and nothing is left anywhere.
    message = messageOf([&] { writeNrrd(dir.path() / "absent" / "v.nrrd", volume); });
    EXPECT_TRUE(contains(message, (dir.path() / "absent").string())) << message;
    EXPECT_THROW(writeMetaImage(dir.path() / "absent" / "v.mhd", volume), IoError);
    EXPECT_TRUE(dir.entries().empty());
}

// --- Real files converted between formats --------------------------------------------------

TEST(VolumeRoundTrip, BrainNrrdThroughMetaImageAndGzipNrrd)
{
    const fs::path source = fs::path(test::kSharedDataDir) / "nrrd" / "brain1_image.nrrd";
    ASSERT_TRUE(fs::exists(source)) << source << " is missing; set ISOVIEW_SHARED_DATA_DIR";
    const Volume brain = readNrrd(source);
    TempDir dir;
    writeMetaImage(dir.path() / "brain.mha", brain);
    const Volume viaMha = readMetaImage(dir.path() / "brain.mha");
    expectSameVoxels(brain, viaMha, "brain.mha");
    expectExactGeometry(brain.geometry(), viaMha.geometry(), "brain.mha");

    writeNrrd(dir.path() / "brain.nrrd", viaMha, true);
    const Volume viaNrrd = readNrrd(dir.path() / "brain.nrrd");
    expectSameVoxels(brain, viaNrrd, "brain.nrrd");
    expectNearGeometry(brain.geometry(), viaNrrd.geometry(), "brain.nrrd");
    EXPECT_LT(fs::file_size(dir.path() / "brain.nrrd"), brain.byteCount() * 2 / 3); // gzip
}

TEST(VolumeRoundTrip, HeadMhdThroughNrrd)
{
    const fs::path source =
        fs::path(test::kSharedDataDir) / "raw" / "HeadMRVolume" / "HeadMRVolume.mhd";
    ASSERT_TRUE(fs::exists(source)) << source << " is missing; set ISOVIEW_SHARED_DATA_DIR";
    const Volume head = readMetaImage(source);
    TempDir dir;
    writeNrrd(dir.path() / "head.nhdr", head);
    const Volume back = readNrrd(dir.path() / "head.nhdr");
    expectSameVoxels(head, back, "head.nhdr");
    expectExactGeometry(head.geometry(), back.geometry(), "head.nhdr"); // axis-aligned: exact
}

} // namespace
} // namespace isoview::io
