#include "export/export_all_surfaces.h"

#include "common/error_dialog.h"
#include "common/output_folders.h"
#include "core/error.h"
#include "core/log.h"
#include "export/surface_export_job.h"
#include "loading/volume_document.h"
#include "views/viewport_widget.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>

namespace isoview::app {
namespace {

constexpr const char* kPatternKey = "export/allSurfacesPattern";
constexpr const char* kMergedKey = "export/allSurfacesMerged";
constexpr const char* kMerged3mfKey = "export/allSurfacesMerged3mf";
const QString kDefaultPattern = QStringLiteral("{volume}_{surface}");

} // namespace

ExportAllSurfaces::ExportAllSurfaces(QMainWindow* window, ViewportWidget* view,
                                     std::function<const VolumeDocument*()> document)
    : QObject(window), m_window(window), m_view(view), m_document(std::move(document))
{
    setObjectName("exportAllSurfaces");
    m_action = new QAction(tr("Export &All Surfaces and Labels..."), this);
    m_action->setObjectName("exportAllSurfacesAction");
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_action->setStatusTip(
        tr("Export every visible surface and label: a file each, or one PLY or 3MF with their "
           "colours"));
    connect(m_action, &QAction::triggered, this, &ExportAllSurfaces::dialog);

    m_progress = new QWidget(window);
    m_progress->setObjectName("exportAllProgress");
    auto* layout = new QHBoxLayout(m_progress);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Exporting surfaces"), m_progress));
    m_progressBar = new QProgressBar(m_progress);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setMaximumWidth(160);
    layout->addWidget(m_progressBar);
    auto* cancel = new QToolButton(m_progress);
    cancel->setText(tr("Cancel"));
    connect(cancel, &QToolButton::clicked, &m_task, &BackgroundTask::cancel);
    layout->addWidget(cancel);
    m_progress->hide(); // in the status bar while an export runs (run())
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString&, qint64 done, qint64 total) {
                m_progressBar->setValue(total > 0 ? int(done * 1000 / total) : 0);
            });
}

bool ExportAllSurfaces::capture(std::vector<NamedSurface>* out, QString* error)
{
    const Scene& scene = m_view->scene().scene();
    for (const Surface& s : scene.surfaces.surfaces()) {
        if (!s.visible) continue;
        NamedSurface named;
        named.name = s.name;
        named.surface = m_view->captureSurface(s.id);
        const glm::vec3 draw = surfaceDrawColor(s, scene.transferFunction);
        const QColor c = QColor::fromRgbF(draw.r, draw.g, draw.b); // the list's swatch colour
        named.color = glm::vec3(float(c.redF()), float(c.greenF()), float(c.blueF()));
        if (named.surface.isovalue != s.isovalue) { // a frame has not extracted it yet
            *error = tr("%1 is still being extracted: try again in a moment.")
                         .arg(QString::fromStdString(s.name));
            return false;
        }
        if (named.surface.mesh.triangleCount() == 0) {
            *error = tr("%1 has no triangles at isovalue %2: hide it to export the others.")
                         .arg(QString::fromStdString(s.name))
                         .arg(s.isovalue, 0, 'g', 6);
            return false;
        }
        out->push_back(std::move(named));
    }
    if (!captureLabels(out, error)) return false;
    if (out->empty()) {
        *error = tr("No surface or label is visible: show the ones to export.");
        return false;
    }
    return true;
}

bool ExportAllSurfaces::captureLabels(std::vector<NamedSurface>* out, QString* error)
{
    const std::optional<LabelLayer>& layer = m_view->scene().scene().labels;
    if (!layer) return true;
    const std::optional<std::vector<LabelSurface>> labels = m_view->captureLabels();
    if (!labels) {
        *error = tr("The label map is still being extracted: try again in a moment.");
        return false;
    }
    // Each shown label is a surface of its own, named from the table ("Label 7" without one).
    for (const LabelSurface& s : *labels) {
        const LabelStyle style = layer->style(s.label);
        if (!style.visible || style.opacity <= 0.0f) continue;
        NamedSurface named;
        named.name = layer->table.nameOf(s.label);
        if (named.name.empty()) named.name = "Label " + std::to_string(s.label);
        named.surface.mesh = s.mesh;
        named.surface.isovalue = kLabelIsovalue;
        named.surface.crop = m_view->scene().scene().cropBox();
        named.color = style.color;
        out->push_back(std::move(named));
    }
    return true;
}

void ExportAllSurfaces::fail(const QString& message)
{
    showErrorDialog(m_window, tr("Export failed"), message);
    emit finished(false, message);
}

