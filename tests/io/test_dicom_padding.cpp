// DICOM values: PixelPaddingValue / PixelPaddingRangeLimit (padding is no data: below every
// surface's inside, out of the value range, the histogram and the suggested isovalue) and
// rescales that no scanner writes (an error naming the attribute, its text and the file).
// The value mapping is tested directly; padding end to end on a 3-slice series made from the
// shared GE CT slice, whose -2000 ring outside the reconstruction circle is declared padding.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom/dicom_value_mapping.h"
#include "support/temp_dir.h"
#include "test_paths.h"
#include "volume/histogram.h"
#include "volume/isovalue_suggestion.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::dicom::chooseValueMapping;
using io::dicom::SliceValues;
using io::dicom::ValueMapping;

const fs::path kCtReference =
    fs::path(test::kSharedDataDir) / "dicom" / "single" /
    "CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm";

std::string invalidInputOf(const std::vector<SliceValues>& slices)
{
    std::vector<std::string> warnings;
    try {
        (void)chooseValueMapping(slices, warnings);
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InvalidInputError";
    return {};
}

SliceValues ctSlice()
{
    SliceValues s;
    s.bitsStored = 16;
    s.pixelSigned = true;
    s.slope = 1.0;
    s.slopeText = "1";
    s.intercept = -1024.0;
    s.interceptText = "-1024";
    s.label = "'I50'";
    return s;
}

TEST(DicomValueMapping, NonFiniteAndAbsurdRescalesAreRefusedByName)
{
    SliceValues nanSlope = ctSlice();
    nanSlope.slope = std::numeric_limits<double>::quiet_NaN();
    nanSlope.slopeText = "NaN";
    EXPECT_EQ(invalidInputOf({nanSlope}),
              "RescaleSlope (0028,1053) is 'NaN' in 'I50': it must be a finite number");

    SliceValues hugeSlope = ctSlice();
    hugeSlope.slope = 1e300;
    hugeSlope.slopeText = "1e300";
    const std::string huge = invalidInputOf({ctSlice(), hugeSlope});
    EXPECT_NE(huge.find("RescaleSlope (0028,1053) is '1e300' in 'I50': a slope must lie between "
                        "1e-12 and 1e+12"),
              std::string::npos)
        << huge;

    SliceValues tinySlope = ctSlice();
    tinySlope.slope = -1e-300;
    tinySlope.slopeText = "-1e-300";
    EXPECT_NE(invalidInputOf({tinySlope}).find("is '-1e-300'"), std::string::npos);

    SliceValues infIntercept = ctSlice();
    infIntercept.intercept = std::numeric_limits<double>::infinity();
    infIntercept.interceptText = "inf";
    EXPECT_EQ(invalidInputOf({infIntercept}),
              "RescaleIntercept (0028,1052) is 'inf' in 'I50': it must be a finite number");

    SliceValues farIntercept = ctSlice();
    farIntercept.intercept = -5e9;
    farIntercept.interceptText = "-5e9";
    EXPECT_NE(invalidInputOf({farIntercept}).find("RescaleIntercept (0028,1052) is '-5e9'"),
              std::string::npos);

    SliceValues dose;
    dose.bitsStored = 32;
    dose.slope = std::numeric_limits<double>::quiet_NaN();
    dose.slopeText = "abc";
    dose.slopeIsDoseGridScaling = true;
    dose.label = "'rtdose.dcm'";
    EXPECT_EQ(invalidInputOf({dose}),
              "DoseGridScaling (3004,000E) is 'abc' in 'rtdose.dcm': it must be a finite number");

    // The limits leave every real scanner's values alone: RT dose 1e-6, Philips MR 2.36.
    std::vector<std::string> warnings;
    dose.slope = 1e-6;
    EXPECT_DOUBLE_EQ(chooseValueMapping({dose}, warnings).rescale.slope, 1e-6);
    EXPECT_TRUE(warnings.empty());
}

TEST(DicomValueMapping, ZeroSlopeIsTakenAsOneWithAWarningNamingTheFile)
{
    SliceValues zero = ctSlice();
    zero.slope = 0.0;
    zero.slopeText = "0";
    std::vector<std::string> warnings;
    const ValueMapping mapping = chooseValueMapping({zero}, warnings);
    EXPECT_EQ(mapping.rescale.slope, 1.0);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("RescaleSlope (0028,1053) is 0 in 'I50'"), std::string::npos)
        << warnings[0];
}

