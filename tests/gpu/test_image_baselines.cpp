// Image baselines: the bundled MR head rendered offscreen, as the viewer shows it at first (the
// default transfer function, the skin isovalue, the anterior view), in the three render modes,
// compared with the PNGs checked in under tests/data/baselines/.
//
// Tolerance: a pixel differs when one of its channels is off by more than 16/255; at most 0.5%
// of the pixels may differ, and the mean difference over all channels must stay below 1/255.
// Mesa's llvmpipe renders the same image every run; GPUs differ slightly in rasterisation and
// arithmetic, which the tolerance absorbs.
//
// A failing or missing baseline writes <name>_actual.png (and <name>_diff.png) into
// <build>/tests/image-output/. Look at them; if the new image is right, run the test with
// ISOVIEW_UPDATE_BASELINES=1 to rewrite the baselines, and commit them.
#include "gpu/scene_renderer.h"
#include "scene/transfer_function.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/shared_data.h"
#include "test_paths.h"

#include <glm/gtc/matrix_transform.hpp>

#include <QImage>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace isoview::test {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 256;
constexpr int kChannelTolerance = 16;           // of 255
constexpr double kMaxDifferentFraction = 0.005; // of the pixels
constexpr double kMaxMeanDifference = 1.0;      // of 255, over all colour channels

fs::path baselineDir()
{
    return fs::path(kSourceDir) / "tests" / "data" / "baselines";
}

fs::path outputDir()
{
    return fs::path(ISOVIEW_IMAGE_OUTPUT_DIR);
}

bool updatingBaselines()
{
    const char* v = std::getenv("ISOVIEW_UPDATE_BASELINES");
    return v && std::string(v) == "1";
}

// The bundled sample with 2 mm voxels in its index axes (X anterior -> posterior, Y superior ->
// inferior, Z patient left -> right; resources/samples/README.md), whatever the loader's
// defaults: the camera below is placed in those axes.
Volume headSample()
{
    Volume volume = loadBundledSample();
    VolumeGeometry geometry;
    geometry.spacing = {2.0, 2.0, 2.0};
    volume.setGeometry(geometry);
    return volume;
}

// The fixed camera: from the anterior side (-X), superior (-Y) up, so the patient's left is
// on the right of the image, 30 degrees of vertical field of view.
gpu::FrameParams anteriorView(const Volume& volume)
{
    const glm::vec3 center = glm::vec3(volume.dims() - 1u) * 2.0f * 0.5f;
    gpu::FrameParams p;
    p.view = glm::lookAt(center - glm::vec3(540.0f, 0.0f, 0.0f), center, {0.0f, -1.0f, 0.0f});
    p.projection = glm::perspective(glm::radians(30.0f), 1.0f, 250.0f, 900.0f);
    p.viewportSize = {kSize, kSize};
    return p;
}

QImage toQImage(const RgbaFrame& frame)
{
    const int w = frame.width;
    const int h = frame.height;
    QImage image(w, h, QImage::Format_RGBA8888);
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* row =
            frame.rgba.data() + std::size_t(h - 1 - y) * w * 4; // bottom first
        std::copy(row, row + std::size_t(w) * 4, image.scanLine(y));
    }
    return image;
}

QImage renderHead(const Volume& volume, RenderMode mode, bool withVolume = true)
{
    gpu::SceneRenderer renderer;
    Scene scene = oneSurfaceScene(40.0f); // the skin (stored units)
    scene.renderMode = mode;
    if (withVolume) {
        renderer.setVolume(volume);
        scene.transferFunction = defaultTransferFunction(volume);
    }
    renderer.setScene(scene);
    return toQImage(renderFrame(renderer, anteriorView(volume), {kSize, kSize}));
}

int channelDifference(QRgb a, QRgb b)
{
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                     std::abs(qBlue(a) - qBlue(b))});
}

struct Comparison {
    std::size_t differentPixels = 0;
    double meanDifference = 0.0;
    QImage diff; // differences magnified 4x; red where over the tolerance
};

Comparison compare(const QImage& actual, const QImage& expected)
{
    Comparison c;
    c.diff = QImage(actual.size(), QImage::Format_RGB32);
    double sum = 0.0;
    for (int y = 0; y < actual.height(); ++y) {
        for (int x = 0; x < actual.width(); ++x) {
            const QRgb a = actual.pixel(x, y);
            const QRgb e = expected.pixel(x, y);
            sum += std::abs(qRed(a) - qRed(e)) + std::abs(qGreen(a) - qGreen(e)) +
                   std::abs(qBlue(a) - qBlue(e));
            const int d = channelDifference(a, e);
            if (d > kChannelTolerance) {
                ++c.differentPixels;
                c.diff.setPixel(x, y, qRgb(255, 0, 0));
            } else {
                const int g = std::min(255, d * 4);
                c.diff.setPixel(x, y, qRgb(g, g, g));
            }
        }
    }
    c.meanDifference = sum / (double(actual.width()) * actual.height() * 3.0);
    return c;
}

