// The NIfTI reader: files written by nifticlib itself with known transforms (qform only, sform
// only, both, flipped axes, sheared, method 1), 4-D files listed as one series per volume,
// .nii.gz, NIfTI-2, header/image pairs, scaling and units; the three real dcm2niix files of the
// shared data; damaged files; a FIFO.
#include "core/error.h"
#include "core/protected_inputs.h"
#include "io/nifti_reader.h"
#include "io/volume_loader.h"
#include "io_test_support.h"
#include "support/child_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <nifti2_io.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::messageOf;
using test::readFile;
using test::TempDir;
using test::writeFile;

struct NimDeleter {
    void operator()(nifti_image* image) const { nifti_image_free(image); }
};
using Nim = std::unique_ptr<nifti_image, NimDeleter>;

// A nifticlib image of nx x ny x nz (x nt) voxels whose value is a known function of the
// index (see valueAt), with pixdim 1, no transform, millimetres and seconds.
Nim makeImage(int datatype, glm::ivec3 dims, int volumes = 1)
{
    const std::int64_t dim[8] = {volumes > 1 ? 4 : 3, dims.x, dims.y, dims.z, volumes, 1, 1, 1};
    Nim image(nifti_make_new_nim(dim, datatype, 1));
    EXPECT_NE(image, nullptr);
    image->xyz_units = NIFTI_UNITS_MM;
    image->time_units = NIFTI_UNITS_SEC;
    const std::size_t count = std::size_t(image->nvox);
    for (std::size_t n = 0; n < count; ++n) {
        const double value = double(n % 1000) - (datatype == DT_INT16 ? 500.0 : 0.0);
        switch (datatype) {
        case DT_UINT8: static_cast<std::uint8_t*>(image->data)[n] = std::uint8_t(n % 251); break;
        case DT_INT16: static_cast<std::int16_t*>(image->data)[n] = std::int16_t(value); break;
        case DT_FLOAT32: static_cast<float*>(image->data)[n] = float(value) * 0.5f; break;
        default: ADD_FAILURE() << "makeImage: datatype " << datatype << " not filled";
        }
    }
    return image;
}

void setPixdim(nifti_image& image, double dx, double dy, double dz)
{
    image.dx = image.pixdim[1] = dx;
    image.dy = image.pixdim[2] = dy;
    image.dz = image.pixdim[3] = dz;
}

void setQform(nifti_image& image, glm::dvec3 bcd, glm::dvec3 offset, double qfac)
{
    image.qform_code = NIFTI_XFORM_SCANNER_ANAT;
    image.quatern_b = bcd.x;
    image.quatern_c = bcd.y;
    image.quatern_d = bcd.z;
    image.qoffset_x = offset.x;
    image.qoffset_y = offset.y;
    image.qoffset_z = offset.z;
    image.qfac = qfac;
}

// rows: the RAS x, y and z rows of the sform (3 x 4).
void setSform(nifti_image& image, const double (&rows)[3][4])
{
    image.sform_code = NIFTI_XFORM_ALIGNED_ANAT;
    std::memset(&image.sto_xyz, 0, sizeof image.sto_xyz);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c)
            image.sto_xyz.m[r][c] = rows[r][c];
    }
    image.sto_xyz.m[3][3] = 1.0;
}

// Writes with nifticlib; the name's extension decides .nii, .nii.gz or .hdr/.img.
void write(nifti_image& image, const fs::path& path, int niftiType = NIFTI_FTYPE_NIFTI1_1)
{
    nifti_set_debug_level(0);
    if (niftiType == NIFTI_FTYPE_NIFTI2_1) {
        // nifticlib 3.0.1's nifti_image_write puts NIfTI-2 voxels at offset 0, over the
        // header; its header conversion is used and the file assembled here instead.
        image.nifti_type = niftiType; // decides the magic
        nifti_2_header header{};
        ASSERT_EQ(nifti_convert_nim2n2hdr(&image, &header), 0);
        header.vox_offset = 544;
        std::string bytes(reinterpret_cast<const char*>(&header), sizeof header);
        bytes.append(4, '\0'); // no extensions
        bytes.append(static_cast<const char*>(image.data), image.nvox * image.nbyper);
        writeFile(path, bytes);
        return;
    }
    image.nifti_type = niftiType;
    ASSERT_EQ(nifti_set_filenames(&image, path.c_str(), 0, 1), 0) << path;
    image.nifti_type = niftiType; // nifti_set_filenames guesses it from the name
    nifti_image_write(&image);
    ASSERT_TRUE(fs::exists(path)) << "nifticlib did not write " << path;
}

