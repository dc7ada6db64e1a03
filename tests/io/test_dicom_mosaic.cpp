// Siemens MOSAIC: the CSA header parser, the mosaic layout, synthetic mosaics written with
// DCMTK (known tile values and geometry, inconsistent ones), and the three real mosaic series of
// the shared data against the NIfTI files dcm2niix wrote from them (same values at the same
// physical points, same corner positions).
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "io/dicom/dicom_mosaic.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom/siemens_csa_header.h"
#include "io/io_test_support.h"
#include "io/volume_loader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::dicom::CsaHeader;
using io::dicom::parseCsaHeader;
using test::messageOf;

// ---------------------------------------------------------------------------------------------
// A CSA table writer (SV10 or the old format), for the parser's tests and synthetic mosaics.

struct CsaEntry {
    std::string name;
    std::string vr;
    std::vector<std::string> values;
};

void putInt(std::vector<std::uint8_t>& out, std::int32_t value)
{
    for (int b = 0; b < 4; ++b)
        out.push_back(std::uint8_t((std::uint32_t(value) >> (8 * b)) & 0xFF));
}

std::vector<std::uint8_t> csaBytes(const std::vector<CsaEntry>& entries, bool sv10 = true)
{
    std::vector<std::uint8_t> out;
    if (sv10) {
        const char signature[8] = {'S', 'V', '1', '0', 4, 3, 2, 1};
        out.insert(out.end(), signature, signature + 8);
    }
    putInt(out, std::int32_t(entries.size()));
    putInt(out, 77);
    const std::int32_t firstItems =
        entries.empty() ? 0 : std::int32_t(entries.front().values.size());
    for (const CsaEntry& e : entries) {
        std::vector<std::uint8_t> name(64, 0);
        std::memcpy(name.data(), e.name.data(), std::min<std::size_t>(e.name.size(), 63));
        out.insert(out.end(), name.begin(), name.end());
        putInt(out, std::int32_t(e.values.size())); // VM
        std::vector<std::uint8_t> vr(4, 0);
        std::memcpy(vr.data(), e.vr.data(), std::min<std::size_t>(e.vr.size(), 3));
        out.insert(out.end(), vr.begin(), vr.end());
        putInt(out, 0);
        putInt(out, std::int32_t(e.values.size()));
        putInt(out, 77);
        for (const std::string& value : e.values) {
            const auto length = std::int32_t(value.size() + 1);
            putInt(out, sv10 ? length : length + firstItems);
            putInt(out, length);
            putInt(out, 77);
            putInt(out, length);
            out.insert(out.end(), value.begin(), value.end());
            out.push_back(0);
            while (out.size() % 4 != 0)
                out.push_back(0);
        }
    }
    return out;
}

TEST(SiemensCsaHeader, ReadsSv10AndTheOldFormat)
{
    const std::vector<CsaEntry> entries = {
        {"EchoLinePosition", "IS", {"32"}},
        {"NumberOfImagesInMosaic", "US", {"35"}},
        {"SliceNormalVector", "FD", {"0.00000000", "0.98822838", "-0.15298582"}},
    };
    for (const bool sv10 : {true, false}) {
        const std::vector<std::uint8_t> bytes = csaBytes(entries, sv10);
        const CsaHeader csa = parseCsaHeader(bytes, "test");
        ASSERT_EQ(csa.elements.size(), 3u) << sv10;
        EXPECT_EQ(csa.number("NumberOfImagesInMosaic"), 35.0);
        EXPECT_NEAR(*csa.number("SliceNormalVector", 1), 0.98822838, 1e-12);
        EXPECT_NEAR(*csa.number("SliceNormalVector", 2), -0.15298582, 1e-12);
        EXPECT_FALSE(csa.number("SliceNormalVector", 3));
        EXPECT_FALSE(csa.number("NoSuchElement"));
        EXPECT_EQ(csa.find("EchoLinePosition")->vr, "IS");
    }
}

