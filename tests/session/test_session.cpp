// Session files: every field survives a save and a load, the volume path is written relative
// to the session and found again when both move (or when the session moves alone), and every
// kind of bad file is refused with a message naming the key and the problem.
#include "core/error.h"
#include "session/session.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::readFile;
using test::TempDir;

void writeFile(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// A session with every field set to something other than its default.
Session fullSession(const fs::path& volumePath)
{
    Session s;
    s.volume.path = volumePath;
    s.volume.folder = false;
    s.volume.seriesIndex = 2;
    s.volume.seriesUid = "1.2.840.113619.2.55.3";
    io::RawVolumeParameters raw;
    raw.dims = {64, 48, 33};
    raw.type = ScalarType::Int16;
    raw.bigEndian = true;
    raw.spacing = {0.4296875, 0.4296875, 1.25};
    raw.headerOffset = 512;
    s.volume.raw = raw;
    s.isovalue = 271.3333333333333;
    s.transferFunction = TransferFunction(
        {{-1000.0, {0.1f, 0.2f, 0.3f}, 0.0f}, {300.5, {0.9f, 0.8f, 0.7f}, 0.45f}}, "my bone");
    s.camera = OrbitCamera::Pose{{12.5, -3.25, 100.0 / 3.0},
                                 417.123456789,
                                 glm::normalize(glm::quat(0.9f, 0.1f, -0.3f, 0.2f)),
                                 Projection::Orthographic};
    s.crop = VoxelBox{{3, 4, 5}, {60, 40, 30}};
    s.renderMode = RenderMode::SurfaceAndVolume;
    s.orientationMarker = false;
    s.surfaceColor = glm::vec3(0.1f, 0.7f, 0.33f);
    s.sliceViews = SessionSliceViews{"1x3", 40.0, 400.0, glm::dvec3(31.5, 0.0, 12.25)};
    return s;
}

// The message of the InvalidInputError that reading json throws (a failure if none).
std::string readError(const std::string& json)
{
    try {
        (void)sessionFromJson(json, "/tmp/x.isoview");
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InvalidInputError for: " << json;
    return {};
}

// A valid session's JSON with `insert` added after the isovalue (later keys replace earlier
// ones in nlohmann's reader: a duplicate key keeps the last value).
std::string withSection(const std::string& insert)
{
    return R"({"format": "isoview-session", "version": 1,
               "volume": {"path": "/data/head.nhdr"}, "isovalue": 40)" +
           (insert.empty() ? "" : ", " + insert) + "}";
}

TEST(SessionTest, SaveAndLoadKeepEveryField)
{
    TempDir dir;
    const fs::path volume = dir.path() / "data" / "head_64x48x33_int16.raw";
    writeFile(volume, "x");
    const fs::path file = dir.path() / "sessions" / "head.isoview";
    fs::create_directories(file.parent_path());
    const Session saved = fullSession(volume);
    saveSession(file, saved);

    std::vector<std::string> warnings;
    const Session read = loadSession(file, &warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(read.volume.path, volume);
    EXPECT_EQ(read.volume.folder, saved.volume.folder);
    EXPECT_EQ(read.volume.seriesIndex, saved.volume.seriesIndex);
    EXPECT_EQ(read.volume.seriesUid, saved.volume.seriesUid);
    ASSERT_TRUE(read.volume.raw.has_value());
    EXPECT_EQ(read.volume.raw->dims, saved.volume.raw->dims);
    EXPECT_EQ(read.volume.raw->type, saved.volume.raw->type);
    EXPECT_EQ(read.volume.raw->bigEndian, saved.volume.raw->bigEndian);
    EXPECT_EQ(read.volume.raw->spacing, saved.volume.raw->spacing);
    EXPECT_EQ(read.volume.raw->headerOffset, saved.volume.raw->headerOffset);
    EXPECT_EQ(read.isovalue, saved.isovalue); // exact, not approximately
    EXPECT_EQ(read.transferFunction, saved.transferFunction);
    EXPECT_EQ(read.camera, saved.camera);
    EXPECT_EQ(read.crop, saved.crop);
    EXPECT_EQ(read.renderMode, saved.renderMode);
    EXPECT_EQ(read.orientationMarker, saved.orientationMarker);
    EXPECT_EQ(read.surfaceColor, saved.surfaceColor);
    EXPECT_EQ(read.sliceViews, saved.sliceViews);
    // Every view mode, the intensity projections included, comes back as itself.
    for (RenderMode mode : {RenderMode::Surface, RenderMode::Volume, RenderMode::MaximumIntensity,
                            RenderMode::MinimumIntensity, RenderMode::AverageIntensity}) {
        Session other = saved;
        other.renderMode = mode;
        EXPECT_EQ(sessionFromJson(sessionToJson(other, file), file).renderMode, mode);
    }
}

TEST(SessionTest, OptionalSectionsMayBeLeftOut)
{
    const Session s = sessionFromJson(withSection(""), "/tmp/x.isoview");
    EXPECT_EQ(s.volume.path, fs::path("/data/head.nhdr"));
    EXPECT_EQ(s.isovalue, 40.0);
    EXPECT_FALSE(s.camera || s.crop || s.surfaceColor || s.sliceViews || s.volume.raw ||
                 s.volume.seriesIndex);
    EXPECT_EQ(s.transferFunction.size(), 0u);
    EXPECT_EQ(s.renderMode, RenderMode::Surface);
    EXPECT_TRUE(s.orientationMarker);
}

TEST(SessionTest, TheVolumePathIsWrittenRelativeToTheSessionAndAbsolute)
{
    TempDir dir;
    const fs::path volume = dir.path() / "scans" / "ct" / "series1";
    fs::create_directories(volume);
    Session s = fullSession(volume);
    s.volume.folder = true;
    const std::string json = sessionToJson(s, dir.path() / "work" / "a.isoview");
    EXPECT_NE(json.find("\"path\": \"../scans/ct/series1\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"absolutePath\": \"" + volume.generic_string() + "\""), std::string::npos)
        << json;
    EXPECT_NE(json.find("\"format\": \"isoview-session\""), std::string::npos);
    EXPECT_NE(json.find("\"version\": 1"), std::string::npos);
}

TEST(SessionTest, ASessionMovedWithItsVolumeFindsItBesideIt)
{
    TempDir dir;
    const fs::path project = dir.path() / "project";
    writeFile(project / "head.nrrd", "x");
    saveSession(project / "head.isoview", fullSession(project / "head.nrrd"));
    fs::rename(project, dir.path() / "moved");
    const Session s = loadSession(dir.path() / "moved" / "head.isoview");
    EXPECT_EQ(s.volume.path, dir.path() / "moved" / "head.nrrd");
}

TEST(SessionTest, ASessionMovedAloneFindsTheVolumeWhereItWas)
{
    TempDir dir;
    writeFile(dir.path() / "data" / "head.nrrd", "x");
    saveSession(dir.path() / "head.isoview", fullSession(dir.path() / "data" / "head.nrrd"));
    fs::create_directories(dir.path() / "elsewhere" / "deeper");
    fs::rename(dir.path() / "head.isoview", dir.path() / "elsewhere" / "deeper" / "h.isoview");
    const Session s = loadSession(dir.path() / "elsewhere" / "deeper" / "h.isoview");
    EXPECT_EQ(s.volume.path, dir.path() / "data" / "head.nrrd");
}

TEST(SessionTest, AVolumeFoundNowhereIsWhereTheRelativePathPoints)
{
    TempDir dir;
    const Session s = sessionFromJson(
        R"({"format": "isoview-session", "version": 1, "isovalue": 1,
            "volume": {"path": "gone/head.nrrd", "absolutePath": "/nonexistent/head.nrrd"}})",
        dir.path() / "a.isoview");
    EXPECT_EQ(s.volume.path, dir.path() / "gone" / "head.nrrd");
    EXPECT_FALSE(fs::exists(s.volume.path));
}

