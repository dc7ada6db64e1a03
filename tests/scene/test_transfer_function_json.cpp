// Transfer function JSON: exact round trips (presets, random functions, awkward floats), the
// written layout, clear errors for malformed input, and file saving/loading.
#include "core/error.h"
#include "scene/transfer_function.h"
#include "support/child_process.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::ChildResult;
using test::dropRootPrivileges;
using test::readFile;
using test::runInChild;
using test::TempDir;

// The message of the InvalidInputError that parsing json throws (a failure if none).
std::string parseError(const std::string& json)
{
    try {
        (void)transferFunctionFromJson(json);
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InvalidInputError for: " << json;
    return {};
}

// A minimal valid document around a points array text.
std::string withPoints(const std::string& points)
{
    return R"({"format": "isoview-transfer-function", "version": 1, "name": "t", "points": )" +
           points + "}";
}

TransferFunction roundTrip(const TransferFunction& tf)
{
    return transferFunctionFromJson(transferFunctionToJson(tf));
}

TEST(TransferFunctionJson, WritesTheDocumentedLayoutOnePointPerLine)
{
    const TransferFunction tf(
        {{-1024.0, {0.0f, 0.0f, 0.0f}, 0.0f}, {300.0, {1.0f, 0.9f, 0.8f}, 0.5f}}, "Bone \"test\"");
    const std::string expected = "{\n"
                                 "  \"format\": \"isoview-transfer-function\",\n"
                                 "  \"version\": 1,\n"
                                 "  \"name\": \"Bone \\\"test\\\"\",\n"
                                 "  \"points\": [\n"
                                 "    {\"value\": -1024.0, \"color\": [0.0, 0.0, 0.0], "
                                 "\"opacity\": 0.0},\n"
                                 "    {\"value\": 300.0, \"color\": [1.0, 0.9, 0.8], "
                                 "\"opacity\": 0.5}\n"
                                 "  ]\n"
                                 "}\n";
    EXPECT_EQ(transferFunctionToJson(tf), expected);
}

TEST(TransferFunctionJson, EmptyFunctionRoundTrips)
{
    const TransferFunction empty;
    const std::string json = transferFunctionToJson(empty);
    EXPECT_NE(json.find("\"points\": []"), std::string::npos) << json;
    EXPECT_EQ(transferFunctionFromJson(json), empty);
    EXPECT_EQ(transferFunctionFromJson(withPoints("[]")).size(), 0u);
}

TEST(TransferFunctionJson, EveryPresetRoundTripsExactly)
{
    for (TransferPreset preset : allTransferPresets()) {
        for (ValueRange range :
             {ValueRange{-1024.0, 3071.0}, ValueRange{-3024.0, 1e-3}, ValueRange{0.1, 0.7}}) {
            const TransferFunction tf = transferFunctionPreset(preset, range);
            EXPECT_EQ(roundTrip(tf), tf) << transferFunctionToJson(tf);
        }
    }
}

TEST(TransferFunctionJson, RandomFunctionRoundTripsExactly)
{
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-300, 300);
    std::uniform_int_distribution<std::uint32_t> unitBits(0, 0x3f800000u); // floats in [0, 1]
    auto unitFloat = [&] { return std::bit_cast<float>(unitBits(rng)); };

    for (int trial = 0; trial < 20; ++trial) {
        std::vector<TransferPoint> points;
        for (int i = 0; i < 50; ++i) {
            const double value = mantissa(rng) * std::pow(10.0, exponent(rng));
            points.push_back({value, {unitFloat(), unitFloat(), unitFloat()}, unitFloat()});
        }
        const TransferFunction tf(points, "random " + std::to_string(trial));
        const TransferFunction back = roundTrip(tf);
        ASSERT_EQ(back.size(), tf.size());
        for (std::size_t i = 0; i < tf.size(); ++i) {
            // Bit-exact, not merely close.
            EXPECT_EQ(std::bit_cast<std::uint64_t>(back.points()[i].value),
                      std::bit_cast<std::uint64_t>(tf.points()[i].value));
            EXPECT_EQ(back.points()[i], tf.points()[i]) << "point " << i;
        }
        EXPECT_EQ(back, tf);
    }
}

