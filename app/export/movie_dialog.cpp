#include "export/movie_dialog.h"

#include "common/pixel_size_row.h"
#include "video/movie_writer.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <algorithm>
#include <array>
#include <cmath>

namespace isoview::app {
namespace {

struct Preset {
    const char* name;
    QSize size;
};
const std::array<Preset, 4> kPresets = {{
    {"HD (1280 x 720)", QSize(1280, 720)},
    {"Full HD (1920 x 1080)", QSize(1920, 1080)},
    {"4K UHD (3840 x 2160)", QSize(3840, 2160)},
    {"Custom size", QSize()},
}};
constexpr int kCustom = int(kPresets.size()) - 1;

// The combo box's entries, in MovieAnimationKind's order.
constexpr std::array<MovieAnimationKind, 4> kKinds = {
    MovieAnimationKind::Rotate, MovieAnimationKind::IsovalueSweep, MovieAnimationKind::SliceSweep,
    MovieAnimationKind::TimePoints};
constexpr int kTimeIndex = 3;

constexpr char kKindKey[] = "movie/animation";
constexpr char kFramesKey[] = "movie/frames";
constexpr char kFpsKey[] = "movie/framesPerSecond";
constexpr char kPresetKey[] = "movie/preset";
constexpr char kWidthKey[] = "movie/width";
constexpr char kHeightKey[] = "movie/height";

} // namespace

MovieDialog::MovieDialog(double isovalue, double lowest, double highest, std::size_t timePoints,
                         QWidget* parent)
    : QDialog(parent)
{
    setObjectName("movieDialog");
    setWindowTitle(tr("Export Movie"));
    m_animation = new QComboBox(this);
    m_animation->setObjectName("movieAnimation");
    m_animation->addItems({tr("Turn the view once around"), tr("Sweep the isovalue"),
                           tr("Sweep the slice facing the view through the volume"),
                           tr("Play the %1 time points").arg(timePoints)});
    const bool series = timePoints >= 2;
    if (auto* items = qobject_cast<QStandardItemModel*>(m_animation->model()))
        items->item(kTimeIndex)->setEnabled(series);

    m_isoFrom = new QDoubleSpinBox(this);
    m_isoTo = new QDoubleSpinBox(this);
    m_isoFrom->setObjectName("movieIsoFrom");
    m_isoTo->setObjectName("movieIsoTo");
    const double span = highest - lowest;
    const int decimals = span > 100.0 ? 1 : span > 1.0 ? 3 : 6;
    for (QDoubleSpinBox* box : {m_isoFrom, m_isoTo}) {
        box->setRange(lowest, highest);
        box->setDecimals(decimals);
        box->setSingleStep(span > 0.0 ? span / 100.0 : 1.0);
    }
    // From the surface on screen up a quarter of the data's range: a sweep that starts where
    // the user is.
    m_isoFrom->setValue(isovalue);
    m_isoTo->setValue(std::min(highest, isovalue + span / 4.0));

    m_frames = new QSpinBox(this);
    m_frames->setObjectName("movieFrames");
    m_frames->setRange(1, kMaxMovieFrames);
    m_fps = new QSpinBox(this);
    m_fps->setObjectName("movieFps");
    m_fps->setRange(1, 120);
    m_fps->setSuffix(tr(" frames/s"));
    m_duration = new QLabel(this);

    m_preset = new QComboBox(this);
    m_preset->setObjectName("movieSize");
    for (const Preset& p : kPresets)
        m_preset->addItem(tr(p.name));
    // H.264's colour planes are half the size: its frames are even (PNG frames are too, for
    // one rule).
    const PixelSizeRow size = makePixelSizeRow(this, "movie", 2, video::kMaxMovieSide, 2);
    m_width = size.width;
    m_height = size.height;

    auto* isoRow = new QHBoxLayout;
    isoRow->addWidget(m_isoFrom);
    isoRow->addWidget(new QLabel(tr("to"), this));
    isoRow->addWidget(m_isoTo);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Animation:"), m_animation);
    form->addRow(tr("&Isovalues:"), isoRow);
    form->addRow(tr("&Frames:"), m_frames);
    form->addRow(tr("&Rate:"), m_fps);
    form->addRow(QString(), m_duration);
    form->addRow(tr("&Size:"), m_preset);
    form->addRow(QString(), size.row);
    form->addRow(new QLabel(tr("Frames are rendered off screen at this size, whatever the "
                               "window's. The next dialog asks for an MP4 file (H.264) or "
                               "numbered PNG files."),
                            this));
    form->addRow(buttons);

    const QSettings settings;
    const int kind = settings.value(kKindKey, 0).toInt();
    const bool usable = kind >= 0 && kind < int(kKinds.size()) && (kind != kTimeIndex || series);
    m_animation->setCurrentIndex(usable ? kind : 0);
    m_frames->setValue(settings.value(kFramesKey, 120).toInt());
    m_fps->setValue(settings.value(kFpsKey, 30).toInt());
    m_width->setValue(settings.value(kWidthKey, 1280).toInt() / 2 * 2);
    m_height->setValue(settings.value(kHeightKey, 720).toInt() / 2 * 2);
    const int preset = settings.value(kPresetKey, 0).toInt();
    connect(m_animation, &QComboBox::currentIndexChanged, this, &MovieDialog::onAnimationChanged);
    connect(m_frames, &QSpinBox::valueChanged, this, &MovieDialog::onAnimationChanged);
    connect(m_fps, &QSpinBox::valueChanged, this, &MovieDialog::onAnimationChanged);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &MovieDialog::onPresetChanged);
    m_preset->setCurrentIndex(preset >= 0 && preset <= kCustom ? preset : 0);
    onPresetChanged(m_preset->currentIndex());
    onAnimationChanged();
}

void MovieDialog::onAnimationChanged()
{
    const bool sweep =
        kKinds[std::size_t(m_animation->currentIndex())] == MovieAnimationKind::IsovalueSweep;
    m_isoFrom->setEnabled(sweep);
    m_isoTo->setEnabled(sweep);
    m_duration->setText(
        tr("%1 s of movie").arg(double(m_frames->value()) / double(m_fps->value()), 0, 'f', 1));
}

void MovieDialog::onPresetChanged(int index)
{
    const bool custom = index == kCustom;
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    if (custom) return;
    m_width->setValue(kPresets[std::size_t(index)].size.width());
    m_height->setValue(kPresets[std::size_t(index)].size.height());
}

MovieOptions MovieDialog::options() const
{
    MovieOptions o;
    o.animation.kind = kKinds[std::size_t(m_animation->currentIndex())];
    o.animation.frames = m_frames->value();
    o.animation.isoFrom = m_isoFrom->value();
    o.animation.isoTo = m_isoTo->value();
    o.framesPerSecond = m_fps->value();
    // Spin boxes step by 2 but accept typed odd values.
    o.size = QSize(m_width->value() / 2 * 2, m_height->value() / 2 * 2);
    return o;
}

void MovieDialog::accept()
{
    QSettings settings;
    settings.setValue(kKindKey, m_animation->currentIndex());
    settings.setValue(kFramesKey, m_frames->value());
    settings.setValue(kFpsKey, m_fps->value());
    settings.setValue(kPresetKey, m_preset->currentIndex());
    if (m_preset->currentIndex() == kCustom) {
        settings.setValue(kWidthKey, m_width->value());
        settings.setValue(kHeightKey, m_height->value());
    }
    QDialog::accept();
}

} // namespace isoview::app
