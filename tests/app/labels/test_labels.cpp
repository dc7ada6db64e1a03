// Label maps in the window: a segmentation laid over its image (the prostate phantom's four
// labels) shows in the 3D view, the slice views and the Labels dock; hiding a label changes the
// 3D view and extracts nothing; a click in a slice selects the label under it, its row too;
// Export All writes a file per shown label, prepared for printing when asked; and the D99
// atlas, opened alone, lists its 365 labels named from its AFNI table. Smoothing is made in the
// background and drawn as made on the CPU, and undone in one step.
#include "app_test_support.h"
#include "common/number_text.h"
#include "export/export_all_surfaces.h"
#include "extraction/mesh_metrics.h"
#include "extraction/smoothed_label_surfaces.h"
#include "io/volume_writers.h"
#include "labels/label_picker.h"
#include "labels/labels_panel.h"
#include "main_window.h"
#include "mesh_processing/label_print_preparation.h"
#include "scene_model.h"
#include "session/session_controller.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "view_layout.h"
#include "views/frame_worker.h"
#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <memory>

namespace isoview::app {
namespace {

using test::part;
using test::waitUntil;

QString shared(const char* relative)
{
    return QString::fromStdString(isoview::test::sharedDataPath(relative).string());
}

// A window showing the prostate phantom with its label map over it, the labels drawn.
std::unique_ptr<MainWindow> prostateWithLabels()
{
    auto w = std::make_unique<MainWindow>();
    w->resize(1000, 760);
    w->show();
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    QSignalSpy labelled(w.get(), &MainWindow::labelsLoaded);
    w->openPath(shared("nrrd/prostate_phantom_subvolume.nrrd"));
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    w->openLabelMap(shared("nrrd/prostate_phantom_subvolume-label.nrrd"));
    EXPECT_TRUE(waitUntil([&] { return labelled.count() == 1; }));
    ViewportWidget* view = w->viewport();
    EXPECT_TRUE(waitUntil([&] {
        return view->shownFrame() != nullptr && view->shownFrame()->labelExtractions == 1;
    }));
    return w;
}

QTreeWidgetItem* rowOf(QTreeWidget* tree, std::uint32_t label)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = tree->topLevelItem(i);
        if (item->data(1, Qt::DisplayRole).toUInt() == label) return item;
    }
    return nullptr;
}

TEST(LabelsTest, HidingALabelChangesThe3DViewAndExtractsNothingAndUndoShowsItAgain)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    ASSERT_TRUE(model->scene().labels.has_value());
    EXPECT_EQ(model->scene().labels->styles.size(), 4u); // 1, 7, 8, 9
    auto* tree = part<LabelsPanel>(*w)->findChild<QTreeWidget*>("labelTable");
    ASSERT_NE(tree, nullptr);
    EXPECT_EQ(tree->topLevelItemCount(), 4);
    ViewportWidget* view = w->viewport();
    const QImage before = view->shownFrame()->image;
    test::saveScreenshot(*w, "labels_over_prostate");

    QSignalSpy shown(view, &ViewportWidget::frameShown);
    QTreeWidgetItem* row = rowOf(tree, 9);
    ASSERT_NE(row, nullptr);
    row->setCheckState(0, Qt::Unchecked); // as a click on its box does
    EXPECT_FALSE(model->scene().labels->style(9).visible);
    ASSERT_TRUE(
        waitUntil([&] { return shown.count() > 0 && view->shownFrame()->image != before; }));
    EXPECT_EQ(view->shownFrame()->labelExtractions, 1u) << "a style change must not extract";

    model->history()->undo();
    EXPECT_TRUE(model->scene().labels->style(9).visible);
    EXPECT_EQ(rowOf(tree, 9)->checkState(0), Qt::Checked);
    ASSERT_TRUE(waitUntil([&] { return view->shownFrame()->image == before; }));
    EXPECT_EQ(view->shownFrame()->labelExtractions, 1u);
}