void expectNear(const glm::dvec3& actual, const glm::dvec3& expected, double tolerance = 1e-4)
{
    EXPECT_NEAR(actual.x, expected.x, tolerance) << "x";
    EXPECT_NEAR(actual.y, expected.y, tolerance) << "y";
    EXPECT_NEAR(actual.z, expected.z, tolerance) << "z";
}

glm::dvec3 lpsOf(const Volume& volume, glm::dvec3 ijk)
{
    return volume.geometry().toPhysical(ijk);
}

bool hasWarning(const Volume& volume, std::string_view part)
{
    for (const std::string& w : volume.metadata().warnings) {
        if (contains(w, part)) return true;
    }
    return false;
}

const double kSqrtHalf = std::sqrt(0.5);

// ---- transforms ----

TEST(NiftiReader, QformOnlyGivesTheQuaternionsPositionsInLps)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {4, 5, 6});
    setPixdim(*image, 2.0, 3.0, 4.0);
    // 90 degrees about z: RAS = (-3j + 10, 2i + 20, 4k + 30).
    setQform(*image, {0.0, 0.0, kSqrtHalf}, {10.0, 20.0, 30.0}, 1.0);
    write(*image, dir.path() / "q.nii");

    const Volume v = io::readNifti(dir.path() / "q.nii");
    expectNear(lpsOf(v, {0, 0, 0}), {-10.0, -20.0, 30.0});
    expectNear(lpsOf(v, {1, 2, 3}), {-(-6.0 + 10.0), -(2.0 + 20.0), 12.0 + 30.0});
    expectNear(v.geometry().spacing, {2.0, 3.0, 4.0});
    EXPECT_EQ(v.metadata().sourceFormat, "NIfTI-1");
    EXPECT_TRUE(v.metadata().patientSpace);
    EXPECT_EQ(io::readNiftiHeader(dir.path() / "q.nii").transform, io::NiftiTransform::Qform);
}

TEST(NiftiReader, SformOnlyGivesTheAffinesPositionsInLps)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {4, 5, 6});
    // Axes permuted, the third running towards the right: RAS = (-2.5k + 100, 1.5i - 50, 3j + 7).
    setSform(*image, {{0, 0, -2.5, 100}, {1.5, 0, 0, -50}, {0, 3, 0, 7}});
    write(*image, dir.path() / "s.nii");

    const Volume v = io::readNifti(dir.path() / "s.nii");
    expectNear(lpsOf(v, {0, 0, 0}), {-100.0, 50.0, 7.0});
    expectNear(lpsOf(v, {2, 1, 4}), {-90.0, 47.0, 10.0});
    expectNear(v.geometry().spacing, {1.5, 3.0, 2.5});
    EXPECT_FALSE(hasWarning(v, "neither"));
}

TEST(NiftiReader, WhenBothAreSetAndDisagreeTheSformWinsWithAWarning)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {4, 4, 4});
    setPixdim(*image, 1.0, 1.0, 1.0);
    setQform(*image, {0, 0, 0}, {0, 0, 0}, 1.0); // identity at the origin
    setSform(*image, {{2, 0, 0, -30}, {0, 2, 0, 40}, {0, 0, 2, 5}});
    write(*image, dir.path() / "both.nii");

    const Volume v = io::readNifti(dir.path() / "both.nii");
    expectNear(lpsOf(v, {1, 1, 1}), {-(2.0 - 30.0), -(2.0 + 40.0), 2.0 + 5.0});
    EXPECT_TRUE(hasWarning(v, "disagree")) << "no warning about the qform/sform disagreement";
    EXPECT_TRUE(hasWarning(v, "the sform was used"));
}

