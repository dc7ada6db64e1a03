// A series of volumes on one grid played as time: the shared MOSAIC series (2 time points) and
// the 4-D NIfTI dcm2niix made of another open as one series with no question asked; at every
// time point the surface on screen is the CPU reference's of that time point's volume (same
// triangles by edge key and winding); the slice views follow; play steps on by itself, loops,
// and says the rate it reaches.
#include "app_test_support.h"
#include "extraction/cpu_marching_cubes.h"
#include "loading/volume_document.h"
#include "main_window.h"
#include "scene_model.h"
#include "session/session_controller.h"
#include "support/mesh_compare.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "surfaces/histogram_view.h"
#include "surfaces/isovalue_panel.h"
#include "time/playback.h"
#include "time/time_bar.h"
#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

namespace isoview::app {
namespace {

using test::part;
using test::waitUntil;

std::unique_ptr<MainWindow> openSeries(const std::filesystem::path& path, double iso)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 640);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(QString::fromStdString(path.string()), iso);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    return w;
}

// The surface on screen at the scene's time point equals the CPU reference of its volume.
void expectReferenceSurfaceAt(MainWindow& w, std::size_t t)
{
    w.scene()->setTimePoint(t);
    ASSERT_TRUE(waitUntil([&] {
        return w.viewport()->showsSceneVolume() && w.viewport()->showsCurrentSurface();
    })) << "time point "
        << t;
    const Scene& scene = w.scene()->scene();
    ASSERT_EQ(scene.timePoint, t);
    ASSERT_EQ(scene.volume, scene.series->volume(t));
    const gpu::CapturedSurface gpu = w.viewport()->captureSurface();
    const Volume& v = *scene.volume;
    const IsoMesh cpu = extractIsosurfaceCpu(v, v.rescale().toStored(scene.liveIsovalue()));
    const isoview::test::MeshComparison c = isoview::test::compareMeshes(gpu.mesh, cpu);
    EXPECT_GT(c.trianglesB, 1000u) << "time point " << t;
    EXPECT_EQ(c.trianglesA, c.trianglesB) << c.describe();
    EXPECT_EQ(c.verticesA, c.verticesB) << c.describe();
    EXPECT_EQ(c.unmatchedTriangles, 0u) << c.describe();
    EXPECT_LT(c.maxPositionDistance, 1e-3) << c.describe();
}