TEST(TransferFunctionJson, FloatsPrintShortestAndStillRoundTrip)
{
    // 7.038531e-26 is the one float in [0, 1] whose shortest decimal, read as a double and
    // narrowed, lands on the neighbouring float (double rounding): it must be written longer.
    const float awkward = std::bit_cast<float>(0x15ae43fdu); // 0x1.5c87fap-84
    const TransferFunction tf({{0.1 + 0.2, {0.9f, 0.1f, 1.0f / 3.0f}, 0.7f},
                               {1.0, {awkward, 0.0f, 1.0f}, std::numeric_limits<float>::min()}});
    const std::string json = transferFunctionToJson(tf);
    EXPECT_NE(json.find("\"value\": 0.30000000000000004"), std::string::npos) << json;
    EXPECT_NE(json.find("\"color\": [0.9, 0.1, 0.33333334]"), std::string::npos) << json;
    EXPECT_NE(json.find("\"opacity\": 0.7}"), std::string::npos) << json;
    EXPECT_EQ(json.find("0.899999"), std::string::npos) << json;
    EXPECT_EQ(json.find("7.038531e-26,"), std::string::npos) << json;

    const TransferFunction back = transferFunctionFromJson(json);
    EXPECT_EQ(back, tf);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(back.points()[1].color.r),
              std::bit_cast<std::uint32_t>(awkward));
}

TEST(TransferFunctionJson, NamesWithEscapesAndUnicodeRoundTrip)
{
    const std::vector<std::string> names = {
        "", "quote \" backslash \\ slash /", "line\nbreak\ttab",
        "Knochen \xc3\xa4\xc3\xb6\xc3\xbc \xe2\x80\x94 \xf0\x9f\xa6\xb4",
        std::string("nul\0inside", 10)};
    for (const std::string& name : names) {
        const TransferFunction tf({{1.0, {0.5f, 0.5f, 0.5f}, 0.5f}}, name);
        EXPECT_EQ(roundTrip(tf).name(), name);
    }
}

TEST(TransferFunctionJson, InvalidUtf8NameIsReplacedNotFatal)
{
    const TransferFunction tf({{1.0, {0.5f, 0.5f, 0.5f}, 0.5f}}, "bad \xff byte");
    std::string json;
    ASSERT_NO_THROW(json = transferFunctionToJson(tf));
    EXPECT_EQ(transferFunctionFromJson(json).name(), "bad \xef\xbf\xbd byte"); // U+FFFD
}

TEST(TransferFunctionJson, ReadsHandWrittenJsonSortingPointsAndIgnoringUnknownKeys)
{
    const TransferFunction tf = transferFunctionFromJson(R"(
        {"version": 1, "format": "isoview-transfer-function", "comment": "by hand",
         "points": [
           {"opacity": 1, "color": [1, 1, 1], "value": 2000, "note": "bone"},
           {"value": -1000, "color": [0, 0.5, 0], "opacity": 0}
         ]})");
    EXPECT_EQ(tf.name(), ""); // name is optional
    ASSERT_EQ(tf.size(), 2u);
    EXPECT_EQ(tf.points()[0], (TransferPoint{-1000.0, {0.0f, 0.5f, 0.0f}, 0.0f}));
    EXPECT_EQ(tf.points()[1], (TransferPoint{2000.0, {1.0f, 1.0f, 1.0f}, 1.0f}));
}

TEST(TransferFunctionJson, NotJsonNamesTheParsePosition)
{
    const std::string notJson = parseError("{\"format\": \"isoview-transfer-function\",\n  x}");
    EXPECT_NE(notJson.find("transfer function JSON: not valid JSON"), std::string::npos) << notJson;
    EXPECT_NE(notJson.find("line 2, column 3"), std::string::npos) << notJson;
    EXPECT_EQ(notJson.find("[json.exception"), std::string::npos) << notJson;

    EXPECT_NE(parseError("").find("not valid JSON"), std::string::npos);
    EXPECT_NE(parseError(withPoints("[{\"value\": NaN, \"color\": [0,0,0], \"opacity\": 0}]"))
                  .find("not valid JSON"),
              std::string::npos);
    EXPECT_NE(parseError(withPoints("[{\"value\": 1e400, \"color\": [0,0,0], \"opacity\": 0}]"))
                  .find("number overflow parsing '1e400'"),
              std::string::npos);
    EXPECT_NE(parseError(withPoints("[]") + " trailing").find("not valid JSON"), std::string::npos);
}

