#include "surfaces/surface_list_commands.h"

#include "core/error.h"

#include <QCoreApplication>

namespace isoview::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("SurfaceListCommands", text);
}

const Surface& existing(const SceneModel& scene, std::uint32_t id)
{
    const Surface* s = scene.scene().surfaces.find(id);
    if (!s) throw InvalidInputError("no surface with id " + std::to_string(id));
    return *s;
}

} // namespace

AddSurfaceCommand::AddSurfaceCommand(SceneModel& scene, double isovalue)
    : QUndoCommand(tr("Add surface")), m_scene(scene), m_isovalue(isovalue),
      m_previousSelection(scene.scene().surfaces.selected().id)
{
}

void AddSurfaceCommand::redo()
{
    if (!m_added) {
        // The first time the list names it and picks its colour; redo brings back the same.
        const std::uint32_t id = m_scene.addSurface(m_isovalue);
        m_added = *m_scene.scene().surfaces.find(id);
        m_index = *m_scene.scene().surfaces.indexOf(id);
        setText(tr("Add %1").arg(QString::fromStdString(m_added->name)));
        return;
    }
    m_scene.insertSurface(m_index, *m_added);
    m_scene.selectSurface(m_added->id);
}

void AddSurfaceCommand::undo()
{
    if (!m_added) return;
    if (const Surface* now = m_scene.scene().surfaces.find(m_added->id))
        m_added = *now; // its isovalue may have moved
    if (m_scene.scene().surfaces.find(m_previousSelection))
        m_scene.selectSurface(m_previousSelection);
    m_scene.removeSurface(m_added->id);
}

RemoveSurfaceCommand::RemoveSurfaceCommand(SceneModel& scene, std::uint32_t id)
    : QUndoCommand(), m_scene(scene), m_surface(existing(scene, id)),
      m_index(*scene.scene().surfaces.indexOf(id)),
      m_wasSelected(scene.scene().surfaces.selected().id == id)
{
    if (scene.scene().surfaces.size() <= 1)
        throw InvalidInputError("the last surface cannot be removed");
    setText(tr("Remove %1").arg(QString::fromStdString(m_surface.name)));
}

void RemoveSurfaceCommand::redo()
{
    if (const Surface* now = m_scene.scene().surfaces.find(m_surface.id)) m_surface = *now;
    m_scene.removeSurface(m_surface.id);
}

void RemoveSurfaceCommand::undo()
{
    m_scene.insertSurface(m_index, m_surface);
    if (m_wasSelected) m_scene.selectSurface(m_surface.id);
}

EditSurfaceCommand::EditSurfaceCommand(SceneModel& scene, const Surface& after, const QString& text,
                                       int mergeKey)
    : QUndoCommand(text), m_scene(scene), m_before(existing(scene, after.id)), m_after(after),
      m_mergeKey(mergeKey)
{
    checkSurfaceValues(m_after); // here, before the push: redo must not throw
}

void EditSurfaceCommand::apply(const Surface& values)
{
    if (!m_scene.scene().surfaces.find(values.id)) return;
    m_scene.editSurface(values);
}

void EditSurfaceCommand::redo()
{
    apply(m_after);
}

void EditSurfaceCommand::undo()
{
    apply(m_before);
}

bool EditSurfaceCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const EditSurfaceCommand*>(other);
    if (!next || m_mergeKey < 0 || next->m_mergeKey != m_mergeKey || next->m_after.id != m_after.id)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace isoview::app
