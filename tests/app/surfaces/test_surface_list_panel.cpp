// The Surfaces dock on the bundled sample (llvmpipe under Xvfb): two surfaces each give the CPU
// reference's triangles, the slider moves only the selected one, the panel's edits undo and
// redo, the last surface cannot be removed, and a session keeps every surface and the distance.
#include "app_test_support.h"
#include "crop/crop_panel.h"
#include "export/export_all_surfaces.h"
#include "extraction/cpu_marching_cubes.h"
#include "main_window.h"
#include "measure/distance_tool.h"
#include "measure/measurements.h"
#include "measure/surface_measurer.h"
#include "mesh_processing/coincident_vertices.h"
#include "session/session_controller.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_panel.h"
#include "test_paths.h"
#include "transfer_function/transfer_function_panel.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

namespace isoview::app {
namespace {

using test::part;
using test::selectedSurfaceColor;

using test::samplePath;
using test::waitUntil;

bool waitForLiveSurface(MainWindow& w)
{
    return waitUntil([&] {
        const std::optional<double> shown = w.viewport()->renderedIsovalue();
        return shown && *shown == part<IsovaluePanel>(w)->isovalue();
    });
}

std::unique_ptr<MainWindow> openSample(double iso)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 640);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(samplePath(), iso);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(waitForLiveSurface(*w));
    return w;
}

std::uint64_t cpuTriangles(const Volume& v, double real)
{
    return extractIsosurfaceCpu(v, v.rescale().toStored(real)).triangleCount();
}

// The triangles a file of the surface holds: the CPU reference's, less the zero-area ones an
// export drops (coincident_vertices.h).
std::uint64_t exportedTriangles(const Volume& v, double real)
{
    IsoMesh mesh = extractIsosurfaceCpu(v, v.rescale().toStored(real));
    weldCoincidentVertices(mesh);
    return mesh.triangleCount();
}

// One surface's mesh as the renderer holds it, once it has been extracted at isovalue.
CapturedSurface captureAt(MainWindow& w, std::uint32_t id, double isovalue)
{
    CapturedSurface captured;
    waitUntil([&] {
        captured = w.viewport()->captureSurface(id);
        return captured.isovalue == isovalue && captured.mesh.triangleCount() > 0;
    });
    return captured;
}

TEST(SurfaceListPanelTest, TwoSurfacesGiveTheirCpuCountsAndTheSliderMovesOnlyTheSelectedOne)
{
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    ASSERT_NE(panel, nullptr);
    const Volume& volume = *w->document()->volume;
    ASSERT_EQ(panel->surfaces().size(), 1u);
    EXPECT_EQ(panel->surfaces().selected().name, "Surface 1");

    panel->addAction()->trigger();
    ASSERT_EQ(panel->surfaces().size(), 2u);
    const std::uint32_t first = panel->surfaces().surfaces()[0].id;
    const std::uint32_t second = panel->surfaces().surfaces()[1].id;
    EXPECT_EQ(panel->surfaces().selected().id, second);
    part<IsovaluePanel>(*w)->setIsovalue(100.0);
    ASSERT_TRUE(waitForLiveSurface(*w));
    EXPECT_EQ(panel->surfaces().surfaces()[0].isovalue, 40.0);
    EXPECT_EQ(panel->surfaces().surfaces()[1].isovalue, 100.0);

    const CapturedSurface skin = captureAt(*w, first, 40.0);
    const CapturedSurface inner = captureAt(*w, second, 100.0);
    EXPECT_EQ(skin.mesh.triangleCount(), cpuTriangles(volume, 40.0));
    EXPECT_EQ(inner.mesh.triangleCount(), cpuTriangles(volume, 100.0));
    EXPECT_NE(skin.mesh.triangleCount(), inner.mesh.triangleCount());

    // The slider edits the selected surface only: the first one's mesh stays as it was.
    part<IsovaluePanel>(*w)->setIsovalue(70.0);
    ASSERT_TRUE(waitForLiveSurface(*w));
    const CapturedSurface moved = captureAt(*w, second, 70.0);
    EXPECT_EQ(moved.mesh.triangleCount(), cpuTriangles(volume, 70.0));
    const CapturedSurface still = captureAt(*w, first, 40.0);
    EXPECT_EQ(still.mesh.positions, skin.mesh.positions);
    EXPECT_EQ(still.mesh.indices, skin.mesh.indices);
    EXPECT_EQ(panel->surfaces().surfaces()[0].isovalue, 40.0);

    // Selecting the first surface puts its isovalue on the slider, and the view shows it live.
    panel->select(first);
    EXPECT_EQ(part<IsovaluePanel>(*w)->isovalue(), 40.0);
    ASSERT_TRUE(waitForLiveSurface(*w));
    EXPECT_EQ(w->viewport()->captureSurface().mesh.triangleCount(), cpuTriangles(volume, 40.0));
    EXPECT_EQ(captureAt(*w, second, 70.0).mesh.triangleCount(), cpuTriangles(volume, 70.0));
    test::saveScreenshot(*w, "surface_list_two_surfaces");
}

