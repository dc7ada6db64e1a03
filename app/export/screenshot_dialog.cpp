#include "export/screenshot_dialog.h"

#include "common/pixel_size_row.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <array>

namespace isoview::app {
namespace {

// The combo box's entries after "as shown"; the last, "Custom", takes the spin boxes' size.
struct Preset {
    const char* name;
    QSize size;
};
constexpr int kAsShown = 0;
const std::array<Preset, 4> kPresets = {{
    {"Full HD (1920 x 1080)", QSize(1920, 1080)},
    {"4K UHD (3840 x 2160)", QSize(3840, 2160)},
    {"Square (2048 x 2048)", QSize(2048, 2048)},
    {"Custom size", QSize()},
}};
constexpr int kCustom = int(kPresets.size()); // index in the combo box

constexpr char kPresetKey[] = "screenshot/preset";
constexpr char kWidthKey[] = "screenshot/width";
constexpr char kHeightKey[] = "screenshot/height";
constexpr char kTransparentKey[] = "screenshot/transparent";

} // namespace

ScreenshotDialog::ScreenshotDialog(QSize viewSize, QWidget* parent)
    : QDialog(parent), m_viewSize(viewSize)
{
    setObjectName("screenshotDialog");
    setWindowTitle(tr("Save Screenshot"));
    m_preset = new QComboBox(this);
    m_preset->setObjectName("screenshotSize");
    m_preset->addItem(
        tr("The 3D view as shown (%1 x %2)").arg(viewSize.width()).arg(viewSize.height()));
    for (const Preset& p : kPresets)
        m_preset->addItem(tr(p.name));
    const PixelSizeRow size = makePixelSizeRow(this, "screenshot", 1, kMaxSide);
    m_width = size.width;
    m_height = size.height;
    m_transparent = new QCheckBox(tr("&Transparent background"), this);
    m_transparent->setObjectName("screenshotTransparent");
    m_transparent->setToolTip(tr("Only the scene is opaque: for slides and papers"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Size:"), m_preset);
    form->addRow(QString(), size.row);
    form->addRow(QString(), m_transparent);
    form->addRow(new QLabel(tr("Pictures of another size than the view's are rendered off "
                               "screen and hold the scene alone, without the view's labels."),
                            this));
    form->addRow(buttons);

    const QSettings settings;
    m_width->setValue(settings.value(kWidthKey, 1920).toInt());
    m_height->setValue(settings.value(kHeightKey, 1080).toInt());
    m_transparent->setChecked(settings.value(kTransparentKey, false).toBool());
    const int preset = settings.value(kPresetKey, kAsShown).toInt();
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ScreenshotDialog::onPresetChanged);
    m_preset->setCurrentIndex(preset >= 0 && preset <= kCustom ? preset : kAsShown);
    onPresetChanged(m_preset->currentIndex());
}

void ScreenshotDialog::onPresetChanged(int index)
{
    const bool custom = index == kCustom;
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    if (custom) return;
    const QSize size = index == kAsShown ? m_viewSize : kPresets[std::size_t(index - 1)].size;
    m_width->setValue(size.width());
    m_height->setValue(size.height());
}

ScreenshotOptions ScreenshotDialog::options() const
{
    ScreenshotOptions o;
    o.transparent = m_transparent->isChecked();
    if (m_preset->currentIndex() != kAsShown) o.size = QSize(m_width->value(), m_height->value());
    return o;
}

void ScreenshotDialog::accept()
{
    QSettings settings;
    settings.setValue(kPresetKey, m_preset->currentIndex());
    if (m_preset->currentIndex() == kCustom) {
        settings.setValue(kWidthKey, m_width->value());
        settings.setValue(kHeightKey, m_height->value());
    }
    settings.setValue(kTransparentKey, m_transparent->isChecked());
    QDialog::accept();
}

} // namespace isoview::app
