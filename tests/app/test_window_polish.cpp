// The window's polish found in use (issues 11 and 26): Undo/Redo from wherever the focus is (the
// 3D view and the crop fields included) for transfer-function and crop edits; each new volume
// starting from its modality's transfer function unless the user keeps it; save dialogs starting in
// the last output folder or the documents folder, never the scan's; the status bar naming an uneven
// or tilted stack with its range; and the 3D view saying why it is empty.
#include "app_test_support.h"
#include "common/output_folders.h"
#include "crop/crop_panel.h"
#include "export/screenshot_dialog.h"
#include "loading/stack_geometry_note.h"
#include "main_window.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "test_paths.h"
#include "transfer_function/transfer_function_panel.h"
#include "views/viewport_widget.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace isoview::app {
namespace {

using test::part;

namespace fs = std::filesystem;
using test::samplePath;
using test::waitUntil;

// A shown, active window with the volume at path open and a frame of it on screen.
std::unique_ptr<MainWindow> openVolume(const QString& path, std::optional<double> iso = {})
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 640);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    EXPECT_TRUE(test::activate(*w));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(path, iso);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(waitUntil([&] { return w->viewport()->renderedIsovalue().has_value(); }));
    return w;
}

// Gives the 3D view the keyboard in an active window: window-wide shortcuts answer only in the
// active window, and another test's window (ctest -j) may have taken the activation.
void focusViewport(MainWindow& w)
{
    EXPECT_TRUE(test::activate(w));
    w.viewport()->setFocus();
    EXPECT_TRUE(waitUntil([&] { return w.viewport()->hasFocus(); }, 5000));
}

// Opens another volume in the same window and waits for it.
void openAgain(MainWindow& w, const QString& path)
{
    QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
    w.openPath(path);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
}

QAction* actionNamed(const MainWindow& w, const char* name)
{
    auto* a = w.findChild<QAction*>(name);
    EXPECT_NE(a, nullptr) << name;
    return a;
}

// Three copies of the shared CT slice at the given z (mm), as one series in folder.
void writeCtSeries(const fs::path& folder, const std::vector<double>& z,
                   const std::vector<double>& y = {})
{
    const fs::path reference =
        fs::path(isoview::test::kSharedDataDir) / "dicom" / "single" /
        "CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm";
    for (std::size_t k = 0; k < z.size(); ++k) {
        DcmFileFormat file;
        ASSERT_TRUE(file.loadFile(reference.c_str()).good());
        ASSERT_TRUE(file.loadAllDataIntoMemory().good());
        DcmDataset& d = *file.getDataset();
        char uid[100];
        ASSERT_TRUE(d.putAndInsertString(DCM_SOPInstanceUID,
                                         dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT))
                        .good());
        const double yk = y.empty() ? -172.0 : y[k];
        const std::string position = "-172\\" + std::to_string(yk) + "\\" + std::to_string(z[k]);
        ASSERT_TRUE(d.putAndInsertString(DCM_ImagePositionPatient, position.c_str()).good());
        ASSERT_TRUE(d.putAndInsertString(DCM_InstanceNumber, std::to_string(k + 1).c_str()).good());
        ASSERT_TRUE(file.saveFile((folder / ("slice" + std::to_string(k))).c_str(),
                                  EXS_LittleEndianExplicit)
                        .good());
    }
}

// ---- Undo / Redo ----------------------------------------------------------------------------