TEST(SiemensCsaHeader, DamagedTablesAreClearErrorsWithTheByteOffset)
{
    const std::vector<std::uint8_t> good =
        csaBytes({{"NumberOfImagesInMosaic", "US", {"35"}}, {"B", "IS", {"1"}}});
    // Cut anywhere: an error naming where, never a read past the end. Only the last item's
    // padding (2 bytes after "1\0") may be missing.
    for (std::size_t size = 0; size < good.size(); ++size) {
        const std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(size));
        if (size + 2 < good.size()) {
            EXPECT_THROW((void)parseCsaHeader(cut, "cut"), InvalidInputError) << size;
        } else {
            EXPECT_EQ(parseCsaHeader(cut, "cut").number("B"), 1.0) << size;
        }
    }
    std::vector<std::uint8_t> absurd = good;
    absurd[8] = 0xFF; // element count 255 + ... far beyond what is there
    absurd[11] = 0x7F;
    EXPECT_NE(messageOf<InvalidInputError>([&] {
                  (void)parseCsaHeader(absurd, "\"x.dcm\"");
              }).find("\"x.dcm\": the CSA header claims"),
              std::string::npos);
    std::vector<std::uint8_t> longItem = good;
    // The first item's length (second word of its four) made huge.
    const std::size_t firstItem = 16 + 64 + 4 + 4 + 4 + 4 + 4;
    longItem[firstItem + 4 + 3] = 0x10;
    const std::string message =
        messageOf<InvalidInputError>([&] { (void)parseCsaHeader(longItem, "\"x.dcm\""); });
    EXPECT_NE(message.find("\"NumberOfImagesInMosaic\" item 1 claims"), std::string::npos)
        << message;
    EXPECT_NE(message.find("at byte " + std::to_string(firstItem + 16)), std::string::npos)
        << message;
    const std::vector<std::uint8_t> notCsa(64, 0x41);
    EXPECT_NE(messageOf<InvalidInputError>([&] {
                  (void)parseCsaHeader(notCsa, "y");
              }).find("not a Siemens CSA header"),
              std::string::npos);
}

TEST(DicomMosaicLayout, TilesFromTheImageCount)
{
    const auto layout = io::dicom::mosaicLayout(35, 384, 384, "m");
    EXPECT_EQ(layout.tilesPerSide, 6u);
    EXPECT_EQ(layout.tileColumns, 64u);
    EXPECT_EQ(layout.tileRows, 64u);
    EXPECT_EQ(io::dicom::mosaicLayout(36, 384, 384, "m").tilesPerSide, 6u);
    EXPECT_EQ(io::dicom::mosaicLayout(37, 448, 448, "m").tilesPerSide, 7u);
    EXPECT_EQ(io::dicom::mosaicLayout(1, 64, 64, "m").tileColumns, 64u);
    const std::string message =
        messageOf<InvalidInputError>([] { (void)io::dicom::mosaicLayout(40, 384, 384, "\"m\""); });
    EXPECT_NE(message.find("\"m\": a MOSAIC of 40 images needs 7x7 tiles"), std::string::npos)
        << message;
    EXPECT_NE(message.find("384x384"), std::string::npos);
    EXPECT_THROW((void)io::dicom::mosaicLayout(0, 384, 384, "m"), InvalidInputError);
    EXPECT_THROW((void)io::dicom::mosaicLayout(9, 2, 2, "m"), InvalidInputError);
}

// ---------------------------------------------------------------------------------------------
// Synthetic mosaics: 5 slices of 4x3 (columns x rows) in a 3x3 grid of tiles (12x9), tile k
// filled with 100 + 10 k + its pixel index.

struct MosaicSpec {
    std::optional<std::uint16_t> imagesTag = 5; // (0019,100A)
    std::optional<std::string> csaImages = {};  // NumberOfImagesInMosaic in the CSA header
    std::optional<std::array<double, 3>> csaNormal = {};
    std::uint16_t columns = 12;
    std::uint16_t rows = 9;
    std::string acquisition = "1";
    std::string seriesUid = "1.2.826.0.1.3680043.9.7433.78.1";
};