TEST(TransferFunctionJson, WrongDocumentsSayWhatTheyAre)
{
    EXPECT_EQ(parseError("[1, 2]"),
              "transfer function JSON: expected an object at the top, got an array");
    EXPECT_EQ(parseError(R"({"version": 1, "points": []})"),
              "transfer function JSON: not an isoview transfer function (no 'format')");
    EXPECT_EQ(parseError(R"({"format": "x", "version": 1, "points": []})"),
              "transfer function JSON: not an isoview transfer function (format is 'x')");
    EXPECT_EQ(parseError(R"({"format": 7, "version": 1, "points": []})"),
              "transfer function JSON: not an isoview transfer function (format is 7)");
    EXPECT_EQ(parseError(R"({"format": "isoview-transfer-function", "points": []})"),
              "transfer function JSON: missing 'version'");
    EXPECT_EQ(parseError(R"({"format": "isoview-transfer-function", "version": 2, "points": []})"),
              "transfer function JSON: unsupported version 2 (this isoview reads version 1)");
    EXPECT_EQ(
        parseError(R"({"format": "isoview-transfer-function", "version": "1", "points": []})"),
        "transfer function JSON: 'version' must be an integer, got '1'");
    EXPECT_EQ(
        parseError(R"({"format": "isoview-transfer-function", "version": 1.0, "points": []})"),
        "transfer function JSON: 'version' must be an integer, got 1.0");
    EXPECT_EQ(parseError(R"({"format": "isoview-transfer-function", "version": 1})"),
              "transfer function JSON: missing 'points'");
    EXPECT_EQ(parseError(withPoints("{}")),
              "transfer function JSON: 'points' must be an array, got an object");
    EXPECT_EQ(parseError(R"({"format": "isoview-transfer-function", "version": 1, "name": 3,
                            "points": []})"),
              "transfer function JSON: 'name' must be a string, got 3");
}

TEST(TransferFunctionJson, BadPointsAreNamedByPosition)
{
    const std::string ok = R"({"value": 0, "color": [0, 0, 0], "opacity": 0})";
    auto third = [&](const std::string& point) {
        return parseError(withPoints("[" + ok + ", " + ok + ", " + point + "]"));
    };
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1, 1], "opacity": 1.5})"),
              "transfer function JSON: point 3 has opacity 1.5, expected 0..1");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1, 1], "opacity": -0.5})"),
              "transfer function JSON: point 3 has opacity -0.5, expected 0..1");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1.2, 1], "opacity": 1})"),
              "transfer function JSON: point 3 green is 1.2, expected 0..1");
    // Out of range by less than a float's resolution is still out of range.
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1, 1.0000000001], "opacity": 1})"),
              "transfer function JSON: point 3 blue is 1.0000000001, expected 0..1");
    EXPECT_EQ(third(R"({"color": [1, 1, 1], "opacity": 1})"),
              "transfer function JSON: point 3 has no 'value'");
    EXPECT_EQ(third(R"({"value": 1, "opacity": 1})"),
              "transfer function JSON: point 3 has no 'color'");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1, 1]})"),
              "transfer function JSON: point 3 has no 'opacity'");
    EXPECT_EQ(third(R"({"value": "300", "color": [1, 1, 1], "opacity": 1})"),
              "transfer function JSON: point 3 'value' must be a number, got '300'");
    EXPECT_EQ(third(R"({"value": null, "color": [1, 1, 1], "opacity": 1})"),
              "transfer function JSON: point 3 'value' must be a number, got null");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1], "opacity": 1})"),
              "transfer function JSON: point 3 'color' must be an array of 3 numbers (red, "
              "green, blue), got 2 elements");
    EXPECT_EQ(third(R"({"value": 1, "color": "white", "opacity": 1})"),
              "transfer function JSON: point 3 'color' must be an array of 3 numbers (red, "
              "green, blue), got 'white'");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, true, 1], "opacity": 1})"),
              "transfer function JSON: point 3 green must be a number, got true");
    EXPECT_EQ(third(R"({"value": 1, "color": [1, 1, 1], "opacity": [1]})"),
              "transfer function JSON: point 3 'opacity' must be a number, got an array");
    EXPECT_EQ(third("42"), "transfer function JSON: point 3 must be an object, got 42");
}

