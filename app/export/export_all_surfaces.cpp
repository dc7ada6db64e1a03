#include "export/export_all_surfaces.h"

#include "common/error_dialog.h"
#include "common/number_text.h"
#include "common/output_folders.h"
#include "common/status_progress.h"
#include "core/error.h"
#include "core/log.h"
#include "export/export_all_preparation.h"
#include "export/print_steps_box.h"
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
#include <QStringList>
#include <QToolButton>

namespace isoview::app {
namespace {

constexpr const char* kPatternKey = "export/allSurfacesPattern";
constexpr const char* kMergedKey = "export/allSurfacesMerged";
constexpr const char* kMerged3mfKey = "export/allSurfacesMerged3mf";
// The print steps' own group: this dialog remembers its steps apart from File > Export Surface's.
constexpr const char* kStepsGroup = "export/allSurfacesPrint";
const QString kDefaultPattern = QStringLiteral("{volume}_{surface}");

// "Label 1, Label 9": the first few names, then how many more (an atlas has hundreds).
QString names(const std::vector<std::string>& list)
{
    constexpr std::size_t kShown = 5;
    QStringList out;
    for (std::size_t i = 0; i < list.size() && i < kShown; ++i)
        out << QString::fromStdString(list[i]);
    QString text = out.join(", ");
    if (list.size() > kShown) text += QObject::tr(" and %1 more").arg(list.size() - kShown);
    return text;
}

// "Exported 4 surfaces to F; prepared (keep-largest decimate=0.5): 120,000 triangles, 60,000
// written; not watertight: Label 9": what the status bar says, and each report in the log.
QString doneMessage(const QString& exported, const std::vector<NamedSurface>& surfaces,
                    const std::vector<PrintReport>& reports, const PrintSteps& steps)
{
    if (reports.empty()) return exported;
    for (std::size_t i = 0; i < reports.size() && i < surfaces.size(); ++i) {
        log::get("app")->info("export report for {}:\n{}", surfaces[i].name, reports[i].text());
    }
    const PreparationSummary summary = summarize(surfaces, reports);
    QString message =
        QObject::tr("%1; prepared (%2): %3 triangles extracted, %4 written")
            .arg(exported, QString::fromStdString(describeSteps(steps)),
                 formatCount(summary.trianglesBefore), formatCount(summary.trianglesAfter));
    if (!summary.notWatertight.empty())
        message += QObject::tr("; not watertight: %1").arg(names(summary.notWatertight));
    if (!summary.decimationAboveTarget.empty())
        message += QObject::tr("; decimation stopped above its target: %1")
                       .arg(names(summary.decimationAboveTarget));
    return message;
}

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

    QToolButton* cancel = nullptr;
    // In the status bar while an export runs (run()).
    m_progress = makeProgressWidget(window, &m_progressLabel, &m_progressBar, &cancel);
    m_progress->setObjectName("exportAllProgress");
    connect(cancel, &QToolButton::clicked, &m_task, &BackgroundTask::cancel);
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
    const Scene& scene = m_view->scene().scene();
    const std::optional<LabelLayer>& layer = scene.labels;
    if (!layer) return true;
    VoxelBox crop = scene.cropBox();
    double smoothingSigmaMm = 0.0;
    std::vector<LabelSurface> labels;
    if (layer->smoothingSigmaMm > 0.0) {
        // Smoothed labels are drawn from the layer's own meshes, made on the CPU for a sigma and
        // crop: exported once made for these, with that sigma (print preparation needs it).
        if (!layer->smoothingIsCurrent(crop)) {
            *error = tr("The labels' smoothing is still being made: try again in a moment.");
            return false;
        }
        smoothingSigmaMm = layer->smoothed->sigmaMm;
        crop = layer->smoothed->crop;
        for (const LabelSurface& s : layer->smoothed->surfaces) {
            if (s.mesh.triangleCount() > 0) labels.push_back(s);
        }
    } else {
        std::optional<std::vector<LabelSurface>> captured = m_view->captureLabels();
        if (!captured) {
            *error = tr("The label map is still being extracted: try again in a moment.");
            return false;
        }
        labels = std::move(*captured);
    }
    // Each shown label is a surface of its own, named from the table ("Label 7" without one).
    for (LabelSurface& s : labels) {
        const LabelStyle style = layer->style(s.label);
        if (!style.visible || style.opacity <= 0.0f) continue;
        NamedSurface named;
        named.name = layer->table.nameOf(s.label);
        if (named.name.empty()) named.name = "Label " + std::to_string(s.label);
        named.surface.mesh = std::move(s.mesh);
        named.surface.isovalue = kLabelIsovalue;
        named.surface.crop = crop;
        named.color = style.color;
        // Its voxels' extent: print preparation closes it only where it reaches the crop's faces.
        const LabelInfo* info = layer->statistics ? layer->statistics->find(s.label) : nullptr;
        if (!info) {
            *error = tr("Label %1 is not in the label map's statistics.").arg(s.label);
            return false;
        }
        named.label = SurfaceLabel{*info, smoothingSigmaMm};
        out->push_back(std::move(named));
    }
    return true;
}

std::shared_ptr<const Volume> ExportAllSurfaces::labelMap() const
{
    const std::optional<LabelLayer>& layer = m_view->scene().scene().labels;
    return layer ? layer->labelMap : nullptr;
}

void ExportAllSurfaces::fail(const QString& message)
{
    showErrorDialog(m_window, tr("Export failed"), message);
    emit finished(false, message);
}

void ExportAllSurfaces::exportEach(const QString& folder, const QString& pattern,
                                   const MeshExportOptions& options, const PrintSteps& steps)
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
        checkSurfaceExport(steps, options, doc->volume->geometry());
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
    const std::shared_ptr<const Volume> labels = labelMap();
    MeshExportOptions o = options;
    if (steps.any()) o.processing = describeSteps(steps);
    auto reports = std::make_shared<std::vector<PrintReport>>();
    run(
        [surfaces, volume, labels, o, steps, paths, reports](TaskContext& context) {
            refuseExistingFiles(paths); // before a slow preparation
            PreparedSurfaces prepared =
                prepareSurfaces(*surfaces, *volume, labels.get(), steps, o.space, context);
            *reports = std::move(prepared.reports);
            writeSurfaceFiles(*surfaces, prepared.geometry, o, paths, context);
        },
        [surfaces, reports, steps, n = surfaces->size(), folder] {
            return doneMessage(tr("Exported %1 surfaces to %2").arg(n).arg(folder), *surfaces,
                               *reports, steps);
        });
}