constexpr std::uint32_t kTileColumns = 4;
constexpr std::uint32_t kTileRows = 3;

std::uint16_t tileValue(std::uint32_t tile, std::uint32_t i, std::uint32_t j)
{
    return std::uint16_t(100 + 10 * tile + j * kTileColumns + i);
}

void writeMosaic(const fs::path& path, const MosaicSpec& spec)
{
    DcmFileFormat file;
    DcmDataset* d = file.getDataset();
    char uid[100];
    const auto put = [d](const DcmTagKey& tag, const std::string& value) {
        ASSERT_TRUE(d->putAndInsertString(tag, value.c_str()).good()) << DcmTag(tag).getTagName();
    };
    put(DCM_SOPClassUID, UID_MRImageStorage);
    put(DCM_SOPInstanceUID, dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT));
    put(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.9.7433.78");
    put(DCM_SeriesInstanceUID, spec.seriesUid);
    put(DCM_Modality, "MR");
    put(DCM_SeriesDescription, "ep2d synthetic");
    put(DCM_ImageType, "ORIGINAL\\PRIMARY\\M\\ND\\MOSAIC");
    put(DCM_AcquisitionNumber, spec.acquisition);
    put(DCM_InstanceNumber, spec.acquisition);
    put(DCM_ImagePositionPatient, "-10\\-20\\30");
    put(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
    put(DCM_PixelSpacing, "2\\1.5"); // between rows 2, between columns 1.5
    put(DCM_SliceThickness, "3");
    put(DCM_SpacingBetweenSlices, "3.5");
    put(DCM_PhotometricInterpretation, "MONOCHROME2");
    ASSERT_TRUE(d->putAndInsertUint16(DCM_SamplesPerPixel, 1).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Rows, spec.rows).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Columns, spec.columns).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsAllocated, 16).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsStored, 12).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_HighBit, 11).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_PixelRepresentation, 0).good());
    if (spec.imagesTag) {
        put(DcmTagKey(0x0019, 0x0010), "SIEMENS MR HEADER");
        auto* images = new DcmUnsignedShort(DcmTag(0x0019, 0x100A, EVR_US));
        ASSERT_TRUE(images->putUint16(*spec.imagesTag).good());
        ASSERT_TRUE(d->insert(images, true).good());
    }
    std::vector<CsaEntry> csa;
    if (spec.csaImages) csa.push_back({"NumberOfImagesInMosaic", "US", {*spec.csaImages}});
    if (spec.csaNormal) {
        csa.push_back({"SliceNormalVector",
                       "FD",
                       {std::to_string((*spec.csaNormal)[0]), std::to_string((*spec.csaNormal)[1]),
                        std::to_string((*spec.csaNormal)[2])}});
    }
    if (!csa.empty()) {
        put(DcmTagKey(0x0029, 0x0010), "SIEMENS CSA HEADER");
        const std::vector<std::uint8_t> bytes = csaBytes(csa);
        auto* element = new DcmOtherByteOtherWord(DcmTag(0x0029, 0x1010, EVR_OB));
        ASSERT_TRUE(element->putUint8Array(bytes.data(), bytes.size()).good());
        ASSERT_TRUE(d->insert(element, true).good());
    }
    std::vector<Uint16> pixels(std::size_t(spec.columns) * spec.rows, 0);
    const std::uint32_t perSide = 3;
    for (std::uint32_t tile = 0; tile < 5; ++tile) {
        for (std::uint32_t j = 0; j < kTileRows; ++j) {
            for (std::uint32_t i = 0; i < kTileColumns; ++i) {
                const std::size_t row = (tile / perSide) * kTileRows + j;
                const std::size_t column = (tile % perSide) * kTileColumns + i;
                if (row < spec.rows && column < spec.columns) {
                    pixels[row * spec.columns + column] = tileValue(tile, i, j);
                }
            }
        }
    }
    ASSERT_TRUE(d->putAndInsertUint16Array(DCM_PixelData, pixels.data(), pixels.size()).good());
    const OFCondition status = file.saveFile(path.c_str(), EXS_LittleEndianExplicit);
    ASSERT_TRUE(status.good()) << status.text();
}

