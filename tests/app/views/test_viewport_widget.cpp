// The 3D view with its render thread, on a real GL context (llvmpipe): changes made while no
// frame could take them merge into one request (no frame ever shows a value the user already
// left), the newest value is the one shown, volume rendering at reduced resolution is refined
// to full resolution once the view is still, a screenshot never keeps the coarse image, the view
// tells whether its frame has the latest isovalue and crop, the heap that frames free is
// given back once the view is still, never while frames follow, and the frame on screen is
// upright and in its colours (the render thread reads it back in the window system's layout).
#include "app_test_support.h"
#include "scene_model.h"
#include "support/synthetic_volumes.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <glm/glm.hpp>
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {
namespace {

using test::waitUntil;

std::shared_ptr<const Volume> sphereVolume()
{
    return std::make_shared<const Volume>(
        isoview::test::makeSphere({48, 48, 48}, glm::vec3(23.5f), 18.0f));
}

// The view on a scene of its own (the window's is the MainWindow's), showing the sphere.
struct ShownView {
    ShownView()
    {
        view.resize(480, 360);
        view.show();
        const std::shared_ptr<const Volume> volume = sphereVolume();
        std::optional<std::optional<QString>> uploaded;
        view.uploadVolume(volume, [&](const std::optional<QString>& error) { uploaded = error; });
        EXPECT_TRUE(waitUntil([&] { return uploaded.has_value(); }));
        EXPECT_FALSE(uploaded && uploaded->has_value()) << "the sphere's upload failed";
        scene.openVolume(volume, {Surface{0, "Surface 1", 0.0, std::nullopt, 1.0f, true}}, 0, {});
    }
    SceneModel scene;
    ViewportWidget view{&scene};
};

// Volume rendering at the adaptive resolution, which starts below full.
bool showsReducedVolumeFrame(ShownView& v)
{
    v.scene.setLiveIsovalue(0.0);
    v.scene.setRenderMode(RenderMode::Volume);
    return waitUntil([&] {
        const auto r = v.view.shownVolumeResolution();
        return r && *r < 1.0f;
    });
}

TEST(ViewportWidgetTest, ChangesBeforeTheNextFrameMergeAndTheNewestIsShown)
{
    ShownView v;
    v.scene.setLiveIsovalue(1.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.renderedIsovalue() == 1.0; }));

    std::vector<double> shown;
    QObject::connect(&v.view, &ViewportWidget::frameShown, [&] {
        if (const auto iso = v.view.renderedIsovalue()) shown.push_back(*iso);
    });
    // Three changes in one event-loop turn: only the last may reach a frame.
    v.scene.setLiveIsovalue(2.0);
    v.scene.setLiveIsovalue(3.0);
    v.scene.setLiveIsovalue(4.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.renderedIsovalue() == 4.0; }));
    for (double iso : shown) {
        EXPECT_NE(iso, 2.0);
        EXPECT_NE(iso, 3.0);
    }
    EXPECT_FALSE(v.view.captureSurface().mesh.indices.empty());
}

