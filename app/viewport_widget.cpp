#include "viewport_widget.h"

#include "core/error.h"
#include "core/log.h"
#include "render/orientation_marker_layout.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>

namespace isoview::app {
namespace {

glm::vec3 toVec(const QColor& c)
{
    return {float(c.redF()), float(c.greenF()), float(c.blueF())};
}

} // namespace

// The axis letters of the orientation marker: a transparent child widget painted by the
// raster engine, so text never mixes with the engine's GL state, and grab() includes it.
class OrientationLabels : public QWidget {
public:
    explicit OrientationLabels(QWidget* parent) : QWidget(parent)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
    }
    void setLabels(bool anatomical, const std::array<QPointF, 3>& at)
    {
        if (anatomical == m_anatomical && at == m_at && geometry() == parentWidget()->rect())
            return;
        m_anatomical = anatomical;
        m_at = at;
        setGeometry(parentWidget()->rect());
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        static const char* kPatient[3] = {"L", "P", "S"};
        static const char* kWorld[3] = {"X", "Y", "Z"};
        const QColor colors[3] = {QColor(240, 100, 100), QColor(120, 220, 120),
                                  QColor(120, 160, 255)};
        QPainter painter(this);
        painter.setRenderHint(QPainter::TextAntialiasing);
        QFont font = painter.font();
        font.setBold(true);
        painter.setFont(font);
        for (int a = 0; a < 3; ++a) {
            painter.setPen(colors[a]);
            painter.drawText(QRectF(m_at[std::size_t(a)] - QPointF(10, 10), QSizeF(20, 20)),
                             Qt::AlignCenter, (m_anatomical ? kPatient : kWorld)[a]);
        }
    }

private:
    bool m_anatomical = false;
    std::array<QPointF, 3> m_at{};
};

ViewportWidget::ViewportWidget(QWidget* parent) : QOpenGLWidget(parent)
{
    m_labels = new OrientationLabels(this);
    m_labels->hide();
    setObjectName("viewport");
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    m_clock.start();
    m_pollTimer.setSingleShot(true);
    m_pollTimer.setInterval(15);
    connect(&m_pollTimer, &QTimer::timeout, this, &ViewportWidget::pollTriangleCount);
    connect(this, &QOpenGLWidget::frameSwapped, this, &ViewportWidget::onFrameSwapped);
}

ViewportWidget::~ViewportWidget()
{
    releaseGl();
}

void ViewportWidget::releaseGl()
{
    if (!m_renderer) return;
    makeCurrent();
    m_renderer.reset();
    m_volumeUploaded = false;
    doneCurrent();
}

void ViewportWidget::initializeGL()
{
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ViewportWidget::releaseGl,
            Qt::DirectConnection);
    try {
        m_renderer = std::make_unique<gl::SceneRenderer>();
        m_rendererName = QString::fromStdString(m_renderer->capabilities().summary());
        log::get("app")->info("3D view on {}", m_renderer->capabilities().summary());
    } catch (const Error& e) {
        m_renderer.reset();
        const QString message =
            QStringLiteral("OpenGL 3.3 core or newer is needed for the 3D view.\n\n%1")
                .arg(QString::fromUtf8(e.what()));
        log::get("app")->error("{}", e.what());
        emit glError(message);
        return;
    }
    emit glReady(m_rendererName);
    if (m_volume) {
        QString error;
        if (!uploadVolume(&error)) emit glError(error);
    }
}

