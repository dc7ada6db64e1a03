// Broken input to the DICOM loader: empty, garbage and non-DICOM files are clear errors, cut
// pixel data names the bytes expected and found, and the fuzzing entry comes through damaged
// bytes with a volume or an isoview::Error, never another exception. (Damage inside a real
// series, with the slices left out: test_dicom_damaged.cpp.)
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom_test_support.h"
#include "io/io_test_support.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::DicomScan;
using io::DicomSeriesInfo;
using test::contains;
using test::dicomData;
using test::kCtReference;
using test::messageOf;
using test::readFile;
using test::singleFile;
using test::writeFile;

TEST(DicomSeriesLoader, EmptyAndGarbageFilesAreNotDicom)
{
    test::TempDir dir;
    const fs::path empty = dir.path() / "empty.dcm";
    writeFile(empty, "");
    const fs::path garbage = dir.path() / "garbage.dcm";
    std::string bytes(4000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = char((i * 7919 + 13) % 251);
    }
    writeFile(garbage, bytes);

    EXPECT_FALSE(io::looksLikeDicom(empty));
    EXPECT_FALSE(io::looksLikeDicom(garbage));
    EXPECT_FALSE(io::looksLikeDicom(dir.path() / "missing.dcm"));
    const std::string emptyMessage = messageOf<IoError>([&] { io::scanDicom(empty); });
    EXPECT_NE(emptyMessage.find("not a DICOM file (it is empty)"), std::string::npos)
        << emptyMessage;
    const std::string garbageMessage = messageOf<IoError>([&] { io::scanDicom(garbage); });
    EXPECT_NE(garbageMessage.find("no DICOM image series found"), std::string::npos);
    EXPECT_NE(garbageMessage.find("garbage.dcm' is not a DICOM file"), std::string::npos)
        << garbageMessage;
    DicomSeriesInfo handMade;
    handMade.files = {garbage};
    EXPECT_THROW(io::loadDicomSeries(handMade), IoError);
    EXPECT_THROW(io::scanDicom(dir.path() / "missing"), IoError);
}

TEST(DicomSeriesLoader, FolderWithoutDicomIsAClearError)
{
    test::TempDir dir;
    writeFile(dir.path() / "readme.txt", "hello");
    fs::create_directory(dir.path() / "sub");
    writeFile(dir.path() / "sub" / "data.bin", std::string(1000, '\x07'));
    const std::string message = messageOf<IoError>([&] { io::scanDicom(dir.path()); });
    EXPECT_NE(message.find("no DICOM image series found in"), std::string::npos) << message;
    EXPECT_NE(message.find("2 files are not DICOM"), std::string::npos) << message;
}

