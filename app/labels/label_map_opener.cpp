#include "labels/label_map_opener.h"

#include "common/status_progress.h"
#include "core/error.h"
#include "io/label_table_reader.h"
#include "io/volume_loader.h"
#include "volume/label_resampling.h"
#include "volume/label_volume.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QToolButton>
#include <filesystem>
#include <memory>
#include <optional>

namespace isoview::app {
namespace {

constexpr const char* kFolderKey = "labels/lastFolder";

// What the background load hands back.
struct LoadedLabels {
    std::shared_ptr<const Volume> labels; // on the image's grid
    std::shared_ptr<const LabelStatistics> statistics;
    LabelTable table;
    QString note; // said when the grid was resampled
};

std::optional<LabelTable> tableInside(const std::filesystem::path& path)
{
    const std::string name = path.filename().string();
    if (!name.ends_with(".nrrd") && !name.ends_with(".nhdr")) return std::nullopt;
    return io::readSegNrrdLabelTable(path);
}

} // namespace

LabelMapOpener::LabelMapOpener(SceneModel* scene, QWidget* dialogParent)
    : QObject(dialogParent), m_scene(scene), m_dialogParent(dialogParent)
{
    m_openAction = new QAction(tr("Open &Label Map…"), this);
    m_openAction->setShortcut(QKeySequence(tr("Ctrl+Shift+L")));
    m_openAction->setToolTip(tr("Lay a segmentation over the volume: every label its own surface"));
    m_openTableAction = new QAction(tr("Open Label &Table…"), this);
    m_openTableAction->setToolTip(tr("Name and colour the labels from a table file"));
    connect(m_openAction, &QAction::triggered, this, &LabelMapOpener::chooseLabelMap);
    connect(m_openTableAction, &QAction::triggered, this, &LabelMapOpener::chooseTable);
    QToolButton* cancel = nullptr;
    m_progress = makeProgressWidget(dialogParent, &m_progressLabel, &m_progressBar, &cancel);
    m_progress->setObjectName("labelLoadProgress");
    connect(cancel, &QToolButton::clicked, &m_task, &BackgroundTask::cancel);
    auto enable = [this] { m_openTableAction->setEnabled(m_scene->scene().labels.has_value()); };
    connect(m_scene, &SceneModel::changed, this, enable);
    enable();
}

void LabelMapOpener::chooseLabelMap()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        m_dialogParent, tr("Open Label Map"), settings.value(kFolderKey).toString(),
        tr("Label maps (*.nii *.nii.gz *.nrrd *.nhdr *.mha *.mhd);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(kFolderKey, QFileInfo(path).absolutePath());
    if (!m_scene->hasVolume()) {
        emit openWithoutVolume(path);
        return;
    }
    open(path);
}

void LabelMapOpener::chooseTable()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        m_dialogParent, tr("Open Label Table"), settings.value(kFolderKey).toString(),
        tr("Label tables (*.txt *.ctbl *.lut *.label);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(kFolderKey, QFileInfo(path).absolutePath());
    openTable(path);
}

void LabelMapOpener::openTable(const QString& path)
{
    try {
        const std::filesystem::path file = path.toStdString();
        m_scene->setLabelTable(io::readLabelTable(file),
                               std::filesystem::absolute(file).lexically_normal());
    } catch (const Error& e) {
        emit failed(tr("Cannot read %1").arg(QFileInfo(path).fileName()),
                    QString::fromUtf8(e.what()));
    }
}

void LabelMapOpener::open(const QString& path)
{
    const std::shared_ptr<const Volume> image = m_scene->scene().volume;
    if (!image) {
        emit openWithoutVolume(path);
        return;
    }
    if (m_task.isRunning()) {
        emit failed(tr("Busy"), tr("A label map is still loading. Cancel it first, or wait."));
        return;
    }
    auto outcome = std::make_shared<LoadedLabels>();
    m_task.disconnect(this);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString& stage, qint64 done, qint64 total) {
                m_progressLabel->setText(stage);
                showProgress(m_progressBar, done, total);
            });
    connect(&m_task, &BackgroundTask::succeeded, this, [this, outcome, path, image] {
        m_progress->setVisible(false);
        if (m_scene->scene().volume != image) return; // another volume came meanwhile
        try {
            LabelLayer layer =
                LabelLayer::of(outcome->labels, outcome->statistics, std::move(outcome->table));
            layer.source = std::filesystem::absolute(path.toStdString()).lexically_normal();
            m_scene->setLabels(std::move(layer));
        } catch (const Error& e) {
            emit failed(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                        QString::fromUtf8(e.what()));
            return;
        }
        if (!outcome->note.isEmpty()) emit notice(outcome->note);
        emit opened(path);
    });
    connect(&m_task, &BackgroundTask::failed, this, [this, path](const QString& message) {
        m_progress->setVisible(false);
        emit failed(tr("Cannot open %1 as a label map").arg(QFileInfo(path).fileName()), message);
    });
    connect(&m_task, &BackgroundTask::cancelled, this, [this] { m_progress->setVisible(false); });
    m_progressLabel->setText(tr("Opening label map %1").arg(QFileInfo(path).fileName()));
    m_progressBar->setRange(0, 0);
    m_progress->setVisible(true);
    m_task.start([outcome, path, image](TaskContext& context) {
        const std::filesystem::path file = path.toStdString();
        const Volume source = io::loadVolume(file, {}, &context);
        context.progress("Checking the labels", 0, 0);
        const LabelStatistics checked = analyseLabels(source); // throws: not a label map
        LabelsOnImage placed = labelsOnImageGrid(toLabelVolume(source, checked), *image);
        if (context.cancelRequested()) throw CancelledError("cancelled");
        outcome->statistics = std::make_shared<const LabelStatistics>(
            placed.resampled ? analyseLabels(placed.labels) : checked);
        outcome->labels = std::make_shared<const Volume>(std::move(placed.labels));
        outcome->table = tableInside(file).value_or(LabelTable{});
        outcome->note = QString::fromStdString(placed.note);
    });
}

} // namespace isoview::app
