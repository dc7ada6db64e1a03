// File > Open Label Map… and Open Label Table…: a segmentation laid over the volume shown. The
// label map loads in the background (progress and Cancel in the status bar), is checked (whole
// numbers 0 .. 65535, analyseLabels) and placed on the volume's grid: taken as it is when made
// on it, resampled by nearest neighbour when its grid differs (notice() says so), refused with
// both extents when it does not overlap. A .seg.nrrd names its labels itself; any label map
// takes a table's names and colours (AFNI, Slicer, FreeSurfer, ITK-SNAP). Failures end in
// failed() (an error dialog for the window); the scene is unchanged then.
//
// Without a volume there is nothing to lay labels over: openWithoutVolume() asks the window to
// open the label map as the volume first, then open() lays it over itself.
//
// Thread: GUI only; the model outlives the opener.
#pragma once

#include "common/background_task.h"
#include "scene_model.h"

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QProgressBar;
class QWidget;

namespace isoview::app {

class LabelMapOpener : public QObject {
    Q_OBJECT
public:
    LabelMapOpener(SceneModel* scene, QWidget* dialogParent);

    QAction* openAction() const { return m_openAction; }
    QAction* openTableAction() const { return m_openTableAction; }
    QWidget* progressWidget() const { return m_progress; }
    bool isLoading() const { return m_task.isRunning(); }

    // Lays the label map at path over the scene's volume (in the background).
    void open(const QString& path);
    // Names and colours the labels from a table file (read at once: tables are small).
    void openTable(const QString& path);

signals:
    void opened(const QString& path);
    void notice(const QString& message); // what the user should know (a resampled grid)
    void failed(const QString& title, const QString& message);
    // No volume is open: the window opens this label map as the volume, then calls open().
    void openWithoutVolume(const QString& path);

private:
    void chooseLabelMap();
    void chooseTable();

    SceneModel* m_scene;
    QWidget* m_dialogParent;
    QAction* m_openAction;
    QAction* m_openTableAction;
    BackgroundTask m_task;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