TEST(TransferFunctionJson, SaveAndLoadRoundTripThroughAFile)
{
    TempDir dir;
    const fs::path path = dir.path() / "bone.json";
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtBone, {-2000, 3071});
    saveTransferFunction(path, tf);
    EXPECT_EQ(readFile(path), transferFunctionToJson(tf));
    EXPECT_EQ(loadTransferFunction(path), tf);

    // Saving again replaces the file whole.
    const TransferFunction lung = transferFunctionPreset(TransferPreset::CtLung, {-1024, 3071});
    saveTransferFunction(path, lung);
    EXPECT_EQ(loadTransferFunction(path), lung);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"bone.json"}); // no temporary left
}

TEST(TransferFunctionJson, LoadingAMissingFileIsAnIoErrorNamingIt)
{
    TempDir dir;
    const fs::path path = dir.path() / "missing.json";
    try {
        (void)loadTransferFunction(path);
        ADD_FAILURE() << "no IoError";
    } catch (const IoError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("'" + path.string() + "'"), std::string::npos) << message;
        EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
    }
    EXPECT_THROW((void)loadTransferFunction(dir.path()), IoError); // a folder
}

TEST(TransferFunctionJson, LoadingAMalformedFileNamesTheFileAndTheProblem)
{
    TempDir dir;
    const fs::path path = dir.path() / "wrong.json";
    std::ofstream(path) << withPoints(R"([{"value": 1, "color": [1, 1, 1], "opacity": 2}])");
    try {
        (void)loadTransferFunction(path);
        ADD_FAILURE() << "no InvalidInputError";
    } catch (const InvalidInputError& e) {
        EXPECT_EQ(std::string(e.what()), "transfer function file '" + path.string() +
                                             "': point 1 has opacity 2, expected 0..1");
    }
}

TEST(TransferFunctionJson, LoadingAFifoIsRefusedWithoutBlocking)
{
    TempDir dir;
    const fs::path fifo = dir.path() / "tf.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // In a child with an alarm: an open that blocks on the FIFO ends by SIGALRM.
    const ChildResult child = runInChild([&](std::string& message) {
        ::alarm(10);
        try {
            (void)loadTransferFunction(fifo);
        } catch (const IoError& e) {
            message = e.what();
            return 0;
        }
        return 1;
    });
    ASSERT_TRUE(child.exited) << "blocked (killed by signal " << child.signal << ")";
    EXPECT_EQ(child.exitCode, 0);
    EXPECT_NE(child.message.find("is a FIFO (named pipe)"), std::string::npos) << child.message;
}

TEST(TransferFunctionJson, SavingIntoAMissingFolderThrowsAndCreatesNothing)
{
    TempDir dir;
    const fs::path path = dir.path() / "no_such_folder" / "tf.json";
    EXPECT_THROW(saveTransferFunction(path, transferFunctionPreset(TransferPreset::Mr, {0, 1})),
                 IoError);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(TransferFunctionJson, SavingIntoAnUnwritableFolderThrowsIoErrorAndLeavesNoFile)
{
    TempDir dir;
    const fs::path locked = dir.path() / "locked";
    fs::create_directory(locked);
    fs::permissions(dir.path(), fs::perms(0755));
    fs::permissions(locked, fs::perms(0555));
    const fs::path path = locked / "tf.json";
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtBone, {-1024, 3071});

    // Root ignores folder permissions, so a child process gives up root and tries; its exit
    // code says what happened: 0 IoError, 1 no exception, 2 another exception, 3 setup failed.
    const ChildResult child = runInChild([&](std::string& message) {
        if (!dropRootPrivileges()) return 3;
        try {
            saveTransferFunction(path, tf);
        } catch (const IoError& e) {
            message = e.what();
            return message.find(path.string()) != std::string::npos ? 0 : 4;
        } catch (...) {
            return 2;
        }
        return 1;
    });
    fs::permissions(locked, fs::perms(0755));
    ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
    EXPECT_EQ(child.exitCode, 0) << "0 IoError naming the path, 1 no exception, 2 another "
                                    "exception, 3 setup failed, 4 message lacks the path: "
                                 << child.message;
    EXPECT_TRUE(fs::is_empty(locked));
}

} // namespace
} // namespace isoview
