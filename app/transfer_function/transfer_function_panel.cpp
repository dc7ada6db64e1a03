#include "transfer_function/transfer_function_panel.h"

#include "common/output_folders.h"
#include "core/error.h"
#include "transfer_function/transfer_function_editor.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <filesystem>

namespace isoview::app {
namespace {

// Qt's own file-name encoding, so a path reaches the engine as Qt would open it.
std::filesystem::path toFsPath(const QString& path)
{
    return std::filesystem::path(QFile::encodeName(path).toStdString());
}

QToolButton* toolButtonFor(QAction* action, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    return button;
}

} // namespace

TransferFunctionPanel::TransferFunctionPanel(QWidget* parent, QUndoStack* history) : QWidget(parent)
{
    setObjectName("transferFunctionPanel");

    m_editor = new TransferFunctionEditor(this, history);

    m_presets = new QComboBox(this);
    m_presets->setObjectName("presetComboBox");
    m_presets->setPlaceholderText(tr("Preset…"));
    m_presets->setToolTip(tr("The active preset (Custom once edited); choose one to replace "
                             "the function (undoable)"));
    for (TransferPreset preset : allTransferPresets()) {
        m_presets->addItem(QString::fromUtf8(transferPresetName(preset).data(),
                                             qsizetype(transferPresetName(preset).size())),
                           int(preset));
    }
    m_presets->setCurrentIndex(-1);

    // Window-wide shortcuts: Ctrl+Z undoes the last edit wherever the focus is (the 3D view
    // included); a text field with its own undo still takes the key first.
    QUndoStack* stack = m_editor->undoStack();
    m_undoAction = stack->createUndoAction(this, tr("Undo"));
    m_undoAction->setObjectName("undoAction");
    m_undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_undoAction->setShortcutContext(Qt::WindowShortcut);
    m_undoAction->setIcon(
        QIcon::fromTheme("edit-undo", style()->standardIcon(QStyle::SP_ArrowBack)));
    m_redoAction = stack->createRedoAction(this, tr("Redo"));
    m_redoAction->setObjectName("redoAction");
    m_redoAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redoAction->setShortcutContext(Qt::WindowShortcut);
    m_redoAction->setIcon(
        QIcon::fromTheme("edit-redo", style()->standardIcon(QStyle::SP_ArrowForward)));
    addAction(m_undoAction);
    addAction(m_redoAction);

    m_loadButton = new QPushButton(tr("Load…"), this);
    m_loadButton->setObjectName("loadButton");
    m_loadButton->setToolTip(tr("Load a transfer function from a JSON file"));
    m_saveButton = new QPushButton(tr("Save…"), this);
    m_saveButton->setObjectName("saveButton");
    m_saveButton->setToolTip(tr("Save the transfer function as JSON"));

    auto* top = new QHBoxLayout;
    top->setSpacing(4);
    top->addWidget(m_presets, 1);
    top->addWidget(toolButtonFor(m_undoAction, this));
    top->addWidget(toolButtonFor(m_redoAction, this));
    top->addSpacing(6);
    top->addWidget(m_loadButton);
    top->addWidget(m_saveButton);

    auto* hint = new QLabel(
        tr("Click: add  ·  drag: move  ·  double-click: colour  ·  right-click or Del: delete"),
        this);
    hint->setObjectName("hintLabel");
    hint->setWordWrap(true);
    QFont small = hint->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    hint->setFont(small);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_editor, 1);
    layout->addWidget(hint);

    connect(m_editor, &TransferFunctionEditor::transferFunctionChanged, this, [this] {
        showActivePreset();
        emit transferFunctionChanged();
    });
    connect(m_presets, &QComboBox::activated, this, &TransferFunctionPanel::onPresetActivated);
    connect(m_loadButton, &QPushButton::clicked, this, &TransferFunctionPanel::loadDialog);
    connect(m_saveButton, &QPushButton::clicked, this, &TransferFunctionPanel::saveDialog);
}

void TransferFunctionPanel::setVolumeContext(const Histogram& histogram, ValueRange realRange,
                                             const QString& units)
{
    m_realRange = realRange;
    m_editor->setHistogram(histogram);
    m_editor->setUnits(units);
    showActivePreset();
}

void TransferFunctionPanel::setTransferFunction(const TransferFunction& tf)
{
    m_editor->setTransferFunction(tf);
    showActivePreset(); // also when tf equals the function shown (no change signal)
}

void TransferFunctionPanel::showTransferFunction(const TransferFunction& tf)
{
    if (tf == m_editor->transferFunction()) return;
    m_editor->applyTransferFunction(tf, m_editor->selectedPoint());
    showActivePreset();
}

std::optional<TransferPreset> TransferFunctionPanel::activePreset() const
{
    const TransferFunction& tf = m_editor->transferFunction();
    for (TransferPreset preset : allTransferPresets()) {
        try {
            if (transferFunctionPreset(preset, m_realRange) == tf) return preset;
        } catch (const Error&) {
            // A range the MR preset cannot be laid out over: that preset is not active.
        }
    }
    return std::nullopt;
}

void TransferFunctionPanel::showActivePreset()
{
    // The preset's own name is part of the function, so an edit (which keeps the name but not
    // the points) or a file of other points reads as Custom; undoing back to a preset shows it.
    const std::optional<TransferPreset> preset = activePreset();
    m_presets->setPlaceholderText(m_editor->transferFunction().size() == 0 ? tr("Preset…")
                                                                           : tr("Custom"));
    m_presets->setCurrentIndex(preset ? m_presets->findData(int(*preset)) : -1);
}

const TransferFunction& TransferFunctionPanel::transferFunction() const
{
    return m_editor->transferFunction();
}

QUndoStack* TransferFunctionPanel::undoStack() const
{
    return m_editor->undoStack();
}

void TransferFunctionPanel::applyPreset(TransferPreset preset)
{
    const std::string_view name = transferPresetName(preset);
    m_editor->replaceTransferFunction(
        transferFunctionPreset(preset, m_realRange),
        tr("Apply preset %1").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
}

void TransferFunctionPanel::onPresetActivated(int index)
{
    if (index < 0) return;
    applyPreset(TransferPreset(m_presets->itemData(index).toInt()));
    showActivePreset(); // also when the preset was already the function (no change)
}

bool TransferFunctionPanel::loadFromFile(const QString& path, QString* error)
{
    try {
        TransferFunction tf = loadTransferFunction(toFsPath(path));
        m_editor->replaceTransferFunction(tf, tr("Load %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool TransferFunctionPanel::saveToFile(const QString& path, QString* error)
{
    try {
        saveTransferFunction(toFsPath(path), m_editor->transferFunction());
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void TransferFunctionPanel::loadDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load transfer function"),
        m_lastFolder.isEmpty() ? outputFolder(OutputKind::TransferFunction) : m_lastFolder,
        tr("Transfer function (*.json)"));
    if (path.isEmpty()) return;
    m_lastFolder = QFileInfo(path).absolutePath();
    QString error;
    if (!loadFromFile(path, &error))
        QMessageBox::critical(this, tr("Cannot load transfer function"), error);
}

void TransferFunctionPanel::saveDialog()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save transfer function"),
        m_lastFolder.isEmpty() ? outputFolder(OutputKind::TransferFunction) : m_lastFolder,
        tr("Transfer function (*.json)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += ".json";
    m_lastFolder = QFileInfo(path).absolutePath();
    QString error;
    if (!saveToFile(path, &error))
        QMessageBox::critical(this, tr("Cannot save transfer function"), error);
    else
        rememberOutputFolder(OutputKind::TransferFunction, path);
}

} // namespace isoview::app