TEST(LabelsTest, SmoothingIsMadeInTheBackgroundDrawnWithoutExtractionAndUndone)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    ViewportWidget* view = w->viewport();
    const QImage before = view->shownFrame()->image;
    auto* sigma = part<LabelsPanel>(*w)->findChild<QDoubleSpinBox*>("labelSmoothing");
    ASSERT_NE(sigma, nullptr);
    sigma->setValue(1.0); // as typing 1 and Enter does
    EXPECT_EQ(model->scene().labels->smoothingSigmaMm, 1.0);
    EXPECT_EQ(model->history()->count(), 1);
    ASSERT_TRUE(waitUntil([&] { return model->scene().labels->smoothed != nullptr; }));
    ASSERT_TRUE(waitUntil([&] { return view->shownFrame()->image != before; }));
    test::saveScreenshot(*w, "labels_smoothed");
    EXPECT_EQ(view->shownFrame()->labelExtractions, 1u) << "smoothing is not an extraction";

    // What the view draws (and an export takes) is the CPU smoothing of each label.
    const LabelLayer& layer = *model->scene().labels;
    const std::vector<LabelSurface> expected = extractSmoothedLabelSurfacesCpu(
        *layer.labelMap, *layer.statistics, 1.0, {}, model->scene().cropBox());
    const std::optional<std::vector<LabelSurface>> drawn = view->captureLabels();
    ASSERT_TRUE(drawn.has_value());
    std::size_t withTriangles = 0;
    for (const LabelSurface& s : expected) {
        if (s.mesh.triangleCount() == 0) continue;
        ASSERT_LT(withTriangles, drawn->size());
        EXPECT_EQ((*drawn)[withTriangles].label, s.label);
        EXPECT_EQ((*drawn)[withTriangles].mesh.indices, s.mesh.indices);
        ++withTriangles;
    }
    EXPECT_EQ(withTriangles, drawn->size());

    model->history()->undo();
    EXPECT_EQ(model->scene().labels->smoothingSigmaMm, 0.0);
    EXPECT_EQ(model->scene().labels->smoothed, nullptr);
    EXPECT_EQ(sigma->value(), 0.0);
    ASSERT_TRUE(waitUntil([&] { return view->shownFrame()->image == before; }));
}

TEST(LabelsTest, AClickInASliceSelectsTheLabelUnderItAndTheSliceShowsItsColour)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    // A voxel deep in label 9 (the largest: 5 x 5 of it around in its slice) and the axial
    // view through it.
    const Volume& labels = *model->scene().labels->labelMap;
    const auto deepIn9 = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
        for (std::uint32_t y = j - 2; y <= j + 2; ++y)
            for (std::uint32_t x = i - 2; x <= i + 2; ++x)
                if (labels.valueAt(x, y, k) != 9.0f) return false;
        return true;
    };
    glm::uvec3 voxel(0);
    for (std::uint32_t k = 0; k < labels.dims().z && voxel == glm::uvec3(0); ++k)
        for (std::uint32_t j = 2; j + 2 < labels.dims().y && voxel == glm::uvec3(0); ++j)
            for (std::uint32_t i = 2; i + 2 < labels.dims().x; ++i)
                if (deepIn9(i, j, k)) {
                    voxel = {i, j, k};
                    break;
                }
    ASSERT_NE(voxel, glm::uvec3(0));
    SliceViews slices = model->scene().slices;
    slices.crosshair = glm::dvec3(voxel);
    model->setSlices(slices);
    auto* axial = w->findChild<SliceView*>("sliceView_axial");
    ASSERT_NE(axial, nullptr);
    ASSERT_TRUE(waitUntil([&] { return axial->sliceIndex() == int(voxel.z); }));
    const QPointF at = axial->widgetPointOfPixel({double(voxel.x), double(voxel.y)});
    QTest::mouseClick(axial, Qt::LeftButton, {}, at.toPoint());
    ASSERT_TRUE(model->scene().labels->selected.has_value());
    EXPECT_EQ(*model->scene().labels->selected, 9u);
    auto* tree = part<LabelsPanel>(*w)->findChild<QTreeWidget*>("labelTable");
    ASSERT_NE(tree->currentItem(), nullptr);
    EXPECT_EQ(tree->currentItem()->data(1, Qt::DisplayRole).toUInt(), 9u);

    // The slice is tinted by label 9's colour there (beside the crosshair's lines): the overlay
    // is drawn.
    const QImage shot = axial->grab().toImage();
    const QPointF beside = axial->widgetPointOfPixel({voxel.x + 1.0, voxel.y + 1.0});
    const QColor pixel = shot.pixelColor(beside.toPoint());
    const glm::vec3 c = model->scene().labels->style(9).color;
    const QColor grey = QColor::fromRgb(qGray(pixel.rgb()), qGray(pixel.rgb()), qGray(pixel.rgb()));
    EXPECT_NE(pixel, grey) << "a grey pixel: no label colour over the image";
    const int strongest = c.r >= c.g && c.r >= c.b ? 0 : c.g >= c.b ? 1 : 2;
    const int channels[3] = {pixel.red(), pixel.green(), pixel.blue()};
    EXPECT_EQ(std::max({channels[0], channels[1], channels[2]}), channels[strongest]);
}