Volume loadOnly(const fs::path& path)
{
    const io::DicomScan scan = io::scanDicom(path);
    EXPECT_EQ(scan.series.size(), 1u);
    return io::loadDicomSeries(scan.series.at(scan.defaultSeries));
}

TEST(DicomMosaic, TilesBecomeSlicesAtTheirPositions)
{
    test::TempDir dir;
    const fs::path path = dir.path() / "mosaic.dcm";
    writeMosaic(path, MosaicSpec{.csaNormal = std::array<double, 3>{0, 0, 1}});
    const io::DicomScan scan = io::scanDicom(path);
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].summary.dims, glm::uvec3(4, 3, 5));
    EXPECT_EQ(scan.series[0].summary.sliceCount, 5u);
    EXPECT_TRUE(scan.series[0].summary.volumeLabel.empty());
    const Volume volume = io::loadDicomSeries(scan.series[0]);
    ASSERT_EQ(volume.dims(), glm::uvec3(4, 3, 5));
    for (std::uint32_t k = 0; k < 5; ++k) {
        for (std::uint32_t j = 0; j < kTileRows; ++j) {
            for (std::uint32_t i = 0; i < kTileColumns; ++i) {
                ASSERT_EQ(volume.valueAt(i, j, k), tileValue(k, i, j)) << i << "," << j << "," << k;
            }
        }
    }
    // The first tile's corner: half the unused columns (12 - 4) / 2 = 4 at 1.5 mm along x and
    // half the unused rows (9 - 3) / 2 = 3 at 2 mm along y from the mosaic's position.
    const VolumeGeometry& g = volume.geometry();
    EXPECT_NEAR(glm::length(g.origin - glm::dvec3(-10 + 4 * 1.5, -20 + 3 * 2.0, 30)), 0.0, 1e-9);
    EXPECT_NEAR(g.spacing.x, 1.5, 1e-12);
    EXPECT_NEAR(g.spacing.y, 2.0, 1e-12);
    EXPECT_NEAR(g.spacing.z, 3.5, 1e-9);
    EXPECT_TRUE(g.sliceOrigins.empty());
}

TEST(DicomMosaic, SliceNormalAgainstRowCrossColumnReversesTheTiles)
{
    test::TempDir dir;
    const fs::path path = dir.path() / "mosaic.dcm";
    // Tiles ascend towards -z: tile 0 is the highest slice, so it is the volume's last one.
    writeMosaic(path, MosaicSpec{.imagesTag = std::nullopt,
                                 .csaImages = "5",
                                 .csaNormal = std::array<double, 3>{0, 0, -1}});
    const Volume volume = loadOnly(path);
    ASSERT_EQ(volume.dims(), glm::uvec3(4, 3, 5));
    for (std::uint32_t k = 0; k < 5; ++k) {
        EXPECT_EQ(volume.valueAt(1, 2, k), tileValue(4 - k, 1, 2)) << k;
    }
    EXPECT_NEAR(volume.geometry().origin.z, 30 - 4 * 3.5, 1e-9);
    EXPECT_NEAR(volume.geometry().toPhysical({0, 0, 4}).z, 30, 1e-9);
}

