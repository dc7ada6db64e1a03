#include "crop/crop_panel.h"

#include <QGridLayout>
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

    CropBoxCommand(CropPanel& panel, const VoxelBox& before, const VoxelBox& after, int field)
        : QUndoCommand(field == kResetField  ? CropPanel::tr("Reset crop box")
                       : field == kDragField ? CropPanel::tr("Drag crop box")
                                             : CropPanel::tr("Crop")),
          m_panel(panel), m_before(before), m_after(after), m_field(field)
    {
    }
    void redo() override { m_panel.setBox(m_after); }
    void undo() override { m_panel.setBox(m_before); }
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
    CropPanel& m_panel;
    VoxelBox m_before;
    VoxelBox m_after;
    int m_field;
};

} // namespace

CropPanel::CropPanel(QWidget* parent) : QWidget(parent)
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
        }
    }
    m_reset = new QPushButton(tr("Reset"), this);
    m_reset->setToolTip(tr("The whole volume"));
    connect(m_reset, &QPushButton::clicked, this, &CropPanel::resetByUser);
    grid->addWidget(m_reset, 4, 2);
    grid->setRowStretch(5, 1);
    setEnabled(false);
}

void CropPanel::setVolumeDims(glm::uvec3 dims)
{
    m_dims = dims;
    m_box = VoxelBox::whole(dims);
    showBox();
    setEnabled(true);
}

void CropPanel::reset()
{
    setBox(VoxelBox::whole(m_dims));
}

void CropPanel::resetByUser()
{
    edit(VoxelBox::whole(m_dims), CropBoxCommand::kResetField);
}

void CropPanel::finishDrag(const VoxelBox& before)
{
    if (m_dims.x == 0 || before == m_box) return;
    if (m_undoStack == nullptr) return; // already applied by previewBox
    // Pushing runs redo(), which sets the box it already shows: no second change.
    m_undoStack->push(new CropBoxCommand(*this, before, m_box, CropBoxCommand::kDragField));
}

void CropPanel::setBox(const VoxelBox& requested)
{
    if (m_dims.x == 0) return;
    VoxelBox box;
    box.last = glm::min(requested.last, m_dims - 1u);
    box.first = glm::min(requested.first, box.last);
    const bool changed = !(box == m_box);
    m_box = box;
    showBox();
    if (changed) emit cropChanged(m_box);
}

void CropPanel::onSpinChanged(int axis, bool last, int value)
{
    VoxelBox box = m_box;
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
    if (m_undoStack == nullptr || m_dims.x == 0) {
        setBox(requested);
        return;
    }
    VoxelBox box; // clamped as setBox does, so an edit that changes nothing pushes nothing
    box.last = glm::min(requested.last, m_dims - 1u);
    box.first = glm::min(requested.first, box.last);
    if (box == m_box) return;
    m_undoStack->push(new CropBoxCommand(*this, m_box, box, field));
}

void CropPanel::showBox()
{
    for (int axis = 0; axis < 3; ++axis) {
        for (bool last : {false, true}) {
            QSpinBox* spin = spinBox(axis, last);
            const QSignalBlocker quiet(spin); // showing the box is not an edit
            spin->setRange(0, int(std::max(m_dims[axis], 1u)) - 1);
            spin->setValue(int(last ? m_box.last[axis] : m_box.first[axis]));
        }
    }
}

} // namespace isoview::app
