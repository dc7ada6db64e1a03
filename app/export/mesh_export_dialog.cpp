#include "export/mesh_export_dialog.h"

#include "export/print_steps_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <cmath>

namespace isoview::app {
namespace {

// Combo box order.
constexpr MeshFormat kFormats[] = {MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj,
                                   MeshFormat::ThreeMf};
enum SpaceChoice { kLps, kRas, kVoxel };

// Decimal digits of the vertex numbers a text format writes, on average about those of the
// largest.
std::uint64_t indexDigits(std::uint64_t vertices)
{
    std::uint64_t digits = 1;
    for (std::uint64_t v = vertices; v >= 10; v /= 10)
        ++digits;
    return digits;
}

} // namespace

std::uint64_t estimateMeshFileBytes(std::uint64_t triangles, const MeshExportOptions& options,
                                    bool vertexColor)
{
    const std::uint64_t t = triangles;
    const std::uint64_t v = (triangles + 1) / 2; // Euler: V ~ T/2 on a closed surface
    const std::uint64_t digits = indexDigits(v);
    const bool normals = options.normals;
    switch (options.format) {
    case MeshFormat::Stl: return 84 + 50 * t; // exact: header, count, 50 bytes a facet
    case MeshFormat::Obj:
        // "v x y z" and "vn x y z" in shortest round-trip floats; "f a//a b//b c//c".
        return 100 + v * (32 + (normals ? 34 : 0)) + t * (2 + 3 * (1 + digits) * (normals ? 2 : 1));
    // Deflated XML: "<vertex x= y= z= />" and "<triangle v1= v2= v3= />" compress about 3:1.
    case MeshFormat::ThreeMf: return 2000 + v * 20 + t * (4 + 3 * digits / 2);
    case MeshFormat::Ply: break;
    }
    const std::uint64_t header = 400;
    if (options.plyEncoding == PlyEncoding::Ascii)
        return header + v * (30 + (normals ? 30 : 0) + (vertexColor ? 12 : 0)) +
               t * (2 + 3 * (1 + digits));
    return header + v * (12 + (normals ? 12 : 0) + (vertexColor ? 3 : 0)) + t * 13;
}

MeshExportDialog::MeshExportDialog(const QString& folder, const QString& baseName,
                                   bool patientSpace, std::uint64_t triangles, QWidget* parent)
    : QDialog(parent), m_triangles(triangles)
{
    setWindowTitle(tr("Export Surface"));
    setObjectName("meshExportDialog");
    QSettings settings;
    settings.beginGroup("export");

    m_path = new QLineEdit(this);
    auto* browseButton = new QPushButton(tr("Browse..."), this);
    connect(browseButton, &QPushButton::clicked, this, &MeshExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);

    m_format = new QComboBox(this);
    m_format->setObjectName("format");
    m_format->addItem(tr("PLY (Stanford polygon file)"));
    m_format->addItem(tr("STL (binary, for 3D printing)"));
    m_format->addItem(tr("OBJ (Wavefront)"));
    m_format->addItem(tr("3MF (3D printing: millimetres, named and coloured)"));
    m_format->setCurrentIndex(std::clamp(settings.value("format", 0).toInt(), 0, 3));

    m_space = new QComboBox(this);
    m_space->setObjectName("space");
    m_space->addItem(patientSpace ? tr("Patient LPS millimetres (DICOM)")
                                  : tr("World millimetres"));
    m_space->addItem(patientSpace ? tr("Patient RAS millimetres (Slicer, printing tools)")
                                  : tr("World millimetres, x and y negated (RAS)"));
    m_space->addItem(tr("Voxel indices"));
    m_space->setCurrentIndex(std::clamp(settings.value("space", 0).toInt(), 0, 2));

    m_ascii = new QCheckBox(tr("ASCII PLY (larger, human-readable)"), this);
    m_ascii->setObjectName("ascii");
    m_ascii->setChecked(settings.value("ascii", false).toBool());
    m_normals = new QCheckBox(tr("Vertex normals"), this);
    m_normals->setObjectName("normals");
    m_normals->setChecked(settings.value("normals", true).toBool());
    m_color = new QCheckBox(tr("Vertex colour (the surface colour)"), this);
    m_color->setObjectName("color");
    m_color->setChecked(settings.value("color", false).toBool());

    const QString extension = meshFormatExtension(kFormats[m_format->currentIndex()]).data();
    m_path->setText(QDir(folder).filePath(baseName + "." + extension));

    auto* form = new QFormLayout;
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Coordinates:"), m_space);
    form->addRow(QString(), m_ascii);
    form->addRow(QString(), m_normals);
    form->addRow(QString(), m_color);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        remember();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    m_steps = new PrintStepsBox("export", this);
    layout->addWidget(m_steps);
    m_estimate = new QLabel(this);
    m_estimate->setObjectName("estimateLabel");
    layout->addWidget(m_estimate);
    layout->addWidget(buttons);

    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        syncExtension();
        updateEnabled();
    });
    for (QCheckBox* box : {m_ascii, m_normals, m_color})
        connect(box, &QCheckBox::toggled, this, &MeshExportDialog::updateEnabled);
    connect(m_steps, &PrintStepsBox::changed, this, &MeshExportDialog::updateEnabled);
    connect(m_path, &QLineEdit::textChanged, this, [this, buttons] {
        // Typing a known extension picks the format.
        if (auto f = meshFormatForPath(m_path->text().toStdString())) {
            const int index =
                int(std::find(std::begin(kFormats), std::end(kFormats), *f) - std::begin(kFormats));
            if (index != m_format->currentIndex()) {
                QSignalBlocker block(m_format);
                m_format->setCurrentIndex(index);
                updateEnabled();
            }
        }
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_path->text().trimmed().isEmpty());
    });
    updateEnabled();
    resize(560, sizeHint().height());
}

