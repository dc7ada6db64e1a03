#include "views/slice_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

namespace isoview::app {

namespace {

constexpr int kMargin = 4; // widget pixels around the slice
// A dragged isovalue changes the contours with every mouse move, 100 times a second and more.
// Each repaint re-extracts the selected contour and has Qt recomposite the window around the GL
// view; with software GL that takes the cores the frame renders on. 30 repaints a second still
// follow the slider. (The contour() accessor is current at once: only the painting waits.)
constexpr qint64 kContourRepaintIntervalMs = 33;
// Where a contour change costs more (a 512 x 512 CT: extraction and stroking 20-30 ms a view),
// the interval grows to this many times what the last change cost, so the three views together
// keep the GUI thread at most about half busy during a drag and input stays answered; the last
// change of a drag is always painted (the owed repaint), so nothing is left stale.
constexpr qint64 kContourWorkShare = 6;
constexpr qint64 kMaxContourRepaintIntervalMs = 250;
// The dark outline under every contour, and how much wider than the contour it is (pixels).
const QColor kContourHalo(0, 0, 0, 190);
constexpr double kContourHaloWidth = 2.5;

// The transform that takes image point (0, 0) to p0, (1, 0) to px and (0, 1) to py.
QTransform affineFrom(QPointF p0, QPointF px, QPointF py)
{
    return QTransform(px.x() - p0.x(), px.y() - p0.y(), py.x() - p0.x(), py.y() - p0.y(), p0.x(),
                      p0.y());
}

// Without patient space (raw data, a NRRD without a space) the views are the index planes:
// anatomical names would claim an orientation the data does not have.
QString orientationTitle(SliceOrientation o, bool patientSpace)
{
    switch (o) {
    case SliceOrientation::Axial: return patientSpace ? QObject::tr("Axial") : QObject::tr("XY");
    case SliceOrientation::Coronal:
        return patientSpace ? QObject::tr("Coronal") : QObject::tr("XZ");
    case SliceOrientation::Sagittal:
        return patientSpace ? QObject::tr("Sagittal") : QObject::tr("YZ");
    }
    return {};
}

QString number(double v)
{
    return QString::number(v, 'f', 1);
}

} // namespace

std::vector<SliceContour> sliceContours(const Scene& scene)
{
    const auto color = [&](const Surface& s) {
        const glm::vec3 c = surfaceDrawColor(s, scene.transferFunction);
        return QColor::fromRgbF(c.r, c.g, c.b);
    };
    std::vector<SliceContour> contours;
    const Surface& selected = scene.surfaces.selected();
    for (const Surface& s : scene.surfaces.surfaces())
        if (s.visible && s.id != selected.id)
            contours.push_back({s.id, s.isovalue, color(s), false});
    if (selected.visible)
        contours.push_back({selected.id, selected.isovalue, color(selected), true});
    return contours;
}

std::vector<QPolygonF> contourPolylines(const std::vector<ContourSegment>& segments)
{
    // A grid edge is crossed once and shared by its two cells, so it joins at most two segments
    // (an ambiguous cell's two segments lie on four different edges).
    constexpr std::size_t kNone = std::size_t(-1);
    std::unordered_map<ContourEdge, std::array<std::size_t, 2>> byEdge;
    byEdge.reserve(segments.size() * 2);
    for (std::size_t i = 0; i < segments.size(); ++i)
        for (ContourEdge e : {segments[i].edgeA, segments[i].edgeB}) {
            auto [it, added] = byEdge.try_emplace(e, std::array{i, kNone});
            if (!added) it->second[1] = i;
        }
    std::vector<bool> used(segments.size(), false);
    const auto point = [](glm::vec2 p) { return QPointF(p.x, p.y); };
    // Follows the chain from segment `from` out through `edge`, appending the far ends.
    const auto follow = [&](std::size_t from, ContourEdge edge, QPolygonF& out) {
        for (;;) {
            const auto& pair = byEdge.at(edge);
            const std::size_t next = pair[0] == from ? pair[1] : pair[0];
            if (next == kNone || used[next]) return;
            used[next] = true;
            const ContourSegment& s = segments[next];
            const bool forward = s.edgeA == edge;
            out.append(point(forward ? s.b : s.a));
            edge = forward ? s.edgeB : s.edgeA;
            from = next;
        }
    };
    std::vector<QPolygonF> polylines;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (used[i]) continue;
        used[i] = true;
        QPolygonF ahead{point(segments[i].a), point(segments[i].b)};
        follow(i, segments[i].edgeB, ahead);
        QPolygonF behind; // an open curve's part before segment i, walked backwards
        follow(i, segments[i].edgeA, behind);
        if (!behind.isEmpty()) {
            std::reverse(behind.begin(), behind.end());
            ahead = behind + ahead;
        }
        polylines.push_back(std::move(ahead));
    }
    return polylines;
}