TEST(SessionTest, BadFilesAreRefusedNamingTheKeyAndTheProblem)
{
    const struct {
        std::string json;
        std::string expected;
    } cases[] = {
        {"not json", "not valid JSON: parse error at line 1, column 2"},
        {R"({"format": "isoview-session", "version": 1, "isovalue": NaN})", "not valid JSON"},
        {"[1, 2]", "expected an object at the top, got an array"},
        {R"({"version": 1})", "not an isoview session (no 'format')"},
        {R"({"format": "isoview-transfer-function", "version": 1})",
         "not an isoview session (format is 'isoview-transfer-function')"},
        {R"({"format": "isoview-session"})", "missing 'version'"},
        {R"({"format": "isoview-session", "version": "1"})", "'version' must be an integer"},
        {R"({"format": "isoview-session", "version": 0})", "unsupported session version 0"},
        {R"({"format": "isoview-session", "version": 1, "isovalue": 3})", "missing 'volume'"},
        {R"({"format": "isoview-session", "version": 1, "volume": {"path": "a"}})",
         "missing 'isovalue'"},
        {R"({"format": "isoview-session", "version": 1, "volume": {}, "isovalue": 3})",
         "'volume' has no 'path'"},
        {R"({"format": "isoview-session", "version": 1, "volume": "a.nrrd", "isovalue": 3})",
         "'volume' must be an object, got 'a.nrrd'"},
        {R"({"format": "isoview-session", "version": 1, "volume": {"path": 7}, "isovalue": 3})",
         "'volume' 'path' must be a string, got 7"},
        {R"({"format": "isoview-session", "version": 1, "volume": {"path": ""}, "isovalue": 3})",
         "'volume' 'path' is empty"},
        {withSection(R"("isovalue": "40")"), "'isovalue' must be a number, got '40'"},
        {withSection(R"("isovalue": 1e300)"), "'isovalue' is 1e+300, outside"},
        {withSection(R"("volume": {"path": "a", "series": -1})"),
         "'volume' 'series' must be a whole number from 0, got -1"},
        {withSection(R"("volume": {"path": "a", "series": 1.5})"),
         "'volume' 'series' must be a whole number"},
        {withSection(R"("volume": {"path": "a", "absolutePath": "rel/a"})"),
         "'volume' 'absolutePath' 'rel/a' is not absolute"},
        // "/" up to the NUL exists, so this once opened the root folder (a fuzzer finding).
        {withSection(R"("volume": {"path": "a", "absolutePath": "/\u0000etc"})"),
         "'volume' 'absolutePath' holds a NUL"},
        {withSection(R"("volume": {"path": "a\u0000b"})"), "'volume' 'path' holds a NUL"},
        {withSection(R"("volume": {"path": "a", "raw": {"dims": [1, 0, 3], "type": "int16"}})"),
         "'volume' 'raw' 'dims' has a zero dimension"},
        {withSection(R"("volume": {"path": "a", "raw": {"dims": [1, 2], "type": "int16"}})"),
         "'volume' 'raw' 'dims' must be an array of 3 whole numbers, got 2 elements"},
        {withSection(R"("volume": {"path": "a", "raw": {"dims": [1, 2, 3], "type": "int12"}})"),
         "'volume' 'raw' 'type'"},
        {withSection(R"("volume": {"path": "a", "raw": {"dims": [1, 2, 3], "type": "uint8",
                      "spacing": [1, 0, 1]}})"),
         "'volume' 'raw' 'spacing' must be positive on every axis"},
        {withSection(R"("volume": {"path": "a", "raw": {"dims": [1, 2, 3], "type": "uint8",
                      "headerOffset": -4}})"),
         "'volume' 'raw' 'headerOffset' must be a whole number from 0"},
        {withSection(R"("transferFunction": {"format": "isoview-transfer-function", "version": 1,
                      "points": [{"value": 0, "color": [0, 0, 0], "opacity": 2}]})"),
         "'transferFunction': point 1 has opacity 2, expected 0..1"},
        {withSection(R"("transferFunction": [1])"), "'transferFunction' must be an object"},
        {withSection(R"("camera": {"target": [0, 0, 0], "distance": -5,
                      "orientation": [1, 0, 0, 0]})"),
         "'camera' 'distance' must be positive"},
        {withSection(R"("camera": {"target": [0, 0, 1e9], "distance": 5,
                      "orientation": [1, 0, 0, 0]})"),
         "'camera' 'target' element 3 is 1000000000.0, outside"},
        {withSection(R"("camera": {"target": [0, 0, 0], "distance": 5,
                      "orientation": [0, 0, 0, 0]})"),
         "'camera' 'orientation' is not a rotation (its length is 0.0, expected 1)"},
        {withSection(R"("camera": {"target": [0, 0, 0], "distance": 5,
                      "orientation": [1, 0, 0, 0], "projection": "fisheye"})"),
         "'camera' 'projection' is 'fisheye', expected 'perspective' or 'orthographic'"},
        {withSection(R"("camera": {"target": [0, 0, 0], "orientation": [1, 0, 0, 0]})"),
         "'camera' has no 'distance'"},
        {withSection(R"("crop": {"first": [5, 0, 0], "last": [4, 9, 9]})"),
         "'crop' 'first' must not exceed 'last' on any axis"},
        {withSection(R"("crop": {"first": [0, 0, -1], "last": [4, 9, 9]})"),
         "'crop' 'first' element 3 must be a whole number from 0, got -1"},
        {withSection(R"("crop": {"first": [0, 0, 0], "last": [4, 9, 4294967296]})"),
         "'crop' 'last' element 3 is 4294967296, more than 4294967295"},
        {withSection(R"("view": {"mode": "wireframe"})"),
         "'view' 'mode' is 'wireframe', expected 'surface', 'volume', 'both', 'mip', 'minip' or "
         "'average'"},
        {withSection(R"("view": {"surfaceColor": [0.5, 1.5, 0]})"),
         "'view' 'surfaceColor' element 2 is 1.5, outside -1.0..1.0"},
        {withSection(R"("view": {"orientationMarker": "yes"})"),
         "'view' 'orientationMarker' must be true or false, got 'yes'"},
        {withSection(R"("sliceViews": {"windowWidth": 0})"),
         "'sliceViews' 'windowWidth' must be positive"},
        {withSection(R"("sliceViews": {"layout": "3x3"})"),
         "'sliceViews' 'layout' is '3x3', expected '2x2', '1x3' or '3d'"},
        {withSection(R"("sliceViews": {"crosshair": [1, 2, "3"]})"),
         "'sliceViews' 'crosshair' element 3 must be a number, got '3'"},
    };
    for (const auto& c : cases) {
        const std::string message = readError(c.json);
        EXPECT_NE(message.find(c.expected), std::string::npos)
            << "json: " << c.json << "\nmessage: " << message;
        EXPECT_EQ(message.rfind("session JSON: ", 0), 0u) << message;
    }
}

