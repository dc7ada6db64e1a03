// One 2D slice view (axial, coronal or sagittal): the slice's voxels through a window/level,
// each visible surface's isocontour in its colour over a dark halo, so it reads over any grey
// (the selected one thicker), the crosshair shared with the other views, the anatomical letters
// at its edges and a readout of the position (mm, LPS in patient space) and value (real units)
// under the cursor, kept clear of the bottom letter.
//
// Input: wheel, Up/Down and PageUp/PageDown step one slice (Home/End: first/last); a left click
// moves the crosshair (emits crosshairMoved, which the layout passes to the other views);
// right-drag or Ctrl+left-drag adjusts the window (horizontal: width, vertical: level).
// The slice and its contours are computed on the GUI thread: one voxel plane and one pass of
// marching squares per contour, a few milliseconds each even for 512 x 512. Only what changed
// is recomputed: a contour whose isovalue changed, or all of them when the slice moves.
#pragma once

#include "extraction/marching_squares.h"
#include "scene/scene.h"
#include "views/slice_header.h"
#include "volume/volume_slice.h"

#include <glm/glm.hpp>

#include <QColor>
#include <QElapsedTimer>
#include <QImage>
#include <QPolygonF>
#include <QTimer>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

namespace isoview::app {

// One contour to draw: a surface's isovalue in its colour.
struct SliceContour {
    // The surface's: an entry with the id and isovalue of one shown keeps its segments.
    std::uint32_t id = 0;
    double isovalue = 0.0; // real units
    QColor color;
    bool selected = false; // drawn thicker; setIsovalue and setContourColor edit it
    bool operator==(const SliceContour&) const = default;
};

// The contours of the scene's visible surfaces in list order, each in its draw colour (its own,
// else the transfer function's), the selected one (when visible) last, over the others.
std::vector<SliceContour> sliceContours(const Scene& scene);

// The segments chained into polylines by their shared grid edges (a closed curve ends on the
// point it starts with), in slice pixel coordinates. Every segment is one step of one polyline.
// Qt strokes one polyline many times faster than its segments as separate antialiased lines.
std::vector<QPolygonF> contourPolylines(const std::vector<ContourSegment>& segments);

// A contour with its segments on the shown slice, in slice pixel coordinates.
struct DrawnContour {
    SliceContour contour;
    std::vector<ContourSegment> segments;
    std::vector<QPolygonF> polylines; // contourPolylines(segments), made with them
    // The isovalue changed since the segments were made: they are made again when next drawn
    // or asked for, so a slider dragged faster than the view paints costs one contour a paint.
    bool stale = false;
};

class SliceView : public QWidget {
    Q_OBJECT
public:
    explicit SliceView(SliceOrientation orientation, QWidget* parent = nullptr);

    SliceOrientation orientation() const { return m_orientation; }
    // Shows `volume` (null: nothing) at its centre slice; keeps the isovalue and window.
    void setVolume(std::shared_ptr<const Volume> volume);
    // The crosshair in index space; the shown slice is the nearest voxel plane through it.
    void setCrosshair(glm::dvec3 indexPoint);
    glm::dvec3 crosshair() const { return m_crosshair; }
    // Steps to a slice (clamped) and moves the crosshair with it; emits crosshairMoved.
    void setSliceIndex(int index);
    int sliceIndex() const { return int(m_slice.sliceIndex); }
    int sliceCount() const;
    void setWindowLevel(WindowLevel window);
    WindowLevel windowLevel() const { return m_window; }
    // A label map over the slice (on the volume's grid; null: none): each shown label in its
    // colour, `fill` of the way over the image inside and solid on its outline. styles is
    // LabelLayer::drawStyles (alpha 0: hidden).
    void setLabelOverlay(std::shared_ptr<const Volume> labels, std::vector<glm::u8vec4> styles,
                         float fill);
    // The label of the voxel under the crosshair's pixel on the shown slice (0 without one).
    std::uint32_t labelAtCrosshair() const;
    // The contours to draw, in draw order (later over earlier); at most one selected. A view
    // starts with one selected contour at 0 (the surface of a window without a surface list).
    void setContours(const std::vector<SliceContour>& contours);
    // The selected contour's isovalue and colour; nothing without a selected contour.
    void setIsovalue(double real);
    void setContourColor(const QColor& color);
    // The selected contour's colour (the default colour without one).
    QColor contourColor() const;