void ExportAllSurfaces::exportEach(const QString& folder, const QString& pattern,
                                   const MeshExportOptions& options)
{
    const VolumeDocument* doc = m_document();
    if (!doc || m_task.isRunning()) {
        emit finished(false, tr("nothing to export, or an export is running"));
        return;
    }
    auto surfaces = std::make_shared<std::vector<NamedSurface>>();
    QString error;
    std::vector<std::filesystem::path> paths;
    try {
        if (!capture(surfaces.get(), &error)) {
            fail(error);
            return;
        }
        std::vector<std::string> names;
        names.reserve(surfaces->size());
        for (const NamedSurface& s : *surfaces)
            names.push_back(s.name);
        paths = surfaceFilePaths(folder.toStdString(), pattern.toStdString(),
                                 QFileInfo(doc->path).completeBaseName().toStdString(), names,
                                 options.format);
    } catch (const Error& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    const std::shared_ptr<const Volume> volume = doc->volume;
    run(
        [surfaces, volume, options, paths](TaskContext& context) {
            writeSurfaceFiles(*surfaces, *volume, options, paths, context);
        },
        tr("Exported %1 surfaces to %2").arg(surfaces->size()).arg(folder));
}

void ExportAllSurfaces::exportMerged(const QString& path, const MeshExportOptions& options)
{
    const VolumeDocument* doc = m_document();
    if (!doc || m_task.isRunning()) {
        emit finished(false, tr("nothing to export, or an export is running"));
        return;
    }
    auto surfaces = std::make_shared<std::vector<NamedSurface>>();
    QString error;
    if (!capture(surfaces.get(), &error)) {
        fail(error);
        return;
    }
    MeshExportOptions merged = options;
    if (merged.format != MeshFormat::ThreeMf) merged.format = MeshFormat::Ply;
    const std::shared_ptr<const Volume> volume = doc->volume;
    const std::string target = path.toStdString();
    run(
        [surfaces, volume, merged, target](TaskContext& context) {
            writeMergedSurfaces(*surfaces, *volume, merged, target, context);
        },
        tr("Exported %1 surfaces into %2").arg(surfaces->size()).arg(path));
}

void ExportAllSurfaces::run(std::function<void(TaskContext&)> work, const QString& done)
{
    m_task.disconnect(this);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString&, qint64 at, qint64 total) {
                m_progressBar->setValue(total > 0 ? int(at * 1000 / total) : 0);
            });
    connect(&m_task, &BackgroundTask::succeeded, this, [this, done] {
        m_progress->hide();
        m_window->statusBar()->showMessage(done, 8000);
        log::get("app")->info("{}", done.toStdString());
        emit finished(true, done);
    });
    connect(&m_task, &BackgroundTask::failed, this, [this](const QString& message) {
        m_progress->hide();
        fail(message);
    });
    connect(&m_task, &BackgroundTask::cancelled, this, [this] {
        m_progress->hide();
        m_window->statusBar()->showMessage(tr("Export cancelled; no file was written"), 6000);
        emit finished(false, tr("cancelled"));
    });
    m_progressBar->setValue(0);
    // Added at the first export: even hidden, a status-bar widget changes the bar's height.
    if (m_progress->parentWidget() != m_window->statusBar())
        m_window->statusBar()->addWidget(m_progress);
    m_progress->show();
    m_task.start(std::move(work));
}

void ExportAllSurfaces::dialog()
{
    const VolumeDocument* doc = m_document();
    if (!doc) return;
    QSettings settings;
    QDialog dialog(m_window);
    dialog.setObjectName("exportAllDialog");
    dialog.setWindowTitle(tr("Export All Surfaces"));
    auto* each = new QRadioButton(tr("A file for each surface"), &dialog);
    auto* merged = new QRadioButton(tr("One PLY file, each surface in its colour"), &dialog);
    auto* merged3mf = new QRadioButton(
        tr("One 3MF file, each surface an object with its name and colour"), &dialog);
    merged3mf->setObjectName("merged3mf");
    const bool was3mf = settings.value(kMerged3mfKey, false).toBool();
    (was3mf                                       ? merged3mf
     : settings.value(kMergedKey, false).toBool() ? merged
                                                  : each)
        ->setChecked(true);
    auto* folder = new QLineEdit(outputFolder(OutputKind::Surface), &dialog);
    auto* browse = new QPushButton(tr("Browse..."), &dialog);
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString chosen =
            QFileDialog::getExistingDirectory(&dialog, tr("Export to folder"), folder->text());
        if (!chosen.isEmpty()) folder->setText(chosen);
    });
    auto* pattern = new QLineEdit(settings.value(kPatternKey, kDefaultPattern).toString(), &dialog);
    pattern->setToolTip(
        tr("{volume}: the volume's name, {surface}: the surface's, {n}: its number"));
    auto* format = new QComboBox(&dialog);
    format->addItem(tr("PLY"), int(MeshFormat::Ply));
    format->addItem(tr("STL"), int(MeshFormat::Stl));
    format->addItem(tr("OBJ"), int(MeshFormat::Obj));
    format->addItem(tr("3MF"), int(MeshFormat::ThreeMf));
    const auto updateEnabled = [&] {
        pattern->setEnabled(each->isChecked());
        format->setEnabled(each->isChecked());
    };
    connect(each, &QRadioButton::toggled, &dialog, updateEnabled);
    updateEnabled();
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder, 1);
    folderRow->addWidget(browse);
    auto* form = new QFormLayout(&dialog);
    form->addRow(each);
    form->addRow(merged);
    form->addRow(merged3mf);
    form->addRow(tr("Folder:"), folderRow);
    form->addRow(tr("Name pattern:"), pattern);
    form->addRow(tr("Format:"), format);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;
    settings.setValue(kMergedKey, merged->isChecked());
    settings.setValue(kMerged3mfKey, merged3mf->isChecked());
    MeshExportOptions options;
    if (merged->isChecked() || merged3mf->isChecked()) {
        if (merged3mf->isChecked()) options.format = MeshFormat::ThreeMf;
        const QString extension = meshFormatExtension(options.format).data();
        // The file dialog asks before replacing a file, as File > Export Surface does.
        const QString name = QFileInfo(doc->path).completeBaseName() + "_surfaces." + extension;
        const QString path = QFileDialog::getSaveFileName(
            m_window, tr("Export All Surfaces"), QDir(folder->text()).filePath(name),
            merged3mf->isChecked() ? tr("3MF (*.3mf)") : tr("PLY (*.ply)"));
        if (path.isEmpty()) return;
        rememberOutputFolder(OutputKind::Surface, path);
        exportMerged(path, options);
        return;
    }
    settings.setValue(kPatternKey, pattern->text());
    options.format = MeshFormat(format->currentData().toInt());
    rememberOutputFolder(OutputKind::Surface, QDir(folder->text()).filePath("x"));
    exportEach(folder->text(), pattern->text(), options);
}

} // namespace isoview::app
