#include "loading/raw_import_dialog.h"

#include "core/error.h"
#include "io/raw_slice_folder_reader.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace isoview::app {
namespace {

constexpr int kMaxDimension = 100000;
constexpr int kMaxHeaderOffset = std::numeric_limits<int>::max();
constexpr std::array<std::uint32_t, 3> kGuessWidths = {512, 256, 128};

constexpr ScalarType kTypes[] = {ScalarType::UInt8,   ScalarType::Int8,   ScalarType::UInt16,
                                 ScalarType::Int16,   ScalarType::UInt32, ScalarType::Int32,
                                 ScalarType::Float32, ScalarType::Float64};

QString typeDescription(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return RawImportDialog::tr("unsigned 8-bit integer");
    case ScalarType::Int8: return RawImportDialog::tr("signed 8-bit integer");
    case ScalarType::UInt16: return RawImportDialog::tr("unsigned 16-bit integer");
    case ScalarType::Int16: return RawImportDialog::tr("signed 16-bit integer");
    case ScalarType::UInt32: return RawImportDialog::tr("unsigned 32-bit integer");
    case ScalarType::Int32: return RawImportDialog::tr("signed 32-bit integer");
    case ScalarType::Float32: return RawImportDialog::tr("32-bit floating point");
    case ScalarType::Float64: return RawImportDialog::tr("64-bit floating point");
    }
    return {};
}

// "14,811,136": the status line is a fixed, locale-independent sentence (tests read it).
QString groupDigits(std::uint64_t n)
{
    QString digits = QString::number(n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

QString byteCount(std::uint64_t n)
{
    return n == 1 ? RawImportDialog::tr("1 byte")
                  : RawImportDialog::tr("%1 bytes").arg(groupDigits(n));
}

// "14.1 MiB" beside the exact count, to tell a 14 MB file from a 140 MB one at a glance.
QString humanSize(std::uint64_t n)
{
    constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = double(n);
    int unit = -1;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    if (unit < 0) return {};
    return QString("%1 %2").arg(value, 0, 'f', 1).arg(units[unit]);
}

// Spacing boxes keep 4 decimals of precision but show only the digits that matter ("1 mm",
// "0.4512 mm"), which reads better than a column of "1.0000".
class SpacingSpinBox : public QDoubleSpinBox {
public:
    explicit SpacingSpinBox(QWidget* parent) : QDoubleSpinBox(parent)
    {
        setDecimals(4);
        setRange(0.0001, 10000.0);
        setSingleStep(0.1);
        setSuffix(" mm");
        setAccelerated(true);
    }

protected:
    QString textFromValue(double value) const override
    {
        QString text = locale().toString(value, 'f', decimals());
        const QChar point = locale().decimalPoint().front();
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point)) text.chop(1);
        }
        return text;
    }
};

// The folder of a file can be far longer than the dialog is wide: elide its middle, keep the
// whole path in the tooltip, and never let it set the dialog's width.
class ElidedLabel : public QLabel {
public:
    ElidedLabel(const QString& text, QWidget* parent) : QLabel(parent), m_fullText(text)
    {
        setToolTip(text);
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        setText(text);
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        setText(fontMetrics().elidedText(m_fullText, Qt::ElideMiddle, contentsRect().width()));
    }

private:
    QString m_fullText;
};

QSpinBox* makeDimensionBox(const QString& name, const QString& tip, QWidget* parent)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, kMaxDimension);
    box->setAccelerated(true);
    box->setToolTip(tip);
    box->setMinimumWidth(90);
    return box;
}

QLabel* timesLabel(QWidget* parent)
{
    auto* label = new QLabel(QString::fromUtf8("\u00d7"), parent);
    label->setAlignment(Qt::AlignCenter);
    return label;
}

} // namespace

std::optional<glm::uvec3> guessRawDimensions(std::uint64_t dataBytes, std::size_t typeSize)
{
    if (typeSize == 0 || dataBytes == 0 || dataBytes % typeSize != 0) return std::nullopt;
    const std::uint64_t voxels = dataBytes / typeSize;

    // cbrt is exact enough to land within one of the true root for any 64-bit count.
    const auto root = std::uint64_t(std::llround(std::cbrt(double(voxels))));
    for (std::uint64_t n = root > 0 ? root - 1 : 0; n <= root + 1; ++n) {
        if (n >= 1 && n <= kMaxDimension && n * n * n == voxels) {
            return glm::uvec3(std::uint32_t(n));
        }
    }
    for (std::uint32_t w : kGuessWidths) {
        const std::uint64_t slice = std::uint64_t(w) * w;
        if (voxels % slice == 0 && voxels / slice <= kMaxDimension) {
            return glm::uvec3(w, w, std::uint32_t(voxels / slice));
        }
    }
    return std::nullopt;
}