SliceView::SliceView(SliceOrientation orientation, QWidget* parent)
    : QWidget(parent), m_orientation(orientation)
{
    setObjectName(QStringLiteral("sliceView_%1")
                      .arg(QString::fromLatin1(sliceOrientationName(orientation).data())));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(120, 120);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_contourRepaintIntervalMs = kContourRepaintIntervalMs;
    m_contourRepaint.setSingleShot(true);
    connect(&m_contourRepaint, &QTimer::timeout, this, &SliceView::repaintContoursNow);
}

void SliceView::setVolume(std::shared_ptr<const Volume> volume)
{
    m_volume = std::move(volume);
    m_readout.clear();
    if (m_volume) {
        const glm::uvec3 d = m_volume->dims();
        m_crosshair = glm::dvec3(d / 2u);
    }
    reslice();
    update();
}

void SliceView::setLabelOverlay(std::shared_ptr<const Volume> labels,
                                std::vector<glm::u8vec4> styles, float fill)
{
    const bool newMap = labels != m_labels;
    if (!newMap && styles == m_labelStyles && fill == m_labelFill) return;
    m_labels = std::move(labels);
    m_labelStyles = std::move(styles);
    m_labelFill = fill;
    if (newMap && m_volume) {
        // Only the labels' slice is new: the image's stays as it is.
        m_labelSlice = labelSliceAt(m_slice.sliceIndex);
        m_imageStale = true;
    } else if (newMap) {
        reslice();
    } else {
        m_imageStale = true;
    }
    update();
}

std::uint32_t SliceView::labelAtCrosshair() const
{
    if (!m_labels || m_labelSlice.width == 0) return 0;
    const glm::uvec3 d = m_labels->dims();
    const glm::uvec3 voxel =
        glm::clamp(glm::uvec3(glm::round(glm::max(m_crosshair, 0.0))), glm::uvec3(0), d - 1u);
    return std::uint32_t(m_labels->valueAt(voxel.x, voxel.y, voxel.z));
}

int SliceView::sliceCount() const
{
    return m_volume ? int(isoview::sliceCount(*m_volume, m_orientation)) : 0;
}

void SliceView::setCrosshair(glm::dvec3 indexPoint)
{
    m_crosshair = indexPoint;
    if (!m_volume) return;
    const int normal = m_slice.axes.normalAxis;
    const auto wanted = std::uint32_t(
        std::clamp(std::lround(indexPoint[normal]), 0L, long(m_volume->dims()[normal]) - 1));
    if (wanted != m_slice.sliceIndex) reslice();
    update();
}

void SliceView::setSliceIndex(int index)
{
    if (!m_volume) return;
    const int normal = m_slice.axes.normalAxis;
    m_crosshair[normal] = std::clamp(index, 0, sliceCount() - 1);
    reslice();
    update();
    emit crosshairMoved(m_crosshair);
}

void SliceView::setWindowLevel(WindowLevel window)
{
    window.width = std::max(window.width, 1e-6);
    if (window == m_window) return;
    m_window = window;
    m_imageStale = true;
    update();
}