TEST(SessionTest, ANewerVersionIsRefusedAsSuch)
{
    const std::string message = readError(
        R"({"format": "isoview-session", "version": 2, "volume": {"path": "a"}, "isovalue": 1})");
    EXPECT_EQ(message, "session JSON: written by a newer isoview (session version 2); this "
                       "isoview reads version 1: update isoview to open it");
}

TEST(SessionTest, UnknownKeysAreIgnoredWithAWarning)
{
    std::vector<std::string> warnings;
    const Session s =
        sessionFromJson(withSection(R"("lighting": {"ambient": 0.3}, "camera": {"target": [1, 2, 3],
                       "distance": 9, "orientation": [1, 0, 0, 0], "roll": 4})"),
                        "/tmp/x.isoview", &warnings);
    ASSERT_TRUE(s.camera.has_value());
    EXPECT_EQ(s.camera->target, glm::dvec3(1, 2, 3));
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_EQ(warnings[0], "session JSON: unknown key 'lighting' ignored (written by a newer "
                           "isoview?)");
    EXPECT_EQ(warnings[1], "session JSON: unknown key 'camera' 'roll' ignored (written by a "
                           "newer isoview?)");

    // 300,000 unknown keys (a hostile file) make five warnings and one count, not 300,000.
    std::string many;
    for (int i = 0; i < 300000; ++i)
        many += "\"k" + std::to_string(i) + "\": 0, ";
    warnings.clear();
    (void)sessionFromJson(withSection(many + R"("lighting": 1)"), "/tmp/x.isoview", &warnings);
    ASSERT_EQ(warnings.size(), 6u);
    EXPECT_EQ(warnings[5], "session JSON: 299996 more unknown keys ignored (300001 in all)");
}

