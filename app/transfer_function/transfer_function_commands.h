// The transfer-function editor's undo commands. Each edit is one QUndoCommand that keeps the
// whole function before and after it (a handful of points), so undo and redo restore exact
// states, point order among equal values included, whatever the edit did to the ordering.
// A drag is a run of MovePointCommands with the same drag id that merge into one undo step.
//
// The commands act on a TransferFunctionTarget (the editor), which outlives its undo stack.
// Constructors compute the new state and throw InvalidInputError for an out-of-range index or
// an invalid point, before anything is pushed; redo/undo never throw. GUI thread only.
//
// Example:
//   stack->push(new AddPointCommand(editor, {300.0, {1, 0.9f, 0.8f}, 0.4f}));
//   stack->push(new MovePointCommand(editor, index, 320.0, 0.5f, dragId)); // merges per drag
#pragma once

#include "scene/transfer_function.h"

#include <QString>
#include <QUndoCommand>
#include <cstddef>
#include <optional>

namespace isoview::app {

// What the commands edit: the current function and which point is selected.
class TransferFunctionTarget {
public:
    virtual const TransferFunction& currentTransferFunction() const = 0;
    virtual std::optional<std::size_t> selectedPoint() const = 0;
    // Shows tf with the given point selected (nullopt: none) and announces the change.
    virtual void applyTransferFunction(const TransferFunction& tf,
                                       std::optional<std::size_t> selected) = 0;

protected:
    ~TransferFunctionTarget() = default;
};

// The common part: a before and an after state; redo applies after, undo before.
class TransferFunctionCommand : public QUndoCommand {
public:
    void redo() override;
    void undo() override;

    const TransferFunction& before() const { return m_before; }
    const TransferFunction& after() const { return m_after; }

protected:
    // Takes the target's current state as `before`; the subclass fills m_after.
    TransferFunctionCommand(TransferFunctionTarget& target, const QString& text);

    TransferFunctionTarget& m_target;
    TransferFunction m_before;
    TransferFunction m_after;
    std::optional<std::size_t> m_selectedBefore;
    std::optional<std::size_t> m_selectedAfter;
};

class AddPointCommand : public TransferFunctionCommand {
public:
    AddPointCommand(TransferFunctionTarget& target, const TransferPoint& point);
    // Where the point landed in the sorted function.
    std::size_t index() const { return *m_selectedAfter; }
};

class RemovePointCommand : public TransferFunctionCommand {
public:
    RemovePointCommand(TransferFunctionTarget& target, std::size_t index);
};

// Moves one point (value and opacity). Commands of the same drag (equal dragId) merge: the
// merged command goes from the state before the drag to the state after its last move, and
// becomes obsolete (dropped from the stack) when the drag ends where it began.
class MovePointCommand : public TransferFunctionCommand {
public:
    static constexpr int kId = 0x7f01;

    MovePointCommand(TransferFunctionTarget& target, std::size_t index, double value, float opacity,
                     int dragId);
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;
    // Where the point is after the move (it may pass its neighbours).
    std::size_t index() const { return *m_selectedAfter; }

private:
    int m_dragId;
};

class SetPointColorCommand : public TransferFunctionCommand {
public:
    SetPointColorCommand(TransferFunctionTarget& target, std::size_t index, glm::vec3 color);
};

// Replaces the whole function (a preset, a loaded file). Clears the selection.
class ReplaceTransferFunctionCommand : public TransferFunctionCommand {
public:
    ReplaceTransferFunctionCommand(TransferFunctionTarget& target, TransferFunction tf,
                                   const QString& text);
};

} // namespace isoview::app