void SliceView::setContours(const std::vector<SliceContour>& contours)
{
    std::vector<DrawnContour> next;
    next.reserve(contours.size());
    for (const SliceContour& c : contours) {
        DrawnContour d{c, {}, {}};
        // The segments on this slice at this isovalue are known already: a slider drag
        // recomputes only the selected surface's contour.
        const auto known = std::find_if(m_contours.begin(), m_contours.end(), [&](const auto& o) {
            return o.contour.id == d.contour.id && o.contour.isovalue == d.contour.isovalue;
        });
        if (known != m_contours.end() && !known->stale) {
            d.segments = std::move(known->segments);
            d.polylines = std::move(known->polylines);
        } else
            d.stale = true; // made when next drawn or asked for
        next.push_back(std::move(d));
    }
    m_contours = std::move(next);
    ++m_contoursVersion;
    scheduleContourRepaint();
}

void SliceView::scheduleContourRepaint()
{
    if (m_contourRepaint.isActive()) return; // the owed repaint will show this change too
    const qint64 since = m_sinceContourRepaint.isValid() ? m_sinceContourRepaint.elapsed()
                                                         : m_contourRepaintIntervalMs;
    if (since >= m_contourRepaintIntervalMs)
        repaintContoursNow();
    else
        m_contourRepaint.start(int(m_contourRepaintIntervalMs - since));
}

void SliceView::repaintContoursNow()
{
    m_sinceContourRepaint.restart();
    update();
}

DrawnContour* SliceView::selectedContour()
{
    const auto it = std::find_if(m_contours.begin(), m_contours.end(),
                                 [](const DrawnContour& d) { return d.contour.selected; });
    return it != m_contours.end() ? &*it : nullptr;
}

void SliceView::setIsovalue(double real)
{
    DrawnContour* d = selectedContour();
    if (!d || d->contour.isovalue == real) return;
    d->contour.isovalue = real;
    d->stale = true;
    scheduleContourRepaint();
}

void SliceView::setContourColor(const QColor& color)
{
    if (DrawnContour* d = selectedContour()) d->contour.color = color;
    ++m_contoursVersion;
    update();
}

QColor SliceView::contourColor() const
{
    for (const DrawnContour& d : m_contours)
        if (d.contour.selected) return d.contour.color;
    return {230, 217, 191};
}

void SliceView::refreshStaleContours() const
{
    for (DrawnContour& d : m_contours) {
        if (d.stale) contourAgain(d);
    }
}

const std::vector<ContourSegment>& SliceView::contour() const
{
    static const std::vector<ContourSegment> kNone;
    refreshStaleContours();
    for (const DrawnContour& d : m_contours)
        if (d.contour.selected) return d.segments;
    return kNone;
}

void SliceView::reslice()
{
    if (!m_volume) {
        m_slice = {};
        m_image = {};
        recontour();
        return;
    }
    const int normal = sliceAxes(*m_volume, m_orientation).normalAxis;
    const long last = long(m_volume->dims()[normal]) - 1;
    const auto index = std::uint32_t(std::clamp(std::lround(m_crosshair[normal]), 0L, last));
    m_slice = extractSlice(*m_volume, m_orientation, index);
    m_labelSlice = labelSliceAt(index);
    m_imageStale = true;
    recontour();
}

VolumeSlice SliceView::labelSliceAt(std::uint32_t index) const
{
    return m_labels && m_volume && m_labels->dims() == m_volume->dims()
               ? extractSlice(*m_labels, m_orientation, index)
               : VolumeSlice{};
}

void SliceView::recontour()
{
    for (DrawnContour& d : m_contours)
        contourAgain(d);
}

void SliceView::contourAgain(DrawnContour& d) const
{
    d.segments = contourAt(d.contour.isovalue);
    d.polylines = contourPolylines(d.segments);
    d.stale = false;
    ++m_contoursVersion;
}

std::vector<ContourSegment> SliceView::contourAt(double isovalueReal) const
{
    if (!m_volume) return {};
    return sliceContour(m_slice, isovalueReal);
}

