#include "time/time_bar.h"

#include "loading/volume_document.h"
#include "scene_model.h"
#include "time/playback.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>

namespace isoview::app {

namespace {
constexpr char kRateKey[] = "playback/rate";
constexpr char kLoopKey[] = "playback/loop";
constexpr char kHistogramKey[] = "playback/histogramOfAllTimePoints";
} // namespace

TimeBar::TimeBar(SceneModel* scene, ViewportWidget* view,
                 std::function<const VolumeDocument*()> document, QWidget* parent)
    : QToolBar(tr("Time"), parent), m_scene(scene), m_playback(new Playback(scene, view, this)),
      m_document(std::move(document))
{
    setObjectName("timeBar");
    setMovable(false);
    m_back = new QAction(style()->standardIcon(QStyle::SP_MediaSeekBackward),
                         tr("Previous Time Point"), this);
    m_back->setShortcut(QKeySequence(Qt::Key_Comma));
    m_play = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this);
    m_play->setObjectName("playAction");
    m_play->setCheckable(true);
    m_play->setShortcut(QKeySequence(Qt::Key_K));
    m_forward = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward),
                            tr("Next Time Point"), this);
    m_forward->setShortcut(QKeySequence(Qt::Key_Period));
    m_loop = new QAction(tr("Loop"), this);
    m_loop->setObjectName("loopAction");
    m_loop->setCheckable(true);
    for (QAction* a : {m_back, m_play, m_forward}) {
        // In the menu as well: the shortcuts work wherever the focus is in the window.
        a->setShortcutContext(Qt::WindowShortcut);
        a->setEnabled(false);
    }
    m_loop->setEnabled(false);
    m_histogramOfAll = new QAction(tr("Histogram of All Time Points"), this);
    m_histogramOfAll->setObjectName("histogramOfAllAction");
    m_histogramOfAll->setCheckable(true);
    m_histogramOfAll->setToolTip(
        tr("The histograms show every time point's values, not the shown one's"));
    m_histogramOfAll->setEnabled(false);

    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName("timeSlider");
    m_slider->setMinimumWidth(200);
    m_label = new QLabel(this);
    m_label->setObjectName("timePointLabel");
    m_rate = new QDoubleSpinBox(this);
    m_rate->setObjectName("playbackRate");
    m_rate->setRange(0.1, 120.0);
    m_rate->setDecimals(1);
    m_rate->setSuffix(tr(" /s"));
    m_rate->setToolTip(tr("Time points a second"));
    m_reached = new QLabel(this);
    m_reached->setObjectName("playbackRateReached");
    m_reached->setToolTip(tr("Time points a second shown, each with its surfaces extracted"));

    addAction(m_back);
    addAction(m_play);
    addAction(m_forward);
    addWidget(m_slider);
    addWidget(m_label);
    addSeparator();
    addWidget(m_rate);
    addAction(m_loop);
    addAction(m_histogramOfAll);
    addWidget(m_reached);

    const QSettings settings;
    m_rate->setValue(settings.value(kRateKey, 10.0).toDouble());
    m_loop->setChecked(settings.value(kLoopKey, true).toBool());
    m_histogramOfAll->setChecked(settings.value(kHistogramKey, false).toBool());
    m_playback->setRate(m_rate->value());
    m_playback->setLoop(m_loop->isChecked());

    connect(m_play, &QAction::toggled, m_playback, &Playback::setPlaying);
    connect(m_back, &QAction::triggered, m_playback, [this] { m_playback->step(-1); });
    connect(m_forward, &QAction::triggered, m_playback, [this] { m_playback->step(+1); });
    connect(m_loop, &QAction::toggled, this, [this](bool loop) {
        m_playback->setLoop(loop);
        QSettings().setValue(kLoopKey, loop);
    });
    connect(m_histogramOfAll, &QAction::toggled, this, [this](bool all) {
        QSettings().setValue(kHistogramKey, all);
        showHistogram();
    });
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, [this](double rate) {
        m_playback->setRate(rate);
        QSettings().setValue(kRateKey, rate);
    });
    connect(m_slider, &QSlider::valueChanged, this,
            [this](int t) { m_scene->setTimePoint(std::size_t(t)); });
    connect(m_playback, &Playback::playingChanged, this, [this](bool playing) {
        const QSignalBlocker quiet(m_play);
        m_play->setChecked(playing);
        m_play->setText(playing ? tr("Pause") : tr("Play"));
        m_play->setIcon(
            style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        if (!playing) m_reached->clear();
    });
    connect(m_playback, &Playback::rateMeasured, this,
            [this](double rate) { m_reached->setText(tr("%1 /s shown").arg(rate, 0, 'f', 1)); });
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if (what & SceneChange::Volume) onSceneChanged();
        if (what & (SceneChange::Volume | SceneChange::TimePoint)) {
            showTimePoint();
            showHistogram();
        }
    });
    onSceneChanged();
}

QList<QAction*> TimeBar::menuActions() const
{
    return {m_play, m_back, m_forward, m_loop, m_histogramOfAll};
}

void TimeBar::onSceneChanged()
{
    const Scene& scene = m_scene->scene();
    const bool series = scene.series != nullptr;
    setVisible(series);
    for (QAction* a : {m_back, m_play, m_forward, m_loop, m_histogramOfAll})
        a->setEnabled(series);
    const QSignalBlocker quiet(m_slider);
    m_slider->setRange(0, int(scene.timePointCount()) - 1);
}

void TimeBar::showTimePoint()
{
    const Scene& scene = m_scene->scene();
    if (!scene.series) return;
    const QSignalBlocker quiet(m_slider);
    m_slider->setValue(int(scene.timePoint));
    m_label->setText(tr("%1 / %2: %3")
                         .arg(scene.timePoint + 1)
                         .arg(scene.series->size())
                         .arg(QString::fromStdString(scene.series->label(scene.timePoint))));
}

void TimeBar::showHistogram()
{
    const Scene& scene = m_scene->scene();
    const VolumeDocument* doc = m_document();
    // Only while the document's series is the scene's: a session or a new volume may be on
    // its way.
    if (!scene.series || !doc || doc->series != scene.series ||
        scene.timePoint >= doc->timeHistograms.size())
        return;
    emit histogramToShow(m_histogramOfAll->isChecked() ? doc->seriesHistogram
                                                       : doc->timeHistograms[scene.timePoint]);
}

} // namespace isoview::app
