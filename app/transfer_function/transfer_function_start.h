// Which transfer function a newly opened volume starts with: the modality's default
// (defaultTransferFunction: CT skin/soft tissue in HU, else the MR ramp over the volume's range),
// unless the user keeps the function across volumes ("Keep Transfer Function for New Volumes",
// a checkable action remembered in QSettings under transferFunction/keep). Kept functions go
// only to a volume in the same units (HU to HU): a CT function over MR intensities shows
// nothing useful. Across runs, the function kept is the one saved at exit
// (transferFunction/last and transferFunction/lastUnits, written by the main window).
// GUI thread only; nothing throws.
#pragma once

#include "scene/transfer_function.h"
#include "volume/volume.h"

#include <QObject>
#include <QString>
#include <optional>

class QAction;

namespace isoview::app {

class TransferFunctionStart : public QObject {
    Q_OBJECT
public:
    explicit TransferFunctionStart(QObject* parent = nullptr);

    // Checkable; its state is read from and written to QSettings.
    QAction* keepAction() const { return m_keep; }
    bool keeps() const;

    // The function for a new volume. current: the function shown now with its units, when a
    // volume is open (else the one saved by the last run is the candidate to keep).
    TransferFunction forVolume(const Volume& volume, const QString& units,
                               const std::optional<TransferFunction>& current,
                               const QString& currentUnits) const;

private:
    QAction* m_keep = nullptr;
};

} // namespace isoview::app
