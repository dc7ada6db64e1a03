// The crop box's handles in the real window (llvmpipe under Xvfb): dragging a slice view's edge
// changes that axis' range and a corner two, each drag one undo step; dragging a face handle
// in the 3D view by N pixels moves exactly that face by the voxels the projection gives, while
// a drag elsewhere still orbits; the surface shown is then the CPU reference's for the
// sub-volume; without the tool a click moves the crosshair as before; Reset's shortcut; the
// dock opened from the View menu shows the box.
#include "app_test_support.h"
#include "crop/crop_handles_3d.h"
#include "crop/crop_panel.h"
#include "crop/crop_tool.h"
#include "crop/slice_crop_overlay.h"
#include "extraction/cpu_marching_cubes.h"
#include "main_window.h"
#include "surfaces/isovalue_panel.h"
#include "test_paths.h"
#include "transfer_function/transfer_function_panel.h"
#include "view_layout.h"
#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <memory>
#include <optional>

namespace isoview::app {
namespace {

using test::part;

using test::waitUntil;

std::unique_ptr<MainWindow> openSample(bool showCropDock)
{
    QSettings().remove("views/layout");
    QSettings().remove("view/showCropBox");
    auto w = std::make_unique<MainWindow>();
    w->resize(1100, 800);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(QString::fromStdString(std::string(isoview::test::kSourceDir) +
                                       "/resources/samples/mr_head.nhdr"),
                40.0);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(waitUntil([&] {
        const auto shown = w->viewport()->renderedIsovalue();
        return shown && *shown == part<IsovaluePanel>(*w)->isovalue();
    }));
    if (showCropDock) w->findChild<QDockWidget*>("cropDock")->show();
    QCoreApplication::processEvents();
    return w;
}

// The triangle count the status bar shows, when it shows one.
std::optional<std::uint64_t> shownTriangles(const MainWindow& w)
{
    const auto* label = w.findChild<QLabel*>("triangleLabel");
    if (!label || !label->text().contains("triangles")) return std::nullopt;
    QString digits;
    for (QChar c : label->text()) {
        if (c.isDigit())
            digits += c;
        else if (c == ' ' && !digits.isEmpty())
            break;
    }
    bool ok = false;
    const qulonglong n = digits.toULongLong(&ok);
    return ok ? std::optional<std::uint64_t>(n) : std::nullopt;
}

// Mouse events sent to the widget itself (through its event filters), not through the X
// cursor, which a busy server delivers late.
void send(QWidget* widget, QEvent::Type type, QPointF at, Qt::MouseButton button,
          Qt::MouseButtons buttons)
{
    QMouseEvent e(type, at, widget->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &e);
}

void drag(QWidget* widget, QPointF from, QPointF to)
{
    send(widget, QEvent::MouseMove, from, Qt::NoButton, Qt::NoButton); // hover first
    send(widget, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    for (int i = 1; i <= 8; ++i)
        send(widget, QEvent::MouseMove, from + (to - from) * (i / 8.0), Qt::NoButton,
             Qt::LeftButton);
    send(widget, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
}

// Slice pixel coordinate of a voxel index along the view's column or row axis.
double columnOf(const VolumeSlice& s, std::uint32_t index)
{
    return s.axes.flipColumns ? s.width - 1.0 - index : double(index);
}
double rowOf(const VolumeSlice& s, std::uint32_t index)
{
    return s.axes.flipRows ? s.height - 1.0 - index : double(index);
}

TEST(CropHandlesTest, DraggingASliceEdgeChangesThatAxisRangeAndUndoRestoresIt)
{
    auto w = openSample(true);
    CropPanel* crop = part<CropPanel>(*w);
    const Volume& v = *w->document()->volume;
    QUndoStack* undo = part<TransferFunctionPanel>(*w)->undoStack();
    SliceView* axial = part<ViewLayout>(*w)->sliceView(SliceOrientation::Axial);
    const VolumeSlice& s = axial->slice();
    const int col = s.axes.columnAxis;
    const int row = s.axes.rowAxis;
    const VoxelBox whole = VoxelBox::whole(v.dims());
    ASSERT_EQ(crop->box(), whole);
    const glm::dvec3 crosshair = axial->crosshair();

    // The edge of the column axis' upper face, grabbed a quarter of the way down (away from
    // the crosshair and the handle at its middle), dragged to 2/3 of the axis.
    const double grabRow = rowOf(s, 0) + (rowOf(s, whole.last[row]) - rowOf(s, 0)) * 0.25;
    const std::uint32_t upper = whole.last[col] * 2 / 3;
    const std::uint32_t upper2 = whole.last[col] * 3 / 5;
    const std::uint32_t lower = whole.last[row] / 4;
    const QPointF from = axial->widgetPointOfPixel({columnOf(s, whole.last[col]), grabRow});
    const QPointF to = axial->widgetPointOfPixel({columnOf(s, upper), grabRow});
    auto* overlay = axial->findChild<SliceCropOverlay*>("sliceCropOverlay");
    ASSERT_NE(overlay, nullptr);
    EXPECT_EQ(overlay->facesAt(from), std::vector<int>{2 * col + 1});
    const int steps = undo->count();
    drag(axial, from, to);
    VoxelBox expected = whole;
    expected.last[col] = upper;
    EXPECT_EQ(crop->box(), expected);
    EXPECT_EQ(undo->count(), steps + 1) << "one undo step per drag";
    EXPECT_EQ(axial->crosshair(), crosshair) << "a handle drag is no click";
    EXPECT_EQ(crop->spinBox(col, true)->value(), int(upper)) << "the dock follows";
    // The mouse rests on the edge it dragged: a resize cursor.
    const Qt::CursorShape shape = axial->cursor().shape();
    EXPECT_TRUE(shape == Qt::SizeHorCursor || shape == Qt::SizeVerCursor) << int(shape);

    // A corner: two faces at once, the row axis' lower one and the column axis' upper one.
    const QPointF corner =
        axial->widgetPointOfPixel({columnOf(s, upper), rowOf(s, whole.first[row])});
    EXPECT_EQ(overlay->facesAt(corner).size(), 2u);
    drag(axial, corner, axial->widgetPointOfPixel({columnOf(s, upper2), rowOf(s, lower)}));
    expected.last[col] = upper2;
    expected.first[row] = lower;
    EXPECT_EQ(crop->box(), expected);
    EXPECT_EQ(undo->count(), steps + 2);

    // The surface shown is the CPU reference's for the sub-volume.
    const std::uint64_t reference =
        extractIsosurfaceCpu(v, v.rescale().toStored(40.0), expected).triangleCount();
    EXPECT_TRUE(waitUntil([&] { return shownTriangles(*w) == reference; }))
        << "shown " << shownTriangles(*w).value_or(0) << ", CPU " << reference;
    test::saveScreenshot(*w, "crop_handles_slices");

    // Escape during a drag puts the box back and leaves no undo step; the rest of that drag
    // does not move the crosshair either.
    const QPointF lowerEdge = axial->widgetPointOfPixel({columnOf(s, upper2), grabRow});
    send(axial, QEvent::MouseButtonPress, lowerEdge, Qt::LeftButton, Qt::LeftButton);
    send(axial, QEvent::MouseMove, axial->widgetPointOfPixel({columnOf(s, 10), grabRow}),
         Qt::NoButton, Qt::LeftButton);
    EXPECT_NE(crop->box(), expected) << "the drag follows the mouse";
    QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
    QCoreApplication::sendEvent(axial, &escape);
    EXPECT_EQ(crop->box(), expected);
    const glm::dvec3 crosshairBefore = axial->crosshair();
    send(axial, QEvent::MouseMove, axial->widgetPointOfPixel({columnOf(s, 5), grabRow}),
         Qt::NoButton, Qt::LeftButton);
    send(axial, QEvent::MouseButtonRelease, axial->widgetPointOfPixel({columnOf(s, 5), grabRow}),
         Qt::LeftButton, Qt::NoButton);
    EXPECT_EQ(crop->box(), expected);
    EXPECT_EQ(axial->crosshair(), crosshairBefore);
    EXPECT_EQ(undo->count(), steps + 2);

    // Dragged past the other end: one cell is kept.
    const QPointF edge = axial->widgetPointOfPixel({columnOf(s, upper2), grabRow});
    drag(axial, edge, axial->widgetPointOfPixel({columnOf(s, 0), grabRow}));
    EXPECT_EQ(crop->box().last[col], crop->box().first[col] + 1);

    undo->undo();
    EXPECT_EQ(crop->box(), expected);
    undo->undo();
    undo->undo();
    EXPECT_EQ(crop->box(), whole);
}

TEST(CropHandlesTest, DraggingAFaceHandleIn3DMovesThatFaceByTheProjectedVoxels)
{
    auto w = openSample(true);
    CropPanel* crop = part<CropPanel>(*w);
    const Volume& v = *w->document()->volume;
    ViewportWidget* view = w->viewport();
    w->scene()->editCamera([](OrbitCamera& c) { c.setStandardView(StandardView::Anterior); });
    QCoreApplication::processEvents();
    const VoxelBox start{{10, 12, 8}, {110, 100, 70}}; // inside the 128 x 128 x 85 sample
    crop->setBox(start);
    auto* handles = view->findChild<CropHandles3D*>("cropHandles3D");
    ASSERT_NE(handles, nullptr);
    ASSERT_TRUE(handles->active());

    // Where the I-last handle is and how far one voxel along I moves it on screen, from the
    // camera's own matrices.
    const glm::dmat4 toClip = glm::dmat4(view->projectionMatrix()) * glm::dmat4(view->viewMatrix());
    const auto window = [&](glm::dvec3 index) {
        const glm::dvec4 c = toClip * glm::dvec4(v.geometry().toPhysical(index), 1.0);
        return QPointF((c.x / c.w + 1.0) * 0.5 * view->width(),
                       (1.0 - c.y / c.w) * 0.5 * view->height());
    };
    // The upper face of the axis that runs most across the screen, its handle at the face's
    // centre.
    int axis = 0;
    QPointF handle;
    QPointF perVoxel;
    double pixelsPerVoxel = 0.0;
    for (int a = 0; a < 3; ++a) {
        glm::dvec3 centre = (glm::dvec3(start.first) + glm::dvec3(start.last)) * 0.5;
        centre[a] = start.last[a];
        glm::dvec3 next = centre;
        next[a] += 1.0;
        const QPointF d = window(next) - window(centre);
        if (std::hypot(d.x(), d.y()) > pixelsPerVoxel) {
            axis = a;
            handle = window(centre);
            perVoxel = d;
            pixelsPerVoxel = std::hypot(d.x(), d.y());
        }
    }
    const int face = 2 * axis + 1;
    ASSERT_GT(pixelsPerVoxel, 0.5);
    EXPECT_EQ(handles->faceAt(handle), face);

    // Hover highlights it.
    send(view, QEvent::MouseMove, handle, Qt::NoButton, Qt::NoButton);
    EXPECT_EQ(handles->hoveredFace(), face);
    EXPECT_EQ(view->cursor().shape(), Qt::OpenHandCursor);

    // 60 pixels inward along the axis' screen direction.
    const QPointF inward = -perVoxel / pixelsPerVoxel * 60.0;
    const glm::mat4 cameraBefore = view->viewMatrix();
    QUndoStack* undo = part<TransferFunctionPanel>(*w)->undoStack();
    const int steps = undo->count();
    drag(view, handle, handle + inward);
    VoxelBox expected = start;
    expected.last[axis] = std::uint32_t(std::lround(start.last[axis] - 60.0 / pixelsPerVoxel));
    EXPECT_EQ(crop->box(), expected) << "axis " << axis << ", pixels per voxel " << pixelsPerVoxel;
    EXPECT_LT(expected.last[axis], start.last[axis]);
    EXPECT_EQ(undo->count(), steps + 1);
    EXPECT_EQ(view->viewMatrix(), cameraBefore) << "the handle drag orbited";

    const std::uint64_t reference =
        extractIsosurfaceCpu(v, v.rescale().toStored(40.0), expected).triangleCount();
    EXPECT_TRUE(waitUntil([&] { return shownTriangles(*w) == reference; }))
        << "shown " << shownTriangles(*w).value_or(0) << ", CPU " << reference;
    test::saveScreenshot(*w, "crop_handles_3d");
    // The volume rendering is cut at the same box (to look at).
    QSignalSpy frames(view, &ViewportWidget::frameShown);
    w->scene()->setRenderMode(RenderMode::Volume);
    EXPECT_TRUE(waitUntil([&] {
        return frames.count() > 0 && view->shownVolumeResolution() == std::optional(1.0f);
    }));
    test::saveScreenshot(*w, "crop_handles_3d_volume");
    w->scene()->setRenderMode(RenderMode::Surface);

    // Escape during a drag puts the box back, with no undo step.
    glm::dvec3 movedCentre = (glm::dvec3(expected.first) + glm::dvec3(expected.last)) * 0.5;
    movedCentre[axis] = expected.last[axis];
    const QPointF moved = window(movedCentre);
    ASSERT_EQ(handles->faceAt(moved), face);
    send(view, QEvent::MouseButtonPress, moved, Qt::LeftButton, Qt::LeftButton);
    send(view, QEvent::MouseMove, moved + inward * 0.5, Qt::NoButton, Qt::LeftButton);
    EXPECT_NE(crop->box(), expected);
    QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
    QCoreApplication::sendEvent(view, &escape);
    send(view, QEvent::MouseButtonRelease, moved + inward * 0.5, Qt::LeftButton, Qt::NoButton);
    EXPECT_EQ(crop->box(), expected);
    EXPECT_EQ(undo->count(), steps + 1);
    EXPECT_EQ(view->viewMatrix(), cameraBefore);

    // Away from every handle the drag orbits and the box stays.
    const QPointF corner(12.0, 12.0);
    ASSERT_FALSE(handles->faceAt(corner));
    drag(view, corner, corner + QPointF(40.0, 25.0));
    EXPECT_NE(view->viewMatrix(), cameraBefore);
    EXPECT_EQ(crop->box(), expected);

    undo->undo();
    EXPECT_EQ(crop->box(), start);
}

TEST(CropHandlesTest, WithoutTheToolAClickMovesTheCrosshairAndTheToggleIsRemembered)
{
    auto w = openSample(false);
    auto* tool = w->findChild<CropTool*>("cropTool");
    ASSERT_NE(tool, nullptr);
    EXPECT_FALSE(tool->active());
    SliceView* axial = part<ViewLayout>(*w)->sliceView(SliceOrientation::Axial);
    const VolumeSlice& s = axial->slice();
    const VoxelBox whole = part<CropPanel>(*w)->box();
    const QPointF edge =
        axial->widgetPointOfPixel({columnOf(s, whole.last[s.axes.columnAxis]), rowOf(s, 20)});
    drag(axial, edge, axial->widgetPointOfPixel({columnOf(s, 60), rowOf(s, 20)}));
    EXPECT_EQ(part<CropPanel>(*w)->box(), whole);
    EXPECT_NEAR(axial->crosshair()[s.axes.columnAxis], 60.0, 0.51);

    // View > Show Crop Box turns the handles on without the dock, and is remembered.
    tool->showAction()->trigger();
    EXPECT_TRUE(tool->active());
    EXPECT_TRUE(QSettings().value("view/showCropBox").toBool());
    EXPECT_TRUE(w->viewport()->findChild<CropHandles3D*>("cropHandles3D")->active());
    // Reset (Shift+B) is an undoable edit.
    part<CropPanel>(*w)->setBox({{1, 2, 3}, {50, 60, 70}});
    tool->resetAction()->trigger();
    EXPECT_EQ(part<CropPanel>(*w)->box(), whole);
    part<TransferFunctionPanel>(*w)->undoStack()->undo();
    EXPECT_EQ(part<CropPanel>(*w)->box(), (VoxelBox{{1, 2, 3}, {50, 60, 70}}));
    EXPECT_EQ(tool->resetAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_B));
    tool->showAction()->trigger();
    EXPECT_FALSE(tool->active());
    QSettings().remove("view/showCropBox");

    // Opening the dock from View > Crop Box (its toggle action, checked before the dock shows)
    // draws the box too, B off; closing the dock puts it away.
    auto* dock = w->findChild<QDockWidget*>("cropDock");
    ASSERT_NE(dock, nullptr);
    ASSERT_TRUE(dock->isHidden());
    dock->toggleViewAction()->trigger();
    ASSERT_TRUE(dock->isVisible());
    EXPECT_TRUE(tool->active());
    EXPECT_TRUE(tool->sliceOverlay(int(SliceOrientation::Axial))->isVisible());
    EXPECT_TRUE(w->viewport()->findChild<CropHandles3D*>("cropHandles3D")->active());
    dock->toggleViewAction()->trigger();
    EXPECT_FALSE(tool->active());
    EXPECT_FALSE(tool->sliceOverlay(int(SliceOrientation::Axial))->isVisible());
    dock->show(); // as a session or the window's saved state would
    EXPECT_TRUE(tool->active());
    dock->close(); // its title bar's close button
    EXPECT_FALSE(tool->active());
}

} // namespace
} // namespace isoview::app