void ExportAllSurfaces::exportMerged(const QString& path, const MeshExportOptions& options,
                                     const PrintSteps& steps)
{
    const VolumeDocument* doc = m_document();
    if (!doc || m_task.isRunning()) {
        emit finished(false, tr("nothing to export, or an export is running"));
        return;
    }
    MeshExportOptions merged = options;
    if (merged.format != MeshFormat::ThreeMf) merged.format = MeshFormat::Ply;
    if (steps.any()) merged.processing = describeSteps(steps);
    auto surfaces = std::make_shared<std::vector<NamedSurface>>();
    QString error;
    try {
        checkSurfaceExport(steps, merged, doc->volume->geometry());
        if (!capture(surfaces.get(), &error)) {
            fail(error);
            return;
        }
    } catch (const Error& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    const std::shared_ptr<const Volume> volume = doc->volume;
    const std::shared_ptr<const Volume> labels = labelMap();
    const std::string target = path.toStdString();
    auto reports = std::make_shared<std::vector<PrintReport>>();
    run(
        [surfaces, volume, labels, merged, steps, target, reports](TaskContext& context) {
            PreparedSurfaces prepared =
                prepareSurfaces(*surfaces, *volume, labels.get(), steps, merged.space, context);
            *reports = std::move(prepared.reports);
            writeMergedSurfaces(*surfaces, prepared.geometry, merged, target, context);
        },
        [surfaces, reports, steps, n = surfaces->size(), path] {
            return doneMessage(tr("Exported %1 surfaces into %2").arg(n).arg(path), *surfaces,
                               *reports, steps);
        });
}

void ExportAllSurfaces::run(std::function<void(TaskContext&)> work,
                            std::function<QString()> doneText)
{
    m_task.disconnect(this);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString& stage, qint64 at, qint64 total) {
                // Preparation names its surface and stage ("Label 8: decimating").
                m_progressLabel->setText(stage == "writing" ? tr("Exporting surfaces")
                                                            : tr("Preparing %1").arg(stage));
                showProgress(m_progressBar, at, total);
            });
    connect(&m_task, &BackgroundTask::succeeded, this, [this, doneText = std::move(doneText)] {
        const QString done = doneText();
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
    m_progressLabel->setText(tr("Exporting surfaces"));
    m_progressBar->setRange(0, 1000);
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
    auto* steps = new PrintStepsBox(kStepsGroup, &dialog);
    steps->setToolTip(tr("Applied to every surface and label; a label is closed against its "
                         "own voxels where it reaches the crop box"));
    form->addRow(steps);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;
    settings.setValue(kMergedKey, merged->isChecked());
    settings.setValue(kMerged3mfKey, merged3mf->isChecked());
    steps->remember();
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
        exportMerged(path, options, steps->steps());
        return;
    }
    settings.setValue(kPatternKey, pattern->text());
    options.format = MeshFormat(format->currentData().toInt());
    rememberOutputFolder(OutputKind::Surface, QDir(folder->text()).filePath("x"));
    exportEach(folder->text(), pattern->text(), options, steps->steps());
}

} // namespace isoview::app