void SliceView::rebuildImage()
{
    if (m_slice.width == 0) {
        m_image = {};
        return;
    }
    m_image = QImage(m_slice.width, m_slice.height, QImage::Format_Grayscale8);
    const double low = m_window.center - m_window.width / 2.0;
    const double scale = 255.0 / m_window.width;
    for (int y = 0; y < m_slice.height; ++y) {
        uchar* line = m_image.scanLine(y);
        for (int x = 0; x < m_slice.width; ++x) {
            const double real = m_slice.realAt(x, y);
            const double g = std::isnan(real) ? 0.0 : (real - low) * scale;
            line[x] = uchar(std::clamp(g, 0.0, 255.0));
        }
    }
    if (m_labelSlice.width == m_slice.width && m_labelSlice.height == m_slice.height &&
        m_labelSlice.width > 0)
        overlayLabels();
}

void SliceView::overlayLabels()
{
    QImage colored = m_image.convertToFormat(QImage::Format_RGB32);
    const VolumeSlice& s = m_labelSlice;
    const auto labelAt = [&](int x, int y) { return std::uint32_t(s.storedAt(x, y)); };
    for (int y = 0; y < s.height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(colored.scanLine(y));
        for (int x = 0; x < s.width; ++x) {
            const std::uint32_t label = labelAt(x, y);
            if (label == 0 || label >= m_labelStyles.size() || m_labelStyles[label].a == 0)
                continue;
            const glm::u8vec4 c = m_labelStyles[label];
            // The outline (a 4-neighbour of another label, or the slice's edge) is solid.
            const bool edge = x == 0 || y == 0 || x == s.width - 1 || y == s.height - 1 ||
                              labelAt(x - 1, y) != label || labelAt(x + 1, y) != label ||
                              labelAt(x, y - 1) != label || labelAt(x, y + 1) != label;
            const float a = edge ? 1.0f : m_labelFill * float(c.a) / 255.0f;
            const QRgb g = line[x];
            const auto mix = [a](int image, int label) {
                return int(std::lround(float(image) * (1.0f - a) + float(label) * a));
            };
            line[x] = qRgb(mix(qRed(g), c.r), mix(qGreen(g), c.g), mix(qBlue(g), c.b));
        }
    }
    m_image = std::move(colored);
}

SliceView::Fit SliceView::fit() const
{
    Fit f;
    if (m_slice.width == 0) return f;
    glm::dvec2 lo(1e300);
    glm::dvec2 hi(-1e300);
    const double w = m_slice.width - 0.5;
    const double h = m_slice.height - 0.5;
    for (glm::dvec2 corner :
         {glm::dvec2(-0.5, -0.5), glm::dvec2(w, -0.5), glm::dvec2(-0.5, h), glm::dvec2(w, h)}) {
        const glm::dvec2 d = m_slice.toDisplay(corner);
        lo = glm::min(lo, d);
        hi = glm::max(hi, d);
    }
    const glm::dvec2 size = glm::max(hi - lo, glm::dvec2(1e-9));
    f.scale = std::min((width() - 2.0 * kMargin) / size.x, (height() - 2.0 * kMargin) / size.y);
    f.scale = std::max(f.scale, 1e-9);
    f.offset = QPointF((width() - size.x * f.scale) / 2.0 - lo.x * f.scale,
                       (height() - size.y * f.scale) / 2.0 - lo.y * f.scale);
    return f;
}

QPointF SliceView::toWidget(glm::dvec2 display) const
{
    const Fit f = fit();
    return QPointF(display.x * f.scale, display.y * f.scale) + f.offset;
}

bool SliceView::crossesMeasuredSlices() const
{
    return m_slice.axes.normalAxis != 2 && m_slice.geometry.sliceOrigins.size() >= 2;
}

QPointF SliceView::widgetPointOfPixel(glm::dvec2 pixel) const
{
    return toWidget(m_slice.toDisplay(pixel));
}

std::optional<glm::dvec2> SliceView::pixelAtWidgetPoint(QPointF point) const
{
    if (m_slice.width == 0) return std::nullopt;
    const Fit f = fit();
    const QPointF d = (point - f.offset) / f.scale;
    return m_slice.pixelAtDisplay({d.x(), d.y()});
}

