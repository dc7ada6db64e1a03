// The transfer-function editor and its panel as a user drives them with the mouse and keys:
// clicks add points at the value and opacity under the mouse, drags move them (one undo step a
// drag), Delete and right click remove them, double click recolours through the picker hook,
// and undo/redo walk back and forth through exact states. The panel applies presets and loads
// and saves JSON files, each undoable, and refuses a malformed file without touching the
// function. No modal dialog ever opens: the colour picker is replaced by a hook.
#include "app_test_support.h"
#include "scene/transfer_function.h"
#include "support/temp_dir.h"
#include "transfer_function/transfer_function_commands.h"
#include "transfer_function/transfer_function_editor.h"
#include "transfer_function/transfer_function_panel.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPalette>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace isoview::app {
namespace {

using test::darkPalette;
using test::saveScreenshot;

// A move with the left button held, as during a drag.
void dragTo(QWidget& widget, QPointF pos)
{
    QMouseEvent move(QEvent::MouseMove, pos, widget.mapToGlobal(pos), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&widget, &move);
}

QPoint rounded(QPointF p)
{
    return QPoint(int(std::lround(p.x())), int(std::lround(p.y())));
}

// A skewed hump over [0, 1000], so the faint histogram behind the curve has a shape.
Histogram humpHistogram()
{
    Histogram h;
    h.min = 0.0;
    h.max = 1000.0;
    h.counts.resize(200);
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        const double x = h.binCenter(i);
        h.counts[i] = std::uint64_t(1 + 5000.0 * std::exp(-std::pow((x - 350.0) / 150.0, 2.0)) +
                                    800.0 * std::exp(-std::pow((x - 750.0) / 60.0, 2.0)));
    }
    h.counts[0] = 400000;
    return h;
}

TransferFunction threePoints()
{
    return TransferFunction({{100.0, {1.0f, 0.0f, 0.0f}, 0.1f},
                             {500.0, {0.0f, 1.0f, 0.0f}, 0.6f},
                             {900.0, {0.0f, 0.0f, 1.0f}, 0.9f}},
                            "three");
}

struct EditorUnderTest {
    EditorUnderTest()
    {
        editor.resize(520, 300);
        editor.setHistogram(humpHistogram());
        editor.setTransferFunction(threePoints());
        editor.setColorPicker([this](const QColor& current) -> std::optional<QColor> {
            pickerCalls.push_back(current);
            return pickerAnswer;
        });
        editor.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&editor));
    }
    QPoint at(double value, double opacity) const
    {
        return rounded(editor.toPixel(value, opacity));
    }
    QPoint atPoint(std::size_t index) const { return rounded(editor.pointPosition(index)); }
    // How far a click can be off: half a pixel each way, in value and in opacity.
    double valueTolerance() const { return 1000.0 / editor.plotRect().width(); }
    double opacityTolerance() const { return 1.0 / editor.plotRect().height(); }

    TransferFunctionEditor editor;
    std::vector<QColor> pickerCalls;
    std::optional<QColor> pickerAnswer;
};

TEST(TransferFunctionEditor, ClickOnEmptySpaceAddsAPointThere)
{
    EditorUnderTest t;
    QSignalSpy changed(&t.editor, &TransferFunctionEditor::transferFunctionChanged);
    const TransferFunction before = t.editor.transferFunction();
    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, t.at(300.0, 0.2));

    const TransferFunction& after = t.editor.transferFunction();
    ASSERT_EQ(after.size(), 4u);
    const TransferPoint& p = after.points()[1];
    EXPECT_NEAR(p.value, 300.0, t.valueTolerance());
    EXPECT_NEAR(p.opacity, 0.2, t.opacityTolerance());
    // Coloured as the function was at that value (halfway from red to green, near enough).
    const glm::vec4 expected = before.evaluate(p.value);
    EXPECT_FLOAT_EQ(p.color.r, expected.r);
    EXPECT_FLOAT_EQ(p.color.g, expected.g);
    EXPECT_FLOAT_EQ(p.color.b, expected.b);
    EXPECT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(1));
    EXPECT_EQ(t.editor.undoStack()->count(), 1);
    EXPECT_EQ(changed.count(), 1);

    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
    saveScreenshot(t.editor, "transfer_function_editor");
}

