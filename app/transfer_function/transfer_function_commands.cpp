#include "transfer_function/transfer_function_commands.h"

#include <QCoreApplication>
#include <utility>

namespace isoview::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("TransferFunctionCommand", text);
}

} // namespace

TransferFunctionCommand::TransferFunctionCommand(TransferFunctionTarget& target,
                                                 const QString& text)
    : QUndoCommand(text), m_target(target), m_before(target.currentTransferFunction()),
      m_after(m_before), m_selectedBefore(target.selectedPoint())
{
}

void TransferFunctionCommand::redo()
{
    m_target.applyTransferFunction(m_after, m_selectedAfter);
}

void TransferFunctionCommand::undo()
{
    m_target.applyTransferFunction(m_before, m_selectedBefore);
}

AddPointCommand::AddPointCommand(TransferFunctionTarget& target, const TransferPoint& point)
    : TransferFunctionCommand(target, tr("Add point"))
{
    m_selectedAfter = m_after.addPoint(point);
}

RemovePointCommand::RemovePointCommand(TransferFunctionTarget& target, std::size_t index)
    : TransferFunctionCommand(target, tr("Delete point"))
{
    m_after.removePoint(index);
    // Undo brings the point back selected, so the user sees what returned.
    m_selectedBefore = index;
}

MovePointCommand::MovePointCommand(TransferFunctionTarget& target, std::size_t index, double value,
                                   float opacity, int dragId)
    : TransferFunctionCommand(target, tr("Move point")), m_dragId(dragId)
{
    m_selectedBefore = index;
    m_selectedAfter = m_after.movePoint(index, value, opacity);
}

bool MovePointCommand::mergeWith(const QUndoCommand* other)
{
    const auto* move = dynamic_cast<const MovePointCommand*>(other);
    if (move == nullptr || move->m_dragId != m_dragId) return false;
    m_after = move->m_after;
    m_selectedAfter = move->m_selectedAfter;
    setObsolete(m_after == m_before);
    return true;
}

SetPointColorCommand::SetPointColorCommand(TransferFunctionTarget& target, std::size_t index,
                                           glm::vec3 color)
    : TransferFunctionCommand(target, tr("Change point colour"))
{
    m_after.setColor(index, color);
    m_selectedBefore = index;
    m_selectedAfter = index;
}

ReplaceTransferFunctionCommand::ReplaceTransferFunctionCommand(TransferFunctionTarget& target,
                                                               TransferFunction tf,
                                                               const QString& text)
    : TransferFunctionCommand(target, text)
{
    m_after = std::move(tf);
}

} // namespace isoview::app