TEST(SurfaceListPanelTest, EditsUndoAndRedoAndTheLastSurfaceStays)
{
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    QUndoStack* stack = part<TransferFunctionPanel>(*w)->undoStack();
    const SurfaceList& list = panel->surfaces();
    const std::uint32_t first = list.selected().id;

    EXPECT_FALSE(panel->removeAction()->isEnabled());
    EXPECT_FALSE(panel->removeSurface(first)); // the last one
    EXPECT_EQ(list.size(), 1u);

    panel->addSurface();
    ASSERT_EQ(list.size(), 2u);
    const Surface added = list.selected();
    EXPECT_TRUE(panel->removeAction()->isEnabled());
    stack->undo();
    EXPECT_EQ(list.size(), 1u);
    EXPECT_EQ(list.selected().id, first);
    stack->redo();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list.selected(), added); // the same id, name and colour

    panel->setColor(added.id, QColor(255, 0, 0));
    EXPECT_EQ(list.selected().color, glm::vec3(1.0f, 0.0f, 0.0f));
    panel->setOpacity(added.id, 0.5f);
    panel->setSurfaceVisible(added.id, false);
    panel->renameSurface(added.id, "  Bone ");
    EXPECT_EQ(list.selected().name, "Bone");
    panel->renameSurface(added.id, "   "); // refused: a name is needed
    EXPECT_EQ(list.selected().name, "Bone");
    stack->undo(); // the name
    stack->undo(); // the visibility
    EXPECT_TRUE(list.selected().visible);
    EXPECT_EQ(list.selected().name, added.name);
    stack->undo(); // the opacity
    EXPECT_EQ(list.selected().opacity, 1.0f);
    stack->undo(); // the colour
    EXPECT_EQ(list.selected().color, added.color);
    stack->redo();
    EXPECT_EQ(list.selected().color, glm::vec3(1.0f, 0.0f, 0.0f));

    // The window's surface colour is the selected surface's: Colour from TF clears it.
    EXPECT_EQ(selectedSurfaceColor(*w), QColor(255, 0, 0));
    panel->select(first);
    EXPECT_EQ(selectedSurfaceColor(*w), std::nullopt);

    const Surface before = *list.find(added.id);
    ASSERT_TRUE(panel->removeSurface(added.id));
    EXPECT_EQ(list.size(), 1u);
    stack->undo();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list.surfaces()[1], before);

    // The list widget shows each surface with its check box and opacity.
    QTreeWidget* tree = panel->listWidget();
    ASSERT_EQ(tree->topLevelItemCount(), 2);
    EXPECT_EQ(tree->topLevelItem(1)->checkState(0), Qt::Checked);
    tree->topLevelItem(1)->setCheckState(0, Qt::Unchecked); // a click on the check box
    EXPECT_FALSE(list.find(added.id)->visible);
    stack->undo();
    EXPECT_TRUE(list.find(added.id)->visible);
}

TEST(SurfaceListPanelTest, ASessionKeepsEverySurfaceAndTheDistance)
{
    isoview::test::TempDir dir;
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    panel->addSurface();
    part<IsovaluePanel>(*w)->setIsovalue(100.0);
    const std::uint32_t translucent = panel->surfaces().selected().id;
    panel->setOpacity(translucent, 0.35f);
    panel->setColor(translucent, QColor(30, 120, 240));
    panel->renameSurface(translucent, "Inner");
    panel->addSurface();
    part<IsovaluePanel>(*w)->setIsovalue(70.0);
    const std::uint32_t hidden = panel->surfaces().selected().id;
    panel->setSurfaceVisible(hidden, false);
    panel->select(translucent);
    ASSERT_TRUE(waitForLiveSurface(*w));
    DistanceTool* distance = part<Measurements>(*w)->distanceTool();
    distance->setPoints({10.5, -20.25, 33.0}, {-40.0, 12.0, 0.125});

    const std::vector<Surface> saved = panel->surfaces().surfaces();
    const std::size_t selected = panel->surfaces().selectedIndex();
    ASSERT_EQ(saved.size(), 3u);
    const QString file = QString::fromStdString((dir.path() / "three.isoview").string());
    QString error;
    ASSERT_TRUE(part<SessionController>(*w)->saveTo(file, &error)) << error.toStdString();

    // Something else on screen: a fresh load of the sample has one surface and no distance.
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(samplePath(), 10.0);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    distance->clear();
    ASSERT_EQ(panel->surfaces().size(), 1u);
    // Its surface has the first surface's colour (the transfer function's), not the selected
    // one's, and the next one added is "Surface 2" in the palette's first colour, afresh.
    EXPECT_EQ(panel->surfaces().selected().color, std::nullopt);
    panel->addSurface();
    EXPECT_EQ(panel->surfaces().selected().name, "Surface 2");
    EXPECT_EQ(panel->surfaces().selected().color, SurfaceList::palette()[0]);

    QSignalSpy opened(part<SessionController>(*w), &SessionController::sessionOpened);
    part<SessionController>(*w)->open(file);
    ASSERT_TRUE(waitUntil([&] { return opened.count() == 1; }));
    const std::vector<Surface>& restored = panel->surfaces().surfaces();
    ASSERT_EQ(restored.size(), saved.size());
    for (std::size_t i = 0; i < saved.size(); ++i) {
        Surface expected = saved[i];
        expected.id = restored[i].id; // ids are the list's own
        EXPECT_EQ(restored[i], expected) << "surface " << i;
    }
    EXPECT_EQ(panel->surfaces().selectedIndex(), selected);
    EXPECT_EQ(part<IsovaluePanel>(*w)->isovalue(), 100.0);
    // The restored volume's first frames come after the session is applied; its points stay.
    ASSERT_TRUE(waitForLiveSurface(*w));
    ASSERT_EQ(distance->points().size(), 2u);
    EXPECT_EQ(distance->points()[0], glm::dvec3(10.5, -20.25, 33.0));
    EXPECT_EQ(distance->points()[1], glm::dvec3(-40.0, 12.0, 0.125));
    // Nothing to undo in a restored session.
    EXPECT_FALSE(part<TransferFunctionPanel>(*w)->undoStack()->canUndo());
}