TEST(LabelsTest, AClickInThe3DViewSelectsTheShownLabelSeenThere)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    ViewportWidget* view = w->viewport();
    auto* picker = part<LabelPicker>(*w);
    // The view looks at the phantom's middle: some label is seen at its centre.
    const QPoint centre = view->rect().center();
    const std::optional<std::uint32_t> seen = picker->labelAt(centre);
    ASSERT_TRUE(seen.has_value());
    QTest::mouseClick(view, Qt::LeftButton, {}, centre);
    EXPECT_EQ(model->scene().labels->selected, seen);
    // Hidden, it is seen through: the click finds another label or none, never it.
    LabelStyle hidden = model->scene().labels->style(*seen);
    hidden.visible = false;
    model->setLabelStyles({{*seen, hidden}});
    EXPECT_NE(picker->labelAt(centre), seen);
}

TEST(LabelsTest, ExportAllWritesAFileForEveryShownLabelNamedFromItsTable)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    Surface image = model->scene().surfaces.selected(); // only the labels this time
    image.visible = false;
    model->editSurface(image);
    LabelStyle hidden = model->scene().labels->style(7);
    hidden.visible = false;
    model->setLabelStyles({{7, hidden}});
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    auto* exporter = part<ExportAllSurfaces>(*w);
    QSignalSpy finished(exporter, &ExportAllSurfaces::finished);
    exporter->exportEach(folder.path(), "{surface}", MeshExportOptions{});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
    EXPECT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(1).toString().toStdString();
    for (const char* name : {"Label 1.ply", "Label 8.ply", "Label 9.ply"})
        EXPECT_GT(QFileInfo(folder.filePath(name)).size(), 1000) << name;
    EXPECT_FALSE(QFileInfo::exists(folder.filePath("Label 7.ply"))) << "a hidden label";
}