TEST(NiftiReader, AnUnusableQformBesideAUsableSformIsOnlyAWarning)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {2, 2, 2});
    setQform(*image, {0, 0, 0}, {0, 0, 0}, 1.0);
    setSform(*image, {{1, 0, 0, 3}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    write(*image, dir.path() / "nanq.nii");
    std::string bytes = readFile(dir.path() / "nanq.nii");
    nifti_1_header header{};
    std::memcpy(&header, bytes.data(), sizeof header);
    header.quatern_b = NAN;
    std::memcpy(bytes.data(), &header, sizeof header);
    writeFile(dir.path() / "nanq.nii", bytes);

    const Volume v = io::readNifti(dir.path() / "nanq.nii");
    expectNear(lpsOf(v, {1, 0, 0}), {-4.0, 0.0, 0.0});
    EXPECT_TRUE(hasWarning(v, "the qform is unusable"));
}

TEST(NiftiReader, FlippedAxesComeOutAtTheirPhysicalPositions)
{
    TempDir dir;
    // qfac = -1: the third axis runs towards inferior (negative determinant).
    Nim q = makeImage(DT_UINT8, {3, 3, 6});
    setPixdim(*q, 1.0, 1.0, 2.0);
    setQform(*q, {0, 0, 0}, {5.0, 6.0, 7.0}, -1.0);
    write(*q, dir.path() / "qfac.nii");
    const Volume fromQform = io::readNifti(dir.path() / "qfac.nii");
    expectNear(lpsOf(fromQform, {0, 0, 5}), {-5.0, -6.0, 7.0 - 10.0});
    expectNear(lpsOf(fromQform, {2, 1, 0}), {-7.0, -7.0, 7.0});
    EXPECT_TRUE(fromQform.geometry().isMirrored());

    // An sform whose first axis runs towards the left (RAS x decreasing).
    Nim s = makeImage(DT_UINT8, {3, 3, 3});
    setSform(*s, {{-2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    write(*s, dir.path() / "flip.nii");
    const Volume fromSform = io::readNifti(dir.path() / "flip.nii");
    expectNear(lpsOf(fromSform, {2, 0, 0}), {4.0, 0.0, 0.0});
    expectNear(lpsOf(fromSform, {0, 2, 0}), {0.0, -2.0, 0.0});
}

TEST(NiftiReader, AShearedSformIsKeptExactlyWithAWarning)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {3, 3, 3});
    setSform(*image, {{1, 0, 0.5, 0}, {0, 1, 0, 0}, {0, 0, 2, 0}}); // k leans along x
    write(*image, dir.path() / "shear.nii");
    const Volume v = io::readNifti(dir.path() / "shear.nii");
    expectNear(lpsOf(v, {0, 0, 2}), {-1.0, 0.0, 4.0});
    expectNear(lpsOf(v, {1, 2, 1}), {-1.5, -2.0, 2.0});
    EXPECT_TRUE(hasWarning(v, "sheared"));
}

TEST(NiftiReader, WithoutQformOrSformPixdimScalesUnflippedWithAWarning)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {3, 4, 5});
    setPixdim(*image, 0.5, 0.75, 3.0);
    write(*image, dir.path() / "m1.nii");
    const Volume v = io::readNifti(dir.path() / "m1.nii");
    expectNear(lpsOf(v, {2, 3, 4}), {1.0, 2.25, 12.0});
    EXPECT_FALSE(v.metadata().patientSpace);
    EXPECT_TRUE(hasWarning(v, "neither qform nor sform"));
}

TEST(NiftiReader, MetresAndMicrometresBecomeMillimetres)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {2, 2, 2});
    setSform(*image, {{0.001, 0, 0, 0.1}, {0, 0.002, 0, 0}, {0, 0, 0.003, 0}});
    image->xyz_units = NIFTI_UNITS_METER;
    write(*image, dir.path() / "m.nii");
    const Volume metres = io::readNifti(dir.path() / "m.nii");
    expectNear(metres.geometry().spacing, {1.0, 2.0, 3.0});
    expectNear(lpsOf(metres, {1, 1, 1}), {-101.0, -2.0, 3.0});

    image->xyz_units = NIFTI_UNITS_MICRON;
    setSform(*image, {{500, 0, 0, 0}, {0, 500, 0, 0}, {0, 0, 1000, 0}});
    write(*image, dir.path() / "um.nii");
    expectNear(io::readNifti(dir.path() / "um.nii").geometry().spacing, {0.5, 0.5, 1.0});
}