TEST(SurfaceListPanelTest, KeysAddRemoveAndTheMeasurementsFollowTheSelection)
{
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    ASSERT_TRUE(test::activate(*w));
    panel->listWidget()->setFocus();
    QTest::keyClick(panel->listWidget(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    ASSERT_EQ(panel->surfaces().size(), 2u);
    QTest::keyClick(panel->listWidget(), Qt::Key_Delete);
    EXPECT_EQ(panel->surfaces().size(), 1u);
    QTest::keyClick(panel->listWidget(), Qt::Key_Delete); // the last one stays
    EXPECT_EQ(panel->surfaces().size(), 1u);

    // The Measurements dock measures the selected surface.
    part<Measurements>(*w)->dock()->show();
    panel->addSurface();
    part<IsovaluePanel>(*w)->setIsovalue(100.0);
    const auto measuredAt = [&](double iso) {
        return waitUntil([&] {
            const auto current = part<Measurements>(*w)->measurer()->current();
            return current && current->isovalue == iso;
        });
    };
    EXPECT_TRUE(measuredAt(100.0));
    panel->select(panel->surfaces().surfaces()[0].id);
    EXPECT_TRUE(measuredAt(40.0));
}

// The swatch shows the surface's own colour in the selected row too (the style's selected icon
// was tinted by the highlight: a beige surface looked grey).
TEST(SurfaceListPanelTest, TheSelectedRowsSwatchIsTheSurfacesColour)
{
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    const QColor beige(237, 199, 158);
    panel->setColor(panel->surfaces().selected().id, beige);
    QTreeWidget* list = panel->listWidget();
    QTreeWidgetItem* item = list->topLevelItem(int(panel->surfaces().selectedIndex()));
    ASSERT_TRUE(item->isSelected());
    const QImage icon = item->icon(0).pixmap(16, QIcon::Selected).toImage();
    EXPECT_EQ(icon.pixelColor(icon.width() / 2, icon.height() / 2).name(), beige.name());

    // As drawn: the selected row holds the colour itself.
    list->setFocus();
    const QRect row = list->visualItemRect(item);
    const QImage shown = list->viewport()->grab(row).toImage();
    int matching = 0;
    for (int y = 0; y < shown.height(); ++y) {
        for (int x = 0; x < shown.width(); ++x)
            matching += shown.pixelColor(x, y) == beige ? 1 : 0;
    }
    EXPECT_GE(matching, 50) << "the swatch's 12 x 12 inside in the surface's colour";
}

TEST(SurfaceListPanelTest, TheEmptySurfaceHintNamesTheSelectedSurface)
{
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    panel->addSurface();
    panel->renameSurface(panel->surfaces().selected().id, "Inner");
    part<CropPanel>(*w)->setBox({{0, 0, 0}, {2, 2, 2}}); // a corner of air: no surface at all
    ASSERT_TRUE(waitUntil([&] {
        const auto t = w->viewport()->lastFrameStats().triangles;
        return t && *t == 0;
    }));
    EXPECT_TRUE(w->viewport()->emptySurfaceHint().startsWith("Inner: No surface at isovalue 40"))
        << w->viewport()->emptySurfaceHint().toStdString();
}

// A binary PLY's counts and the distinct vertex colours, read without the writer's code.
struct PlySummary {
    std::uint64_t vertices = 0;
    std::uint64_t faces = 0;
    std::set<std::array<int, 3>> colors;
};

PlySummary readPly(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    PlySummary ply;
    std::string line;
    std::size_t stride = 0;
    std::size_t colorOffset = 0;
    bool inVertex = false, hasColor = false;
    while (std::getline(in, line) && line != "end_header") {
        std::istringstream words(line);
        std::string word, type, name;
        words >> word;
        if (word == "element") {
            words >> name;
            inVertex = name == "vertex";
            (inVertex ? ply.vertices : ply.faces) = [&] {
                std::uint64_t n = 0;
                words >> n;
                return n;
            }();
        } else if (word == "property" && inVertex) {
            words >> type >> name;
            if (name == "red") {
                hasColor = true;
                colorOffset = stride;
            }
            stride += type == "float" ? 4 : 1;
        }
    }
    for (std::uint64_t v = 0; hasColor && v < ply.vertices; ++v) {
        std::vector<unsigned char> record(stride);
        in.read(reinterpret_cast<char*>(record.data()), std::streamsize(stride));
        ply.colors.insert({record[colorOffset], record[colorOffset + 1], record[colorOffset + 2]});
    }
    return ply;
}

TEST(SurfaceListPanelTest, ExportAllWritesAFileEachOrOnePlyWithTheirColours)
{
    isoview::test::TempDir dir;
    auto w = openSample(40.0);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    panel->setColor(panel->surfaces().selected().id, QColor(255, 0, 0));
    panel->addSurface();
    part<IsovaluePanel>(*w)->setIsovalue(100.0);
    panel->renameSurface(panel->surfaces().selected().id, "Inner");
    panel->setColor(panel->surfaces().selected().id, QColor(0, 0, 255));
    panel->addSurface(); // a third, hidden: not exported
    part<IsovaluePanel>(*w)->setIsovalue(70.0);
    panel->setSurfaceVisible(panel->surfaces().selected().id, false);
    const std::uint32_t first = panel->surfaces().surfaces()[0].id;
    const std::uint32_t second = panel->surfaces().surfaces()[1].id;
    panel->select(first); // a hidden live surface is never on screen
    ASSERT_TRUE(waitForLiveSurface(*w));
    ASSERT_GT(captureAt(*w, first, 40.0).mesh.triangleCount(), 0u);
    ASSERT_GT(captureAt(*w, second, 100.0).mesh.triangleCount(), 0u);
    const Volume& volume = *w->document()->volume;
    auto* exporter = w->findChild<ExportAllSurfaces*>("exportAllSurfaces");
    ASSERT_NE(exporter, nullptr);
    QSignalSpy finished(exporter, &ExportAllSurfaces::finished);

    const QString folder = QString::fromStdString(dir.path().string());
    exporter->exportEach(folder, "{volume}_{surface}", MeshExportOptions{});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
    ASSERT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(1).toString().toStdString();
    const std::filesystem::path skinFile = dir.path() / "mr_head_Surface 1.ply";
    const std::filesystem::path innerFile = dir.path() / "mr_head_Inner.ply";
    EXPECT_EQ(readPly(skinFile).faces, exportedTriangles(volume, 40.0));
    EXPECT_EQ(readPly(innerFile).faces, exportedTriangles(volume, 100.0));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "mr_head_Surface 3.ply")); // hidden

    // Again into the same folder: refused before anything is written, the files unchanged.
    const auto skinTime = std::filesystem::last_write_time(skinFile);
    exporter->exportEach(folder, "{volume}_{surface}", MeshExportOptions{});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }));
    EXPECT_FALSE(finished.at(1).at(0).toBool());
    EXPECT_TRUE(finished.at(1).at(1).toString().contains("already exists"));
    EXPECT_EQ(std::filesystem::last_write_time(skinFile), skinTime);
    // A pattern that names every surface alike is refused too.
    exporter->exportEach(folder, "all", MeshExportOptions{});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 3; }));
    EXPECT_TRUE(finished.at(2).at(1).toString().contains("{surface} or {n}"));

    const std::filesystem::path merged = dir.path() / "both.ply";
    exporter->exportMerged(QString::fromStdString(merged.string()), MeshExportOptions{});
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 4; }));
    ASSERT_TRUE(finished.at(3).at(0).toBool()) << finished.at(3).at(1).toString().toStdString();
    const PlySummary both = readPly(merged);
    EXPECT_EQ(both.faces, exportedTriangles(volume, 40.0) + exportedTriangles(volume, 100.0));
    const std::set<std::array<int, 3>> expected = {{255, 0, 0}, {0, 0, 255}};
    EXPECT_EQ(both.colors, expected);
}

} // namespace
} // namespace isoview::app