TEST(LabelsTest, ExportAllPreparesEveryShownLabelForPrintingSmoothedOrNot)
{
    const std::unique_ptr<MainWindow> w = prostateWithLabels();
    SceneModel* model = w->scene();
    Surface image = model->scene().surfaces.selected(); // only the labels
    image.visible = false;
    model->editSurface(image);
    const std::optional<std::vector<LabelSurface>> raw = w->viewport()->captureLabels();
    ASSERT_TRUE(raw && raw->size() == 4);
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    auto* exporter = part<ExportAllSurfaces>(*w);
    QSignalSpy finished(exporter, &ExportAllSurfaces::finished);
    const PrintSteps steps{.closeBorders = true, .keepLargest = true, .decimateFraction = 0.5};
    exporter->exportEach(folder.path(), "{surface}", MeshExportOptions{}, steps);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
    const QString message = finished.at(0).at(1).toString();
    ASSERT_TRUE(finished.at(0).at(0).toBool()) << message.toStdString();

    // Each file: closed (every label reaches the faces of the 13 slices), its largest piece, and
    // half of that.
    const LabelLayer& layer = *model->scene().labels;
    const VoxelBox box = model->scene().cropBox();
    std::uint64_t written = 0;
    for (const LabelSurface& s : *raw) {
        const QString name = QString("Label %1.ply").arg(s.label);
        const test::PlyMesh ply = test::readBinaryPly(folder.filePath(name).toStdString());
        ASSERT_FALSE(ply.header.empty()) << name.toStdString();
        EXPECT_NE(ply.header.find("comment isoview processing: close-borders keep-largest "
                                  "decimate=0.5\n"),
                  std::string::npos)
            << ply.header;
        const MeshTopology topology = analyzeTopology(ply.mesh);
        EXPECT_EQ(topology.boundaryEdges, 0u) << name.toStdString();
        EXPECT_EQ(topology.nonManifoldEdges, 0u) << name.toStdString();
        const std::size_t undecimated =
            prepareLabelMesh(s.mesh, *layer.labelMap, *layer.statistics->find(s.label), 0.0, box,
                             {.closeBorders = true, .keepLargest = true})
                .report.trianglesAfter;
        const std::size_t triangles = ply.mesh.triangleCount();
        EXPECT_LT(triangles, s.mesh.triangleCount()) << name.toStdString();
        EXPECT_NEAR(double(triangles) / double(undecimated), 0.5, 0.05)
            << name.toStdString() << ": " << triangles << " of " << undecimated;
        written += triangles;
    }
    EXPECT_TRUE(message.contains("prepared (close-borders keep-largest decimate=0.5)"))
        << message.toStdString();
    EXPECT_TRUE(message.contains(formatCount(written) + " written")) << message.toStdString();
    EXPECT_FALSE(message.contains("not watertight")) << message.toStdString();

    // Smoothed, the labels that remain are closed against their blurred voxels just as well.
    model->setLabelSmoothing(1.0);
    ASSERT_TRUE(waitUntil([&] { return model->scene().labels->smoothed != nullptr; }));
    exporter->exportEach(folder.path(), "{surface} smoothed", MeshExportOptions{}, steps);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }));
    ASSERT_TRUE(finished.at(1).at(0).toBool()) << finished.at(1).at(1).toString().toStdString();
    for (const char* name : {"Label 8 smoothed.ply", "Label 9 smoothed.ply"}) {
        const MeshTopology topology =
            analyzeTopology(test::readBinaryPly(folder.filePath(name).toStdString()).mesh);
        EXPECT_EQ(topology.boundaryEdges, 0u) << name;
        EXPECT_EQ(topology.nonManifoldEdges, 0u) << name;
    }
}

TEST(LabelsTest, ASessionBringsTheLabelMapItsTableAndEveryLabelsStyleBack)
{
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString table = folder.filePath("prostate.ctbl"); // a Slicer table naming two labels
    {
        QFile f(table);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("# Color table file\n8 transition_zone 200 40 40 255\n9 peripheral_zone 40 40 200 "
                "255\n");
    }
    const QString sessionPath = folder.filePath("prostate.isoview");
    std::optional<LabelLayer> saved;
    {
        const std::unique_ptr<MainWindow> w = prostateWithLabels();
        w->openLabelTable(table);
        SceneModel* model = w->scene();
        LabelStyle faded = model->scene().labels->style(8);
        faded.opacity = 0.5f;
        LabelStyle hidden = model->scene().labels->style(1);
        hidden.visible = false;
        model->setLabelStyles({{8, faded}, {1, hidden}});
        model->selectLabel(7);
        model->setLabelSmoothing(0.5);
        QString error;
        ASSERT_TRUE(part<SessionController>(*w)->saveTo(sessionPath, &error))
            << error.toStdString();
        saved = model->scene().labels;
    }
    auto w = std::make_unique<MainWindow>();
    w->resize(1000, 760);
    w->show();
    QSignalSpy opened(part<SessionController>(*w), &SessionController::sessionOpened);
    QSignalSpy labelled(w.get(), &MainWindow::labelsLoaded);
    w->openPath(sessionPath);
    ASSERT_TRUE(waitUntil([&] { return opened.count() == 1 && labelled.count() == 1; }));
    const std::optional<LabelLayer>& back = w->scene()->scene().labels;
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->styles, saved->styles);
    EXPECT_EQ(back->selected, std::optional<std::uint32_t>(7));
    EXPECT_EQ(back->smoothingSigmaMm, 0.5);
    EXPECT_EQ(back->table.nameOf(9), "peripheral_zone");
    EXPECT_EQ(w->scene()->history()->count(), 0) << "a restored session has nothing to undo";
}

