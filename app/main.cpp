// isoview [PATH] [--iso VALUE] [--series N] [--mode surface|volume|both|mip|minip|average]
//         [--screenshot FILE [--size WxH] [--transparent]] [--window-size WxH]
//         [--movie FILE [--animate rotate|iso:A:B|slices|time] [--frames N] [--fps F]
//          [--size WxH]]
// Opens the viewer on PATH (a DICOM file or folder, NRRD, MetaImage or raw volume, or a session
// file, *.isoview, which brings back its volume, surfaces and view as File > Open Session does),
// or on the bundled sample volume when no PATH is given. --screenshot saves the window as PNG
// once the surface (a session's surfaces) is on screen, then exits (0 on success, 1 when the
// volume or session cannot be opened or the PNG written); with --size, the 3D view alone,
// rendered off screen at that size whatever the window's (--transparent: without background).
// --movie records a movie (MP4, or numbered PNGs for a .png name) of the 3D view off screen with
// no window shown, prints each frame's isovalue and triangles, then exits like --screenshot.
// --window-size sizes the window (--size too, without --screenshot or --movie). --help and
// --version need no display.
#include "common/app_defaults.h"
#include "common/log_panel.h"
#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "export/movie_export_flow.h"
#include "export/movie_recorder.h"
#include "export/screenshot_dialog.h"
#include "isoview_version.h"
#include "main_window.h"
#include "scene/movie_animation.h"
#include "scene/scene.h"
#include "scene_model.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>
#include <cstdio>
#include <optional>
#include <string_view>

#ifndef ISOVIEW_SAMPLE_DIR
#define ISOVIEW_SAMPLE_DIR ""
#endif