TEST(DicomValueMapping, PaddingIsMappedBelowEveryDataValue)
{
    struct Case {
        std::uint32_t bitsStored;
        bool pixelSigned;
        std::int64_t padding;
        std::optional<std::int64_t> rangeLimit;
        ScalarType type;
        double paddingValue;
    };
    const std::vector<Case> cases = {
        // 12-bit signed in int16: -32768 is free.
        {12, true, -2000, std::nullopt, ScalarType::Int16, -32768.0},
        // A full signed range keeps its type (GE CT); data at -32768 would move up by one.
        {16, true, -2000, std::nullopt, ScalarType::Int16, -32768.0},
        // Padding at the type's lowest value is padding itself.
        {16, true, -32768, std::nullopt, ScalarType::Int16, -32768.0},
        // 12-bit unsigned: int16 costs no memory.
        {12, false, 4095, std::nullopt, ScalarType::Int16, -32768.0},
        // A range from 0: the type's lowest value is padding itself.
        {12, false, 0, 10, ScalarType::UInt16, 0.0},
        // Unsigned padding 0 alone: 0 is padding itself.
        {16, false, 0, std::nullopt, ScalarType::UInt16, 0.0},
        // A full unsigned range widens: 0 is common data (MR background).
        {8, false, 255, std::nullopt, ScalarType::Int16, -32768.0},
        {16, false, 65535, std::nullopt, ScalarType::Int32, -2147483648.0},
    };
    for (const Case& c : cases) {
        SliceValues s;
        s.bitsStored = c.bitsStored;
        s.pixelSigned = c.pixelSigned;
        s.paddingValue = c.padding;
        s.paddingRangeLimit = c.rangeLimit;
        std::vector<std::string> warnings;
        const ValueMapping m = chooseValueMapping({s}, warnings);
        EXPECT_EQ(m.type, c.type) << c.bitsStored << " " << c.padding;
        ASSERT_TRUE(m.paddingValue);
        EXPECT_EQ(*m.paddingValue, c.paddingValue) << c.bitsStored << " " << c.padding;
        ASSERT_EQ(m.slices.size(), 1u);
        EXPECT_EQ(m.slices[0].paddingLow, std::min(c.padding, c.rangeLimit.value_or(c.padding)));
    }

    // Mixed rescales: float32 real values, padding at -FLT_MAX.
    SliceValues a = ctSlice();
    a.paddingValue = -2000;
    SliceValues b = a;
    b.slope = 2.0;
    std::vector<std::string> warnings;
    const ValueMapping mixed = chooseValueMapping({a, b}, warnings);
    EXPECT_EQ(mixed.type, ScalarType::Float32);
    EXPECT_EQ(*mixed.paddingValue, double(std::numeric_limits<float>::lowest()));

    // No padding anywhere: nothing changes.
    const ValueMapping plain = chooseValueMapping({ctSlice()}, warnings);
    EXPECT_FALSE(plain.paddingValue);
    EXPECT_FALSE(plain.slices[0].paddingLow);
}

// ---------------------------------------------------------------------------------------------
// End to end on the GE CT slice.

// Three copies of the CT slice 2 mm apart, with PixelPaddingValue `padding`, in `folder`.
void writePaddedSeries(const fs::path& folder, Sint16 padding)
{
    for (int k = 0; k < 3; ++k) {
        DcmFileFormat file;
        ASSERT_TRUE(file.loadFile(kCtReference.c_str()).good());
        ASSERT_TRUE(file.loadAllDataIntoMemory().good());
        DcmDataset& d = *file.getDataset();
        char uid[100];
        ASSERT_TRUE(d.putAndInsertString(DCM_SOPInstanceUID,
                                         dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT))
                        .good());
        ASSERT_TRUE(d.putAndInsertString(DCM_ImagePositionPatient,
                                         ("-172\\-172\\" + std::to_string(2 * k)).c_str())
                        .good());
        ASSERT_TRUE(d.putAndInsertString(DCM_InstanceNumber, std::to_string(k + 1).c_str()).good());
        ASSERT_TRUE(d.putAndInsertSint16(DCM_PixelPaddingValue, padding).good());
        ASSERT_TRUE(file.saveFile((folder / ("slice" + std::to_string(k))).c_str(),
                                  EXS_LittleEndianExplicit)
                        .good());
    }
}

Volume loadSeries(const fs::path& folder)
{
    const io::DicomScan scan = io::scanDicom(folder);
    return io::loadDicomSeries(scan.series.at(scan.defaultSeries));
}