void SliceView::paintEvent(QPaintEvent*)
{
    // Built here, once for all the changes since the last paint: a new volume resliced and
    // then windowed built each view's image twice in one turn of the event loop.
    if (std::exchange(m_imageStale, false)) rebuildImage();
    QPainter p(this);
    p.fillRect(rect(), Qt::black);
    p.setPen(QColor(200, 200, 200));
    if (!m_volume || m_image.isNull()) {
        p.drawText(rect(), Qt::AlignCenter, tr("%1: no volume").arg(title()));
        return;
    }
    const VolumeSlice& s = m_slice;
    if (!crossesMeasuredSlices()) {
        p.setTransform(affineFrom(widgetPointOfPixel({-0.5, -0.5}), widgetPointOfPixel({0.5, -0.5}),
                                  widgetPointOfPixel({-0.5, 0.5})));
        p.drawImage(QPointF(0, 0), m_image);
    } else {
        const bool kIsRow = s.axes.rowAxis == 2;
        const int strips = kIsRow ? s.height : s.width;
        // Display position of a pixel, extrapolated half a slice past the first and last.
        const auto display = [&](glm::dvec2 px) {
            double& k = kIsRow ? px.y : px.x;
            const double clamped = std::clamp(k, 0.0, double(strips - 1));
            if (k == clamped) return m_slice.toDisplay(px);
            const double outward = k - clamped;
            k = clamped;
            const glm::dvec2 edge = m_slice.toDisplay(px);
            k = clamped - std::copysign(0.5, outward);
            const glm::dvec2 inner = m_slice.toDisplay(px);
            return edge + (edge - inner) * (std::abs(outward) / 0.5);
        };
        for (int strip = 0; strip < strips; ++strip) {
            const double c = strip;
            const glm::dvec2 o = kIsRow ? glm::dvec2(-0.5, c - 0.5) : glm::dvec2(c - 0.5, -0.5);
            const glm::dvec2 ox = kIsRow ? glm::dvec2(0.5, c - 0.5) : glm::dvec2(c + 0.5, -0.5);
            const glm::dvec2 oy = kIsRow ? glm::dvec2(-0.5, c + 0.5) : glm::dvec2(c - 0.5, 0.5);
            const QPointF w0 = toWidget(display(o));
            const QPointF wx = toWidget(display(ox));
            const QPointF wy = toWidget(display(oy));
            p.setTransform(affineFrom(w0, wx, wy));
            const QRect source =
                kIsRow ? QRect(0, strip, s.width, 1) : QRect(strip, 0, 1, s.height);
            p.drawImage(QPointF(0, 0), m_image, source);
        }
    }
    p.resetTransform();
    p.setRenderHint(QPainter::Antialiasing);

    QElapsedTimer contourWork;
    contourWork.start();
    refreshStaleContours();
    const qreal dpr = devicePixelRatioF();
    const bool layerStale = m_contourLayerVersion != m_contoursVersion ||
                            m_contourLayer.size() != size() * dpr ||
                            m_contourLayer.devicePixelRatio() != dpr;
    if (layerStale) paintContourLayer();
    if (layerStale) {
        m_contourRepaintIntervalMs =
            std::clamp(kContourWorkShare * contourWork.elapsed(), kContourRepaintIntervalMs,
                       kMaxContourRepaintIntervalMs);
    }
    p.drawImage(QPointF(0, 0), m_contourLayer);

    // The crosshair: the other two views' planes through this one.
    const double cx = s.axes.flipColumns ? s.width - 1 - m_crosshair[s.axes.columnAxis]
                                         : m_crosshair[s.axes.columnAxis];
    const double cy =
        s.axes.flipRows ? s.height - 1 - m_crosshair[s.axes.rowAxis] : m_crosshair[s.axes.rowAxis];
    QPen crossPen(QColor(255, 200, 0, 170), 1.0);
    crossPen.setCosmetic(true);
    p.setPen(crossPen);
    QPainterPath cross;
    cross.moveTo(widgetPointOfPixel({-0.5, cy}));
    for (int x = 0; x < s.width; ++x)
        cross.lineTo(widgetPointOfPixel({x + 0.5, cy}));
    cross.moveTo(widgetPointOfPixel({cx, -0.5}));
    for (int y = 0; y < s.height; ++y)
        cross.lineTo(widgetPointOfPixel({cx, y + 0.5}));
    p.drawPath(cross);

    // Header (slice_header.h: wraps and elides in narrow views), anatomical letters, readout.
    const QRect inner = rect().adjusted(6, 4, -6, -4);
    const auto& letters = s.axes.edgeLetters;
    const std::vector<SliceHeaderItem> header = headerLayout();
    for (std::size_t i = 0; i < header.size(); ++i) {
        const bool letter = i == 0 && !letters[2].empty(); // the top letter comes first
        p.setPen(letter ? QColor(255, 220, 120) : QColor(230, 230, 230));
        p.drawText(header[i].rect, Qt::AlignLeft | Qt::AlignTop, header[i].text);
    }
    p.setPen(QColor(255, 220, 120));
    p.drawText(inner, Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromLatin1(letters[0].data(), int(letters[0].size())));
    p.drawText(inner, Qt::AlignRight | Qt::AlignVCenter,
               QString::fromLatin1(letters[1].data(), int(letters[1].size())));
    // The bottom letter, and the readout beside it or on the line above (never under it).
    const std::vector<SliceHeaderItem> footer = footerLayout();
    for (std::size_t i = 0; i < footer.size(); ++i) {
        const bool letter = i == 0 && !letters[3].empty();
        p.setPen(letter ? QColor(255, 220, 120) : QColor(230, 230, 230));
        p.drawText(footer[i].rect, Qt::AlignLeft | Qt::AlignTop, footer[i].text);
    }
}