TEST(LabelsTest, AFileThatDeclaresItselfALabelMapOpensAsOneNamedFromItsSegments)
{
    // A 3D Slicer segmentation: a NRRD whose Segment<N>_ keys name its labels.
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const std::filesystem::path file = folder.filePath("two.seg.nrrd").toStdString();
    io::writeNrrd(file, isoview::test::makeTypedVolume<std::uint8_t>(
                            {12, 12, 12}, [](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
                                if (j < 3 || j > 8 || k < 3 || k > 8 || i < 2 || i > 9) return 0;
                                return i < 6 ? 1 : 2;
                            }));
    QFile f(QString::fromStdString(file.string()));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QByteArray bytes = f.readAll();
    f.close();
    const qsizetype end = bytes.indexOf("\n\n");
    ASSERT_GT(end, 0);
    bytes.insert(end + 1, "Segment0_LabelValue:=1\nSegment0_Name:=left\nSegment0_Layer:=0\n"
                          "Segment1_LabelValue:=2\nSegment1_Name:=right\nSegment1_Layer:=0\n");
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
    f.close();

    auto w = std::make_unique<MainWindow>();
    w->resize(1000, 760);
    w->show();
    QSignalSpy labelled(w.get(), &MainWindow::labelsLoaded);
    w->openPath(QString::fromStdString(file.string()));
    ASSERT_TRUE(waitUntil([&] { return labelled.count() == 1; }));
    const std::optional<LabelLayer>& layer = w->scene()->scene().labels;
    ASSERT_TRUE(layer.has_value());
    EXPECT_EQ(layer->styles.size(), 2u);
    EXPECT_EQ(layer->table.nameOf(2), "right");
    EXPECT_FALSE(w->scene()->scene().surfaces.selected().visible);
}

TEST(LabelsTest, TheD99AtlasOpenedAloneLists365LabelsNamedFromItsTable)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(1000, 760);
    w->show();
    QSignalSpy labelled(w.get(), &MainWindow::labelsLoaded);
    w->openLabelMap(shared("labels/D99_atlas_v2.0_right.nii.gz"));
    ASSERT_TRUE(waitUntil([&] { return labelled.count() == 1; }, 60000));
    EXPECT_FALSE(w->scene()->scene().surfaces.selected().visible)
        << "an isosurface across label numbers means nothing";
    auto* panel = part<LabelsPanel>(*w);
    auto* tree = panel->findChild<QTreeWidget*>("labelTable");
    ASSERT_EQ(tree->topLevelItemCount(), 365);
    const QTreeWidgetItem* firstRow = rowOf(tree, 1);
    w->openLabelTable(shared("labels/D99_v2.0_labels_semicolon.txt"));
    ASSERT_EQ(tree->topLevelItemCount(), 365);
    EXPECT_EQ(rowOf(tree, 1), firstRow) << "a table renames the rows, it does not make them anew";
    EXPECT_EQ(rowOf(tree, 1)->text(2), "putamen");
    // The swatch is the label's colour (opaque: opacity 1) in a grey frame.
    const QImage swatch = rowOf(tree, 1)->icon(0).pixmap(14, 14).toImage();
    const glm::vec3 color = w->scene()->scene().labels->style(1).color;
    const QColor inside = swatch.pixelColor(7, 7);
    EXPECT_NEAR(inside.redF(), color.r, 1.0 / 255.0);
    EXPECT_NEAR(inside.greenF(), color.g, 1.0 / 255.0);
    EXPECT_NEAR(inside.blueF(), color.b, 1.0 / 255.0);
    EXPECT_EQ(inside.alpha(), 255);
    EXPECT_EQ(swatch.pixelColor(0, 7), QColor(90, 90, 90));
    EXPECT_EQ(rowOf(tree, 1)->data(3, Qt::DisplayRole).toULongLong(), 49570u);
    panel->findChild<QLineEdit*>("labelFilter")->setText("nucleus");
    EXPECT_GT(panel->listedRows(), 1);
    EXPECT_LT(panel->listedRows(), 365);
    EXPECT_TRUE(rowOf(tree, 1)->isHidden());  // putamen is no nucleus
    EXPECT_FALSE(rowOf(tree, 9)->isHidden()); // subthalamic nucleus
    ViewportWidget* view = w->viewport();
    ASSERT_TRUE(waitUntil(
        [&] { return view->shownFrame() && view->shownFrame()->labelExtractions == 1; }, 60000));
}

} // namespace
} // namespace isoview::app
