// The transfer-function canvas: the volume's histogram drawn faintly (log scale) behind the
// piecewise-linear opacity curve (x: real value over the histogram's range, y: opacity 0..1),
// the area under the curve filled with the function's colours, the control points as circles
// in their colour. GUI thread only.
//
// Editing, each edit one undo step on undoStack():
//   - left click on empty space adds a point there, coloured as the function is at that value
//     (and the same press can drag it on);
//   - left press on a point selects it; dragging moves it (value and opacity, clamped to the
//     canvas), one undo step for the whole drag;
//   - Delete/Backspace removes the selected point, right click removes the clicked one;
//   - double click on a point asks the colour picker (QColorDialog unless setColorPicker
//     replaced it) for its colour.
// Hovering a point shows its value and opacity in a tooltip.
//
// Points outside the canvas's range (a preset's plateau beyond the data) are drawn as arrows
// at the edge; the curve runs through them but they cannot be picked.
//
// Example:
//   auto* editor = new TransferFunctionEditor;
//   editor->setHistogram(doc.histogram);
//   editor->setTransferFunction(defaultTransferFunction(*doc.volume));   // no undo entry
//   connect(editor, &TransferFunctionEditor::transferFunctionChanged, ...);
#pragma once

#include "scene/transfer_function.h"
#include "transfer_function/transfer_function_commands.h"
#include "volume/histogram.h"
#include "volume/volume.h"

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <cstddef>
#include <functional>
#include <optional>

class QUndoStack;

namespace isoview::app {

class TransferFunctionEditor : public QWidget, public TransferFunctionTarget {
    Q_OBJECT
public:
    // Given a point's colour, the colour to give it, or nullopt when the user cancelled.
    using ColorPicker = std::function<std::optional<QColor>(const QColor&)>;

    static constexpr double kPointRadius = 5.0;
    static constexpr double kHitRadius = 8.0;

    // history: the undo stack the edits go on (the window's, shared with its other edits); none:
    // one of the editor's own. A given stack outlives the editor.
    explicit TransferFunctionEditor(QWidget* parent = nullptr, QUndoStack* history = nullptr);

    // For a new volume: replaces the function without an undo entry and clears the undo
    // history (its states belong to the previous function). Emits transferFunctionChanged
    // when the function differs.
    void setTransferFunction(const TransferFunction& tf);
    const TransferFunction& transferFunction() const { return m_tf; }
    // Replaces the function as one undoable edit named `text` (presets, loaded files). Returns
    // false, pushing nothing, when tf equals the current function.
    bool replaceTransferFunction(const TransferFunction& tf, const QString& text);

    QUndoStack* undoStack() const { return m_undoStack; }

    // The canvas spans the histogram's [min, max]. Without a histogram it spans the points of
    // the function last set (or [0, 1]).
    void setHistogram(const Histogram& histogram);
    ValueRange valueRange() const { return m_range; }
    // The units shown in tooltips ("HU"); empty for none.
    void setUnits(const QString& units);
    void setColorPicker(ColorPicker picker);

    std::optional<std::size_t> selectedPoint() const override { return m_selected; }
    void setSelectedPoint(std::optional<std::size_t> index);
    // Removes the selected point (one undo step); false when none is selected.
    bool deleteSelectedPoint();

    // The mapping the painting and the mouse use, in widget pixels.
    QRectF plotRect() const;
    QPointF toPixel(double value, double opacity) const;
    double xToValue(double x) const;  // clamped to valueRange()
    float yToOpacity(double y) const; // clamped to [0, 1]
    QPointF pointPosition(std::size_t index) const;
    // The point drawn under pos (within kHitRadius; the selected one wins ties), if any.
    std::optional<std::size_t> pointAt(QPointF pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // TransferFunctionTarget, for the undo commands.
    const TransferFunction& currentTransferFunction() const override { return m_tf; }
    void applyTransferFunction(const TransferFunction& tf,
                               std::optional<std::size_t> selected) override;

signals:
    void transferFunctionChanged();
    void selectionChanged();

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    bool inRange(double value) const;
    QString describePoint(std::size_t index) const;
    void startDrag(std::size_t index, QPointF pressPos);
    void endDrag();
    void pickColor(std::size_t index);
    // The histogram's bars as one step outline, log scale, in widget pixels.
    QPainterPath histogramOutline() const;
    void paintCurve(QPainter& painter, const QRectF& plot, const QPainterPath& histogram) const;
    void paintPoints(QPainter& painter) const;
    void paintAxis(QPainter& painter, const QRectF& plot) const;

    TransferFunction m_tf;
    Histogram m_histogram;
    ValueRange m_range{0.0, 1.0};
    QString m_units;
    std::optional<std::size_t> m_selected;
    ColorPicker m_colorPicker;
    QUndoStack* m_undoStack = nullptr;

    bool m_dragging = false;
    int m_dragId = 0;     // one per drag, so its moves merge into one undo step
    QPointF m_grabOffset; // press position minus the point's centre: no jump on grab
};

} // namespace isoview::app