bool ViewportWidget::uploadVolume(QString* error)
{
    try {
        m_renderer->setVolume(*m_volume);
        m_volumeUploaded = true;
        m_renderer->setIsovalue(m_isovalueReal);
        if (m_transferFunction) m_renderer->setTransferFunction(*m_transferFunction);
        m_transferFunctionDirty = false;
        m_isovalueDirty = false;
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

std::optional<QString> ViewportWidget::setVolume(std::shared_ptr<const Volume> volume)
{
    std::shared_ptr<const Volume> previous = m_volume;
    m_volume = std::move(volume);
    if (m_renderer) {
        makeCurrent();
        QString error;
        const bool ok = uploadVolume(&error);
        doneCurrent();
        if (!ok) {
            m_volume = previous; // the renderer kept the previous volume
            return error;
        }
    }
    m_camera.fitTo(volumeBounds(m_volume->geometry(), m_volume->dims()));
    m_camera.setStandardView(StandardView::Anterior);
    m_framePolicy.resetStats();
    update();
    return std::nullopt;
}

void ViewportWidget::setIsovalue(double real)
{
    if (real == m_isovalueReal && !m_isovalueDirty) return;
    m_isovalueReal = real;
    m_isovalueDirty = true;
    m_framePolicy.isovalueChanged(m_clock.nsecsElapsed());
    update();
}

void ViewportWidget::setTransferFunction(const TransferFunction& tf)
{
    m_transferFunction = tf;
    m_transferFunctionDirty = true;
    update();
}

void ViewportWidget::setRenderMode(gl::RenderMode mode)
{
    m_mode = mode;
    update();
}

void ViewportWidget::setSurfaceColor(const QColor& color)
{
    m_surfaceColor = toVec(color);
    update();
}

QColor ViewportWidget::surfaceColor() const
{
    return QColor::fromRgbF(m_surfaceColor.r, m_surfaceColor.g, m_surfaceColor.b);
}

void ViewportWidget::setOrientationMarkerVisible(bool visible)
{
    m_showMarker = visible;
    update();
}

void ViewportWidget::setProjection(Projection projection)
{
    m_camera.setProjection(projection);
    update();
}

void ViewportWidget::setStandardView(StandardView view)
{
    m_camera.setStandardView(view);
    update();
}

void ViewportWidget::resetView()
{
    m_camera.reset();
    update();
}

void ViewportWidget::fitView()
{
    if (m_volume) m_camera.fitTo(volumeBounds(m_volume->geometry(), m_volume->dims()));
    update();
}

bool ViewportWidget::anatomical() const
{
    return m_volume && m_volume->metadata().patientSpace;
}

std::optional<double> ViewportWidget::renderedIsovalue() const
{
    if (!m_renderer || !m_volume || !m_volumeUploaded) return std::nullopt;
    return m_renderer->renderedIsovalue();
}

IsoMesh ViewportWidget::captureMesh()
{
    if (!m_renderer || !m_volumeUploaded || !m_renderer->renderedIsovalue()) return {};
    makeCurrent();
    struct DoneCurrent {
        ViewportWidget* w;
        ~DoneCurrent() { w->doneCurrent(); }
    } done{this};
    return m_renderer->capture();
}

QImage ViewportWidget::grabView()
{
    return grab().toImage(); // the GL frame with the axis letters over it
}

float ViewportWidget::aspect() const
{
    return height() > 0 ? float(width()) / float(height()) : 1.0f;
}

void ViewportWidget::resizeGL(int, int) {}

void ViewportWidget::paintGL()
{
    const qreal dpr = devicePixelRatioF();
    const glm::ivec2 size(std::max(1, int(std::lround(width() * dpr))),
                          std::max(1, int(std::lround(height() * dpr))));
    if (!m_renderer || !m_volumeUploaded) {
        QOpenGLExtraFunctions* f = context()->extraFunctions();
        f->glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        f->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        return;
    }
    if (m_isovalueDirty) {
        m_renderer->setIsovalue(m_isovalueReal);
        m_isovalueDirty = false;
        m_framePolicy.frameTookIsovalue();
    }
    if (m_transferFunctionDirty && m_transferFunction) {
        m_renderer->setTransferFunction(*m_transferFunction);
        m_transferFunctionDirty = false;
    }
    gl::SceneParams params;
    params.view = m_camera.viewMatrix();
    params.projection = m_camera.projectionMatrix(aspect());
    params.viewportSize = size;
    params.targetFramebuffer = defaultFramebufferObject();
    params.mode = m_mode;
    params.surfaceColor = m_surfaceColor;
    params.orientationMarker = m_showMarker;
    const VolumeQuality quality = m_framePolicy.volumeQuality(m_interacting);
    params.volumeResolutionScale = quality.resolutionScale;
    params.volumeStepVoxels = quality.stepVoxels;
    m_renderer->render(params);
    m_renderedSinceSwap = true;
    m_labels->setVisible(m_showMarker);
    if (m_showMarker) paintOrientationLabels(params);
}

void ViewportWidget::paintOrientationLabels(const gl::SceneParams& params)
{
    const OrientationMarkerLayout layout =
        orientationMarkerLayout(params.view, params.viewportSize);
    const qreal dpr = devicePixelRatioF();
    std::array<QPointF, 3> at;
    for (std::size_t a = 0; a < 3; ++a) {
        // A little beyond each tip, in widget coordinates (top-left origin, logical pixels).
        const glm::vec2 tip = layout.axisTips[a];
        const glm::vec2 dir = tip - layout.center;
        const float len = glm::length(dir);
        const glm::vec2 p = len > 1e-3f ? tip + dir / len * 10.0f * float(dpr) : tip;
        at[a] = QPointF(p.x / dpr, height() - p.y / dpr);
    }
    m_labels->setLabels(anatomical(), at);
}

void ViewportWidget::onFrameSwapped()
{
    // The window also swaps when only other widgets changed (status bar text): count and time
    // only swaps that carry a frame this widget rendered.
    if (!m_renderedSinceSwap) return;
    m_renderedSinceSwap = false;
    m_framePolicy.frameSwapped(m_clock.nsecsElapsed(), renderedIsovalue());
    pollTriangleCount();
}

void ViewportWidget::pollTriangleCount()
{
    if (!m_renderer || !m_volumeUploaded) return;
    makeCurrent();
    const std::optional<std::uint32_t> vertices = m_renderer->pollVertexCount();
    const FrameGpuTimes gpu = m_renderer->lastGpuTimes();
    doneCurrent();
    // Ask again shortly, without a repaint, while the GPU is still working on this frame.
    if (m_framePolicy.gpuResults(vertices, gpu)) m_pollTimer.start();
    emit frameStatsChanged(m_framePolicy.stats());
}

glm::vec2 ViewportWidget::toNdc(const QPointF& p) const
{
    return {float(2.0 * p.x() / std::max(1, width()) - 1.0),
            float(1.0 - 2.0 * p.y() / std::max(1, height()))};
}

void ViewportWidget::mousePressEvent(QMouseEvent* event)
{
    m_lastMouse = event->position();
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)))
        m_drag = Drag::Pan;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Rotate;
    else
        return QOpenGLWidget::mousePressEvent(event);
    m_interacting = true;
    event->accept();
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) return QOpenGLWidget::mouseMoveEvent(event);
    const glm::vec2 from = toNdc(m_lastMouse);
    const glm::vec2 to = toNdc(event->position());
    m_lastMouse = event->position();
    if (m_drag == Drag::Rotate)
        m_camera.rotateByDrag(from, to, aspect());
    else
        m_camera.pan(to - from, aspect());
    update();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) return QOpenGLWidget::mouseReleaseEvent(event);
    m_drag = Drag::None;
    m_interacting = false;
    update(); // the full-resolution frame
}

void ViewportWidget::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) {
        m_camera.zoom(float(std::pow(1.15, steps)));
        update();
    }
    event->accept();
}

} // namespace isoview::app