TEST(TransferFunctionEditor, DragMovesAPointAsOneUndoStep)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    QSignalSpy changed(&t.editor, &TransferFunctionEditor::transferFunctionChanged);

    QTest::mousePress(&t.editor, Qt::LeftButton, {}, t.atPoint(1));
    EXPECT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(1));
    for (int i = 1; i <= 10; ++i) {
        dragTo(t.editor, t.editor.toPixel(500.0 + 20.0 * i, 0.6 - 0.03 * i));
    }
    QTest::mouseRelease(&t.editor, Qt::LeftButton, {}, t.at(700.0, 0.3));

    const TransferFunction moved = t.editor.transferFunction();
    ASSERT_EQ(moved.size(), 3u);
    EXPECT_NEAR(moved.points()[1].value, 700.0, t.valueTolerance());
    EXPECT_NEAR(moved.points()[1].opacity, 0.3, t.opacityTolerance());
    EXPECT_EQ(moved.points()[1].color, glm::vec3(0.0f, 1.0f, 0.0f)) << "a move keeps the colour";
    EXPECT_EQ(changed.count(), 10) << "every step of the drag shows";
    EXPECT_EQ(t.editor.undoStack()->count(), 1) << "the whole drag is one undo step";

    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
    t.editor.undoStack()->redo();
    EXPECT_EQ(t.editor.transferFunction(), moved);

    // A second drag is a second step.
    QTest::mousePress(&t.editor, Qt::LeftButton, {}, t.atPoint(1));
    dragTo(t.editor, t.editor.toPixel(650.0, 0.5));
    QTest::mouseRelease(&t.editor, Qt::LeftButton, {}, t.at(650.0, 0.5));
    EXPECT_EQ(t.editor.undoStack()->count(), 2);
    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), moved);
}

TEST(TransferFunctionEditor, DragPastANeighbourAndBeyondTheCanvas)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    // The red point (100) dragged past the green one (500) and out of the top right corner.
    QTest::mousePress(&t.editor, Qt::LeftButton, {}, t.atPoint(0));
    dragTo(t.editor, t.editor.toPixel(600.0, 0.5));
    dragTo(t.editor, t.editor.plotRect().topRight() + QPointF(60.0, -40.0));
    QTest::mouseRelease(&t.editor, Qt::LeftButton, {}, t.at(1000.0, 1.0));

    const TransferFunction& after = t.editor.transferFunction();
    ASSERT_EQ(after.size(), 3u);
    // Clamped to the canvas: the range's end, full opacity; still sorted, still selected.
    EXPECT_EQ(after.points()[2].value, 1000.0);
    EXPECT_EQ(after.points()[2].opacity, 1.0f);
    EXPECT_EQ(after.points()[2].color, glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_EQ(after.points()[0].value, 500.0);
    EXPECT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(2));
    EXPECT_EQ(t.editor.undoStack()->count(), 1);
    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
    EXPECT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(0));
}

TEST(TransferFunctionEditor, DragBackToTheStartLeavesNoUndoStep)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    const QPointF start = t.editor.pointPosition(1);
    QTest::mousePress(&t.editor, Qt::LeftButton, {}, rounded(start));
    dragTo(t.editor, start + QPointF(40.0, 20.0));
    dragTo(t.editor, rounded(start));
    QTest::mouseRelease(&t.editor, Qt::LeftButton, {}, rounded(start));
    // Pressed off-centre by under half a pixel: the grab offset brings it back exactly.
    EXPECT_EQ(t.editor.transferFunction(), before);
    EXPECT_EQ(t.editor.undoStack()->count(), 0);
}

TEST(TransferFunctionEditor, DeleteAndBackspaceRemoveTheSelectedPoint)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, t.atPoint(2));
    ASSERT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(2));
    EXPECT_EQ(t.editor.undoStack()->count(), 0) << "selecting is no edit";

    QTest::keyClick(&t.editor, Qt::Key_Delete);
    ASSERT_EQ(t.editor.transferFunction().size(), 2u);
    EXPECT_EQ(t.editor.transferFunction().points()[1].value, 500.0);
    EXPECT_FALSE(t.editor.selectedPoint().has_value());
    // Nothing selected: Delete does nothing.
    QTest::keyClick(&t.editor, Qt::Key_Delete);
    EXPECT_EQ(t.editor.transferFunction().size(), 2u);

    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, t.atPoint(0));
    QTest::keyClick(&t.editor, Qt::Key_Backspace);
    ASSERT_EQ(t.editor.transferFunction().size(), 1u);
    EXPECT_EQ(t.editor.transferFunction().points()[0].value, 500.0);

    t.editor.undoStack()->undo();
    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
    EXPECT_EQ(t.editor.selectedPoint(), std::optional<std::size_t>(2)) << "undo reselects it";
}