TEST(SessionTest, AFileWithBadContentIsRefusedNamingTheFile)
{
    TempDir dir;
    const fs::path file = dir.path() / "bad.isoview";
    writeFile(file, "{\"format\": \"isoview-session\", \"version\": 1,\n \"isovalue\": }");
    try {
        (void)loadSession(file);
        FAIL() << "no error";
    } catch (const InvalidInputError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("session file '" + file.string() + "': not valid JSON", 0), 0u)
            << message;
        EXPECT_NE(message.find("line 2"), std::string::npos) << message;
    }
}

TEST(SessionTest, AFifoIsRefusedWithoutWaiting)
{
    TempDir dir;
    const fs::path fifo = dir.path() / "pipe.isoview";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    try {
        (void)loadSession(fifo);
        FAIL() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("FIFO"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SessionTest, AMissingFileIsAnIoErrorNamingIt)
{
    TempDir dir;
    try {
        (void)loadSession(dir.path() / "none.isoview");
        FAIL() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("none.isoview"), std::string::npos) << e.what();
    }
}

TEST(SessionTest, SavingRefusesValuesItCannotWriteAndLeavesNoFile)
{
    TempDir dir;
    Session s = fullSession(dir.path() / "v.nrrd");
    s.isovalue = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(saveSession(dir.path() / "a.isoview", s), InvalidInputError);
    s.isovalue = 1.0;
    s.volume.path.clear();
    EXPECT_THROW(saveSession(dir.path() / "a.isoview", s), InvalidInputError);
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(SessionTest, SavingReplacesAnOlderSessionWhole)
{
    TempDir dir;
    const fs::path file = dir.path() / "a.isoview";
    writeFile(file, std::string(100000, 'x'));
    saveSession(file, fullSession(dir.path() / "v.nrrd"));
    const std::string text = readFile(file);
    EXPECT_EQ(text.find('x' + std::string(10, 'x')), std::string::npos);
    EXPECT_NO_THROW((void)loadSession(file));
}

// The pose restores the very same view on a camera fitted to the same bounds.
TEST(SessionTest, ACameraPoseRestoresTheSameView)
{
    const Bounds bounds{{-10.0, -20.0, 0.0}, {110.0, 90.0, 85.0}};
    OrbitCamera a;
    a.fitTo(bounds);
    a.rotateByDrag({0.1f, 0.2f}, {-0.4f, 0.5f}, 1.5f);
    a.pan({0.2f, -0.1f}, 1.5f);
    a.zoom(1.7f);
    a.setProjection(Projection::Orthographic);

    OrbitCamera b;
    b.fitTo(bounds);
    b.setPose(a.pose());
    EXPECT_EQ(b.pose(), a.pose());
    EXPECT_EQ(b.viewMatrix(), a.viewMatrix());
    EXPECT_EQ(b.projectionMatrix(1.5f), a.projectionMatrix(1.5f));

    // Bit for bit for every standard view too (their quaternions are not exactly unit floats:
    // normalising again would move them).
    for (StandardView view :
         {StandardView::Anterior, StandardView::Posterior, StandardView::Left, StandardView::Right,
          StandardView::Superior, StandardView::Inferior}) {
        OrbitCamera c;
        c.fitTo(bounds);
        c.setStandardView(view);
        b.setPose(c.pose());
        EXPECT_EQ(b.pose(), c.pose()) << standardViewName(view, true);
    }
    b.setPose(a.pose());

    // Nonsense leaves the camera as it was, and the distance stays within zoom's limits.
    OrbitCamera::Pose bad = a.pose();
    bad.distance = -1.0;
    bad.target = glm::dvec3(std::numeric_limits<double>::infinity());
    bad.orientation = glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
    b.setPose(bad);
    EXPECT_EQ(b.pose(), a.pose());
    OrbitCamera::Pose far = a.pose();
    far.distance = 1e9;
    b.setPose(far);
    EXPECT_LT(b.distance(), 1e5);
}

} // namespace
} // namespace isoview

