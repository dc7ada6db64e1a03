// The transfer-function panel: the editor canvas with a preset box, Undo/Redo and Load.../Save...
// of JSON files. Presets and loaded files replace the function as one undoable step. The preset
// box shows the active preset (the function equals that preset over the volume's range, name
// included), else "Custom". Undo/Redo (Ctrl+Z; Ctrl+Shift+Z or Ctrl+Y) are window-wide
// shortcuts, so they work wherever the focus is in the panel's window; the main window also
// puts them in its Edit menu. GUI thread only.
//
// Errors: loadFromFile/saveToFile return false with the engine's message (IoError,
// InvalidInputError) and leave the function as it was; the buttons show that message in a
// QMessageBox::critical.
//
// Example:
//   panel->setVolumeContext(doc.histogram, doc.realRange, doc.units());
//   panel->setTransferFunction(defaultTransferFunction(*doc.volume));
//   connect(panel, &TransferFunctionPanel::transferFunctionChanged, window, [&] {
//       view->setTransferFunction(panel->transferFunction());
//   });
#pragma once

#include "scene/transfer_function.h"
#include "volume/histogram.h"
#include "volume/volume.h"

#include <QString>
#include <QWidget>
#include <optional>

class QAction;
class QComboBox;
class QPushButton;
class QToolButton;
class QUndoStack;

namespace isoview::app {

class TransferFunctionEditor;

class TransferFunctionPanel : public QWidget {
    Q_OBJECT
public:
    // history: the undo stack of the panel's edits (the window's); none: the editor's own.
    explicit TransferFunctionPanel(QWidget* parent = nullptr, QUndoStack* history = nullptr);

    // The histogram drawn behind the curve and the range the presets are laid out over
    // (MR-style presets have no absolute scale). units: shown with values ("HU").
    void setVolumeContext(const Histogram& histogram, ValueRange realRange,
                          const QString& units = {});

    // For a new volume: no undo entry, and the undo history is cleared.
    void setTransferFunction(const TransferFunction& tf);
    // Shows a function that changed elsewhere (the scene's, after undo or a session): no undo
    // entry, the history kept, the selected point kept where it still exists.
    void showTransferFunction(const TransferFunction& tf);
    const TransferFunction& transferFunction() const;

    // Applies a preset over the volume's range as one undoable step.
    void applyPreset(TransferPreset preset);

    // Loads a JSON transfer function as one undoable step. On failure returns false, sets
    // *error (when given) to the reason and leaves the function unchanged.
    bool loadFromFile(const QString& path, QString* error);
    // Writes the current function as JSON (atomically). Returns false and sets *error on
    // failure.
    bool saveToFile(const QString& path, QString* error);

    TransferFunctionEditor* editor() const { return m_editor; }
    QUndoStack* undoStack() const;
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }
    QComboBox* presetComboBox() const { return m_presets; }
    // The preset the function equals over the volume's range, if any (what the box shows).
    std::optional<TransferPreset> activePreset() const;

signals:
    void transferFunctionChanged();

private:
    void onPresetActivated(int index);
    void showActivePreset();
    void loadDialog();
    void saveDialog();

    TransferFunctionEditor* m_editor = nullptr;
    QComboBox* m_presets = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QPushButton* m_loadButton = nullptr;
    QPushButton* m_saveButton = nullptr;
    ValueRange m_realRange{0.0, 1.0};
    QString m_lastFolder;
};

} // namespace isoview::app