TEST(TransferFunctionEditor, RightClickRemovesTheClickedPoint)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    QTest::mouseClick(&t.editor, Qt::RightButton, {}, t.atPoint(1));
    ASSERT_EQ(t.editor.transferFunction().size(), 2u);
    EXPECT_EQ(t.editor.transferFunction().points()[0].value, 100.0);
    EXPECT_EQ(t.editor.transferFunction().points()[1].value, 900.0);
    // Right click on empty space changes nothing.
    QTest::mouseClick(&t.editor, Qt::RightButton, {}, t.at(300.0, 0.8));
    EXPECT_EQ(t.editor.transferFunction().size(), 2u);
    EXPECT_EQ(t.editor.undoStack()->count(), 1);
    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
}

TEST(TransferFunctionEditor, DoubleClickRecoloursThroughThePickerHook)
{
    EditorUnderTest t;
    const TransferFunction before = t.editor.transferFunction();
    t.pickerAnswer = QColor(255, 0, 255);
    QTest::mouseDClick(&t.editor, Qt::LeftButton, {}, t.atPoint(1));
    ASSERT_EQ(t.pickerCalls.size(), 1u);
    EXPECT_EQ(t.pickerCalls[0], QColor(0, 255, 0)) << "the picker starts from the point's colour";
    EXPECT_EQ(t.editor.transferFunction().points()[1].color, glm::vec3(1.0f, 0.0f, 1.0f));
    EXPECT_EQ(t.editor.transferFunction().size(), 3u) << "a double click on a point adds none";
    EXPECT_EQ(t.editor.undoStack()->count(), 1);

    // Cancelled: no change, no undo step.
    t.pickerAnswer.reset();
    QTest::mouseDClick(&t.editor, Qt::LeftButton, {}, t.atPoint(0));
    EXPECT_EQ(t.pickerCalls.size(), 2u);
    EXPECT_EQ(t.editor.transferFunction().points()[0].color, glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_EQ(t.editor.undoStack()->count(), 1);

    t.editor.undoStack()->undo();
    EXPECT_EQ(t.editor.transferFunction(), before);
}

TEST(TransferFunctionEditor, UndoAndRedoWalkThroughExactStates)
{
    EditorUnderTest t;
    std::vector<TransferFunction> states{t.editor.transferFunction()};
    auto record = [&] { states.push_back(t.editor.transferFunction()); };

    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, t.at(250.0, 0.75));
    record();
    QTest::mousePress(&t.editor, Qt::LeftButton, {}, t.atPoint(2));
    dragTo(t.editor, t.editor.toPixel(80.0, 0.05)); // past two neighbours
    QTest::mouseRelease(&t.editor, Qt::LeftButton, {}, t.at(80.0, 0.05));
    record();
    t.pickerAnswer = QColor(10, 20, 30);
    QTest::mouseDClick(&t.editor, Qt::LeftButton, {}, t.atPoint(3));
    record();
    QTest::mouseClick(&t.editor, Qt::RightButton, {}, t.atPoint(0));
    record();
    // An exact step: a point placed at the value of another.
    t.editor.undoStack()->push(new AddPointCommand(t.editor, {900.0, {0.5f, 0.5f, 0.5f}, 0.2f}));
    record();

    ASSERT_EQ(t.editor.undoStack()->count(), 5);
    for (std::size_t i = 1; i < states.size(); ++i)
        EXPECT_NE(states[i], states[i - 1]) << i;
    for (std::size_t i = states.size() - 1; i > 0; --i) {
        t.editor.undoStack()->undo();
        EXPECT_EQ(t.editor.transferFunction(), states[i - 1]) << "undo to state " << i - 1;
    }
    for (std::size_t i = 1; i < states.size(); ++i) {
        t.editor.undoStack()->redo();
        EXPECT_EQ(t.editor.transferFunction(), states[i]) << "redo to state " << i;
    }
}