void SliceView::paintContourLayer()
{
    const qreal dpr = devicePixelRatioF();
    m_contourLayer = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    m_contourLayer.setDevicePixelRatio(dpr);
    m_contourLayer.fill(Qt::transparent);
    m_contourLayerVersion = m_contoursVersion;
    QPainter p(&m_contourLayer);
    p.setRenderHint(QPainter::Antialiasing);
    // Each surface's isocontour in its colour; the selected one (the slider's) a little thicker.
    // Every contour first gets a dark halo, all halos under all colours: a light contour must
    // read over any grey (cream bone over the white bone of a brain window, W 80 L 40).
    // Polylines (chained once with the segments) with round joins: thousands of separate wide
    // round-capped antialiased lines took Qt 50-100 ms a view on a 512 x 512 CT.
    const bool measuredSlices = crossesMeasuredSlices();
    const QTransform pixelToWidget = affineFrom(
        widgetPointOfPixel({0, 0}), widgetPointOfPixel({1, 0}), widgetPointOfPixel({0, 1}));
    std::vector<std::vector<QPolygonF>> lines;
    lines.reserve(m_contours.size());
    for (const DrawnContour& d : m_contours) {
        std::vector<QPolygonF>& l = lines.emplace_back();
        l.reserve(d.polylines.size());
        for (const QPolygonF& poly : d.polylines) {
            if (!measuredSlices) {
                l.push_back(pixelToWidget.map(poly));
                continue;
            }
            QPolygonF& mapped = l.emplace_back();
            mapped.reserve(poly.size());
            for (QPointF q : poly)
                mapped.append(widgetPointOfPixel({q.x(), q.y()}));
        }
    }
    for (bool halo : {true, false}) {
        for (std::size_t i = 0; i < m_contours.size(); ++i) {
            const SliceContour& c = m_contours[i].contour;
            const double width = c.selected ? 1.5 : 1.0;
            QPen pen(halo ? kContourHalo : c.color, halo ? width + kContourHaloWidth : width);
            pen.setCosmetic(true);
            pen.setCapStyle(Qt::RoundCap);
            pen.setJoinStyle(Qt::RoundJoin);
            p.setPen(pen);
            for (const QPolygonF& poly : lines[i])
                p.drawPolyline(poly);
        }
    }
}

std::vector<SliceHeaderItem> SliceView::footerLayout() const
{
    const auto& bottom = m_slice.axes.edgeLetters[3];
    return layoutSliceFooter(fontMetrics(), rect().adjusted(6, 4, -6, -4),
                             QString::fromLatin1(bottom.data(), int(bottom.size())), m_readout);
}

QString SliceView::title() const
{
    return orientationTitle(m_orientation, !m_volume || m_volume->metadata().patientSpace);
}

