#include "mesh_export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace isoview::app {
namespace {

// Combo box order.
constexpr MeshFormat kFormats[] = {MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj};
enum SpaceChoice { kLps, kRas, kVoxel };

} // namespace

MeshExportDialog::MeshExportDialog(const QString& folder, const QString& baseName,
                                   bool patientSpace, QWidget* parent)
    : QDialog(parent)
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
    m_format->addItem(tr("PLY (Stanford polygon file)"));
    m_format->addItem(tr("STL (binary, for 3D printing)"));
    m_format->addItem(tr("OBJ (Wavefront)"));
    m_format->setCurrentIndex(std::clamp(settings.value("format", 0).toInt(), 0, 2));

    m_space = new QComboBox(this);
    m_space->addItem(patientSpace ? tr("Patient LPS millimetres (DICOM)")
                                  : tr("World millimetres"));
    m_space->addItem(patientSpace ? tr("Patient RAS millimetres (Slicer, printing tools)")
                                  : tr("World millimetres, x and y negated (RAS)"));
    m_space->addItem(tr("Voxel indices"));
    m_space->setCurrentIndex(std::clamp(settings.value("space", 0).toInt(), 0, 2));

    m_ascii = new QCheckBox(tr("ASCII PLY (larger, human-readable)"), this);
    m_ascii->setChecked(settings.value("ascii", false).toBool());
    m_normals = new QCheckBox(tr("Vertex normals"), this);
    m_normals->setChecked(settings.value("normals", true).toBool());
    m_color = new QCheckBox(tr("Vertex colour (the surface colour)"), this);
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
    layout->addWidget(buttons);

    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        syncExtension();
        updateEnabled();
    });
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
    const QString filters = tr("PLY (*.ply);;STL (*.stl);;OBJ (*.obj)");
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
    m_color->setEnabled(format == MeshFormat::Ply);
    m_normals->setEnabled(format != MeshFormat::Stl); // STL always carries facet normals
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

std::optional<MeshExportDialog::Choice> MeshExportDialog::ask(const QString& folder,
                                                              const QString& baseName,
                                                              bool patientSpace, QWidget* parent)
{
    MeshExportDialog dialog(folder, baseName, patientSpace, parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return Choice{dialog.path(), dialog.options(), dialog.withVertexColor()};
}

} // namespace isoview::app
