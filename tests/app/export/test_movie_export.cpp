// File > Export Movie in the window on a real GL context (llvmpipe under Xvfb): an isovalue
// sweep whose every frame has the CPU reference's triangles at its isovalue, read back by FFmpeg's
// own ffprobe; a long movie cancelled from the status bar that leaves nothing behind, after which
// the next movie is whole; and the options dialog remembering its choices. A missing ffprobe
// fails the tests (packaging/install-deps.sh installs ffmpeg).
#include "app_test_support.h"
#include "common/gui_block_watcher.h"
#include "export/movie_dialog.h"
#include "export/movie_export_flow.h"
#include "export/movie_recorder.h"
#include "extraction/cpu_marching_cubes.h"
#include "main_window.h"
#include "scene/movie_animation.h"
#include "scene_model.h"
#include "support/temp_dir.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace isoview::app {
namespace {

namespace fs = std::filesystem;
using test::part;
using test::waitUntil;

// A shown window with the bundled sample open and its surface at iso on screen, its triangles
// in the status bar.
std::unique_ptr<MainWindow> openSample(double iso)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 640);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(test::samplePath(), iso);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(waitUntil(
        [&] {
            const auto* label = w->findChild<QLabel*>("triangleLabel");
            return w->viewport()->renderedIsovalue() == iso && label &&
                   label->text().contains("triangles");
        },
        30000));
    return w;
}

std::uint64_t cpuTriangles(const Volume& v, double real)
{
    return extractIsosurfaceCpu(v, v.rescale().toStored(real)).triangleCount();
}

// "h264,96,64,3": the codec, size and frames FFmpeg's ffprobe decodes from movie; run as a
// child process, as tests/video/test_movie_writer.cpp does. A missing ffprobe fails.
std::string probe(const fs::path& movie)
{
    const std::string command = "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
                                "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '" +
                                movie.string() + "'";
    std::string out;
    int status = -1;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[256];
        while (std::fgets(buffer, sizeof buffer, pipe))
            out += buffer;
        status = ::pclose(pipe);
    }
    EXPECT_EQ(status, 0) << "ffprobe failed on " << movie << " (the Debian package ffmpeg has it)";
    while (!out.empty() && (out.back() == '\n' || out.back() == ','))
        out.pop_back();
    return out;
}

QString qpath(const fs::path& path)
{
    return QString::fromStdString(path.string());
}

TEST(MovieExport, AnIsovalueSweepRecordsEveryFrameWithTheCpuReferencesTriangles)
{
    const std::unique_ptr<MainWindow> w = openSample(40.0);
    isoview::test::TempDir dir;
    const fs::path movie = dir.path() / "sweep.mp4";
    MovieExportFlow& flow = *w->movieExport();
    QSignalSpy finished(&flow, &MovieExportFlow::finished);

    GuiBlockWatcher watcher;
    watcher.start();
    QElapsedTimer clock;
    clock.start();
    flow.recordTo({qpath(movie), QSize(96, 64), 30.0, parseMovieAnimation("iso:40:100", 3)});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60000));
    watcher.stop();
    std::printf("3 frames of an isovalue sweep at 96x64 recorded in %lld ms; longest GUI thread "
                "gap %.1f ms, %.1f ms less waits for a core\n",
                static_cast<long long>(clock.elapsed()), watcher.longestMs(),
                watcher.longestOwnMs());
    ASSERT_TRUE(finished[0][0].toBool()) << finished[0][1].toString().toStdString();
    EXPECT_EQ(finished[0][1].toString(), qpath(movie));

    // Each frame's surface is the CPU reference's at its isovalue: 40, 70 and 100 (real units).
    const Volume& volume = *w->viewport()->volume();
    const std::vector<MovieFrameFacts>& frames = flow.recorder()->frames();
    ASSERT_EQ(frames.size(), 3u);
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const double iso = 40.0 + 30.0 * double(i);
        ASSERT_TRUE(frames[i].isovalue) << "frame " << i;
        EXPECT_DOUBLE_EQ(*frames[i].isovalue, iso) << "frame " << i;
        ASSERT_TRUE(frames[i].triangles) << "frame " << i;
        EXPECT_EQ(*frames[i].triangles, cpuTriangles(volume, iso)) << "frame " << i;
    }
    EXPECT_NE(frames[0].triangles, frames[2].triangles);

    EXPECT_EQ(probe(movie), "h264,96,64,3");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"sweep.mp4"}); // no temporary left
    EXPECT_FALSE(w->movieExport()->progressWidget()->isVisible());
    EXPECT_TRUE(w->statusBar()->currentMessage().contains("Saved the movie"))
        << w->statusBar()->currentMessage().toStdString();

    // The window's surface is still its own: an export now takes the isovalue on screen, not
    // the movie's last.
    const gpu::CapturedSurface shown = w->viewport()->captureSurface();
    EXPECT_EQ(shown.isovalue, 40.0);
    EXPECT_EQ(shown.mesh.triangleCount(), cpuTriangles(volume, 40.0));
    EXPECT_LE(watcher.longestOwnMs(), test::kMaxGuiBlockMs);
}

