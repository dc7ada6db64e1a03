// Opening a volume in the background: the source is opened (scanned) once, the raw parameters
// or the DICOM series are asked for when needed (RawImportDialog, SeriesPickerDialog), and the
// volume is loaded from that same source with its histogram (VolumeDocument). Progress and
// Cancel go in the status bar (progressWidget()); the window's current volume stays usable
// meanwhile. One load at a time.
//
// Ends with opened (the document and the isovalue to start at), failed (the loader's message;
// the caller shows it) or cancelled (Cancel in the status bar). A question the user cancels ends
// it without a signal, the window unchanged.
//
// Thread: GUI only. Owned by the window that shows what it opens.
#pragma once

#include "common/background_task.h"
#include "gpu/scene_renderer.h"
#include "io/volume_loader.h"
#include "loading/volume_document.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QWidget;

namespace isoview::app {

class VolumeOpener : public QObject {
    Q_OBJECT
public:
    // dialogParent: the window the questions are asked over (it outlives the opener).
    explicit VolumeOpener(QWidget* dialogParent);

    // isovalue: real units to start at instead of the suggested one. Does nothing but emit
    // failed when a load is running.
    void open(const QString& path, std::optional<double> isovalue = std::nullopt,
              const io::LoadOptions& options = {});
    bool isLoading() const { return m_task.isRunning(); }
    // false (--screenshot, where nobody can answer): a folder of several series loads its
    // default (the largest, as isoview-cli takes it) and raw data without its layout fails
    // with why, instead of a dialog that would wait for ever.
    void setAsksQuestions(bool asks) { m_asksQuestions = asks; }
    // Where each load takes the GPU's memory check from (asked on the GUI thread as the load
    // starts): a volume the GPU cannot hold is then refused from its size before its voxels
    // are read. Without one, the upload's own check refuses it after the load.
    using AdmissionSource = std::function<gpu::SceneRenderer::VolumeAdmission()>;
    void setVolumeAdmission(AdmissionSource source) { m_admissionSource = std::move(source); }
    void cancel() { m_task.cancel(); }
    // The label, bar and Cancel button for the status bar; shown while loading.
    QWidget* progressWidget() const { return m_progress; }

signals:
    void opened(std::shared_ptr<isoview::app::VolumeDocument> document,
                std::optional<double> isovalue);
    void failed(const QString& title, const QString& message);
    void cancelled();

private:
    // Opens path in the background unless source is given (an answer to the raw or series
    // question about it), then loads or asks.
    void start(const QString& path, std::optional<double> isovalue, const io::LoadOptions& options,
               const std::shared_ptr<const io::VolumeSource>& source);

    AdmissionSource m_admissionSource;
    QWidget* m_dialogParent;
    bool m_asksQuestions = true;
    BackgroundTask m_task;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