TEST(TransferFunctionEditor, SetTransferFunctionStartsAFreshHistory)
{
    EditorUnderTest t;
    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, t.at(300.0, 0.3));
    ASSERT_EQ(t.editor.undoStack()->count(), 1);
    QSignalSpy changed(&t.editor, &TransferFunctionEditor::transferFunctionChanged);
    const TransferFunction other({{0.0, {0.2f, 0.2f, 0.2f}, 0.0f}, {1000.0, {1, 1, 1}, 1.0f}});
    t.editor.setTransferFunction(other);
    EXPECT_EQ(t.editor.transferFunction(), other);
    EXPECT_EQ(t.editor.undoStack()->count(), 0);
    EXPECT_FALSE(t.editor.selectedPoint().has_value());
    EXPECT_EQ(changed.count(), 1);
    t.editor.setTransferFunction(other);
    EXPECT_EQ(changed.count(), 1) << "the same function is no change";
}

TEST(TransferFunctionEditor, HoverTooltipShowsValueAndOpacity)
{
    EditorUnderTest t;
    t.editor.setUnits("HU");
    const QPoint pos = t.atPoint(1);
    QHelpEvent help(QEvent::ToolTip, pos, t.editor.mapToGlobal(pos));
    QApplication::sendEvent(&t.editor, &help);
    ASSERT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }));
    EXPECT_TRUE(QToolTip::text().contains("500 HU")) << QToolTip::text().toStdString();
    EXPECT_TRUE(QToolTip::text().contains("0.600")) << QToolTip::text().toStdString();
    QToolTip::hideText();
}

TEST(TransferFunctionEditor, PointsBeyondTheCanvasCannotBePicked)
{
    EditorUnderTest t;
    t.editor.setTransferFunction(TransferFunction(
        {{-500.0, {1, 1, 1}, 0.5f}, {500.0, {1, 1, 1}, 0.5f}, {1500.0, {1, 1, 1}, 0.5f}}));
    EXPECT_FALSE(t.editor.pointAt(t.editor.toPixel(0.0, 0.5)).has_value());
    EXPECT_EQ(t.editor.pointAt(t.editor.toPixel(500.0, 0.5)), std::optional<std::size_t>(1));
    // A click at the left edge adds a point at the range's start.
    QTest::mouseClick(&t.editor, Qt::LeftButton, {}, rounded(t.editor.plotRect().bottomLeft()));
    ASSERT_EQ(t.editor.transferFunction().size(), 4u);
    EXPECT_NEAR(t.editor.transferFunction().points()[1].value, 0.0, t.valueTolerance());
    saveScreenshot(t.editor, "transfer_function_editor_edges");
}

// ---- the panel ------------------------------------------------------------------------------

struct PanelUnderTest {
    PanelUnderTest()
    {
        panel.resize(460, 300);
        panel.setVolumeContext(humpHistogram(), range, "HU");
        panel.setTransferFunction(threePoints());
        panel.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&panel));
    }
    const ValueRange range{0.0, 1000.0};
    TransferFunctionPanel panel;
};

TEST(TransferFunctionPanel, PresetsApplyAsOneUndoableStep)
{
    PanelUnderTest t;
    QSignalSpy changed(&t.panel, &TransferFunctionPanel::transferFunctionChanged);
    QComboBox* presets = t.panel.presetComboBox();
    ASSERT_EQ(presets->count(), int(allTransferPresets().size()));
    EXPECT_EQ(presets->currentIndex(), -1) << "the placeholder shows";

    // As a user picks the first entry with the keyboard.
    QTest::keyClick(presets, Qt::Key_Down);
    const TransferPreset first = allTransferPresets().front();
    EXPECT_EQ(t.panel.transferFunction(), transferFunctionPreset(first, t.range));
    EXPECT_EQ(presets->currentIndex(), 0) << "the box shows the preset chosen";
    EXPECT_EQ(changed.count(), 1);

    t.panel.applyPreset(TransferPreset::Mr);
    EXPECT_EQ(t.panel.transferFunction(), transferFunctionPreset(TransferPreset::Mr, t.range));
    saveScreenshot(t.panel, "transfer_function_panel_mr");
    EXPECT_EQ(t.panel.undoStack()->count(), 2);
    t.panel.undoStack()->undo();
    EXPECT_EQ(t.panel.transferFunction(), transferFunctionPreset(first, t.range));
    t.panel.undoStack()->undo();
    EXPECT_EQ(t.panel.transferFunction(), threePoints());
    t.panel.undoStack()->redo();
    EXPECT_EQ(t.panel.transferFunction(), transferFunctionPreset(first, t.range));
}