RawImportDialog::RawImportDialog(const QString& path, QWidget* parent)
    : QDialog(parent), m_path(path)
{
    setWindowTitle(tr("Open Raw Volume"));
    setObjectName("rawImportDialog");

    const QFileInfo file(path);
    m_folderMode = file.isDir();
    QString sliceText;
    if (m_folderMode) {
        setWindowTitle(tr("Open Raw Slice Folder"));
        try {
            if (const std::optional<io::RawSliceSeries> series =
                    io::findRawSliceSeries(path.toStdString())) {
                m_sliceFiles = series->files;
                const QFileInfo first(QString::fromStdString(m_sliceFiles.front().string()));
                if (first.isFile() && first.isReadable()) {
                    m_fileSize = std::uint64_t(first.size());
                }
                const QString count = m_sliceFiles.size() == 1
                                          ? tr("1 slice file")
                                          : tr("%1 slice files").arg(m_sliceFiles.size());
                sliceText =
                    tr("%1, %2 to %3")
                        .arg(count, first.fileName(),
                             QString::fromStdString(m_sliceFiles.back().filename().string()));
            }
        } catch (const Error& e) {
            sliceText = QString::fromStdString(e.what());
        }
        if (m_sliceFiles.empty() && sliceText.isEmpty()) {
            sliceText = tr("The folder holds no files named <name>.<number>.");
        }
    } else if (file.isFile() && file.isReadable()) {
        m_fileSize = std::uint64_t(file.size());
    }

    // The file: name, folder and size, so the numbers below can be checked against it.
    auto* fileIcon = new QLabel(this);
    fileIcon->setPixmap(style()
                            ->standardIcon(m_folderMode ? QStyle::SP_DirIcon : QStyle::SP_FileIcon)
                            .pixmap(32, 32));
    fileIcon->setAlignment(Qt::AlignTop);
    auto* fileName = new QLabel(QString("<b>%1</b>").arg(file.fileName().toHtmlEscaped()), this);
    auto* folder = new ElidedLabel(QDir::toNativeSeparators(file.absolutePath()), this);
    folder->setForegroundRole(QPalette::PlaceholderText);
    auto* sizeLabel = new QLabel(this);
    sizeLabel->setObjectName("fileSize");
    if (m_fileSize) {
        const QString human = humanSize(*m_fileSize);
        const QString size = human.isEmpty() ? byteCount(*m_fileSize)
                                             : tr("%1 (%2)").arg(byteCount(*m_fileSize), human);
        sizeLabel->setText(m_folderMode ? tr("%1, %2 each").arg(sliceText, size) : size);
    } else if (m_folderMode) {
        sizeLabel->setText(sliceText);
    } else {
        sizeLabel->setText(tr("The file cannot be found or read."));
    }
    auto* fileText = new QVBoxLayout;
    fileText->setSpacing(2);
    fileText->addWidget(fileName);
    fileText->addWidget(folder);
    fileText->addWidget(sizeLabel);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(fileIcon);
    fileRow->addLayout(fileText, 1);

    // The grid: dimensions (with the guess) and spacing.
    m_width = makeDimensionBox("width", tr("Width: voxels per row (X, varies fastest)"), this);
    m_height = makeDimensionBox("height", tr("Height: rows per slice (Y)"), this);
    m_depth = makeDimensionBox("depth", tr("Depth: number of slices (Z)"), this);
    if (m_folderMode) {
        m_depth->setEnabled(false);
        m_depth->setToolTip(tr("Depth: one slice per file of the folder"));
    }
    auto* guessButton = new QPushButton(tr("&Guess"), this);
    guessButton->setObjectName("guessButton");
    guessButton->setToolTip(
        m_folderMode ? tr("Propose a slice size and type that fill each file exactly: square "
                          "slices of int16, uint8 or float32, else rows 512 to 64 wide")
                     : tr("Propose dimensions that fill the file exactly with the chosen "
                          "type: a cube, or square slices 512, 256 or 128 wide"));
    connect(guessButton, &QPushButton::clicked, this, &RawImportDialog::applyGuess);

    m_spacingX = new SpacingSpinBox(this);
    m_spacingX->setObjectName("spacingX");
    m_spacingY = new SpacingSpinBox(this);
    m_spacingY->setObjectName("spacingY");
    m_spacingZ = new SpacingSpinBox(this);
    m_spacingZ->setObjectName("spacingZ");
    m_spacingZ->setToolTip(tr("Distance between slices"));

    // One grid per box, so the three axes line up in columns; the label columns of both boxes
    // get the same width below.
    auto* gridBox = new QGroupBox(tr("Voxel grid"), this);
    auto* gridLayout = new QGridLayout(gridBox);
    auto* dimsLabel = new QLabel(tr("&Dimensions:"), this);
    auto* spacingLabel = new QLabel(tr("S&pacing:"), this);
    gridLayout->addWidget(dimsLabel, 0, 0);
    gridLayout->addWidget(spacingLabel, 1, 0);
    const std::array<QWidget*, 3> dimBoxes = {m_width, m_height, m_depth};
    const std::array<QWidget*, 3> spacingBoxes = {m_spacingX, m_spacingY, m_spacingZ};
    for (int axis = 0; axis < 3; ++axis) {
        if (axis > 0) {
            gridLayout->addWidget(timesLabel(this), 0, 2 * axis);
            gridLayout->addWidget(timesLabel(this), 1, 2 * axis);
        }
        gridLayout->addWidget(dimBoxes[std::size_t(axis)], 0, 2 * axis + 1);
        gridLayout->addWidget(spacingBoxes[std::size_t(axis)], 1, 2 * axis + 1);
        gridLayout->setColumnStretch(2 * axis + 1, 1);
    }
    gridLayout->addWidget(guessButton, 0, 6);

    // The values: type, byte order, and where they start.
    m_type = new QComboBox(this);
    m_type->setObjectName("scalarType");
    for (ScalarType type : kTypes) {
        m_type->addItem(QString("%1  \u2013  %2")
                            .arg(QString::fromLatin1(scalarTypeName(type)), typeDescription(type)),
                        int(type));
    }
    m_byteOrder = new QComboBox(this);
    m_byteOrder->setObjectName("byteOrder");
    m_byteOrder->addItem(tr("Little endian (PC, most files today)"), false);
    m_byteOrder->addItem(tr("Big endian (older Mac and Unix workstations)"), true);

    m_headerOffset = new QSpinBox(this);
    m_headerOffset->setObjectName("headerOffset");
    m_headerOffset->setRange(0, kMaxHeaderOffset);
    m_headerOffset->setSuffix(tr(" bytes"));
    m_headerOffset->setGroupSeparatorShown(true);
    m_headerOffset->setToolTip(tr("Bytes skipped at the start of the file"));
    m_remainderButton = new QPushButton(tr("&Rest of File"), this);
    m_remainderButton->setObjectName("remainderButton");
    m_remainderButton->setToolTip(
        tr("Treat the bytes the voxels leave over at the start of the file as a header"));
    connect(m_remainderButton, &QPushButton::clicked, this,
            &RawImportDialog::fillHeaderFromRemainder);

    auto* valuesBox = new QGroupBox(tr("Voxel values"), this);
    auto* valuesLayout = new QGridLayout(valuesBox);
    auto* typeLabel = new QLabel(tr("&Type:"), this);
    auto* orderLabel = new QLabel(tr("&Byte order:"), this);
    auto* headerLabel = new QLabel(tr("&Header:"), this);
    valuesLayout->addWidget(typeLabel, 0, 0);
    valuesLayout->addWidget(m_type, 0, 1, 1, 2);
    valuesLayout->addWidget(orderLabel, 1, 0);
    valuesLayout->addWidget(m_byteOrder, 1, 1, 1, 2);
    valuesLayout->addWidget(headerLabel, 2, 0);
    valuesLayout->addWidget(m_headerOffset, 2, 1);
    valuesLayout->addWidget(m_remainderButton, 2, 2);
    valuesLayout->setColumnStretch(1, 1);

    dimsLabel->setBuddy(m_width);
    spacingLabel->setBuddy(m_spacingX);
    typeLabel->setBuddy(m_type);
    orderLabel->setBuddy(m_byteOrder);
    headerLabel->setBuddy(m_headerOffset);
    int labelWidth = 0;
    for (QLabel* label : {dimsLabel, spacingLabel, typeLabel, orderLabel, headerLabel}) {
        labelWidth = std::max(labelWidth, label->sizeHint().width());
    }
    gridLayout->setColumnMinimumWidth(0, labelWidth);
    valuesLayout->setColumnMinimumWidth(0, labelWidth);

    // The verdict, updated on every keystroke.
    auto* statusFrame = new QFrame(this);
    statusFrame->setObjectName("statusFrame");
    m_statusIcon = new QLabel(statusFrame);
    m_statusIcon->setAlignment(Qt::AlignTop);
    m_status = new QLabel(statusFrame);
    m_status->setObjectName("status");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* statusRow = new QHBoxLayout(statusFrame);
    statusRow->setContentsMargins(8, 6, 8, 6);
    statusRow->addWidget(m_statusIcon);
    statusRow->addWidget(m_status, 1);
    m_guessNote = new QLabel(this);
    m_guessNote->setObjectName("guessNote");
    m_guessNote->setWordWrap(true);
    m_guessNote->setForegroundRole(QPalette::PlaceholderText);
    m_guessNote->hide();

    // The preview: the middle slice as the values shown decode it.
    auto* previewBox = new QGroupBox(tr("Preview"), this);
    m_previewLabel = new QLabel(previewBox);
    m_previewLabel->setObjectName("preview");
    m_previewLabel->setFixedSize(192, 192);
    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setFrameShape(QFrame::StyledPanel);
    m_previewCaption = new QLabel(previewBox);
    m_previewCaption->setObjectName("previewCaption");
    m_previewCaption->setWordWrap(true);
    m_previewCaption->setForegroundRole(QPalette::PlaceholderText);
    auto* previewLayout = new QHBoxLayout(previewBox);
    previewLayout->addWidget(m_previewLabel);
    previewLayout->addWidget(m_previewCaption, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_openButton = buttons->button(QDialogButtonBox::Ok);
    m_openButton->setText(tr("Open"));
    m_openButton->setObjectName("openButton");
    m_openButton->setDefault(true); // Enter opens (when the sizes match), Esc cancels
    connect(buttons, &QDialogButtonBox::accepted, this, &RawImportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fileRow);
    layout->addSpacing(4);
    layout->addWidget(gridBox);
    layout->addWidget(valuesBox);
    layout->addWidget(statusFrame);
    layout->addWidget(m_guessNote);
    layout->addWidget(previewBox);
    layout->addStretch(1);
    layout->addWidget(buttons);

    for (QSpinBox* box : {m_width, m_height, m_depth, m_headerOffset}) {
        connect(box, &QSpinBox::valueChanged, this, &RawImportDialog::updateStatus);
    }
    connect(m_type, &QComboBox::currentIndexChanged, this, &RawImportDialog::updateStatus);
    connect(m_byteOrder, &QComboBox::currentIndexChanged, this, &RawImportDialog::updateStatus);

    setParameters(remembered());
    if (m_fileSize && !sizeMatches()) applyGuess();
    resize(std::max(560, sizeHint().width()), sizeHint().height());
}

void RawImportDialog::setParameters(const io::RawVolumeParameters& p)
{
    {
        const QSignalBlocker blockWidth(m_width), blockHeight(m_height), blockDepth(m_depth),
            blockType(m_type), blockOrder(m_byteOrder), blockHeader(m_headerOffset);
        auto clampDimension = [](std::uint32_t n) {
            return int(std::clamp<std::uint32_t>(n, 1, kMaxDimension));
        };
        m_width->setValue(clampDimension(p.dims.x));
        m_height->setValue(clampDimension(p.dims.y));
        m_depth->setValue(
            clampDimension(m_folderMode ? std::uint32_t(m_sliceFiles.size()) : p.dims.z));
        m_type->setCurrentIndex(m_type->findData(int(p.type)));
        m_byteOrder->setCurrentIndex(p.bigEndian ? 1 : 0);
        m_headerOffset->setValue(
            int(std::min<std::uint64_t>(p.headerOffset, std::uint64_t(kMaxHeaderOffset))));
    }
    m_spacingX->setValue(p.spacing.x);
    m_spacingY->setValue(p.spacing.y);
    m_spacingZ->setValue(p.spacing.z);
    updateStatus();
}

io::RawVolumeParameters RawImportDialog::parameters() const
{
    io::RawVolumeParameters p;
    p.dims = glm::uvec3(std::uint32_t(m_width->value()), std::uint32_t(m_height->value()),
                        std::uint32_t(m_depth->value()));
    p.type = ScalarType(m_type->currentData().toInt());
    p.bigEndian = m_byteOrder->currentData().toBool();
    p.spacing = glm::dvec3(m_spacingX->value(), m_spacingY->value(), m_spacingZ->value());
    p.headerOffset = std::uint64_t(m_headerOffset->value());
    return p;
}

std::uint64_t RawImportDialog::expectedSize() const
{
    const io::RawVolumeParameters p = parameters();
    // Spin box limits keep this below 2^63: 10^15 voxels x 8 bytes + 2^31.
    const std::uint64_t depth = m_folderMode ? 1 : p.dims.z; // folder: each file, one slice
    return std::uint64_t(p.dims.x) * p.dims.y * depth * scalarSize(p.type) + p.headerOffset;
}

bool RawImportDialog::sizeMatches() const
{
    return m_fileSize && *m_fileSize == expectedSize();
}

bool RawImportDialog::applyGuess()
{
    const io::RawVolumeParameters p = parameters();
    const QString typeName = QString::fromLatin1(scalarTypeName(p.type));
    QString note;
    bool found = false;
    if (!m_fileSize) {
        note = tr("No guess: the file size is unknown.");
    } else if (*m_fileSize <= p.headerOffset) {
        note = tr("No guess: the header takes the whole file.");
    } else if (m_folderMode) {
        const std::uint64_t dataBytes = *m_fileSize - p.headerOffset;
        if (const std::optional<io::RawVolumeParameters> guess =
                io::guessRawSliceLayout(dataBytes, m_sliceFiles.size())) {
            io::RawVolumeParameters guessed = p;
            guessed.dims = guess->dims;
            guessed.type = guess->type;
            // The byte order from the middle slice: the wrong one reads as noise.
            guessed.bigEndian =
                io::guessSliceIsBigEndian(m_sliceFiles[m_sliceFiles.size() / 2], guessed)
                    .value_or(p.bigEndian);
            setParameters(guessed);
            note = tr("Guessed %1 \u00d7 %2 %3 slices, %4, from the file count and size and the "
                      "middle slice: a guess; check the preview looks right.")
                       .arg(guess->dims.x)
                       .arg(guess->dims.y)
                       .arg(QString::fromLatin1(scalarTypeName(guess->type)),
                            guessed.bigEndian ? tr("big-endian") : tr("little-endian"));
            found = true;
        } else {
            note = tr("No guess: %1 per file after the header are no square slice of int16, "
                      "uint8 or float32 values, nor rows 512, 256, 128 or 64 wide.")
                       .arg(byteCount(dataBytes));
        }
    } else {
        const std::uint64_t dataBytes = *m_fileSize - p.headerOffset;
        if (const std::optional<glm::uvec3> dims =
                guessRawDimensions(dataBytes, scalarSize(p.type))) {
            {
                const QSignalBlocker blockWidth(m_width), blockHeight(m_height),
                    blockDepth(m_depth);
                m_width->setValue(int(dims->x));
                m_height->setValue(int(dims->y));
                m_depth->setValue(int(dims->z));
            }
            updateStatus();
            const QString shape =
                dims->x == dims->z ? tr("a cube") : tr("square slices %1 wide").arg(dims->x);
            note = tr("Guessed %1 \u00d7 %2 \u00d7 %3 (%4 of %5) from the file size; check the "
                      "image looks right.")
                       .arg(dims->x)
                       .arg(dims->y)
                       .arg(dims->z)
                       .arg(shape, typeName);
            found = true;
        } else {
            note = tr("No guess: %1 after the header is neither a cube nor square slices 512, "
                      "256 or 128 wide of %2 values.")
                       .arg(byteCount(dataBytes), typeName);
        }
    }
    m_guessNote->setText(note);
    m_guessNote->show();
    return found;
}

void RawImportDialog::accept()
{
    if (!sizeMatches()) return;
    remember();
    QDialog::accept();
}

void RawImportDialog::updateStatus()
{
    // Any edit makes the previous guess's note stale (applyGuess sets it again after this).
    m_guessNote->hide();

    const io::RawVolumeParameters p = parameters();
    const std::size_t typeSize = scalarSize(p.type);
    m_byteOrder->setEnabled(typeSize > 1);
    m_byteOrder->setToolTip(typeSize > 1 ? QString() : tr("One-byte values have no byte order"));

    const QString layout = QString("%1 x %2 x %3 x %4 + %5 header")
                               .arg(p.dims.x)
                               .arg(p.dims.y)
                               .arg(p.dims.z)
                               .arg(byteCount(typeSize), groupDigits(p.headerOffset));
    const std::uint64_t expected = expectedSize();
    bool ok = false;
    QString text;
    if (!m_fileSize) {
        text = tr("%1 = %2, but the file cannot be read.").arg(layout, byteCount(expected));
    } else if (*m_fileSize == expected) {
        text = m_folderMode
                   ? tr("%1 x %2 x %3 + %4 header = %5 per file: matches each of the "
                        "%6 files")
                         .arg(p.dims.x)
                         .arg(p.dims.y)
                         .arg(byteCount(typeSize), groupDigits(p.headerOffset), byteCount(expected))
                         .arg(m_sliceFiles.size())
                   : tr("%1 = %2: matches the file").arg(layout, byteCount(expected));
        ok = true;
    } else {
        const std::uint64_t actual = *m_fileSize;
        const QString difference = actual > expected
                                       ? tr("%1 more").arg(groupDigits(actual - expected))
                                       : tr("%1 fewer").arg(groupDigits(expected - actual));
        text = tr("%1: expected %2, the file has %3 (%4)")
                   .arg(layout, byteCount(expected), groupDigits(actual), difference);
    }
    m_status->setText(text);

    // Tinted frame and dark text, legible on light and dark palettes alike.
    const char* frameStyle =
        ok ? "#statusFrame { background: #e6f4ea; border: 1px solid #a8d5b5; border-radius: 4px; }"
             "#statusFrame QLabel { color: #1e6b34; }"
           : "#statusFrame { background: #fce8e6; border: 1px solid #f1b3ad; border-radius: 4px; }"
             "#statusFrame QLabel { color: #a50e0e; }";
    m_status->parentWidget()->setStyleSheet(frameStyle);
    m_statusIcon->setPixmap(
        style()
            ->standardIcon(ok ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxWarning)
            .pixmap(16, 16));
    m_openButton->setEnabled(ok);

    // The remainder button helps exactly when the voxels fit and leave bytes over.
    const std::uint64_t dataBytes = expected - p.headerOffset;
    const bool remainderHelps = m_fileSize && *m_fileSize >= dataBytes &&
                                *m_fileSize - dataBytes != p.headerOffset &&
                                *m_fileSize - dataBytes <= std::uint64_t(kMaxHeaderOffset);
    m_remainderButton->setEnabled(remainderHelps);
    updatePreview(ok);
}

void RawImportDialog::updatePreview(bool sizeOk)
{
    m_preview = QImage();
    m_previewLabel->setPixmap(QPixmap());
    if (!sizeOk) {
        m_previewCaption->setText(tr("No preview until the sizes match."));
        return;
    }
    io::RawVolumeParameters p = parameters();
    std::filesystem::path file = m_path.toStdString();
    std::uint32_t slice = p.dims.z / 2;
    const std::uint32_t sliceCount = m_folderMode ? std::uint32_t(m_sliceFiles.size()) : p.dims.z;
    if (m_folderMode) { // the middle file holds the middle slice
        file = m_sliceFiles[slice];
        p.dims.z = 1;
    }
    try {
        const Volume image = io::readRawSlice(file, p, m_folderMode ? 0 : slice);
        const ValueRange range = image.storedRange();
        const double scale = range.max > range.min ? 255.0 / (range.max - range.min) : 0.0;
        m_preview = QImage(int(p.dims.x), int(p.dims.y), QImage::Format_Grayscale8);
        for (std::uint32_t y = 0; y < p.dims.y; ++y) {
            uchar* row = m_preview.scanLine(int(y));
            for (std::uint32_t x = 0; x < p.dims.x; ++x) {
                const float v = image.valueAt(x, y, 0);
                row[x] = std::isfinite(v) ? uchar(std::lround((v - range.min) * scale)) : 0;
            }
        }
        m_previewLabel->setPixmap(QPixmap::fromImage(m_preview.scaled(
            m_previewLabel->contentsRect().size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
        m_previewCaption->setText(
            tr("Slice %1 of %2, grey from %3 (black) to %4 (white). Noise or sheared rows "
               "mean the byte order, type or width is wrong.")
                .arg(slice + 1)
                .arg(sliceCount)
                .arg(range.min)
                .arg(range.max));
    } catch (const Error& e) {
        m_previewCaption->setText(tr("No preview: %1").arg(QString::fromStdString(e.what())));
    }
}

void RawImportDialog::proposeParameters(const io::RawVolumeParameters& parameters,
                                        const QString& note)
{
    setParameters(parameters);
    m_guessNote->setText(note);
    m_guessNote->show();
}

void RawImportDialog::fillHeaderFromRemainder()
{
    const std::uint64_t dataBytes = expectedSize() - parameters().headerOffset;
    if (!m_fileSize || *m_fileSize < dataBytes) return;
    m_headerOffset->setValue(
        int(std::min<std::uint64_t>(*m_fileSize - dataBytes, std::uint64_t(kMaxHeaderOffset))));
}

void RawImportDialog::remember() const
{
    const io::RawVolumeParameters p = parameters();
    QSettings settings;
    settings.beginGroup("rawImport");
    settings.setValue("width", p.dims.x);
    settings.setValue("height", p.dims.y);
    settings.setValue("depth", p.dims.z);
    settings.setValue("type", QString::fromLatin1(scalarTypeName(p.type)));
    settings.setValue("bigEndian", p.bigEndian);
    settings.setValue("spacingX", p.spacing.x);
    settings.setValue("spacingY", p.spacing.y);
    settings.setValue("spacingZ", p.spacing.z);
    settings.setValue("headerOffset", qulonglong(p.headerOffset));
}

io::RawVolumeParameters RawImportDialog::remembered()
{
    QSettings settings;
    settings.beginGroup("rawImport");
    io::RawVolumeParameters p;
    // A hand-edited or damaged settings file falls back value by value to the defaults.
    auto dimension = [&](const char* key, std::uint32_t fallback) {
        const unsigned n = settings.value(key, fallback).toUInt();
        return n >= 1 && n <= kMaxDimension ? std::uint32_t(n) : fallback;
    };
    auto spacing = [&](const char* key) {
        const double s = settings.value(key, 1.0).toDouble();
        return std::isfinite(s) && s > 0.0 ? s : 1.0;
    };
    p.dims = glm::uvec3(dimension("width", 256), dimension("height", 256), dimension("depth", 1));
    try {
        p.type = parseScalarType(settings.value("type", "uint8").toString().toStdString());
    } catch (const InvalidInputError&) {
        p.type = ScalarType::UInt8;
    }
    p.bigEndian = settings.value("bigEndian", false).toBool();
    p.spacing = glm::dvec3(spacing("spacingX"), spacing("spacingY"), spacing("spacingZ"));
    p.headerOffset = settings.value("headerOffset", 0).toULongLong();
    return p;
}

std::optional<io::RawVolumeParameters>
RawImportDialog::ask(const QString& path, QWidget* parent,
                     const std::optional<io::RawVolumeParameters>& initial)
{
    RawImportDialog dialog(path, parent);
    if (initial) dialog.setParameters(*initial);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.parameters();
}

std::optional<io::RawVolumeParameters> RawImportDialog::ask(const io::VolumeSource& source,
                                                            QWidget* parent)
{
    RawImportDialog dialog(QString::fromStdString(source.path.string()), parent);
    if (source.rawGuess && (source.rawGuessFromName || !dialog.sizeMatches())) {
        const io::RawVolumeParameters& g = *source.rawGuess;
        const QString layout = QString("%1 \u00d7 %2 \u00d7 %3 %4, %5")
                                   .arg(g.dims.x)
                                   .arg(g.dims.y)
                                   .arg(g.dims.z)
                                   .arg(QString::fromLatin1(scalarTypeName(g.type)),
                                        g.bigEndian ? tr("big-endian") : tr("little-endian"));
        dialog.proposeParameters(
            g, source.rawGuessFromName
                   ? tr("%1, as the name %2 states; check the preview looks right.")
                         .arg(layout, QString::fromStdString(source.path.filename().string()))
                   : tr("Guessed %1 from the file count and size: a guess; check the preview "
                        "looks right.")
                         .arg(layout));
    }
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.parameters();
}

} // namespace isoview::app
