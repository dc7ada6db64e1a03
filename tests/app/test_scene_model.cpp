// The window's one scene (scene_model.h): each edit is validated, changes the scene once and is
// announced once with what changed; nothing is announced for a value the scene already has; a new
// volume or a restored session starts the history afresh. And the isovalue's path end to end:
// set in the isovalue panel, it is held once in the scene, goes out once per frame request, and
// the renderer extracts the live surface once for it, whatever else later frames change.
#include "app_test_support.h"
#include "core/error.h"
#include "main_window.h"
#include "scene_model.h"
#include "support/synthetic_volumes.h"
#include "surfaces/isovalue_panel.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QUndoCommand>
#include <cmath>
#include <memory>
#include <vector>

namespace isoview::app {
namespace {

using test::part;
using test::waitUntil;

std::shared_ptr<const Volume> sphere()
{
    return std::make_shared<const Volume>(
        isoview::test::makeSphere({32, 32, 32}, glm::vec3(15.5f), 10.0f));
}

SceneChanges changesOf(const QSignalSpy& spy, int i)
{
    return spy.at(i).at(0).value<SceneChanges>();
}

TEST(SceneModelTest, EachEditIsAnnouncedOnceWithWhatChangedAndARepeatIsNotAnnounced)
{
    SceneModel model;
    model.openVolume(sphere(), {Surface{0, "Surface 1", 0.0, std::nullopt, 1.0f, true}}, 0, {});
    QSignalSpy changed(&model, &SceneModel::changed);

    model.setLiveIsovalue(2.5);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changesOf(changed, 0), SceneChanges(SceneChange::Isovalue));
    EXPECT_EQ(model.scene().liveIsovalue(), 2.5);
    model.setLiveIsovalue(2.5); // the value it has
    EXPECT_EQ(changed.count(), 1);

    model.setCrop(VoxelBox{{1, 2, 3}, {20, 21, 22}});
    ASSERT_EQ(changed.count(), 2);
    EXPECT_EQ(changesOf(changed, 1), SceneChanges(SceneChange::Crop));
    model.setCrop(VoxelBox{{0, 0, 0}, {40, 40, 40}}); // clamped to the whole volume: none
    EXPECT_FALSE(model.scene().crop.has_value());

    Surface edited = model.scene().surfaces.selected();
    edited.opacity = 0.5f;
    edited.name = "Skin";
    model.editSurface(edited); // two fields: one announcement
    ASSERT_EQ(changed.count(), 4);
    EXPECT_EQ(changesOf(changed, 3), SceneChanges(SceneChange::Surfaces));

    // A bad value changes nothing and says nothing.
    edited.opacity = 2.0f;
    EXPECT_THROW(model.editSurface(edited), InvalidInputError);
    EXPECT_THROW(model.setLiveIsovalue(std::nan("")), InvalidInputError);
    EXPECT_EQ(changed.count(), 4);
    EXPECT_EQ(model.scene().surfaces.selected().opacity, 0.5f);
    EXPECT_EQ(model.scene().liveIsovalue(), 2.5);
}

TEST(SceneModelTest, ANewVolumeOrARestoredSceneStartsTheHistoryAfresh)
{
    SceneModel model;
    model.openVolume(sphere(), {Surface{0, "Surface 1", 0.0, std::nullopt, 1.0f, true}}, 0, {});
    model.setCrop(VoxelBox{{1, 1, 1}, {9, 9, 9}});
    model.setDistancePoints({{0.0, 0.0, 0.0}, {3.0, 4.0, 0.0}});
    model.history()->push(new QUndoCommand("an edit"));
    ASSERT_EQ(model.history()->count(), 1);

    Scene saved = model.scene();
    QSignalSpy changed(&model, &SceneModel::changed);
    model.openVolume(sphere(), {Surface{0, "Surface 1", 1.0, std::nullopt, 1.0f, true}}, 0, {});
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changesOf(changed, 0), kEverySceneChange);
    EXPECT_EQ(model.history()->count(), 0);
    EXPECT_FALSE(model.scene().crop.has_value());
    EXPECT_TRUE(model.scene().distancePoints.empty());

    model.history()->push(new QUndoCommand("another edit"));
    saved.volume = model.scene().volume;
    model.restore(saved);
    EXPECT_EQ(model.history()->count(), 0);
    EXPECT_EQ(model.scene().crop, saved.crop);
    EXPECT_EQ(model.scene().distancePoints, saved.distancePoints);
    EXPECT_FALSE(changesOf(changed, 1) & SceneChange::Volume) << "the volume stays";
}

// The walk from the slider to the pixels: the panel's value is the scene's (no other copy), the
// frame that shows it was asked for with it, and the renderer extracted the live surface once
// for it; frames that change only the camera extract nothing.
TEST(SceneModelTest, AnIsovalueSetInThePanelIsExtractedOnceByTheRenderer)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 700);
    w->show();
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(test::samplePath(), 40.0);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    ViewportWidget* view = w->viewport();
    ASSERT_TRUE(waitUntil([&] { return view->showsCurrentSurface(); }));

    const auto extractions = [&] { return view->shownFrame()->liveExtractions; };
    const std::uint64_t before = extractions();
    part<IsovaluePanel>(*w)->setIsovalue(63.0);
    EXPECT_EQ(w->scene()->scene().liveIsovalue(), 63.0) << "the panel's edit is the scene's";
    ASSERT_TRUE(waitUntil([&] { return view->showsCurrentSurface(); }));
    EXPECT_EQ(view->shownFrame()->requestedIsovalue, 63.0);
    EXPECT_EQ(view->renderedIsovalue(), 63.0);
    EXPECT_EQ(extractions(), before + 1) << "one extraction for one new isovalue";

    // Frames of camera moves: the same surface, not extracted again.
    QSignalSpy shown(view, &ViewportWidget::frameShown);
    for (int i = 0; i < 3; ++i) {
        const int frames = shown.count();
        w->scene()->editCamera([](OrbitCamera& c) { c.zoom(1.1f); });
        ASSERT_TRUE(waitUntil([&] { return shown.count() > frames; }));
    }
    EXPECT_EQ(view->renderedIsovalue(), 63.0);
    EXPECT_EQ(extractions(), before + 1);
}

} // namespace
} // namespace isoview::app
