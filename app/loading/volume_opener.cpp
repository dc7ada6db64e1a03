#include "loading/volume_opener.h"

#include "common/status_progress.h"
#include "core/error.h"
#include "core/log.h"
#include "loading/raw_import_dialog.h"
#include "loading/series_picker_dialog.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <filesystem>
#include <string>

namespace isoview::app {
namespace {

std::size_t loadableSeriesCount(const io::VolumeSourceInfo& info)
{
    std::size_t n = 0;
    for (const io::SeriesSummary& s : info.series)
        n += s.note.empty() ? 1 : 0;
    return n;
}

// Whether the loadable entries are the volumes of one series on one grid, which open together
// (at the default one) with no question.
bool oneSeriesOnOneGrid(const io::VolumeSourceInfo& info)
{
    if (info.series.empty() || info.defaultSeries >= info.series.size()) return false;
    return io::volumesOnOneGrid(info, info.defaultSeries).size() == loadableSeriesCount(info);
}

// The task's monitor, with the GPU's memory check for the volume before its voxels are read.
class AdmittingMonitor final : public io::LoadMonitor {
public:
    AdmittingMonitor(io::LoadMonitor& task, gpu::SceneRenderer::VolumeAdmission admission)
        : m_task(task), m_admission(std::move(admission))
    {
    }
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) override
    {
        m_task.progress(stage, done, total);
    }
    bool cancelRequested() const override { return m_task.cancelRequested(); }
    void admitVolume(glm::uvec3 dims, ScalarType type) override
    {
        if (m_admission) m_admission(dims, type);
    }

private:
    io::LoadMonitor& m_task;
    gpu::SceneRenderer::VolumeAdmission m_admission;
};

// What a load in the background hands back: the opened source, and either the volume or what
// the user must answer first (raw parameters, or which series) before it is loaded from that
// same source.
struct LoadOutcome {
    std::shared_ptr<const io::VolumeSource> source;
    std::shared_ptr<VolumeDocument> document;
    bool askRawParameters = false;
    bool chooseSeries = false;
};

} // namespace

VolumeOpener::VolumeOpener(QWidget* dialogParent)
    : QObject(dialogParent), m_dialogParent(dialogParent)
{
    QToolButton* cancelLoad = nullptr;
    m_progress = makeProgressWidget(dialogParent, &m_progressLabel, &m_progressBar, &cancelLoad);
    m_progress->setObjectName("loadProgress");
    connect(cancelLoad, &QToolButton::clicked, &m_task, &BackgroundTask::cancel);
}

void VolumeOpener::open(const QString& path, std::optional<double> isovalue,
                        const io::LoadOptions& options)
{
    if (m_task.isRunning()) {
        emit failed(tr("Busy"), tr("A volume is still loading. Cancel it first, or wait."));
        return;
    }
    start(path, isovalue, options, nullptr);
}

void VolumeOpener::start(const QString& path, std::optional<double> isovalue,
                         const io::LoadOptions& options,
                         const std::shared_ptr<const io::VolumeSource>& source)
{
    auto outcome = std::make_shared<LoadOutcome>();
    const bool askSeries = !options.seriesIndex.has_value() && !options.raw.has_value();
    m_task.disconnect(this);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString& stage, qint64 done, qint64 total) {
                m_progressLabel->setText(stage);
                showProgress(m_progressBar, done, total);
            });
    connect(&m_task, &BackgroundTask::succeeded, this, [this, outcome, path, isovalue, options] {
        m_progress->setVisible(false);
        // The answers go back to the source already opened: nothing is scanned again.
        if (outcome->askRawParameters && !m_asksQuestions) {
            emit failed(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                        tr("it is raw data whose size and voxel type its name does not give; "
                           "open it in the window to give them, or name it "
                           "name_XxYxZ_type.raw"));
            return;
        }
        if (outcome->askRawParameters) {
            std::optional<io::RawVolumeParameters> raw =
                RawImportDialog::ask(*outcome->source, m_dialogParent);
            if (!raw) return;
            io::LoadOptions withRaw = options;
            withRaw.raw = raw;
            start(path, isovalue, withRaw, outcome->source);
            return;
        }
        if (outcome->chooseSeries && !m_asksQuestions) {
            io::LoadOptions withDefault = options;
            withDefault.seriesIndex = outcome->source->defaultSeries;
            log::get("app")->info("{} holds {} series; loading the default, {} (no one to ask)",
                                  path.toStdString(), outcome->source->series.size(),
                                  outcome->source->defaultSeries);
            start(path, isovalue, withDefault, outcome->source);
            return;
        }
        if (outcome->chooseSeries) {
            const std::optional<std::size_t> series =
                SeriesPickerDialog::ask(*outcome->source, m_dialogParent);
            if (!series) return;
            io::LoadOptions withSeries = options;
            withSeries.seriesIndex = *series;
            start(path, isovalue, withSeries, outcome->source);
            return;
        }
        emit opened(outcome->document, isovalue);
    });
    connect(&m_task, &BackgroundTask::failed, this, [this, path](const QString& message) {
        m_progress->setVisible(false);
        emit failed(tr("Cannot open %1").arg(QFileInfo(path).fileName()), message);
    });
    connect(&m_task, &BackgroundTask::cancelled, this, [this] {
        m_progress->setVisible(false);
        emit cancelled();
    });
    m_progressLabel->setText(tr("Opening %1").arg(QFileInfo(path).fileName()));
    m_progressBar->setRange(0, 0);
    m_progress->setVisible(true);
    gpu::SceneRenderer::VolumeAdmission admission =
        m_admissionSource ? m_admissionSource() : nullptr;
    m_task.start([outcome, path, options, askSeries, source, admission](TaskContext& context) {
        outcome->source = source;
        if (!outcome->source) {
            const std::filesystem::path fsPath = path.toStdString();
            outcome->source = std::make_shared<const io::VolumeSource>(
                options.raw ? io::openRawSource(fsPath) : io::openSource(fsPath, &context));
        }
        const io::VolumeSource& opened = *outcome->source;
        if (opened.needsRawParameters && !options.raw) {
            outcome->askRawParameters = true;
            return;
        }
        // DICOM series, the volumes of a multi-volume series and of a 4-D NIfTI file alike.
        if (askSeries && !opened.series.empty()) {
            if (loadableSeriesCount(opened) == 0) {
                std::string why = "no series in it can be loaded";
                for (const io::SeriesSummary& s : opened.series)
                    why += "; " + s.note;
                throw InvalidInputError(why);
            }
            if (loadableSeriesCount(opened) > 1 && !oneSeriesOnOneGrid(opened)) {
                outcome->chooseSeries = true;
                return;
            }
        }
        AdmittingMonitor monitor(context, admission);
        outcome->document = loadVolumeDocument(opened, options, &monitor);
    });
}

} // namespace isoview::app