TEST(DicomMosaic, InconsistentMosaicsAreClearErrors)
{
    test::TempDir dir;
    // 5 images need 3x3 tiles, which do not divide 10 columns.
    const fs::path uneven = dir.path() / "uneven.dcm";
    writeMosaic(uneven, MosaicSpec{.columns = 10});
    // The scan lists nothing loadable and says why.
    std::string message = messageOf<IoError>([&] { (void)io::scanDicom(uneven); });
    EXPECT_NE(message.find("no DICOM image series found"), std::string::npos) << message;
    EXPECT_NE(message.find("a MOSAIC of 5 images needs 3x3 tiles"), std::string::npos) << message;
    io::DicomSeriesInfo series;
    series.files = {uneven};
    message = messageOf<InvalidInputError>([&] { (void)io::loadDicomSeries(series); });
    EXPECT_NE(message.find("uneven.dcm"), std::string::npos) << message;
    EXPECT_NE(message.find("a MOSAIC of 5 images needs 3x3 tiles"), std::string::npos);
    EXPECT_NE(message.find("10x9"), std::string::npos);

    // A mosaic that says nowhere how many images it holds.
    test::TempDir other;
    const fs::path uncounted = other.path() / "uncounted.dcm";
    writeMosaic(uncounted, MosaicSpec{.imagesTag = std::nullopt});
    io::DicomSeriesInfo info;
    info.files = {uncounted};
    message = messageOf<InvalidInputError>([&] { (void)io::loadDicomSeries(info); });
    EXPECT_NE(message.find("without NumberOfImagesInMosaic"), std::string::npos) << message;
    EXPECT_NE(message.find("uncounted.dcm"), std::string::npos) << message;
}

TEST(DicomMosaic, EachMosaicOfASeriesIsAVolume)
{
    test::TempDir dir;
    writeMosaic(dir.path() / "a.dcm", MosaicSpec{.acquisition = "7"});
    writeMosaic(dir.path() / "b.dcm", MosaicSpec{.acquisition = "8"});
    const io::DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 2u);
    EXPECT_EQ(scan.defaultSeries, 0u);
    EXPECT_EQ(scan.series[0].summary.volumeLabel, "volume 1 of 2: time point 1 (acquisition 7)");
    EXPECT_EQ(scan.series[1].summary.volumeLabel, "volume 2 of 2: time point 2 (acquisition 8)");
    for (const io::DicomSeriesInfo& info : scan.series) {
        ASSERT_EQ(info.files.size(), 1u);
        const Volume volume = io::loadDicomSeries(info);
        EXPECT_EQ(volume.dims(), glm::uvec3(4, 3, 5));
        EXPECT_NE(volume.metadata().seriesDescription.find(info.summary.volumeLabel),
                  std::string::npos);
    }
    EXPECT_EQ(scan.series[0].files[0].filename(), "a.dcm");
}

// ---------------------------------------------------------------------------------------------
// The real mosaics against dcm2niix's NIfTI files.

// A NIfTI-1 file as dcm2niix writes it here: int16, 4D, sform in RAS millimetres. Read by hand
// (348-byte header, then the voxels at vox_offset) for the raw affine and values, independent
// of the project's NIfTI reader; the surface test below compares with that reader's volumes.
struct Nifti {
    std::array<std::int64_t, 4> dims{};
    glm::dmat4 rasFromIndex{1.0};
    std::vector<std::int16_t> voxels;

    std::int16_t at(std::int64_t i, std::int64_t j, std::int64_t k, std::int64_t t) const
    {
        return voxels[std::size_t(((t * dims[2] + k) * dims[1] + j) * dims[0] + i)];
    }
    // The LPS position of a voxel (NIfTI is RAS: x and y negated).
    glm::dvec3 lps(double i, double j, double k) const
    {
        const glm::dvec4 ras = rasFromIndex * glm::dvec4(i, j, k, 1.0);
        return {-ras.x, -ras.y, ras.z};
    }
};

Nifti readNifti(const fs::path& path)
{
    const std::string bytes = test::readFile(path);
    Nifti n;
    if (bytes.size() < 352) {
        ADD_FAILURE() << "cannot read " << path;
        return n;
    }
    const auto i16 = [&](std::size_t at) {
        std::int16_t v;
        std::memcpy(&v, bytes.data() + at, 2);
        return v;
    };
    const auto f32 = [&](std::size_t at) {
        float v;
        std::memcpy(&v, bytes.data() + at, 4);
        return double(v);
    };
    EXPECT_EQ(i16(70), 4) << "int16 expected";
    for (int d = 0; d < 4; ++d)
        n.dims[std::size_t(d)] = i16(42 + 2 * std::size_t(d));
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c)
            n.rasFromIndex[c][r] = f32(280 + 16 * std::size_t(r) + 4 * std::size_t(c));
    }
    const auto offset = std::size_t(f32(108));
    const std::size_t count = std::size_t(n.dims[0] * n.dims[1] * n.dims[2] * n.dims[3]);
    EXPECT_EQ(bytes.size(), offset + 2 * count);
    n.voxels.resize(count);
    std::memcpy(n.voxels.data(), bytes.data() + offset,
                2 * std::min(count, (bytes.size() - offset) / 2));
    return n;
}

