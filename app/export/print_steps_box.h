// The "Print preparation" group both export dialogs show (File > Export Surface, File > Export
// All Surfaces and Labels): close at the border, keep the largest piece, drop small pieces,
// smooth, decimate, as print_preparation.h's PrintSteps. Each spin box follows its check box.
// The choices are read from and remembered in a QSettings group of the dialog's own, so each
// dialog offers what it was last used with.
//
// Children's objectNames (what the tests find): closeBorders, keepLargest, dropSmall,
// dropSmallTriangles, smooth, smoothIterations, decimate, decimatePercent.
//
// Thread: GUI only.
#pragma once

#include "mesh_processing/print_preparation.h"

#include <QGroupBox>
#include <QString>

class QCheckBox;
class QSpinBox;

namespace isoview::app {

class PrintStepsBox : public QGroupBox {
    Q_OBJECT
public:
    // settingsGroup: where the choices live ("export" for File > Export Surface).
    explicit PrintStepsBox(const QString& settingsGroup, QWidget* parent = nullptr);

    PrintSteps steps() const;
    // Stores the choices in the settings group (a dialog calls it when accepted).
    void remember() const;

signals:
    // A step or its figure changed.
    void changed();

private:
    void updateEnabled();

    QString m_settingsGroup;
    QCheckBox* m_closeBorders = nullptr;
    QCheckBox* m_keepLargest = nullptr;
    QCheckBox* m_dropSmall = nullptr;
    QSpinBox* m_dropSmallTriangles = nullptr;
    QCheckBox* m_smooth = nullptr;
    QSpinBox* m_smoothIterations = nullptr;
    QCheckBox* m_decimate = nullptr;
    QSpinBox* m_decimatePercent = nullptr;
};

} // namespace isoview::app