// A new volume goes to the GPU on the render thread: uploadVolume returns before the upload is
// done (the window keeps answering), the frame on screen stays the old volume's meanwhile, and
// once done has run the scene's new volume is drawn.
TEST(ViewportWidgetTest, AnUploadReturnsAtOnceAndTheNewVolumeIsDrawnAfterIt)
{
    ShownView v;
    v.scene.setLiveIsovalue(1.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    const std::uint64_t small = v.view.lastFrameStats().triangles.value_or(0);

    const auto larger = std::make_shared<const Volume>(
        isoview::test::makeSphere({64, 64, 64}, glm::vec3(31.5f), 28.0f));
    std::optional<std::optional<QString>> uploaded;
    v.view.uploadVolume(larger, [&](const std::optional<QString>& error) { uploaded = error; });
    EXPECT_FALSE(uploaded.has_value()) << "the upload did not wait for the render thread";
    EXPECT_TRUE(v.view.isUploading());
    ASSERT_TRUE(waitUntil([&] { return uploaded.has_value(); }));
    EXPECT_FALSE(uploaded->has_value()) << "the larger sphere's upload failed";
    EXPECT_FALSE(v.view.isUploading());

    v.scene.openVolume(larger, {Surface{0, "Surface 1", 1.0, std::nullopt, 1.0f, true}}, 0, {});
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    EXPECT_GT(v.view.lastFrameStats().triangles.value_or(0), small);
}

TEST(ViewportWidgetTest, AStillViewRefinesVolumeRenderingToFullResolution)
{
    ShownView v;
    ASSERT_TRUE(showsReducedVolumeFrame(v));
    // The refinement frame follows on its own.
    EXPECT_TRUE(waitUntil([&] { return v.view.shownVolumeResolution() == 1.0f; }, 60000));
}

TEST(ViewportWidgetTest, AScreenshotOfVolumeRenderingIsAtFullResolution)
{
    ShownView v;
    ASSERT_TRUE(showsReducedVolumeFrame(v));
    const QImage image = v.view.grabView();
    EXPECT_FALSE(image.isNull());
    EXPECT_EQ(v.view.shownVolumeResolution(), 1.0f);
}

// A frame asked for before a change can reach the screen after it: the view tells whether the
// frame on screen has the isovalue and crop set last (what a session's screenshot waits for).
TEST(ViewportWidgetTest, ItSaysWhetherTheFrameOnScreenHasTheCurrentIsovalueAndCrop)
{
    ShownView v;
    v.scene.setLiveIsovalue(1.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    const std::uint64_t whole = v.view.lastFrameStats().triangles.value_or(0);
    ASSERT_GT(whole, 1000u);

    // The cells left of the sphere's centre (x 23.5): about half of its triangles.
    v.scene.setCrop(VoxelBox{{0, 0, 0}, {23, 47, 47}});
    EXPECT_FALSE(v.view.showsCurrentSurface()) << "the frame on screen is of the whole volume";
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    const std::uint64_t half = v.view.lastFrameStats().triangles.value_or(0);
    EXPECT_GT(half, whole * 35 / 100);
    EXPECT_LT(half, whole * 65 / 100);

    v.scene.setLiveIsovalue(2.0);
    EXPECT_FALSE(v.view.showsCurrentSurface()) << "the frame on screen is of isovalue 1";
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    EXPECT_EQ(v.view.renderedIsovalue(), 2.0);
}

// The render thread reads the frame back bottom row first in the window system's 32-bit layout
// (B, G, R, A bytes) and turns it upright: the view shows the upper half of a red sphere above
// the middle, in red. A frame shown upside down puts the surface below; one with red and blue
// swapped shows it blue.
TEST(ViewportWidgetTest, TheFrameOnScreenIsUprightAndInTheSurfaceColour)
{
    ShownView v;
    Surface red = v.scene.scene().surfaces.selected();
    red.color = glm::vec3(230.0f, 40.0f, 40.0f) / 255.0f;
    v.scene.editSurface(red);
    // Superior (+z) up, looking along +y.
    v.scene.editCamera([](OrbitCamera& c) { c.setStandardView(StandardView::Anterior); });
    v.scene.setCrop(VoxelBox{{0, 0, 24}, {47, 47, 47}}); // the cells above the centre (z 23.5)
    v.scene.setLiveIsovalue(0.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.showsCurrentSurface(); }));
    ASSERT_GT(v.view.lastFrameStats().triangles.value_or(0), 100u);

    const QImage shot = v.view.grabView().convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(shot.size(), v.view.size() * shot.devicePixelRatio());
    // Where the camera puts a point of the volume (index space), in the shot's pixels.
    const glm::dmat4 indexToPhysical = sphereVolume()->geometry().indexToPhysical();
    const auto pixelOf = [&](glm::dvec3 index) {
        const glm::vec4 physical(indexToPhysical * glm::dvec4(index, 1.0));
        const glm::vec4 clip = v.view.projectionMatrix() * v.view.viewMatrix() * physical;
        const glm::vec2 ndc = glm::vec2(clip) / clip.w;
        return QPoint(int((ndc.x + 1.0f) * 0.5f * float(shot.width())),
                      int((1.0f - ndc.y) * 0.5f * float(shot.height())));
    };
    const QPoint upper = pixelOf({23.5, 23.5, 23.5 + 12.0}); // in front of the kept half
    const QPoint lower = pixelOf({23.5, 23.5, 23.5 - 12.0}); // where the cropped half was
    ASSERT_LT(upper.y() + 40, lower.y()) << "the anterior view has superior up";
    ASSERT_TRUE(shot.rect().contains(upper) && shot.rect().contains(lower));

    const QColor surface = shot.pixelColor(upper);
    EXPECT_GT(surface.red(), 60) << surface.name().toStdString();
    EXPECT_GT(surface.red(), 2 * surface.blue() + 20) << surface.name().toStdString();
    EXPECT_GT(surface.red(), 2 * surface.green() + 20) << surface.name().toStdString();
    const QColor empty = shot.pixelColor(lower);
    EXPECT_LT(empty.red(), empty.blue() + 30) << "surface below the middle: the frame is "
                                                 "upside down; "
                                              << empty.name().toStdString();
}

// The freed heap is kept while frames follow each other (core/heap_reuse.h) and given back
// once the view has been still for 3 s.
TEST(ViewportWidgetTest, TheFreedHeapIsGivenBackOnlyOnceTheViewIsStill)
{
    ShownView v;
    QSignalSpy released(&v.view, &ViewportWidget::freedHeapReleased);
    v.scene.setLiveIsovalue(1.0);
    ASSERT_TRUE(waitUntil([&] { return v.view.renderedIsovalue() == 1.0; }));
    // A new isovalue every 100 ms for 4 s: more than the 3 s of stillness in all, never 3 s
    // without a frame.
    QElapsedTimer moving;
    moving.start();
    for (int i = 0; moving.elapsed() < 4000; ++i) {
        v.scene.setLiveIsovalue(1.0 + 0.01 * (i % 50));
        QTest::qWait(100);
    }
    EXPECT_EQ(released.count(), 0) << "given back while frames followed each other";
    // Still: once, about 3 s after the last frame.
    QElapsedTimer still;
    still.start();
    ASSERT_TRUE(waitUntil([&] { return released.count() == 1; }, 20000));
    EXPECT_GE(still.elapsed(), 2000);
    QTest::qWait(500);
    EXPECT_EQ(released.count(), 1) << "given back once per stillness";
}

} // namespace
} // namespace isoview::app