// ---- values, types, versions, files ----

TEST(NiftiReader, Float32WithSclSlopeAndInterKeepsStoredValuesAndTheRescale)
{
    TempDir dir;
    Nim image = makeImage(DT_FLOAT32, {3, 3, 3});
    image->scl_slope = 2.0;
    image->scl_inter = -5.0;
    write(*image, dir.path() / "f.nii");
    const Volume v = io::readNifti(dir.path() / "f.nii");
    EXPECT_EQ(v.type(), ScalarType::Float32);
    EXPECT_DOUBLE_EQ(v.rescale().slope, 2.0);
    EXPECT_DOUBLE_EQ(v.rescale().intercept, -5.0);
    EXPECT_FLOAT_EQ(v.valueAt(1, 2, 1), float(1 + 3 * (2 + 3 * 1)) * 0.5f); // linear 16
}

TEST(NiftiReader, SlopeZeroMeansNoScalingAndANonFiniteSlopeIsIgnoredWithAWarning)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {2, 2, 2});
    image->scl_slope = 0.0;
    image->scl_inter = 100.0;
    write(*image, dir.path() / "zero.nii");
    const Volume zero = io::readNifti(dir.path() / "zero.nii");
    EXPECT_DOUBLE_EQ(zero.rescale().slope, 1.0);
    EXPECT_DOUBLE_EQ(zero.rescale().intercept, 0.0);

    image->scl_slope = NAN;
    write(*image, dir.path() / "nan.nii");
    const Volume nan = io::readNifti(dir.path() / "nan.nii");
    EXPECT_DOUBLE_EQ(nan.rescale().slope, 1.0);
    EXPECT_TRUE(hasWarning(nan, "scl_slope"));
}

TEST(NiftiReader, Int16InEitherByteOrderReadsTheSameValues)
{
    TempDir dir;
    Nim image = makeImage(DT_INT16, {5, 4, 3});
    write(*image, dir.path() / "le.nii");
    const Volume little = io::readNifti(dir.path() / "le.nii");
    EXPECT_EQ(little.type(), ScalarType::Int16);
    EXPECT_FLOAT_EQ(little.valueAt(0, 0, 0), -500.0f);
    EXPECT_FLOAT_EQ(little.valueAt(4, 3, 2), float(4 + 5 * (3 + 4 * 2)) - 500.0f);

    // The same file in the other byte order: header swapped by nifticlib, voxels by hand.
    std::string bytes = readFile(dir.path() / "le.nii");
    nifti_1_header header{};
    std::memcpy(&header, bytes.data(), sizeof header);
    nifti_swap_as_nifti1(&header);
    std::memcpy(bytes.data(), &header, sizeof header);
    for (std::size_t i = 352; i + 1 < bytes.size(); i += 2)
        std::swap(bytes[i], bytes[i + 1]);
    writeFile(dir.path() / "be.nii", bytes);
    const Volume big = io::readNifti(dir.path() / "be.nii");
    ASSERT_EQ(big.byteCount(), little.byteCount());
    EXPECT_EQ(std::memcmp(big.bytes(), little.bytes(), big.byteCount()), 0);
}

TEST(NiftiReader, TheLabelIntentMarksALabelMapAndNoOtherFile)
{
    TempDir dir;
    Nim labels = makeImage(DT_INT16, {4, 4, 4});
    labels->intent_code = NIFTI_INTENT_LABEL;
    write(*labels, dir.path() / "seg.nii");
    Nim image = makeImage(DT_INT16, {4, 4, 4});
    write(*image, dir.path() / "image.nii");
    EXPECT_TRUE(io::readNifti(dir.path() / "seg.nii").metadata().declaresLabelMap);
    EXPECT_FALSE(io::readNifti(dir.path() / "image.nii").metadata().declaresLabelMap);
}