TEST(TransferFunctionPanel, CtPresetsShowEveryHandleOnACtCanvas)
{
    // A CT histogram in HU: an air peak, fat and soft tissue, some bone.
    Histogram ct;
    ct.min = -1024.0;
    ct.max = 3072.0;
    ct.counts.resize(256);
    for (std::size_t i = 0; i < ct.counts.size(); ++i) {
        const double hu = ct.binCenter(i);
        ct.counts[i] = std::uint64_t(1 + 3000.0 * std::exp(-std::pow((hu + 90.0) / 40.0, 2.0)) +
                                     9000.0 * std::exp(-std::pow((hu - 40.0) / 60.0, 2.0)) +
                                     400.0 * std::exp(-std::pow((hu - 900.0) / 400.0, 2.0)));
    }
    ct.counts[0] = 2000000;
    TransferFunctionPanel panel;
    panel.resize(460, 300);
    panel.setVolumeContext(ct, {-1024.0, 3071.0}, "HU");
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    for (TransferPreset preset : allTransferPresets()) {
        panel.applyPreset(preset);
        const TransferFunctionEditor& editor = *panel.editor();
        ASSERT_GT(editor.transferFunction().size(), 1u);
        // Every point lies on the canvas and can be picked up where it is drawn.
        for (std::size_t i = 0; i < editor.transferFunction().size(); ++i) {
            EXPECT_EQ(editor.pointAt(editor.pointPosition(i)), std::optional<std::size_t>(i))
                << transferPresetName(preset) << " point " << i;
        }
    }
    panel.applyPreset(TransferPreset::CtSkinSoftTissue);
    panel.editor()->setSelectedPoint(4);
    saveScreenshot(panel, "transfer_function_panel_ct");
    panel.setPalette(darkPalette());
    saveScreenshot(panel, "transfer_function_panel_ct_dark");
}

TEST(TransferFunctionPanel, SaveThenLoadGivesAnIdenticalFunction)
{
    PanelUnderTest t;
    // Values and colours that do not print short: the round trip must still be exact.
    const TransferFunction tf({{-0.1, {0.1f, 0.2f, 0.3f}, 1.0f / 3.0f},
                               {123.456789012345, {1.0f / 7.0f, 0.5f, 0.99999f}, 0.7f},
                               {123.456789012345, {0.0f, 0.0f, 0.0f}, 0.0f},
                               {987.654321, {1, 1, 1}, 1.0f}},
                              "round trip");
    t.panel.setTransferFunction(tf);
    isoview::test::TempDir dir;
    const QString path = QString::fromStdString((dir.path() / "tf.json").string());
    QString error;
    ASSERT_TRUE(t.panel.saveToFile(path, &error)) << error.toStdString();

    t.panel.setTransferFunction(threePoints());
    ASSERT_TRUE(t.panel.loadFromFile(path, &error)) << error.toStdString();
    EXPECT_EQ(t.panel.transferFunction(), tf);
    EXPECT_EQ(t.panel.undoStack()->count(), 1) << "loading is undoable";
    t.panel.undoStack()->undo();
    EXPECT_EQ(t.panel.transferFunction(), threePoints());
}

TEST(TransferFunctionPanel, MalformedFileIsRefusedAndChangesNothing)
{
    PanelUnderTest t;
    isoview::test::TempDir dir;
    QSignalSpy changed(&t.panel, &TransferFunctionPanel::transferFunctionChanged);
    const auto write = [&](const char* name, const char* text) {
        std::ofstream(dir.path() / name) << text;
        return QString::fromStdString((dir.path() / name).string());
    };
    const QString notJson = write("broken.json", "{\"format\": \"isoview-transfer-function\", ");
    const QString wrongOpacity =
        write("opacity.json", R"({"format": "isoview-transfer-function", "version": 1,
            "name": "x", "points": [{"value": 1, "color": [1, 1, 1], "opacity": 7}]})");
    const QString missing = QString::fromStdString((dir.path() / "missing.json").string());

    for (const QString& path : {notJson, wrongOpacity, missing}) {
        QString error;
        EXPECT_FALSE(t.panel.loadFromFile(path, &error)) << path.toStdString();
        EXPECT_FALSE(error.isEmpty()) << path.toStdString();
        EXPECT_EQ(t.panel.transferFunction(), threePoints());
    }
    EXPECT_EQ(t.panel.undoStack()->count(), 0);
    EXPECT_EQ(changed.count(), 0);

    // Saving into a folder that does not exist fails with a message too.
    QString error;
    EXPECT_FALSE(t.panel.saveToFile(
        QString::fromStdString((dir.path() / "no" / "such" / "tf.json").string()), &error));
    EXPECT_FALSE(error.isEmpty());
}