TEST(WindowPolish, CtrlZInThe3DViewUndoesTheLastTransferFunctionEdit)
{
    auto w = openVolume(samplePath(), 40.0);
    TransferFunctionPanel* tf = part<TransferFunctionPanel>(*w);
    const TransferFunction start = tf->transferFunction();
    tf->applyPreset(TransferPreset::CtBone);
    const TransferFunction bone = tf->transferFunction();
    ASSERT_NE(bone, start);

    focusViewport(*w);
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(tf->transferFunction(), start) << "Ctrl+Z from the 3D view";
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(tf->transferFunction(), bone) << "Ctrl+Shift+Z from the 3D view";
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(w->viewport(), Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(tf->transferFunction(), bone) << "Ctrl+Y from the 3D view";

    // The Edit menu holds them, named after the step they undo.
    bool inEditMenu = false;
    for (QAction* a : w->findChildren<QAction*>()) {
        if (a == tf->undoAction() && !a->associatedObjects().isEmpty())
            inEditMenu = a->associatedObjects().size() >= 2; // the panel and the menu
    }
    EXPECT_TRUE(inEditMenu);
    EXPECT_TRUE(tf->undoAction()->text().contains("CT bone"))
        << tf->undoAction()->text().toStdString();
}

TEST(WindowPolish, CropEditsAreUndoableOneStepPerSpinBoxRun)
{
    auto w = openVolume(samplePath(), 40.0);
    auto* crop = w->findChild<CropPanel*>("cropPanel");
    ASSERT_NE(crop, nullptr);
    const VoxelBox whole = crop->box();

    // Three arrow steps on one spin box, then one on another: two undo steps.
    for (int i = 0; i < 3; ++i)
        crop->spinBox(0, false)->stepBy(1);
    crop->spinBox(2, true)->stepBy(-1);
    EXPECT_EQ(crop->box().first.x, whole.first.x + 3);
    EXPECT_EQ(crop->box().last.z, whole.last.z - 1);

    focusViewport(*w);
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(crop->box().last.z, whole.last.z);
    EXPECT_EQ(crop->box().first.x, whole.first.x + 3);
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_TRUE(crop->box() == whole) << "the three steps were one undo step";
    QTest::keyClick(w->viewport(), Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(crop->box().first.x, whole.first.x + 3);

    // Reset is one step, and the view follows every undo.
    crop->resetButton()->click();
    EXPECT_TRUE(crop->box() == whole);
    focusViewport(*w);
    QTest::keyClick(w->viewport(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(crop->box().first.x, whole.first.x + 3);

    // In a crop field too, after a value typed and entered there: the field's line edit used to
    // take Ctrl+Z for its own text (the digits went back, the box stayed). Digits typed and
    // not yet entered stay the field's to undo.
    w->findChild<QDockWidget*>("cropDock")->show();
    QSpinBox* field = crop->spinBox(1, false);
    ASSERT_TRUE(test::activate(*w));
    field->setFocus();
    ASSERT_TRUE(waitUntil([&] { return field->hasFocus(); }, 5000));
    field->selectAll();
    QTest::keyClicks(field, "7");
    QTest::keyClick(field, Qt::Key_Return);
    ASSERT_EQ(crop->box().first.y, 7u);
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(crop->box().first.y, whole.first.y) << "Ctrl+Z in the field";
    EXPECT_EQ(field->value(), int(whole.first.y));
    EXPECT_EQ(crop->box().first.x, whole.first.x + 3) << "one step only";
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(crop->box().first.y, 7u) << "Ctrl+Shift+Z in the field";
    field->selectAll();
    QTest::keyClicks(field, "9");
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(field->cleanText(), QString("7")) << "the typing undone";
    EXPECT_EQ(crop->box().first.y, 7u);
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(crop->box().first.y, whole.first.y);

    // A new volume starts a fresh history.
    openAgain(*w, samplePath());
    EXPECT_FALSE(part<TransferFunctionPanel>(*w)->undoStack()->canUndo());
}

// ---- the transfer function of a new volume --------------------------------------------------

TEST(WindowPolish, EachNewVolumeStartsFromItsModalitysDefaultUnlessKept)
{
    QSettings().remove("transferFunction/keep");
    auto w = openVolume(samplePath(), 40.0);
    TransferFunctionPanel* tf = part<TransferFunctionPanel>(*w);
    const TransferFunction modalityDefault = defaultTransferFunction(*w->document()->volume);
    EXPECT_EQ(tf->transferFunction(), modalityDefault);
    EXPECT_EQ(tf->activePreset(), TransferPreset::Mr) << "the box shows the default's preset";
    QAction* keep = actionNamed(*w, "keepTransferFunctionAction");
    ASSERT_NE(keep, nullptr);
    EXPECT_FALSE(keep->isChecked());

    // The last function used to carry over (the faint volume rendering): no more.
    tf->applyPreset(TransferPreset::CtBone);
    w->close(); // saves it as the last function, as a session's end does
    w->show();
    openAgain(*w, samplePath());
    EXPECT_EQ(tf->transferFunction(), modalityDefault);

    // Kept: the next volume (same units) opens with the function shown.
    tf->applyPreset(TransferPreset::CtLung);
    const TransferFunction lung = tf->transferFunction();
    keep->setChecked(true);
    openAgain(*w, samplePath());
    EXPECT_EQ(tf->transferFunction(), lung);
    EXPECT_EQ(tf->activePreset(), TransferPreset::CtLung);
    w->close();

    // Remembered: the next window keeps too, starting from the function saved at exit.
    {
        auto next = openVolume(samplePath(), 40.0);
        EXPECT_TRUE(actionNamed(*next, "keepTransferFunctionAction")->isChecked());
        EXPECT_EQ(part<TransferFunctionPanel>(*next)->transferFunction(), lung);
        actionNamed(*next, "keepTransferFunctionAction")->setChecked(false);
        next->close();
    }
    EXPECT_FALSE(QSettings().value("transferFunction/keep").toBool());
}

// ---- where save dialogs start -----------------------------------------------------------------

TEST(WindowPolish, OutputFoldersAreRememberedPerKindAndNeverTheScans)
{
    for (const char* key : {"output/surfaceFolder", "output/screenshotFolder"})
        QSettings().remove(key);
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString fallback = QFileInfo(documents).isDir() ? documents : QDir::homePath();
    EXPECT_EQ(outputFolder(OutputKind::Surface), fallback);

    isoview::test::TempDir dir;
    const fs::path meshes = dir.path() / "meshes";
    const fs::path shots = dir.path() / "shots";
    fs::create_directories(meshes);
    fs::create_directories(shots);
    rememberOutputFolder(OutputKind::Surface, QString::fromStdString((meshes / "a.ply").string()));
    rememberOutputFolder(OutputKind::Screenshot,
                         QString::fromStdString((shots / "b.png").string()));
    EXPECT_EQ(outputFolder(OutputKind::Surface), QString::fromStdString(meshes.string()));
    EXPECT_EQ(outputFolder(OutputKind::Screenshot), QString::fromStdString(shots.string()));
    fs::remove_all(shots);
    EXPECT_EQ(outputFolder(OutputKind::Screenshot), fallback) << "a folder since removed";

    // The screenshot dialog of a window showing the sample starts there, not in the sample's
    // folder.
    auto w = openVolume(samplePath(), 40.0);
    rememberOutputFolder(OutputKind::Screenshot,
                         QString::fromStdString((meshes / "c.png").string()));
    QString shownFolder;
    const auto onFileDialog = [&](QWidget* modal) {
        if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
            shownFolder = dialog->directory().absolutePath();
            dialog->reject();
        } else {
            modal->close();
        }
    };
    // The size and background come first (ScreenshotDialog), then the file dialog.
    test::onModalDialog([&](QWidget* modal) {
        if (auto* options = qobject_cast<ScreenshotDialog*>(modal)) {
            test::onModalDialog(onFileDialog);
            options->accept();
        } else {
            onFileDialog(modal);
        }
    });
    QAction* screenshot = nullptr;
    for (QAction* a : w->findChildren<QAction*>())
        if (a->text() == "Save &Screenshot...") screenshot = a;
    ASSERT_NE(screenshot, nullptr);
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    screenshot->trigger();
    EXPECT_EQ(shownFolder, QString::fromStdString(meshes.string()));
    EXPECT_NE(shownFolder, QFileInfo(samplePath()).absolutePath());
    w->close();
    QSettings().remove("output/surfaceFolder");
    QSettings().remove("output/screenshotFolder");
}

// ---- the status bar on irregular stacks -------------------------------------------------------

TEST(WindowPolish, StackGeometryNoteGivesTheRangeOfGapsAndTilt)
{
    VolumeGeometry regular;
    EXPECT_EQ(stackGeometryNote(regular, 10), QString());

    VolumeGeometry uneven;
    uneven.sliceOrigins = {{0, 0, 0}, {0, 0, 1.25}, {0, 0, 2.5}, {0, 0, 5.0}};
    EXPECT_EQ(stackGeometryNote(uneven, 4), QString("Uneven slice spacing 1.25 – 2.5 mm"));

    // Gantry tilt: every slice 1 mm further along y for 3 mm along z (18.43°), evenly.
    VolumeGeometry tilted;
    for (int k = 0; k < 5; ++k)
        tilted.sliceOrigins.push_back({0.0, double(k), 3.0 * k});
    const StackGeometrySummary s = summarizeStackGeometry(tilted, 5);
    EXPECT_FALSE(s.uneven);
    EXPECT_NEAR(s.maxTiltDegrees, std::atan(1.0 / 3.0) * 180.0 / M_PI, 1e-9);
    EXPECT_EQ(stackGeometryNote(tilted, 5), QString("Tilted stack 18.4°"));

    // A sheared affine without per-slice origins (NIfTI, NRRD).
    VolumeGeometry sheared;
    sheared.direction[2] = glm::normalize(glm::dvec3(0.0, 1.0, 3.0));
    EXPECT_EQ(stackGeometryNote(sheared, 5), QString("Tilted stack 18.4°"));
    EXPECT_EQ(stackGeometryNote(sheared, 1), QString()) << "one slice has no tilt";

    // Differences of a rounding in the files' positions are no note.
    VolumeGeometry rounded;
    rounded.sliceOrigins = {{0, 0, 0}, {0, 0, 2.0}, {0, 0, 4.0001}};
    EXPECT_EQ(stackGeometryNote(rounded, 3), QString());
}

TEST(WindowPolish, TheStatusBarSaysWhenTheSpacingIsUnevenWithItsRange)
{
    isoview::test::TempDir dir;
    const fs::path uneven = dir.path() / "uneven";
    fs::create_directories(uneven);
    writeCtSeries(uneven, {0.0, 2.0, 5.0});
    auto w = openVolume(QString::fromStdString(uneven.string()));
    const auto* label = w->findChild<QLabel*>("stackGeometryLabel");
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->text(), QString("Uneven slice spacing 2 – 3 mm"));
    EXPECT_TRUE(label->isVisible());

    // The note sits beside the dimensions and the triangle count, covering neither, in a
    // window 1000 pixels wide; each shows its whole text (the GPU times and the renderer's name
    // give way, the latter first).
    w->resize(1000, 820);
    w->statusBar()->clearMessage(); // the loader's note hides the dimensions for a while
    ASSERT_TRUE(waitUntil([&] {
        return w->viewport()->lastFrameStats().triangles.value_or(0) > 0 &&
               w->findChild<QLabel*>("timingLabel")->text().contains("surface");
    }));
    QCoreApplication::processEvents();
    std::vector<const QLabel*> figures;
    for (const char* name : {"volumeLabel", "stackGeometryLabel", "triangleLabel", "timingLabel"})
        figures.push_back(w->findChild<QLabel*>(name));
    for (std::size_t i = 0; i < figures.size(); ++i) {
        ASSERT_NE(figures[i], nullptr);
        const std::string name = figures[i]->objectName().toStdString();
        EXPECT_TRUE(figures[i]->isVisible()) << name;
        if (figures[i]->objectName() != "timingLabel") {
            EXPECT_GE(figures[i]->width(),
                      figures[i]->fontMetrics().horizontalAdvance(figures[i]->text()))
                << name << " '" << figures[i]->text().toStdString() << "' is cut";
        }
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(figures[i]->geometry().intersects(figures[j]->geometry()))
                << name << " covers " << figures[j]->objectName().toStdString();
    }
    test::saveScreenshot(*w, "window_uneven_stack");

    // A regular stack clears the note.
    openAgain(*w, samplePath());
    EXPECT_EQ(label->text(), QString());
}

// Volume rendering alone draws no surface: the status bar kept the last surface's triangle count
// and pyramid time on.
TEST(WindowPolish, VolumeRenderingShowsNoStaleSurfaceFigures)
{
    auto w = openVolume(samplePath(), 40.0);
    const auto* triangles = w->findChild<QLabel*>("triangleLabel");
    const auto* timing = w->findChild<QLabel*>("timingLabel");
    ASSERT_NE(triangles, nullptr);
    ASSERT_NE(timing, nullptr);
    ASSERT_TRUE(waitUntil([&] {
        return triangles->text().contains("triangles") && timing->text().contains("pyramid");
    }));

    w->scene()->setRenderMode(RenderMode::Volume);
    const std::uint64_t before = w->viewport()->lastFrameStats().framesRendered;
    ASSERT_TRUE(waitUntil([&] {
        return w->viewport()->lastFrameStats().framesRendered > before &&
               timing->text().contains("volume");
    }));
    EXPECT_EQ(triangles->text(), QString());
    EXPECT_FALSE(timing->text().contains("pyramid")) << timing->text().toStdString();
    EXPECT_FALSE(timing->text().contains("surface")) << timing->text().toStdString();

    // Surface and volume: the surface's figures are back.
    w->scene()->setRenderMode(RenderMode::SurfaceAndVolume);
    EXPECT_TRUE(waitUntil([&] {
        return triangles->text().contains("triangles") && timing->text().contains("surface");
    }));
    w->scene()->setRenderMode(RenderMode::Surface);
}

// ---- Help > Keyboard Shortcuts --------------------------------------------------------------

// F1 lists what no action holds too: the slice views' stepping and window drag, and Esc.
TEST(WindowPolish, F1ListsTheSliceViewsKeysTheWindowDragAndEsc)
{
    auto w = openVolume(samplePath(), 40.0);
    QString shown;
    test::onModalDialog([&](QWidget* modal) {
        if (auto* box = qobject_cast<QMessageBox*>(modal)) shown = box->text();
        modal->close();
    });
    focusViewport(*w);
    QTest::keyClick(w->viewport(), Qt::Key_F1);
    ASSERT_FALSE(shown.isEmpty()) << "F1 showed no table";
    for (const char* expected :
         {"Page Up / Page Down", "Step one slice", "Home / End", "Right drag / Ctrl+left drag",
          "Window: width across, level down", "Move the crosshair", "<b>Esc</b>",
          "clear the distance", "Ctrl+Z", "Orbit"})
        EXPECT_TRUE(shown.contains(expected)) << expected;
}

// ---- the empty surface ----------------------------------------------------------------------

TEST(WindowPolish, AnEmptySurfaceShowsTheIsovalueAndTheDataRange)
{
    auto w = openVolume(samplePath(), 40.0);
    ASSERT_TRUE(
        waitUntil([&] { return w->viewport()->lastFrameStats().triangles.value_or(0) > 0; }));
    EXPECT_EQ(w->viewport()->emptySurfaceHint(), QString()) << "a surface is shown";

    // Crop to a corner of air: the surface is empty, and the view says why.
    auto* crop = w->findChild<CropPanel*>("cropPanel");
    ASSERT_NE(crop, nullptr);
    crop->setBox({{0, 0, 0}, {2, 2, 2}});
    ASSERT_TRUE(waitUntil([&] {
        const auto t = w->viewport()->lastFrameStats().triangles;
        return t && *t == 0;
    }));
    const ValueRange range = w->document()->realRange;
    EXPECT_EQ(w->viewport()->emptySurfaceHint(),
              QString("No surface at isovalue 40: the data range is %1\u00a0…\u00a0%2")
                  .arg(QString::number(range.min, 'g', 6), QString::number(range.max, 'g', 6)));

    // The hint is drawn over the frame (the view's centre is no longer the plain background).
    const QImage shown = w->viewport()->grabView();
    const QColor centre = shown.pixelColor(shown.width() / 2, shown.height() / 2);
    const QColor corner = shown.pixelColor(4, shown.height() - 4);
    EXPECT_NE(centre, corner);
    test::saveScreenshot(*w, "window_empty_surface_hint");

    // Volume rendering alone draws no surface: no hint.
    w->scene()->setRenderMode(RenderMode::Volume);
    ASSERT_TRUE(waitUntil([&] { return w->viewport()->emptySurfaceHint().isEmpty(); }));
    w->scene()->setRenderMode(RenderMode::Surface);
    crop->reset();
    ASSERT_TRUE(
        waitUntil([&] { return w->viewport()->lastFrameStats().triangles.value_or(0) > 0; }));
    EXPECT_EQ(w->viewport()->emptySurfaceHint(), QString());
}

} // namespace
} // namespace isoview::app