class ImageBaselineTest : public GlTest, public ::testing::WithParamInterface<RenderMode> {};

} // namespace
} // namespace isoview::test

namespace isoview {
// Names the mode in test output (found by argument-dependent lookup).
void PrintTo(RenderMode mode, std::ostream* os)
{
    *os << (mode == RenderMode::Surface  ? "surface"
            : mode == RenderMode::Volume ? "volume"
                                         : "surface_and_volume");
}
} // namespace isoview

namespace isoview::test {
namespace {

std::string modeName(RenderMode mode)
{
    return ::testing::PrintToString(mode);
}

TEST_P(ImageBaselineTest, MatchesBaseline)
{
    const std::string name = modeName(GetParam());
    const QImage actual = renderHead(headSample(), GetParam());
    const fs::path baseline = baselineDir() / (name + ".png");
    const fs::path actualPath = outputDir() / (name + "_actual.png");
    const fs::path diffPath = outputDir() / (name + "_diff.png");

    if (updatingBaselines()) {
        fs::create_directories(baselineDir());
        ASSERT_TRUE(actual.save(QString::fromStdString(baseline.string()), "PNG"));
        std::cout << "rewrote " << baseline.string() << "\n";
        return;
    }
    fs::create_directories(outputDir());
    const QImage expected =
        QImage(QString::fromStdString(baseline.string())).convertToFormat(QImage::Format_RGBA8888);
    if (expected.isNull()) {
        ASSERT_TRUE(actual.save(QString::fromStdString(actualPath.string()), "PNG"));
        FAIL() << "no baseline " << baseline.string() << "; the image rendered now is "
               << actualPath.string()
               << ". If it looks right, run this test with ISOVIEW_UPDATE_BASELINES=1 to "
                  "write the baselines, and commit them.";
    }
    ASSERT_EQ(expected.size(), actual.size()) << baseline.string();

    const Comparison c = compare(actual, expected);
    const std::size_t allowed = std::size_t(kMaxDifferentFraction * kSize * kSize);
    const bool ok = c.differentPixels <= allowed && c.meanDifference < kMaxMeanDifference;
    if (ok) {
        // Leave only the current failures' images in the output folder.
        fs::remove(actualPath);
        fs::remove(diffPath);
    } else {
        actual.save(QString::fromStdString(actualPath.string()), "PNG");
        c.diff.save(QString::fromStdString(diffPath.string()), "PNG");
    }
    EXPECT_LE(c.differentPixels, allowed)
        << "pixels off by more than " << kChannelTolerance << "/255; see " << actualPath.string()
        << " and " << diffPath.string() << " (ISOVIEW_UPDATE_BASELINES=1 rewrites "
        << baseline.string() << " when the change is intended)";
    EXPECT_LT(c.meanDifference, kMaxMeanDifference) << "mean difference; see " << diffPath.string();
}

// A baseline of a blank frame would pass forever: each image must show a head, in many shades.
TEST_P(ImageBaselineTest, ImageIsNotBlank)
{
    const Volume volume = headSample();
    const QImage image = renderHead(volume, GetParam());
    const QImage empty = renderHead(volume, GetParam(), /*withVolume=*/false);
    std::size_t foreground = 0;
    std::set<QRgb> colours;
    std::set<QRgb> backdropColours;
    for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) {
            colours.insert(image.pixel(x, y));
            backdropColours.insert(empty.pixel(x, y));
            foreground += channelDifference(image.pixel(x, y), empty.pixel(x, y)) > 16;
        }
    }
    EXPECT_GT(double(foreground) / (kSize * kSize), 0.2) << "the head covers too little";
    EXPECT_GT(colours.size(), backdropColours.size() + 300)
        << "too few distinct colours for a shaded head";
}

INSTANTIATE_TEST_SUITE_P(Modes, ImageBaselineTest,
                         ::testing::Values(RenderMode::Surface, RenderMode::Volume,
                                           RenderMode::SurfaceAndVolume),
                         [](const ::testing::TestParamInfo<RenderMode>& info) {
                             return modeName(info.param);
                         });

} // namespace
} // namespace isoview::test