void MeshExportDialog::browse()
{
    const QString filters = tr("PLY (*.ply);;STL (*.stl);;OBJ (*.obj);;3MF (*.3mf)");
    QString selected = filters.split(";;").value(m_format->currentIndex());
    const QString file = QFileDialog::getSaveFileName(this, tr("Export Surface"), m_path->text(),
                                                      filters, &selected);
    if (!file.isEmpty()) m_path->setText(file);
}

void MeshExportDialog::syncExtension()
{
    const QString extension = meshFormatExtension(kFormats[m_format->currentIndex()]).data();
    QFileInfo info(m_path->text());
    const QString base =
        info.completeSuffix().isEmpty() ? info.fileName() : info.completeBaseName();
    QSignalBlocker block(m_path);
    m_path->setText(QDir(info.path()).filePath(base + "." + extension));
}

void MeshExportDialog::updateEnabled()
{
    const MeshFormat format = kFormats[m_format->currentIndex()];
    m_ascii->setEnabled(format == MeshFormat::Ply);
    // 3MF colours its object with the surface colour; it has no vertex normals.
    m_color->setEnabled(format == MeshFormat::Ply || format == MeshFormat::ThreeMf);
    m_normals->setEnabled(format == MeshFormat::Ply || format == MeshFormat::Obj);
    m_estimate->setText(estimate());
}

QString MeshExportDialog::estimate() const
{
    if (m_triangles == 0) return tr("The triangle count is not known yet.");
    const PrintSteps s = steps();
    const auto triangles = std::uint64_t(std::llround(double(m_triangles) * s.decimateFraction));
    const std::uint64_t bytes = estimateMeshFileBytes(triangles, options(), withVertexColor());
    return tr("About %1 triangles, about %2")
        .arg(QLocale().toString(qulonglong(triangles)),
             QLocale().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat));
}

void MeshExportDialog::remember() const
{
    QSettings settings;
    settings.beginGroup("export");
    settings.setValue("format", m_format->currentIndex());
    settings.setValue("space", m_space->currentIndex());
    settings.setValue("ascii", m_ascii->isChecked());
    settings.setValue("normals", m_normals->isChecked());
    settings.setValue("color", m_color->isChecked());
    m_steps->remember();
    settings.setValue("folder", QFileInfo(path()).absolutePath());
}

QString MeshExportDialog::path() const
{
    return m_path->text().trimmed();
}

MeshExportOptions MeshExportDialog::options() const
{
    MeshExportOptions o;
    o.format = kFormats[m_format->currentIndex()];
    o.space = m_space->currentIndex() == kVoxel ? MeshSpace::VoxelIndex : MeshSpace::Physical;
    o.axes = m_space->currentIndex() == kRas ? PatientAxes::Ras : PatientAxes::Lps;
    o.plyEncoding = m_ascii->isChecked() ? PlyEncoding::Ascii : PlyEncoding::BinaryLittleEndian;
    o.normals = m_normals->isChecked();
    return o;
}

bool MeshExportDialog::withVertexColor() const
{
    return m_color->isEnabled() && m_color->isChecked();
}

PrintSteps MeshExportDialog::steps() const
{
    return m_steps->steps();
}

std::optional<MeshExportDialog::Choice>
MeshExportDialog::ask(const QString& folder, const QString& baseName, bool patientSpace,
                      std::uint64_t triangles, QWidget* parent)
{
    MeshExportDialog dialog(folder, baseName, patientSpace, triangles, parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return Choice{dialog.path(), dialog.options(), dialog.withVertexColor(), dialog.steps()};
}

} // namespace isoview::app