struct SharedMosaic {
    std::string folder;
    std::string nifti;
    std::uint32_t slices;
};

class RealMosaic : public ::testing::TestWithParam<SharedMosaic> {};

TEST_P(RealMosaic, MatchesDcm2niixInPhysicalSpace)
{
    const SharedMosaic& param = GetParam();
    const fs::path folder = fs::path(test::kSharedDataDir) / "dicom" / "mosaic" / param.folder;
    const io::DicomScan scan = io::scanDicom(folder);
    ASSERT_EQ(scan.series.size(), 2u);
    EXPECT_EQ(scan.defaultSeries, 0u);
    const Nifti nifti = readNifti(fs::path(test::kSharedDataDir) / "nifti" / param.nifti);
    ASSERT_EQ(nifti.dims, (std::array<std::int64_t, 4>{64, 64, param.slices, 2}));

    for (std::size_t t = 0; t < 2; ++t) {
        const io::DicomSeriesInfo& info = scan.series[t];
        EXPECT_EQ(info.summary.volumeLabel,
                  "volume " + std::to_string(t + 1) + " of 2: time point " + std::to_string(t + 1));
        EXPECT_EQ(info.summary.dims, glm::uvec3(64, 64, param.slices));
        const Volume volume = io::loadDicomSeries(info);
        ASSERT_EQ(volume.dims(), glm::uvec3(64, 64, param.slices));
        const VolumeGeometry& g = volume.geometry();
        EXPECT_TRUE(g.sliceOrigins.empty());
        // Index space of the DICOM volume from a physical point.
        const glm::dmat4 toIndex = glm::inverse(g.indexToPhysical());
        std::size_t compared = 0;
        for (std::int64_t k = 0; k < nifti.dims[2]; ++k) {
            for (std::int64_t j = 0; j < 64; ++j) {
                for (std::int64_t i = 0; i < 64; ++i) {
                    const glm::dvec3 p = nifti.lps(double(i), double(j), double(k));
                    const glm::dvec4 index = toIndex * glm::dvec4(p, 1.0);
                    const glm::dvec3 rounded = glm::round(glm::dvec3(index));
                    ASSERT_LT(glm::length(glm::dvec3(index) - rounded), 1e-3)
                        << "NIfTI voxel " << i << "," << j << "," << k << " lies between voxels";
                    ASSERT_EQ(volume.valueAt(std::uint32_t(rounded.x), std::uint32_t(rounded.y),
                                             std::uint32_t(rounded.z)),
                              float(nifti.at(i, j, k, std::int64_t(t))))
                        << "at NIfTI voxel " << i << "," << j << "," << k << " t " << t;
                    ++compared;
                }
            }
        }
        EXPECT_EQ(compared, volume.voxelCount());
        // The corners of the grid lie where dcm2niix put them.
        const glm::dvec3 last(63, 63, param.slices - 1);
        for (const glm::dvec3 corner : {glm::dvec3(0), glm::dvec3(63, 0, 0), glm::dvec3(0, 63, 0),
                                        glm::dvec3(0, 0, last.z), last}) {
            const glm::dvec3 mine = g.toPhysical(corner);
            const glm::dvec4 n =
                glm::inverse(nifti.rasFromIndex) * glm::dvec4(-mine.x, -mine.y, mine.z, 1.0);
            const glm::dvec3 niftiIndex = glm::round(glm::dvec3(n));
            EXPECT_LT(glm::length(mine - nifti.lps(niftiIndex.x, niftiIndex.y, niftiIndex.z)),
                      1e-3);
        }
    }
}