TEST(DicomSeriesLoader, TruncatedPixelDataNamesExpectedAndActualBytes)
{
    test::TempDir dir;
    std::string bytes = readFile(singleFile(kCtReference));
    ASSERT_GT(bytes.size(), 300000u);
    bytes.resize(300000);
    const fs::path cut = dir.path() / "cut.dcm";
    writeFile(cut, bytes);

    const DicomScan scan = io::scanDicom(cut); // the header is intact
    ASSERT_EQ(scan.series.size(), 1u);
    const std::string message = messageOf<IoError>([&] { io::loadDicomSeries(scan.series[0]); });
    EXPECT_NE(message.find("cut.dcm"), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
    EXPECT_NE(message.find("expected 524288 bytes"), std::string::npos) << message;
    // 531324 bytes in the original, 524288 of them pixels: 7036 bytes of header.
    EXPECT_NE(message.find("the file holds " + std::to_string(300000 - 7036)), std::string::npos)
        << message;

    std::string rle =
        readFile(singleFile("CTImage.dcm_RLELosslessTransferSyntax_1.2.840.10008.1.2.5.dcm"));
    rle.resize(100000);
    const fs::path cutRle = dir.path() / "cut_rle.dcm";
    writeFile(cutRle, rle);
    const std::string rleMessage =
        messageOf<IoError>([&] { io::loadDicomSeries(io::scanDicom(cutRle).series.at(0)); });
    EXPECT_NE(rleMessage.find("truncated"), std::string::npos) << rleMessage;
}

// The fuzzing entry (io::fuzzDicomBytes) runs a load's header and pixel path on bytes in memory
// and swallows isoview::Error, the loader's documented outcome for bad input, so it returns
// normally both when a volume was assembled and when the bytes were refused with an Error.
// Anything that escapes is some other exception (std::bad_alloc, std::out_of_range, one of
// DCMTK's) and a finding.
::testing::AssertionResult givesAVolumeOrAnError(const std::string& bytes, std::size_t size)
{
    const std::vector<std::uint8_t> input(bytes.begin(), bytes.begin() + std::ptrdiff_t(size));
    try {
        io::fuzzDicomBytes(input.data(), input.size());
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure()
               << "an exception other than isoview::Error escaped: " << e.what();
    } catch (...) {
        return ::testing::AssertionFailure() << "a non-standard exception escaped";
    }
}

// NumberOfFrames 2^31 - 1 in a file of a few hundred bytes is refused while its header is
// read, before anything is made per frame (it took 17-20 GB, then bad_alloc); 2^31 is named as
// written, not wrapped to a negative number.
TEST(DicomSeriesLoader, ANumberOfFramesTheFileCannotHoldIsRefusedAtOnce)
{
    test::TempDir dir;
    const fs::path slice = dir.path() / "slice.dcm";
    test::writeSlice(slice, test::SliceSpec{});
    for (const std::string frames : {"2147483647", "2147483648"}) {
        SCOPED_TRACE(frames);
        const fs::path lying = dir.path() / (frames + ".dcm");
        test::rewrite(slice, lying, [&](DcmDataset& d) {
            ASSERT_TRUE(d.putAndInsertString(DCM_NumberOfFrames, frames.c_str()).good());
        });
        const std::string message = messageOf<IoError>([&] { io::scanDicom(lying); });
        if (frames == "2147483647") {
            EXPECT_TRUE(contains(message, "the header claims 2147483647 frames of 8x8 at 16 bits "
                                          "(256.0 GiB), but the file holds"))
                << message;
            EXPECT_TRUE(contains(message, "room for at most")) << message;
        } else {
            EXPECT_TRUE(contains(message, "NumberOfFrames is 2147483648; it must be 1 to "
                                          "2147483647"))
                << message;
        }
    }
}

TEST(DicomSeriesLoader, FuzzEntrySurvivesDamagedBytes)
{
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dicomData("single"))) {
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty()) << "no DICOM files to damage";
    for (const fs::path& file : files) {
        const std::string bytes = readFile(file);
        ASSERT_FALSE(bytes.empty()) << file;
        EXPECT_TRUE(givesAVolumeOrAnError(bytes, bytes.size())) << file << " whole";
        for (const std::size_t cut : {std::size_t(0), std::size_t(1), std::size_t(131),
                                      bytes.size() / 3, bytes.size() - 1}) {
            EXPECT_TRUE(givesAVolumeOrAnError(bytes, std::min(cut, bytes.size())))
                << file << " cut to " << std::min(cut, bytes.size()) << " bytes";
        }
        // Deterministic byte flips through the header and the pixel data.
        std::uint32_t state = 12345;
        for (int round = 0; round < 12; ++round) {
            std::string damaged = bytes;
            for (int flip = 0; flip < 4; ++flip) {
                state = state * 1664525u + 1013904223u;
                damaged[state % damaged.size()] ^= char(1u << (state >> 29));
            }
            EXPECT_TRUE(givesAVolumeOrAnError(damaged, damaged.size()))
                << file << " with 4 bits flipped, round " << round;
        }
    }
}

} // namespace
} // namespace isoview