TEST(DicomPadding, CtOutsideTheCircleIsNoDataAndMakesNoSurface)
{
    test::TempDir dir;
    writePaddedSeries(dir.path(), -2000);
    const Volume padded = loadSeries(dir.path());
    const io::DicomScan referenceScan = io::scanDicom(kCtReference);
    const Volume reference = io::loadDicomSeries(referenceScan.series.at(0));

    // The reference slice: stored -2000 outside the circle, data from -1024 up inside it.
    std::size_t ring = 0;
    double dataMin = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < reference.voxelCount(); ++i) {
        const float v = reference.valueAt(i);
        if (v == -2000.0f) {
            ++ring;
        } else {
            dataMin = std::min(dataMin, double(v));
        }
    }
    ASSERT_GT(ring, 50000u); // the corners of a 512x512 slice outside the circle
    // Its own PixelPaddingValue (-32768) matches no voxel: no padding, nothing said.
    EXPECT_FALSE(reference.metadata().paddingValue);
    EXPECT_EQ(reference.storedRange().min, -2000.0);

    EXPECT_EQ(padded.type(), ScalarType::Int16);
    ASSERT_TRUE(padded.metadata().paddingValue);
    EXPECT_EQ(*padded.metadata().paddingValue, -32768.0);
    EXPECT_EQ(padded.storedRange().min, dataMin);
    bool said = false;
    for (const std::string& w : padded.metadata().warnings) {
        said = said || w.find(std::to_string(3 * ring) +
                              " voxels are padding (PixelPaddingValue -2000)") == 0;
    }
    EXPECT_TRUE(said);

    const Histogram histogram = computeHistogram(padded);
    EXPECT_EQ(histogram.paddingCount, 3 * ring);
    EXPECT_EQ(histogram.total(), padded.voxelCount() - 3 * ring);
    EXPECT_GE(histogram.min, padded.rescale().toReal(dataMin) - 1e-9);
    const Histogram naive = computeHistogram(reference);
    EXPECT_LT(naive.min, -3000.0); // what the ring did to the range before

    // Inside is value >= iso, and the slider offers isovalues from the histogram's range, so
    // padding is outside every surface on offer. Before, an isovalue between the ring and the
    // data (-2000 HU) drew a cylinder around the circle; now none can be chosen there.
    EXPECT_GT(histogram.min, -2000.0);
    test::TempDir plainDir;
    writePaddedSeries(plainDir.path(), 3000); // the same voxels, no padding declared
    const Volume plain = loadSeries(plainDir.path());
    const float paddingStored = float(*padded.metadata().paddingValue);
    const auto edgesTouching = [](const Volume& v, const IsoMesh& mesh, float value) {
        std::size_t count = 0;
        for (const glm::vec3& p : mesh.positions) {
            const glm::uvec3 lo(glm::floor(p));
            const glm::uvec3 hi(glm::ceil(p));
            count +=
                (v.valueAt(lo.x, lo.y, lo.z) == value) != (v.valueAt(hi.x, hi.y, hi.z) == value);
        }
        return count;
    };
    const IsoMesh cylinder = extractIsosurfaceCpu(plain, plain.rescale().toStored(-2000.0));
    EXPECT_GT(edgesTouching(plain, cylinder, -2000.0f), 3000u); // a ring of ~1,600 per slice

    // At the suggested isovalue the surface is the one the data makes: the same triangles as
    // without padding (the body touching the circle closes against it, on the data side).
    const double suggested = suggestIsovalue(histogram, padded.metadata());
    EXPECT_GE(suggested, histogram.min);
    const IsoMesh surface = extractIsosurfaceCpu(padded, padded.rescale().toStored(suggested));
    const IsoMesh plainSurface = extractIsosurfaceCpu(plain, plain.rescale().toStored(suggested));
    ASSERT_GT(surface.triangleCount(), 0u);
    EXPECT_EQ(surface.triangleCount(), plainSurface.triangleCount());
    for (const glm::vec3& p : surface.positions) {
        const glm::uvec3 lo(glm::floor(p));
        const glm::uvec3 hi(glm::ceil(p));
        const bool loPadding = padded.valueAt(lo.x, lo.y, lo.z) == paddingStored;
        const bool hiPadding = padded.valueAt(hi.x, hi.y, hi.z) == paddingStored;
        if (loPadding == hiPadding) continue;
        // A crossing next to padding lies within 5% of a voxel of the data end.
        const glm::vec3 dataEnd = glm::vec3(loPadding ? hi : lo);
        EXPECT_LT(glm::length(p - dataEnd), 0.05f) << p.x << " " << p.y << " " << p.z;
    }
}

TEST(DicomPadding, SlicesWithoutPaddingVoxelsChangeNothing)
{
    test::TempDir dir;
    writePaddedSeries(dir.path(), 3000); // above every stored value of the slice
    const Volume v = loadSeries(dir.path());
    EXPECT_FALSE(v.metadata().paddingValue);
    EXPECT_EQ(v.storedRange().min, -2000.0);
    EXPECT_EQ(computeHistogram(v).paddingCount, 0u);
}

TEST(DicomRescale, NaNSlopeInAFileIsAnErrorNamingTagAndFile)
{
    test::TempDir dir;
    DcmFileFormat file;
    ASSERT_TRUE(file.loadFile(kCtReference.c_str()).good());
    ASSERT_TRUE(file.loadAllDataIntoMemory().good());
    ASSERT_TRUE(file.getDataset()->putAndInsertString(DCM_RescaleSlope, "NaN").good());
    const fs::path path = dir.path() / "I50";
    ASSERT_TRUE(file.saveFile(path.c_str(), EXS_LittleEndianExplicit).good());
    try {
        (void)loadSeries(path);
        ADD_FAILURE() << "no error";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("RescaleSlope (0028,1053) is 'NaN' in '" +
                                             path.string() + "'"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace isoview