    const VolumeSlice& slice() const { return m_slice; }
    // The selected contour on the shown slice, in slice pixel coordinates (empty without one).
    const std::vector<ContourSegment>& contour() const;
    // Every contour drawn now, in draw order.
    const std::vector<DrawnContour>& contours() const
    {
        refreshStaleContours();
        return m_contours;
    }
    // Where a slice pixel is drawn in the widget, and the pixel under a widget point.
    QPointF widgetPointOfPixel(glm::dvec2 pixel) const;
    std::optional<glm::dvec2> pixelAtWidgetPoint(QPointF point) const;
    // "Axial", "Coronal", "Sagittal"; "XY", "XZ", "YZ" (the index planes) for a volume without
    // patient space, which has no anatomical orientation.
    QString title() const;
    // The header texts as laid out at the view's size (never overlapping; slice_header.h).
    std::vector<SliceHeaderItem> headerLayout() const;
    // The bottom letter and the readout as laid out at the view's size (apart; slice_header.h).
    std::vector<SliceHeaderItem> footerLayout() const;
    // "L 12.3  P -4.0  S 30.5 mm | 1043 HU" for the voxel last under the cursor; empty if none.
    QString readout() const { return m_readout; }

signals:
    void crosshairMoved(glm::dvec3 indexPoint);
    // A left click put the crosshair on a voxel holding this label of the overlay (not 0).
    void labelClicked(std::uint32_t label);
    void windowLevelChanged(isoview::WindowLevel window);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void reslice();
    // The label map's slice at this index of the view's normal axis; empty without labels on
    // the volume's grid.
    VolumeSlice labelSliceAt(std::uint32_t index) const;
    void overlayLabels(); // m_labelSlice over m_image (rebuildImage)
    void recontour();
    std::vector<ContourSegment> contourAt(double isovalueReal) const;
    // Makes d's segments and polylines at its isovalue on the shown slice.
    void contourAgain(DrawnContour& d) const;
    DrawnContour* selectedContour();
    // Repaints for changed contours, at most one per kContourRepaintIntervalMs (slice_view.cpp).
    void scheduleContourRepaint();
    void repaintContoursNow(); // and restarts the interval's clock
    void rebuildImage();
    void moveCrosshairTo(QPointF widgetPoint);
    void updateReadout(QPointF widgetPoint);
    // Display millimetres -> widget pixels: the slice's bounds fitted into the widget.
    struct Fit {
        double scale = 1.0;
        QPointF offset;
    };
    Fit fit() const;
    QPointF toWidget(glm::dvec2 display) const;

    SliceOrientation m_orientation;
    std::shared_ptr<const Volume> m_volume;
    VolumeSlice m_slice;
    QImage m_image; // the slice through the window (RGB32 with a label overlay, else Grayscale8)
    bool m_imageStale = false; // the slice, window or labels changed: the next paint rebuilds
    std::shared_ptr<const Volume> m_labels; // the overlay's label map, when there is one
    VolumeSlice m_labelSlice;               // its labels on the shown slice
    std::vector<glm::u8vec4> m_labelStyles;
    float m_labelFill = 0.4f;
    // Brings stale contours up to date (const accessors may: the segments are a cache).
    void refreshStaleContours() const;
    // The contours drawn over a transparent image at the view's size, so that a repaint for the
    // readout or the crosshair only blends it; remade when m_contoursVersion or the size moves.
    QImage m_contourLayer;
    mutable std::uint64_t m_contoursVersion = 0; // bumped by any change of what contours draw
    std::uint64_t m_contourLayerVersion = ~std::uint64_t(0);
    void paintContourLayer();
    // A stack with measured slice positions places each of its slices (one image row or column)
    // between the midpoints to its neighbours, so pixel to widget is not one affine map when
    // this view's slice crosses them; any other slice is one affine image.
    bool crossesMeasuredSlices() const;
    mutable std::vector<DrawnContour> m_contours{{{0, 0.0, QColor(230, 217, 191), true}, {}, {}}};
    glm::dvec3 m_crosshair{0.0};
    WindowLevel m_window{40.0, 400.0};
    QString m_readout;
    bool m_windowDrag = false;
    QPointF m_dragStart;
    WindowLevel m_dragStartWindow;
    QElapsedTimer m_sinceContourRepaint;
    QTimer m_contourRepaint; // single shot: the repaint a throttled contour change still owes
    qint64 m_contourRepaintIntervalMs = 0; // grows with what a contour change costs to paint
};

} // namespace isoview::app