TEST(MovieExport, CancellingAMovieLeavesNoFileAndSaysSo)
{
    std::unique_ptr<MainWindow> w = openSample(40.0);
    // The volume ray cast with the surface: frames slow enough on llvmpipe that one is still on
    // the render thread when the cancel ends the movie.
    w->scene()->setRenderMode(RenderMode::SurfaceAndVolume);
    isoview::test::TempDir dir;
    const fs::path movie = dir.path() / "turn.mp4";
    MovieExportFlow& flow = *w->movieExport();
    MovieRecorder& recorder = *flow.recorder();
    QSignalSpy finished(&flow, &MovieExportFlow::finished);
    QSignalSpy rendered(&recorder, &MovieRecorder::frameRendered);
    QElapsedTimer clock;
    clock.start();

    flow.recordTo({qpath(movie), QSize(640, 480), 30.0, parseMovieAnimation("rotate", 2000)});
    QWidget* progress = flow.progressWidget();
    EXPECT_EQ(progress->objectName(), "movieProgress");
    EXPECT_TRUE(progress->isVisible());
    ASSERT_TRUE(waitUntil([&] { return rendered.count() >= 1; }, 30000));
    EXPECT_TRUE(recorder.isRecording());

    // Cancel in the status bar. The next movie starts from the finished signal itself, while the
    // cancelled one's next frame is still on the render thread: none of it may reach the next.
    const fs::path next = dir.path() / "next.mp4";
    QString said; // the status bar's message as the cancelled movie ends
    QObject::connect(&flow, &MovieExportFlow::finished, &flow, [&](bool ok, const QString&) {
        if (ok || finished.count() != 1) return;
        said = w->statusBar()->currentMessage();
        flow.recordTo({qpath(next), QSize(64, 48), 30.0, parseMovieAnimation("rotate", 3)});
    });
    std::vector<int> nextFrames; // the frames rendered once the first movie has finished
    QObject::connect(&recorder, &MovieRecorder::frameRendered, &recorder, [&](int frame) {
        if (finished.count() == 1) nextFrames.push_back(frame);
    });
    auto* cancel = progress->findChild<QToolButton*>();
    ASSERT_NE(cancel, nullptr);
    ASSERT_TRUE(cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() >= 1; }, 30000));
    EXPECT_FALSE(finished[0][0].toBool());
    EXPECT_EQ(finished[0][1].toString(), "cancelled");
    EXPECT_FALSE(fs::exists(movie));
    EXPECT_TRUE(said.contains("cancelled")) << said.toStdString();
    EXPECT_LT(rendered.count(), 2000);

    // The next movie: exactly its own three frames, at its own size.
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }, 30000));
    ASSERT_TRUE(finished[1][0].toBool()) << finished[1][1].toString().toStdString();
    EXPECT_EQ(nextFrames, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(recorder.frames().size(), 3u);
    EXPECT_EQ(probe(next), "h264,64,48,3");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"next.mp4"}); // the cancelled one left none
    EXPECT_FALSE(progress->isVisible());

    // A movie whose window closes mid-way is cancelled: its encoder ends in the background and
    // leaves nothing either.
    rendered.clear();
    flow.recordTo({qpath(dir.path() / "closed.mp4"), QSize(320, 240), 30.0,
                   parseMovieAnimation("rotate", 2000)});
    ASSERT_TRUE(waitUntil([&] { return rendered.count() >= 1; }, 30000));
    w->close();
    w.reset();
    EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"next.mp4"});
    std::printf("a movie cancelled, the next recorded, one closed with its window: %lld ms\n",
                static_cast<long long>(clock.elapsed()));
}

TEST(MovieExport, TheMovieDialogRemembersItsChoices)
{
    QSettings().remove("movie");
    {
        MovieDialog dialog(40.0, 0.0, 400.0);
        dialog.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
        dialog.findChild<QComboBox*>("movieAnimation")->setCurrentIndex(1); // the isovalue sweep
        dialog.findChild<QSpinBox*>("movieFrames")->setValue(48);
        dialog.findChild<QSpinBox*>("movieFps")->setValue(24);
        dialog.findChild<QComboBox*>("movieSize")->setCurrentIndex(3); // custom
        dialog.findChild<QSpinBox*>("movieWidth")->setValue(641);      // typed odd
        dialog.findChild<QSpinBox*>("movieHeight")->setValue(480);
        const MovieOptions chosen = dialog.options();
        EXPECT_EQ(chosen.animation.kind, MovieAnimationKind::IsovalueSweep);
        EXPECT_EQ(chosen.animation.isoFrom, 40.0);
        EXPECT_EQ(chosen.animation.isoTo, 140.0); // a quarter of the range up
        EXPECT_EQ(chosen.size, QSize(640, 480));  // even, for H.264
        dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        EXPECT_EQ(dialog.result(), QDialog::Accepted);
    }
    MovieDialog again(10.0, 0.0, 400.0);
    const MovieOptions back = again.options();
    EXPECT_EQ(back.animation.kind, MovieAnimationKind::IsovalueSweep);
    EXPECT_EQ(back.animation.frames, 48);
    EXPECT_EQ(back.framesPerSecond, 24.0);
    EXPECT_EQ(back.size, QSize(640, 480));
    EXPECT_EQ(back.animation.isoFrom, 10.0); // the sweep starts at the surface on screen
    EXPECT_TRUE(again.findChild<QSpinBox*>("movieWidth")->isEnabled());
    QSettings().remove("movie");
}

} // namespace
} // namespace isoview::app