namespace {

// The bundled sample: where it is installed relative to this binary (share/isoview/samples
// from bin/), else in the source tree it was built from.
QString bundledSample()
{
    const QStringList candidates = {
        QCoreApplication::applicationDirPath() + "/" ISOVIEW_INSTALLED_SAMPLE_DIR "/mr_head.nhdr",
        QStringLiteral(ISOVIEW_SAMPLE_DIR "/mr_head.nhdr"),
    };
    for (const QString& c : candidates) {
        if (QFileInfo::exists(c)) return QFileInfo(c).canonicalFilePath();
    }
    return {};
}

// "WxH" with both sides from 1 to the largest picture offered; none otherwise.
std::optional<QSize> parseSize(const QString& text)
{
    const QStringList wh = text.split('x');
    if (wh.size() != 2) return std::nullopt;
    bool okW = false;
    bool okH = false;
    const int w = wh[0].toInt(&okW);
    const int h = wh[1].toInt(&okH);
    const int most = isoview::app::ScreenshotDialog::kMaxSide;
    if (!okW || !okH || w < 1 || h < 1 || w > most || h > most) return std::nullopt;
    return QSize(w, h);
}

int fail(const QString& message)
{
    std::fprintf(stderr, "isoview: %s\n", qPrintable(message));
    return 2;
}

// Whether the command line asks only for text (help or version). A QApplication aborts without
// a display, so those are answered under a QCoreApplication: on a server, in a package check.
bool asksForHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--") break;
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // llvmpipe frees and maps its binning memory every frame otherwise (core/heap_reuse.h).
    isoview::keepFreedHeapForReuse();
    isoview::app::setApplicationNames();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "isoview: live isosurfaces and volume rendering of DICOM, NIfTI, NRRD, MetaImage and "
        "raw volumes.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "path", "Volume file, DICOM folder or session (.isoview) (default: bundled sample).",
        "[PATH]");
    QCommandLineOption isoOption("iso", "Isovalue in real units (HU for CT).", "VALUE");
    QCommandLineOption seriesOption("series",
                                    "Series or volume to open, as isoview-cli --info numbers "
                                    "them (from 0): a DICOM series, one volume of a series of "
                                    "several or of a 4-D NIfTI file.",
                                    "N");
    QCommandLineOption modeOption(
        "mode",
        QString::fromUtf8(isoview::kRenderModeNameList.data(),
                          qsizetype(isoview::kRenderModeNameList.size())) +
            ".",
        "MODE");
    QCommandLineOption screenshotOption(
        "screenshot",
        "Save the window as PNG once the surface is shown, then exit; with --size, the 3D view "
        "alone at that size, rendered off screen.",
        "FILE");
    QCommandLineOption sizeOption("size",
                                  "With --screenshot or --movie: the picture's size (e.g. "
                                  "3840x2160; a movie's default 1280x720); else the window's.",
                                  "WxH");
    QCommandLineOption movieOption(
        "movie",
        "Record a movie of the 3D view off screen, no window shown, then exit: FILE.mp4 "
        "(H.264) or FILE.png (numbered PNG frames, FILE_0000.png ...; {n} in the name places "
        "the number).",
        "FILE");
    QCommandLineOption animateOption(
        "animate",
        "With --movie: rotate (one turn of the view, the default), iso:A:B (the isovalue from A "
        "to B, real units), slices (the slice plane facing the view, through the volume) or "
        "time (a series' time points; one frame each unless --frames).",
        "ANIMATION", "rotate");
    QCommandLineOption framesOption("frames", "With --movie: frames in all (default 120).", "N",
                                    "120");
    QCommandLineOption fpsOption("fps", "With --movie: frames a second (default 30).", "F", "30");
    QCommandLineOption windowSizeOption("window-size", "Window size, e.g. 1280x800.", "WxH");
    QCommandLineOption transparentOption(
        "transparent", "With --screenshot: the 3D view alone, its background transparent.");
    QCommandLineOption labelsOption(
        "labels",
        "A label map (segmentation) to lay over the volume, every label its own surface; "
        "alone, it is opened as the volume too.",
        "FILE");
    QCommandLineOption labelTableOption(
        "label-table", "Names and colours of the labels (AFNI, Slicer, FreeSurfer, ITK-SNAP).",
        "FILE");
    parser.addOptions({isoOption, seriesOption, modeOption, screenshotOption, sizeOption,
                       windowSizeOption, transparentOption, movieOption, animateOption,
                       framesOption, fpsOption, labelsOption, labelTableOption});
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication textOnly(argc, argv);
        parser.process(textOnly); // prints the help or the version and exits 0
    }
    QApplication app(argc, argv);
    parser.process(app);
    // The installed icon (hicolor theme) on the window; none when run from a build folder.
    QApplication::setWindowIcon(QIcon::fromTheme(QString::fromLatin1(isoview::kApplicationId)));

    std::optional<double> iso;
    if (parser.isSet(isoOption)) {
        bool ok = false;
        iso = parser.value(isoOption).toDouble(&ok);
        if (!ok)
            return fail(QString("--iso expects a number, got '%1'").arg(parser.value(isoOption)));
    }
    isoview::io::LoadOptions options;
    if (parser.isSet(seriesOption)) {
        bool ok = false;
        const int n = parser.value(seriesOption).toInt(&ok);
        if (!ok || n < 0) return fail("--series expects a series number from 0");
        options.seriesIndex = std::size_t(n);
    }
    QString path = parser.positionalArguments().value(0);
    const QString labels = parser.value(labelsOption);
    if (parser.isSet(labelTableOption) && labels.isEmpty())
        return fail("--label-table names the labels of --labels");
    const bool labelsAlone = path.isEmpty() && !labels.isEmpty(); // the volume too
    if (path.isEmpty()) {
        path = bundledSample();
        if (path.isEmpty()) return fail("the bundled sample volume (mr_head.nhdr) is missing");
    }

    isoview::log::setLevel(spdlog::level::info);
    const QString logFile = isoview::app::startLogFile();
    isoview::log::get("app")->info("isoview {} starting; log file {}",
                                   QCoreApplication::applicationVersion().toStdString(),
                                   logFile.toStdString());

    const bool screenshot = parser.isSet(screenshotOption);
    const bool movie = parser.isSet(movieOption);
    if (screenshot && movie) return fail("--screenshot and --movie are one at a time");
    for (const QCommandLineOption* option : {&animateOption, &framesOption, &fpsOption}) {
        if (parser.isSet(*option) && !movie)
            return fail(QString("--%1 is for --movie").arg(option->names().first()));
    }
    std::optional<QSize> windowSize;
    std::optional<QSize> pictureSize;
    for (const QCommandLineOption* option : {&sizeOption, &windowSizeOption}) {
        if (!parser.isSet(*option)) continue;
        const QString name = option->names().first();
        const std::optional<QSize> size = parseSize(parser.value(*option));
        if (!size)
            return fail(QString("--%1 expects WIDTHxHEIGHT from 1 to %2 each, e.g. 1280x800, got "
                                "'%3'")
                            .arg(name)
                            .arg(isoview::app::ScreenshotDialog::kMaxSide)
                            .arg(parser.value(*option)));
        const bool picture = option == &sizeOption && (screenshot || movie);
        (picture ? pictureSize : windowSize) = size;
    }
    const bool transparent = parser.isSet(transparentOption);
    if (transparent && !screenshot && !movie)
        return fail("--transparent is for --screenshot or --movie");
    isoview::app::MovieRequest movieRequest;
    if (movie) {
        bool okFrames = false;
        bool okFps = false;
        const int frames = parser.value(framesOption).toInt(&okFrames);
        const double fps = parser.value(fpsOption).toDouble(&okFps);
        if (!okFrames) return fail("--frames expects a whole number of frames");
        if (!okFps || !(fps > 0.0 && fps <= 1000.0))
            return fail("--fps expects frames a second, more than 0 and at most 1000");
        try {
            movieRequest.animation =
                isoview::parseMovieAnimation(parser.value(animateOption).toStdString(), frames);
        } catch (const isoview::Error& e) {
            return fail(QString::fromUtf8(e.what()));
        }
        movieRequest.path = parser.value(movieOption);
        movieRequest.size = pictureSize.value_or(QSize(1280, 720));
        movieRequest.framesPerSecond = fps;
        movieRequest.transparent = transparent;
        // A movie of time: one frame per time point unless --frames says otherwise.
        movieRequest.framePerTimePoint =
            movieRequest.animation.kind == isoview::MovieAnimationKind::TimePoints &&
            !parser.isSet(framesOption);
        if (const auto problem = isoview::app::MovieRecorder::problemWith(movieRequest))
            return fail(*problem);
    }

    isoview::app::MainWindow window;
    if (windowSize) window.resize(*windowSize);
    if (parser.isSet(modeOption)) {
        const std::optional<isoview::RenderMode> mode =
            isoview::renderModeFromName(parser.value(modeOption).toStdString());
        if (!mode)
            return fail("--mode expects " + QString::fromUtf8(isoview::kRenderModeNameList.data()));
        window.scene()->setRenderMode(*mode);
    }
    if (movie) {
        // No window: the 3D view renders off screen on its own thread, shown or not.
        window.movieWhenReady(movieRequest);
        QObject::connect(
            window.movieExport()->recorder(), &isoview::app::MovieRecorder::frameRendered,
            [](int frame, const isoview::app::MovieFrameFacts& facts) {
                std::printf(
                    "isoview: frame %d isovalue %s triangles %s\n", frame,
                    facts.isovalue ? qPrintable(QString::number(*facts.isovalue, 'g', 17)) : "none",
                    facts.triangles ? qPrintable(QString::number(*facts.triangles)) : "none");
                std::fflush(stdout);
            });
        QObject::connect(
            &window, &isoview::app::MainWindow::movieDone, [&](bool ok, const QString& message) {
                if (ok)
                    std::printf("isoview: saved %s\n", qPrintable(message));
                else
                    std::fprintf(stderr, "isoview: movie failed: %s\n", qPrintable(message));
                app.exit(ok ? 0 : 1);
            });
    } else {
        window.show();
    }

    if (screenshot) {
        window.screenshotWhenReady(parser.value(screenshotOption), pictureSize, transparent);
        QObject::connect(&window, &isoview::app::MainWindow::screenshotDone,
                         [&](bool ok, const QString& message) {
                             if (ok)
                                 std::printf("isoview: saved %s\n", qPrintable(message));
                             else
                                 std::fprintf(stderr, "isoview: screenshot failed: %s\n",
                                              qPrintable(message));
                             app.exit(ok ? 0 : 1); // a failed load or session ends it too
                         });
    }
    if (!labels.isEmpty()) {
        // Laid over the volume once it is open (MainWindow::openLabelMap), then named.
        if (!labelsAlone) {
            QObject::connect(
                &window, &isoview::app::MainWindow::volumeLoaded, &window,
                [&window, labels] { window.openLabelMap(labels); }, Qt::SingleShotConnection);
        }
        const QString table = parser.value(labelTableOption);
        if (!table.isEmpty()) {
            QObject::connect(
                &window, &isoview::app::MainWindow::labelsLoaded, &window,
                [&window, table] { window.openLabelTable(table); }, Qt::SingleShotConnection);
        }
    }
    QTimer::singleShot(0, &window, [&] {
        if (labelsAlone) {
            window.openLabelMap(labels);
        } else {
            window.openPath(path, iso, options);
        }
    });
    return app.exec();
}