std::vector<SliceHeaderItem> SliceView::headerLayout() const
{
    const auto& top = m_slice.axes.edgeLetters[2];
    SliceHeaderTexts texts;
    texts.orientation = title();
    if (m_volume)
        texts.slice = QStringLiteral("%1/%2").arg(m_slice.sliceIndex + 1).arg(sliceCount());
    texts.letter = QString::fromLatin1(top.data(), int(top.size()));
    texts.window = tr("W %1 L %2").arg(number(m_window.width), number(m_window.center));
    return layoutSliceHeader(fontMetrics(), rect().adjusted(6, 4, -6, -4), texts);
}

void SliceView::moveCrosshairTo(QPointF widgetPoint)
{
    const auto pixel = pixelAtWidgetPoint(widgetPoint);
    if (!pixel) return;
    m_crosshair = m_slice.indexAt(*pixel);
    update();
    emit crosshairMoved(m_crosshair);
}

void SliceView::updateReadout(QPointF widgetPoint)
{
    const auto pixel = pixelAtWidgetPoint(widgetPoint);
    QString text;
    if (pixel) {
        const glm::dvec2 voxel(std::clamp(std::round(pixel->x), 0.0, double(m_slice.width - 1)),
                               std::clamp(std::round(pixel->y), 0.0, double(m_slice.height - 1)));
        const glm::dvec3 mm = m_slice.toPhysical(voxel);
        const double value = m_slice.realAt(int(voxel.x), int(voxel.y));
        const bool patient = m_volume->metadata().patientSpace;
        text = tr("(%1, %2, %3) mm%4 | %5 %6")
                   .arg(number(mm.x), number(mm.y), number(mm.z), patient ? tr(" LPS") : QString())
                   .arg(QString::number(value, 'g', 6),
                        QString::fromStdString(m_volume->metadata().units))
                   .trimmed();
    }
    if (text != m_readout) {
        m_readout = text;
        update();
    }
}

void SliceView::mousePressEvent(QMouseEvent* event)
{
    const bool windowDrag =
        event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier));
    if (windowDrag) {
        m_windowDrag = true;
        m_dragStart = event->position();
        m_dragStartWindow = m_window;
    } else if (event->button() == Qt::LeftButton) {
        moveCrosshairTo(event->position());
        if (const std::uint32_t label = labelAtCrosshair(); label != 0) emit labelClicked(label);
    }
    event->accept();
}

void SliceView::mouseMoveEvent(QMouseEvent* event)
{
    updateReadout(event->position());
    if (m_windowDrag) {
        // Full width of the data range across about 500 pixels of drag: right widens the
        // window, down raises the level (as most DICOM viewers do).
        const ValueRange range = m_volume ? m_volume->realRange() : ValueRange{0.0, 1.0};
        const double span = std::max(range.max - range.min, 1.0);
        const QPointF delta = event->position() - m_dragStart;
        WindowLevel w = m_dragStartWindow;
        w.width = std::max(1e-3 * span, w.width + delta.x() * span / 500.0);
        w.center += delta.y() * span / 500.0;
        setWindowLevel(w);
        emit windowLevelChanged(m_window);
    } else if (event->buttons() & Qt::LeftButton) {
        moveCrosshairTo(event->position());
    }
}

void SliceView::mouseReleaseEvent(QMouseEvent* event)
{
    m_windowDrag = false;
    event->accept();
}

void SliceView::wheelEvent(QWheelEvent* event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps != 0 && m_volume) setSliceIndex(sliceIndex() + steps);
    event->accept();
}

void SliceView::keyPressEvent(QKeyEvent* event)
{
    if (!m_volume) return QWidget::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_Up:
    case Qt::Key_PageUp: setSliceIndex(sliceIndex() + 1); break;
    case Qt::Key_Down:
    case Qt::Key_PageDown: setSliceIndex(sliceIndex() - 1); break;
    case Qt::Key_Home: setSliceIndex(0); break;
    case Qt::Key_End: setSliceIndex(sliceCount() - 1); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void SliceView::leaveEvent(QEvent* event)
{
    m_readout.clear();
    update();
    QWidget::leaveEvent(event);
}

} // namespace isoview::app