TEST_P(RealMosaic, VolumesAndSurfacesMatchThoseOfTheNiftiReader)
{
    // Each time point against the same volume of the NIfTI file as isoview's NIfTI reader loads
    // it (sform, RAS to LPS): every voxel equal at the same physical point, and the CPU marching
    // cubes of both with the same welded vertex count and bounds within half a voxel.
    const SharedMosaic& param = GetParam();
    const fs::path folder = fs::path(test::kSharedDataDir) / "dicom" / "mosaic" / param.folder;
    const fs::path niftiPath = fs::path(test::kSharedDataDir) / "nifti" / param.nifti;
    const io::DicomScan scan = io::scanDicom(folder);
    ASSERT_EQ(scan.series.size(), 2u);
    for (std::size_t t = 0; t < 2; ++t) {
        const Volume mine = io::loadDicomSeries(scan.series[t]);
        io::LoadOptions options;
        options.seriesIndex = t;
        const Volume reference = io::loadVolume(niftiPath, options);
        ASSERT_EQ(reference.dims(), mine.dims());

        const glm::dmat4 toMine = glm::inverse(mine.geometry().indexToPhysical());
        const glm::uvec3 d = reference.dims();
        for (std::uint32_t k = 0; k < d.z; ++k) {
            for (std::uint32_t j = 0; j < d.y; ++j) {
                for (std::uint32_t i = 0; i < d.x; ++i) {
                    const glm::dvec3 p = reference.geometry().toPhysical(glm::dvec3(i, j, k));
                    const glm::dvec3 index = glm::dvec3(toMine * glm::dvec4(p, 1.0));
                    const glm::dvec3 rounded = glm::round(index);
                    ASSERT_LT(glm::length(index - rounded), 1e-3) << i << "," << j << "," << k;
                    ASSERT_EQ(mine.valueAt(std::uint32_t(rounded.x), std::uint32_t(rounded.y),
                                           std::uint32_t(rounded.z)),
                              reference.valueAt(i, j, k))
                        << i << "," << j << "," << k << " t " << t;
                }
            }
        }

        const float iso = 200.5f; // no voxel equals it: no inside rule can differ
        const IsoMesh a = extractIsosurfaceCpu(mine, StoredValue(iso));
        const IsoMesh b = extractIsosurfaceCpu(reference, StoredValue(iso));
        ASSERT_GT(a.positions.size(), 1000u);
        EXPECT_EQ(a.positions.size(), b.positions.size());
        EXPECT_EQ(a.indices.size(), b.indices.size());
        const auto bounds = [](const IsoMesh& mesh, const VolumeGeometry& geometry) {
            glm::dvec3 low(1e30), high(-1e30);
            for (const glm::vec3& p : mesh.positions) {
                const glm::dvec3 physical = geometry.toPhysical(glm::dvec3(p));
                low = glm::min(low, physical);
                high = glm::max(high, physical);
            }
            return std::pair(low, high);
        };
        const auto [lowA, highA] = bounds(a, mine.geometry());
        const auto [lowB, highB] = bounds(b, reference.geometry());
        const glm::dvec3 spacing = mine.geometry().spacing;
        const double halfVoxel = 0.5 * std::min({spacing.x, spacing.y, spacing.z});
        EXPECT_LT(glm::length(lowA - lowB), halfVoxel);
        EXPECT_LT(glm::length(highA - highB), halfVoxel);
    }
}

INSTANTIATE_TEST_SUITE_P(SharedData, RealMosaic,
                         ::testing::Values(SharedMosaic{"cor_asc_35sl", "cor_asc_35sl_16.nii", 35},
                                           SharedMosaic{"sag_asc_36sl", "sag_asc_36sl_19.nii", 36},
                                           SharedMosaic{"ax_int_36sl", "ax_int_36sl_12.nii", 36}),
                         [](const auto& info) { return info.param.folder; });

} // namespace
} // namespace isoview