namespace isoview {
namespace {

TEST(SessionSurfacesTest, SurfacesTheSelectionAndADistanceSurviveASaveAndALoad)
{
    TempDir dir;
    const fs::path volume = dir.path() / "head.nhdr";
    writeFile(volume, "x");
    const fs::path file = dir.path() / "head.isoview";
    Session saved = fullSession(volume);
    saved.surfaces = {
        {0, "Skin", -500.25, glm::vec3(0.9f, 0.7f, 0.6f), 0.35f, true},
        {0, "Bone", 300.0, std::nullopt, 1.0f, true},
        {0, "Vessels \xe2\x80\x93 left", 180.5, glm::vec3(0.8f, 0.1f, 0.1f), 1.0f, false},
    };
    saved.selectedSurface = 2;
    saved.distance = std::array<glm::dvec3, 2>{glm::dvec3(1.5, -2.25, 100.0 / 3.0),
                                               glm::dvec3(-40.0, 12.0, 0.125)};
    saveSession(file, saved);

    std::vector<std::string> warnings;
    const Session read = loadSession(file, &warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(read.surfaces, saved.surfaces);
    EXPECT_EQ(read.selectedSurface, 2u);
    EXPECT_EQ(read.distance, saved.distance);
    // The single values are the selected surface's, for an isoview that knows one surface.
    EXPECT_EQ(read.isovalue, 180.5);
    EXPECT_EQ(read.surfaceColor, glm::vec3(0.8f, 0.1f, 0.1f));
    const std::string text = readFile(file);
    EXPECT_NE(text.find("\"isovalue\": 180.5"), std::string::npos) << text;
}

TEST(SessionSurfacesTest, AFileWithOnlyAnIsovalueOpensAsOneSurface)
{
    const Session s = sessionFromJson(withSection(R"("view": {"surfaceColor": [0.25, 0.5, 1]})"),
                                      "/tmp/x.isoview");
    ASSERT_EQ(s.surfaces.size(), 1u);
    EXPECT_EQ(s.surfaces[0].name, "Surface 1");
    EXPECT_EQ(s.surfaces[0].isovalue, 40.0);
    EXPECT_EQ(s.surfaces[0].color, glm::vec3(0.25f, 0.5f, 1.0f));
    EXPECT_EQ(s.surfaces[0].opacity, 1.0f);
    EXPECT_TRUE(s.surfaces[0].visible);
    EXPECT_EQ(s.selectedSurface, 0u);
    EXPECT_FALSE(s.distance.has_value());
}

TEST(SessionSurfacesTest, SurfacesWinOverTheSingleIsovalueWhichTheyMakeOptional)
{
    const Session both = sessionFromJson(
        withSection(R"("surfaces": [{"name": "A", "isovalue": 1}, {"name": "B", "isovalue": 7}],
                       "selectedSurface": 1)"),
        "/tmp/x.isoview");
    EXPECT_EQ(both.isovalue, 7.0); // not the file's 40
    ASSERT_EQ(both.surfaces.size(), 2u);
    EXPECT_FALSE(both.surfaces[0].color.has_value());

    const Session only = sessionFromJson(
        R"({"format": "isoview-session", "version": 1, "volume": {"path": "/d/h.nhdr"},
            "surfaces": [{"name": "A", "isovalue": -3}]})",
        "/tmp/x.isoview");
    EXPECT_EQ(only.isovalue, -3.0);
}

TEST(SessionSurfacesTest, BadSurfacesAndMeasurementsAreRefusedNamingTheKey)
{
    const struct {
        std::string insert;
        std::string expected;
    } cases[] = {
        {R"("surfaces": [])", "'surfaces' must be an array of 1 to 256 surfaces, got 0 elements"},
        {R"("surfaces": {"name": "A"})", "'surfaces' must be an array of 1 to 256 surfaces"},
        {R"("surfaces": [3])", "'surfaces' element 1 must be an object, got 3"},
        {R"("surfaces": [{"isovalue": 1}])", "'surfaces' element 1 has no 'name'"},
        {R"("surfaces": [{"name": 5, "isovalue": 1}])",
         "'surfaces' element 1 'name' must be a string"},
        {R"("surfaces": [{"name": "", "isovalue": 1}])", "'name' is empty"},
        {R"("surfaces": [{"name": "A"}])", "'surfaces' element 1 has no 'isovalue'"},
        {R"("surfaces": [{"name": "A", "isovalue": 1e39}])", "'isovalue' is 1e+39, outside"},
        {R"("surfaces": [{"name": "A", "isovalue": 1, "opacity": 1.5}])",
         "'surfaces' element 1 'opacity' is 1.5, outside -1.0..1.0"},
        {R"("surfaces": [{"name": "A", "isovalue": 1, "opacity": -0.5}])",
         "'opacity' must lie in 0..1"},
        {R"("surfaces": [{"name": "A", "isovalue": 1, "color": [1, 0, -1]}])",
         "'color' components must lie in 0..1"},
        {R"("surfaces": [{"name": "A", "isovalue": 1, "color": [1, 0]}])",
         "'color' must be an array of 3 numbers, got 2 elements"},
        {R"("surfaces": [{"name": "A", "isovalue": 1, "visible": 1}])",
         "'visible' must be true or false, got 1"},
        {R"("surfaces": [{"name": "A", "isovalue": 1}], "selectedSurface": 1)",
         "'selectedSurface' is 1 but there is 1 surface (counted from 0)"},
        {R"("selectedSurface": -1)", "'selectedSurface' must be a whole number from 0"},
        {R"("measurements": [])", "'measurements' must be an object, got an array"},
        {R"("measurements": {"distance": [[0, 0, 0]]})",
         "'measurements' 'distance' must be an array of 2 points [x, y, z], got 1 elements"},
        {R"("measurements": {"distance": [[0, 0, 0], [0, "a", 0]]})",
         "'measurements' 'distance' point 2 element 2 must be a number, got 'a'"},
    };
    for (const auto& c : cases) {
        const std::string message = readError(withSection(c.insert));
        EXPECT_NE(message.find(c.expected), std::string::npos)
            << c.insert << "\n  gave: " << message << "\n  expected: " << c.expected;
    }
}

TEST(SessionSurfacesTest, SavingRefusesSurfacesItCannotWrite)
{
    Session s = fullSession("/data/head.nhdr");
    s.surfaces = {{0, "A", 1.0, std::nullopt, 1.0f, true}};
    s.selectedSurface = 1;
    EXPECT_THROW((void)sessionToJson(s, "/tmp/x.isoview"), InvalidInputError);
    s.selectedSurface = 0;
    s.surfaces[0].opacity = 2.0f;
    EXPECT_THROW((void)sessionToJson(s, "/tmp/x.isoview"), InvalidInputError);
    s.surfaces[0].opacity = 1.0f;
    s.surfaces[0].name.clear();
    EXPECT_THROW((void)sessionToJson(s, "/tmp/x.isoview"), InvalidInputError);
}

} // namespace
} // namespace isoview