TEST(PlaybackTest, AMosaicSeriesPlaysEachTimePointWithTheCpuReferencesSurface)
{
    auto w = openSeries(isoview::test::sharedDataPath("dicom/mosaic/ax_int_36sl"), 600.5);
    const Scene& scene = w->scene()->scene();
    ASSERT_NE(scene.series, nullptr);
    ASSERT_EQ(scene.series->size(), 2u);
    EXPECT_TRUE(w->timeBar()->isVisible());
    // The two time points differ (else following them proves nothing).
    const IsoMesh first = extractIsosurfaceCpu(*scene.series->volume(0), StoredValue(600.5));
    const IsoMesh second = extractIsosurfaceCpu(*scene.series->volume(1), StoredValue(600.5));
    ASSERT_NE(first.triangleCount(), second.triangleCount());
    expectReferenceSurfaceAt(*w, 1);
    expectReferenceSurfaceAt(*w, 0);
    // Steps faster than the uploads (a slider dragged): those passed over are skipped on the
    // render thread, and the last one is what the view shows.
    for (std::size_t t : {1, 0, 1, 0, 1})
        w->scene()->setTimePoint(t);
    expectReferenceSurfaceAt(*w, 1);

    // The slice views show the time point's values: the axial view's image changes with it.
    auto* axial = w->findChild<SliceView*>("sliceView_axial");
    ASSERT_NE(axial, nullptr);
    const QImage before = axial->grab().toImage();
    w->scene()->setTimePoint(0);
    ASSERT_TRUE(waitUntil([&] { return axial->grab().toImage() != before; }));

    // Play (K) loops over both time points on its own and says the rate it reaches.
    Playback* playback = w->timeBar()->playback();
    playback->setRate(20.0);
    QSignalSpy measured(playback, &Playback::rateMeasured);
    QSignalSpy stepped(w->scene(), &SceneModel::changed);
    QAction* play = test::action(*w, "playAction");
    play->trigger();
    EXPECT_TRUE(playback->isPlaying());
    ASSERT_TRUE(waitUntil([&] { return measured.count() >= 3; }));
    play->trigger();
    EXPECT_FALSE(playback->isPlaying());
    int timePointChanges = 0;
    for (const QList<QVariant>& change : stepped)
        timePointChanges += (change.at(0).value<SceneChanges>() & SceneChange::TimePoint) ? 1 : 0;
    EXPECT_GE(timePointChanges, 4); // both ways round: it looped
    const double rate = measured.last().at(0).toDouble();
    EXPECT_GT(rate, 0.5);
    EXPECT_LT(rate, 25.0);
    EXPECT_TRUE(w->findChild<QSlider*>("timeSlider")->maximum() == 1);

    // The histograms: the time point's, or all time points' (same bins, the counts added).
    const VolumeDocument* doc = w->document();
    const HistogramView* histogram = part<IsovaluePanel>(*w)->histogramView();
    test::action(*w, "histogramOfAllAction")->setChecked(false);
    w->scene()->setTimePoint(1);
    EXPECT_EQ(histogram->histogram().counts, doc->timeHistograms[1].counts);
    EXPECT_NE(doc->timeHistograms[0].counts, doc->timeHistograms[1].counts);
    test::action(*w, "histogramOfAllAction")->setChecked(true);
    EXPECT_EQ(histogram->histogram().total(),
              doc->timeHistograms[0].total() + doc->timeHistograms[1].total());
    EXPECT_EQ(histogram->histogram().min, doc->timeHistograms[1].min);
    test::action(*w, "histogramOfAllAction")->setChecked(false);
}

TEST(PlaybackTest, AFourDimensionalNiftiOpensAsOneSeriesAndStepsByKey)
{
    auto w = openSeries(isoview::test::sharedDataPath("nifti/sag_asc_36sl_19.nii"), 500.5);
    const Scene& scene = w->scene()->scene();
    ASSERT_NE(scene.series, nullptr);
    ASSERT_EQ(scene.series->size(), 2u);
    EXPECT_EQ(scene.timePoint, 0u);
    ASSERT_TRUE(test::activate(*w));
    QTest::keyClick(w.get(), Qt::Key_Period); // the next time point
    ASSERT_TRUE(waitUntil([&] { return scene.timePoint == 1; }));
    EXPECT_TRUE(w->findChild<QLabel*>("timePointLabel")->text().startsWith("2 / 2"));
    expectReferenceSurfaceAt(*w, 1);
    // Without loop, a step past the last stays there.
    test::action(*w, "loopAction")->setChecked(false);
    QTest::keyClick(w.get(), Qt::Key_Period);
    QTest::qWait(50);
    EXPECT_EQ(scene.timePoint, 1u);

    // A session comes back at the time point shown, the whole series loaded around it.
    isoview::test::TempDir dir;
    const QString file = QString::fromStdString((dir.path() / "fmri.isoview").string());
    QString error;
    ASSERT_TRUE(part<SessionController>(*w)->saveTo(file, &error)) << error.toStdString();
    auto again = std::make_unique<MainWindow>();
    again->show();
    QSignalSpy opened(part<SessionController>(*again), &SessionController::sessionOpened);
    again->openPath(file);
    ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
    const Scene& restored = again->scene()->scene();
    ASSERT_NE(restored.series, nullptr);
    EXPECT_EQ(restored.series->size(), 2u);
    EXPECT_EQ(restored.timePoint, 1u);
}

} // namespace
} // namespace isoview::app
