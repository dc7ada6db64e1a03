#include "surfaces/surface_list_commands.h"

#include "core/error.h"

#include <QCoreApplication>

namespace isoview::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("SurfaceListCommands", text);
}

const Surface& existing(const SurfaceList& list, std::uint32_t id)
{
    const Surface* s = list.find(id);
    if (!s) throw InvalidInputError("no surface with id " + std::to_string(id));
    return *s;
}

} // namespace

AddSurfaceCommand::AddSurfaceCommand(SurfaceList& list, double isovalue)
    : QUndoCommand(tr("Add surface")), m_list(list), m_isovalue(isovalue),
      m_previousSelection(list.selected().id)
{
}

void AddSurfaceCommand::redo()
{
    if (!m_added) {
        // The first time the list names it and picks its colour; redo brings back the same.
        const std::uint32_t id = m_list.add(m_isovalue);
        m_added = *m_list.find(id);
        m_index = *m_list.indexOf(id);
        setText(tr("Add %1").arg(QString::fromStdString(m_added->name)));
        return;
    }
    m_list.insert(m_index, *m_added);
    m_list.select(m_added->id);
}

void AddSurfaceCommand::undo()
{
    if (!m_added) return;
    if (const Surface* now = m_list.find(m_added->id))
        m_added = *now; // its isovalue may have moved
    if (m_list.find(m_previousSelection)) m_list.select(m_previousSelection);
    m_list.remove(m_added->id);
}

RemoveSurfaceCommand::RemoveSurfaceCommand(SurfaceList& list, std::uint32_t id)
    : QUndoCommand(), m_list(list), m_surface(existing(list, id)), m_index(*list.indexOf(id)),
      m_wasSelected(list.selected().id == id)
{
    if (list.size() <= 1) throw InvalidInputError("the last surface cannot be removed");
    setText(tr("Remove %1").arg(QString::fromStdString(m_surface.name)));
}

void RemoveSurfaceCommand::redo()
{
    if (const Surface* now = m_list.find(m_surface.id)) m_surface = *now;
    m_list.remove(m_surface.id);
}

void RemoveSurfaceCommand::undo()
{
    m_list.insert(m_index, m_surface);
    if (m_wasSelected) m_list.select(m_surface.id);
}

EditSurfaceCommand::EditSurfaceCommand(SurfaceList& list, const Surface& after, const QString& text,
                                       int mergeKey)
    : QUndoCommand(text), m_list(list), m_before(existing(list, after.id)), m_after(after),
      m_mergeKey(mergeKey)
{
    checkSurfaceValues(m_after); // here, before the push: redo must not throw
}

void EditSurfaceCommand::apply(const Surface& values)
{
    const std::uint32_t id = values.id;
    if (!m_list.find(id)) return;
    m_list.rename(id, values.name);
    m_list.setColor(id, values.color);
    m_list.setOpacity(id, values.opacity);
    m_list.setVisible(id, values.visible);
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
