#include "crop/crop_panel.h"

#include <QGridLayout>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QUndoCommand>
#include <QUndoStack>
#include <algorithm>

namespace isoview::app {
namespace {

// One crop edit: the box before and after. Steps of the same spin box in a row merge, so a run
// of arrow presses is one undo step; Reset and handle drags (negative fields) never merge.
class CropBoxCommand : public QUndoCommand {
public:
    static constexpr int kId = 0x7f10;
    static constexpr int kResetField = -1;
    static constexpr int kDragField = -2;

    CropBoxCommand(SceneModel& scene, const VoxelBox& before, const VoxelBox& after, int field)
        : QUndoCommand(field == kResetField  ? CropPanel::tr("Reset crop box")
                       : field == kDragField ? CropPanel::tr("Drag crop box")
                                             : CropPanel::tr("Crop")),
          m_scene(scene), m_before(before), m_after(after), m_field(field)
    {
    }
    void redo() override { m_scene.setCrop(m_after); }
    void undo() override { m_scene.setCrop(m_before); }
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* crop = dynamic_cast<const CropBoxCommand*>(other);
        if (crop == nullptr || m_field < 0 || crop->m_field != m_field) return false;
        m_after = crop->m_after;
        setObsolete(m_after == m_before);
        return true;
    }

private:
    SceneModel& m_scene;
    VoxelBox m_before;
    VoxelBox m_after;
    int m_field;
};

} // namespace

CropPanel::CropPanel(SceneModel* scene, QWidget* parent) : QWidget(parent), m_scene(scene)
{
    setObjectName("cropPanel");
    auto* grid = new QGridLayout(this);
    grid->addWidget(new QLabel(tr("from")), 0, 1);
    grid->addWidget(new QLabel(tr("to")), 0, 2);
    const char* names[3] = {"I (x)", "J (y)", "K (slice)"};
    for (int axis = 0; axis < 3; ++axis) {
        grid->addWidget(new QLabel(tr(names[axis])), axis + 1, 0);
        for (bool last : {false, true}) {
            auto* spin = new QSpinBox(this);
            spin->setObjectName(QString("crop%1%2").arg("IJK"[axis]).arg(last ? "Last" : "First"));
            spin->setKeyboardTracking(false); // typing "120" is one change, not three
            spin->setToolTip(tr("Voxel index, inclusive; the surface keeps the cells between"));
            m_spins[std::size_t(2) * std::size_t(axis) + (last ? 1u : 0u)] = spin;
            grid->addWidget(spin, axis + 1, last ? 2 : 1);
            connect(spin, &QSpinBox::valueChanged, this,
                    [this, axis, last](int value) { onSpinChanged(axis, last, value); });
            spin->installEventFilter(this); // Undo/Redo: the scene's, not the field's text
        }
    }
    m_reset = new QPushButton(tr("Reset"), this);
    m_reset->setToolTip(tr("The whole volume"));
    connect(m_reset, &QPushButton::clicked, this, &CropPanel::resetByUser);
    grid->addWidget(m_reset, 4, 2);
    grid->setRowStretch(5, 1);
    setEnabled(false);
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if (!(what & (SceneChange::Crop | SceneChange::Volume))) return;
        setEnabled(m_scene->hasVolume());
        showBox();
        emit cropChanged(box());
    });
}

VoxelBox CropPanel::box() const
{
    return m_scene->scene().cropBox();
}

glm::uvec3 CropPanel::volumeDims() const
{
    return m_scene->hasVolume() ? m_scene->scene().volume->dims() : glm::uvec3(0);
}

void CropPanel::reset()
{
    setBox(VoxelBox::whole(volumeDims()));
}

void CropPanel::resetByUser()
{
    edit(VoxelBox::whole(volumeDims()), CropBoxCommand::kResetField);
}

void CropPanel::finishDrag(const VoxelBox& before)
{
    if (!m_scene->hasVolume() || before == box()) return;
    // Pushing runs redo(), which sets the box previewBox already set: no second change.
    m_scene->history()->push(
        new CropBoxCommand(*m_scene, before, box(), CropBoxCommand::kDragField));
}

void CropPanel::setBox(const VoxelBox& requested)
{
    m_scene->setCrop(requested); // clamped there
}

void CropPanel::onSpinChanged(int axis, bool last, int value)
{
    VoxelBox box = this->box();
    const auto v = std::uint32_t(std::max(value, 0));
    // Moving one end past the other carries the other along.
    if (last) {
        box.last[axis] = v;
        box.first[axis] = std::min(box.first[axis], v);
    } else {
        box.first[axis] = v;
        box.last[axis] = std::max(box.last[axis], v);
    }
    edit(box, 2 * axis + (last ? 1 : 0));
}

void CropPanel::edit(const VoxelBox& requested, int field)
{
    const glm::uvec3 dims = volumeDims();
    if (dims.x == 0) return;
    VoxelBox box; // clamped as the scene clamps, so an edit that changes nothing pushes nothing
    box.last = glm::min(requested.last, dims - 1u);
    box.first = glm::min(requested.first, box.last);
    if (box == this->box()) return;
    m_scene->history()->push(new CropBoxCommand(*m_scene, this->box(), box, field));
}

bool CropPanel::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    auto* spin = qobject_cast<QSpinBox*>(watched);
    if (!spin || (type != QEvent::ShortcutOverride && type != QEvent::KeyPress))
        return QWidget::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const QKeySequence pressed(key->keyCombination());
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo) ||
                      pressed == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z) ||
                      pressed == QKeySequence(Qt::CTRL | Qt::Key_Y);
    // Digits typed and not yet entered are the field's own to undo.
    bool ok = false;
    const bool typing = spin->locale().toInt(spin->cleanText(), &ok) != spin->value() || !ok;
    if ((!undo && !redo) || typing) return QWidget::eventFilter(watched, event);
    // The field's line edit claims these keys (ShortcutOverride); taking the key press here
    // undoes the scene's step even where the window's Undo cannot (a floating dock).
    event->accept();
    if (type == QEvent::KeyPress) {
        if (undo)
            m_scene->history()->undo();
        else
            m_scene->history()->redo();
    }
    return true;
}

void CropPanel::showBox()
{
    const glm::uvec3 dims = volumeDims();
    const VoxelBox box = this->box();
    for (int axis = 0; axis < 3; ++axis) {
        for (bool last : {false, true}) {
            QSpinBox* spin = spinBox(axis, last);
            const QSignalBlocker quiet(spin); // showing the box is not an edit
            spin->setRange(0, int(std::max(dims[axis], 1u)) - 1);
            spin->setValue(int(last ? box.last[axis] : box.first[axis]));
        }
    }
}

} // namespace isoview::app