TEST(TransferFunctionPanel, UndoShortcutsWorkAnywhereInTheWindow)
{
    // The panel beside another widget in one window, as in the main window's docks.
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    // A button, not a line edit: a line edit claims Ctrl+Z itself, whatever the panel does.
    auto* outside = new QPushButton("elsewhere", &window);
    auto* panel = new TransferFunctionPanel(&window);
    layout->addWidget(outside);
    layout->addWidget(panel);
    panel->setVolumeContext(humpHistogram(), {0.0, 1000.0});
    panel->setTransferFunction(threePoints());
    window.resize(460, 340);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(test::activate(window));

    panel->applyPreset(TransferPreset::Mr);
    const TransferFunction mr = panel->transferFunction();

    // Focus outside the panel (the 3D view, in the main window): the keys still reach it.
    outside->setFocus();
    QTest::keyClick(outside, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(panel->transferFunction(), threePoints()) << "Ctrl+Z undoes from anywhere";
    QTest::keyClick(outside, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(panel->transferFunction(), mr) << "Ctrl+Shift+Z redoes";
    QTest::keyClick(outside, Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(outside, Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(panel->transferFunction(), mr) << "Ctrl+Y redoes";

    panel->editor()->setFocus();
    QTest::keyClick(panel->editor(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(panel->transferFunction(), threePoints());
    QTest::keyClick(panel->editor(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(panel->transferFunction(), mr);
}

TEST(TransferFunctionPanel, PresetBoxShowsTheActivePresetOrCustom)
{
    PanelUnderTest t;
    QComboBox* presets = t.panel.presetComboBox();
    EXPECT_EQ(presets->currentIndex(), -1) << "three points of no preset";
    EXPECT_EQ(presets->currentText(), QString()) << "no entry selected";
    EXPECT_EQ(presets->placeholderText(), "Custom");

    const auto indexOf = [&](TransferPreset p) { return presets->findData(int(p)); };
    t.panel.applyPreset(TransferPreset::CtBone);
    EXPECT_EQ(presets->currentIndex(), indexOf(TransferPreset::CtBone));
    EXPECT_EQ(t.panel.activePreset(), TransferPreset::CtBone);

    // An edit (a point moved as a drag does) makes it Custom; undo shows the preset again.
    t.panel.editor()->undoStack()->push(
        new MovePointCommand(*t.panel.editor(), 2, 420.0, 0.3f, /*dragId=*/77));
    EXPECT_EQ(presets->currentIndex(), -1);
    EXPECT_FALSE(t.panel.activePreset().has_value());
    t.panel.undoStack()->undo();
    EXPECT_EQ(presets->currentIndex(), indexOf(TransferPreset::CtBone));

    // A new volume's function is its preset when it is one (the modality's default).
    t.panel.setTransferFunction(transferFunctionPreset(TransferPreset::Mr, t.range));
    EXPECT_EQ(presets->currentIndex(), indexOf(TransferPreset::Mr));

    // A file holding a preset shows that preset; one of other points shows Custom.
    isoview::test::TempDir dir;
    const QString lung = QString::fromStdString((dir.path() / "lung.json").string());
    saveTransferFunction(lung.toStdString(),
                         transferFunctionPreset(TransferPreset::CtLung, t.range));
    const QString own = QString::fromStdString((dir.path() / "own.json").string());
    saveTransferFunction(own.toStdString(), threePoints());
    QString error;
    ASSERT_TRUE(t.panel.loadFromFile(lung, &error)) << error.toStdString();
    EXPECT_EQ(presets->currentIndex(), indexOf(TransferPreset::CtLung));
    ASSERT_TRUE(t.panel.loadFromFile(own, &error)) << error.toStdString();
    EXPECT_EQ(presets->currentIndex(), -1);
    saveScreenshot(t.panel, "transfer_function_panel_custom");
}

} // namespace
} // namespace isoview::app