TEST(NiftiReader, Nifti2ReadsWithItsVersionNamed)
{
    TempDir dir;
    Nim image = makeImage(DT_INT16, {4, 3, 2});
    setSform(*image, {{0, -1, 0, 12}, {1, 0, 0, -3}, {0, 0, 1.5, 2}});
    image->descrip[0] = '\0';
    std::strcpy(image->descrip, "nifti-2 test");
    write(*image, dir.path() / "two.nii", NIFTI_FTYPE_NIFTI2_1);
    ASSERT_EQ(readFile(dir.path() / "two.nii").substr(4, 4), std::string("n+2\0", 4));

    const io::NiftiHeader header = io::readNiftiHeader(dir.path() / "two.nii");
    EXPECT_EQ(header.version, 2);
    const Volume v = io::readNifti(dir.path() / "two.nii");
    EXPECT_EQ(v.metadata().sourceFormat, "NIfTI-2");
    EXPECT_EQ(v.metadata().seriesDescription, "nifti-2 test");
    expectNear(lpsOf(v, {3, 2, 1}), {-(-2.0 + 12.0), -(3.0 - 3.0), 1.5 + 2.0});
    EXPECT_FLOAT_EQ(v.valueAt(3, 2, 1), float(3 + 4 * (2 + 3 * 1)) - 500.0f);
}

TEST(NiftiReader, HeaderAndImagePairsReadAndBothFilesAreProtected)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {3, 3, 3});
    setSform(*image, {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    for (const char* name : {"pair.hdr", "gzpair.hdr.gz"}) {
        SCOPED_TRACE(name);
        write(*image, dir.path() / name, NIFTI_FTYPE_NIFTI1_2);
        const io::VolumeSource source = io::openSource(dir.path() / name);
        EXPECT_EQ(source.format, io::VolumeFormat::Nifti);
        const Volume v = io::loadVolume(source);
        EXPECT_FLOAT_EQ(v.valueAt(2, 2, 2), float(26 % 251));
        ASSERT_NE(v.sourceFileProtection(), nullptr);
        EXPECT_EQ(v.sourceFileProtection()->fileCount(), 2u);
    }
    ASSERT_TRUE(fs::exists(dir.path() / "gzpair.img.gz"));

    fs::remove(dir.path() / "pair.img");
    const std::string missing = messageOf([&] { io::readNifti(dir.path() / "pair.hdr"); });
    EXPECT_TRUE(contains(missing, "image file")) << missing;
    EXPECT_TRUE(contains(missing, "pair.img")) << missing;
}

// 3 volumes 2.5 s apart; voxel values continue from volume to volume (see makeImage).
void writeTimeSeries(const fs::path& path)
{
    Nim image = makeImage(DT_FLOAT32, {4, 4, 4}, 3);
    image->dt = image->pixdim[4] = 2.5;
    setSform(*image, {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    write(*image, path);
}

TEST(NiftiReader, A4DFileListsOneSeriesPerVolumeAndLoadsTheChosenOne)
{
    TempDir dir;
    for (const char* name : {"bold.nii", "bold.nii.gz"}) {
        SCOPED_TRACE(name);
        const fs::path path = dir.path() / name;
        writeTimeSeries(path);
        const io::VolumeSource source = io::openSource(path);
        EXPECT_EQ(source.format, io::VolumeFormat::Nifti);
        ASSERT_EQ(source.series.size(), 3u);
        EXPECT_EQ(source.defaultSeries, 0u);
        EXPECT_EQ(source.series[0].volumeLabel, "volume 1 of 3 (t = 0 s)");
        EXPECT_EQ(source.series[1].volumeLabel, "volume 2 of 3 (t = 2.5 s)");
        EXPECT_EQ(source.series[2].dims, glm::uvec3(4, 4, 4));

        // Voxel 0 of volume t has linear index 64 t, stored as (64 t % 1000) / 2.
        const Volume first = io::loadVolume(source);
        EXPECT_FLOAT_EQ(first.valueAt(0, 0, 0), 0.0f);
        io::VolumeChoice third;
        third.seriesIndex = 2;
        const Volume last = io::loadVolume(source, third);
        EXPECT_FLOAT_EQ(last.valueAt(0, 0, 0), 64.0f);
        EXPECT_FLOAT_EQ(last.valueAt(3, 3, 3), float(128 + 63) * 0.5f);

        third.seriesIndex = 3;
        EXPECT_TRUE(contains(messageOf([&] { io::loadVolume(source, third); }), "holds 3 volumes"));
    }
}

TEST(NiftiReader, CompressedFilesReadLikeUncompressedOnes)
{
    TempDir dir;
    Nim image = makeImage(DT_INT16, {7, 5, 3});
    setQform(*image, {0, 0, kSqrtHalf}, {1, 2, 3}, 1.0);
    write(*image, dir.path() / "c.nii.gz");
    write(*image, dir.path() / "c.nii");
    ASSERT_EQ(readFile(dir.path() / "c.nii.gz").substr(0, 2), "\x1f\x8b");
    const Volume compressed = io::readNifti(dir.path() / "c.nii.gz");
    const Volume plain = io::readNifti(dir.path() / "c.nii");
    ASSERT_EQ(compressed.byteCount(), plain.byteCount());
    EXPECT_EQ(std::memcmp(compressed.bytes(), plain.bytes(), plain.byteCount()), 0);
    expectNear(lpsOf(compressed, {6, 4, 2}), lpsOf(plain, {6, 4, 2}));
}

TEST(NiftiReader, ANiftiFileWithoutATellingNameIsFoundByItsMagic)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {2, 2, 2});
    write(*image, dir.path() / "scan.nii");
    fs::rename(dir.path() / "scan.nii", dir.path() / "scan.dat");
    EXPECT_EQ(io::openSource(dir.path() / "scan.dat").format, io::VolumeFormat::Nifti);
}

TEST(NiftiReader, ProgressIsReportedAndCancellationStops)
{
    TempDir dir;
    writeTimeSeries(dir.path() / "p.nii.gz");
    test::RecordingMonitor progress;
    io::readNifti(dir.path() / "p.nii.gz", 2, &progress);
    bool sawVoxels = false;
    for (const auto& call : progress.calls)
        sawVoxels = sawVoxels || call.stage == "reading voxels";
    EXPECT_TRUE(sawVoxels);

    test::RecordingMonitor cancel(1);
    EXPECT_THROW(io::readNifti(dir.path() / "p.nii.gz", 2, &cancel), CancelledError);
}

// ---- the real files ----

struct RealFile {
    const char* name;
    unsigned slices;
    glm::dvec3 first; // LPS of voxel (0, 0, 0)
    glm::dvec3 last;  // LPS of voxel (63, 63, slices - 1)
};

// Expected positions computed independently of isoview: srow_x/y/z read with Python's struct
// from bytes 280-327 of each 348-byte header (little-endian float32), applied to the index,
// then x and y negated (RAS to LPS):
//   h = open(f, 'rb').read(348); sx = struct.unpack('<4f', h[280:296]); ... (sy, sz likewise)
// All three have qform_code = sform_code = 1, xyzt_units 10 (mm, s), pixdim[4] = 3 s.
const RealFile kRealFiles[] = {
    {"nifti/ax_int_36sl_12.nii",
     36,
     {-104.0, 58.48991394042969, -86.58750915527344},
     {100.74999999999997, -131.45457738637927, 60.78838041424751}},
    {"nifti/cor_asc_35sl_16.nii",
     35,
     {-104.0, -148.53213500976562, -92.38042449951172},
     {100.75, 3.7508682012557983, 91.23386561870575}},
    {"nifti/sag_asc_36sl_19.nii",
     36,
     {-63.0, -140.31964111328125, -126.1737060546875},
     {62.99999666213989, 64.43035888671875, 78.5762939453125}},
};

TEST(NiftiReader, Dcm2niixFilesListTwoVolumesAtTheirHeadersPositions)
{
    for (const RealFile& file : kRealFiles) {
        SCOPED_TRACE(file.name);
        const fs::path path = test::sharedDataPath(file.name);
        const io::VolumeSource source = io::openSource(path);
        ASSERT_EQ(source.series.size(), 2u);
        EXPECT_EQ(source.series[1].volumeLabel, "volume 2 of 2 (t = 3 s)");
        EXPECT_EQ(source.series[0].dims, glm::uvec3(64, 64, file.slices));
        for (std::size_t index : {0u, 1u}) {
            io::VolumeChoice choice;
            choice.seriesIndex = index;
            const Volume v = io::loadVolume(source, choice);
            EXPECT_EQ(v.type(), ScalarType::Int16);
            expectNear(lpsOf(v, {0, 0, 0}), file.first, 1e-3);
            expectNear(lpsOf(v, {63, 63, file.slices - 1.0}), file.last, 1e-3);
            EXPECT_FALSE(hasWarning(v, "disagree")) << "dcm2niix writes agreeing transforms";
            EXPECT_TRUE(v.metadata().patientSpace);
        }
    }
}

// ---- damaged input ----

TEST(NiftiReader, DamagedFilesGiveClearErrors)
{
    TempDir dir;
    Nim image = makeImage(DT_INT16, {8, 8, 8});
    write(*image, dir.path() / "good.nii");
    const std::string good = readFile(dir.path() / "good.nii");
    ASSERT_EQ(good.size(), 352u + 1024u);

    writeFile(dir.path() / "cut.nii", good.substr(0, 1000));
    const std::string cut = messageOf([&] { io::readNifti(dir.path() / "cut.nii"); });
    EXPECT_TRUE(contains(cut, "holds 1000 bytes")) << cut;
    EXPECT_TRUE(contains(cut, "needs bytes 352 to 1376")) << cut;
    EXPECT_TRUE(contains(cut, "truncated")) << cut;

    std::string badMagic = good;
    badMagic.replace(344, 4, "abcd");
    writeFile(dir.path() / "magic.nii", badMagic);
    const std::string magic = messageOf([&] { io::readNifti(dir.path() / "magic.nii"); });
    EXPECT_TRUE(contains(magic, "no NIfTI-1 magic at byte 344")) << magic;

    writeFile(dir.path() / "short.nii", good.substr(0, 100));
    EXPECT_TRUE(contains(messageOf([&] { io::readNifti(dir.path() / "short.nii"); }),
                         "the header ends after 100 bytes"));

    std::string huge = good;
    nifti_1_header header{};
    std::memcpy(&header, huge.data(), sizeof header);
    header.dim[1] = header.dim[2] = header.dim[3] = 32767;
    header.datatype = DT_FLOAT64;
    header.bitpix = 64;
    std::memcpy(huge.data(), &header, sizeof header);
    writeFile(dir.path() / "huge.nii", huge);
    const std::string absurd = messageOf([&] { io::readNifti(dir.path() / "huge.nii"); });
    EXPECT_TRUE(contains(absurd, "32767x32767x32767 float64")) << absurd;
    EXPECT_TRUE(contains(absurd, "memory")) << absurd;

    header.datatype = DT_INT64;
    header.dim[1] = header.dim[2] = header.dim[3] = 8;
    std::memcpy(huge.data(), &header, sizeof header);
    writeFile(dir.path() / "int64.nii", huge);
    const std::string int64 = messageOf([&] { io::readNifti(dir.path() / "int64.nii"); });
    EXPECT_TRUE(contains(int64, "datatype 1024 (INT64) is not supported")) << int64;

    header.datatype = DT_INT16;
    header.dim[0] = 5;
    header.dim[4] = 1;
    header.dim[5] = 3;
    std::memcpy(huge.data(), &header, sizeof header);
    writeFile(dir.path() / "vector.nii", huge);
    const std::string vector = messageOf([&] { io::readNifti(dir.path() / "vector.nii"); });
    EXPECT_TRUE(contains(vector, "dim[5] is 3")) << vector;
}

// dim[4] = 2^40 in a file of a few KB: listed as the volumes the file holds, or refused when it
// holds none, at once and without a byte per claimed volume (it took 10-14 GB before).
TEST(NiftiReader, AClaimOfMoreVolumesThanTheFileHoldsIsBoundedByTheFile)
{
    TempDir dir;
    Nim image = makeImage(DT_FLOAT32, {8, 8, 8}, 2);
    write(*image, dir.path() / "two.nii", NIFTI_FTYPE_NIFTI2_1);
    std::string bytes = readFile(dir.path() / "two.nii");
    ASSERT_EQ(bytes.size(), 544u + 2u * 2048u);
    const std::int64_t claimed = std::int64_t(1) << 40;
    std::memcpy(bytes.data() + 16 + 4 * 8, &claimed, sizeof claimed); // dim[4]
    writeFile(dir.path() / "claims.nii", bytes);

    const auto start = std::chrono::steady_clock::now();
    const io::VolumeSource source = io::openSource(dir.path() / "claims.nii");
    ASSERT_EQ(source.series.size(), 2u);
    ASSERT_EQ(source.notes.size(), 1u);
    EXPECT_TRUE(contains(source.notes[0], "claims 1099511627776 volumes, but the file can hold "
                                          "only 2"))
        << source.notes[0];

    const std::int64_t dims[3] = {64, 64, 32}; // 512 KiB a volume: none fits in 4.6 KB
    std::memcpy(bytes.data() + 16 + 8, dims, sizeof dims);
    writeFile(dir.path() / "none.nii", bytes);
    const std::string none = messageOf<IoError>([&] { io::openSource(dir.path() / "none.nii"); });
    EXPECT_TRUE(contains(none, "the header claims 1099511627776 volumes of 64x64x32 float32 "
                               "(512.0 PiB), but the file holds 4.0 KiB (4096 bytes) there, "
                               "room for none of them"))
        << none;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(NiftiReader, AbsurdVoxelSizesAreRefused)
{
    TempDir dir;
    Nim image = makeImage(DT_UINT8, {2, 2, 2});
    setSform(*image, {{1e-9, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    write(*image, dir.path() / "tiny.nii");
    const std::string tiny = messageOf([&] { io::readNifti(dir.path() / "tiny.nii"); });
    EXPECT_TRUE(contains(tiny, "the sform makes axis 1 1e-09 mm per voxel")) << tiny;
}

TEST(NiftiReader, CompressedFilesCutShortGiveClearErrors)
{
    TempDir dir;
    writeTimeSeries(dir.path() / "full.nii.gz");
    const std::string full = readFile(dir.path() / "full.nii.gz");

    writeFile(dir.path() / "cut.nii.gz", full.substr(0, full.size() / 2));
    const std::string cut = messageOf([&] { io::readNifti(dir.path() / "cut.nii.gz", 2); });
    EXPECT_TRUE(contains(cut, "end after")) << cut;
    EXPECT_TRUE(contains(cut, "cut short")) << cut;
    EXPECT_TRUE(contains(cut, "volume 3 of 3")) << cut;

    writeFile(dir.path() / "head.nii.gz", full.substr(0, 40));
    const std::string head = messageOf([&] { io::openSource(dir.path() / "head.nii.gz"); });
    EXPECT_TRUE(contains(head, "inside the header")) << head;
}

TEST(NiftiReader, CompressedFilesWithAWrongCheckValueAreRefused)
{
    TempDir dir;
    Nim image = makeImage(DT_INT16, {8, 8, 8});
    write(*image, dir.path() / "good.nii");
    const std::string good = readFile(dir.path() / "good.nii");
    // Found with the voxels' last bytes, and where the stream decodes on past them (as damage
    // that lengthens a stream makes it do).
    for (const std::string& plain : {good, good + std::string(100, 'x')}) {
        std::string compressed = test::deflateBytes(plain, true);
        compressed[compressed.size() - 6] = char(compressed[compressed.size() - 6] ^ 0x01);
        writeFile(dir.path() / "bad.nii.gz", compressed);
        const std::string message = messageOf([&] { io::readNifti(dir.path() / "bad.nii.gz"); });
        EXPECT_TRUE(contains(message, "are corrupt (zlib: incorrect data check)")) << message;
    }
}

TEST(NiftiReader, AFifoNamedLikeNiftiIsRefusedAtOnce)
{
    TempDir dir;
    const fs::path fifo = dir.path() / "x.nii";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const test::ChildResult child = test::runInChild([&](std::string& message) {
        ::alarm(10);
        message = messageOf([&] { io::openSource(fifo); }) + "\n" +
                  messageOf([&] { io::readNifti(fifo); }) + "\n" +
                  messageOf([&] { io::readNiftiHeader(fifo); });
        return 0;
    });
    ASSERT_TRUE(child.exited) << "blocked on the FIFO (signal " << child.signal << ")";
    std::size_t refusals = 0;
    for (std::size_t at = 0; (at = child.message.find("is a FIFO", at)) != std::string::npos;
         ++at) {
        ++refusals;
    }
    EXPECT_EQ(refusals, 3u) << child.message;
    EXPECT_FALSE(io::looksLikeNifti(fifo));
}

} // namespace
} // namespace isoview
