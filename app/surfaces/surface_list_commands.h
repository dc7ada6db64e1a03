// The surfaces list's undo commands: add, remove and an edit of one surface's name, colour,
// opacity or visibility. Each names its surface by id (ids are never reused, surface_list.h), so
// undo and redo restore exact states, position and selection included. An opacity drag is a
// run of EditSurfaceCommands with the same merge key that merge into one undo step.
//
// The scene model outlives the stack the commands are on. Constructors throw InvalidInputError for
// an unknown id or an invalid value, before anything is pushed; redo/undo never throw. GUI thread.
//
// Example:
//   stack->push(new AddSurfaceCommand(scene, isovalue));
//   Surface after = *scene.scene().surfaces.find(id); after.opacity = 0.4f;
//   stack->push(new EditSurfaceCommand(scene, after, tr("Opacity"), kOpacityMerge));
#pragma once

#include "scene_model.h"

#include <QString>
#include <QUndoCommand>
#include <cstddef>
#include <cstdint>

namespace isoview::app {

// Adds a surface (SurfaceList::add: its name, the palette's colour) and selects it; undo
// removes it and selects the one selected before.
class AddSurfaceCommand : public QUndoCommand {
public:
    AddSurfaceCommand(SceneModel& scene, double isovalue);
    void redo() override;
    void undo() override;

private:
    SceneModel& m_scene;
    double m_isovalue;
    std::uint32_t m_previousSelection;
    std::optional<Surface> m_added; // after the first redo
    std::size_t m_index = 0;
};

// Removes a surface (not the last: the constructor throws InvalidInputError then); undo puts it
// back where it was, selected again if it was.
class RemoveSurfaceCommand : public QUndoCommand {
public:
    RemoveSurfaceCommand(SceneModel& scene, std::uint32_t id);
    void redo() override;
    void undo() override;

private:
    SceneModel& m_scene;
    Surface m_surface;
    std::size_t m_index;
    bool m_wasSelected;
};

// Sets one surface's name, colour, opacity and visibility to `after`'s (its id names it; the
// isovalue is the slider's and stays). mergeKey >= 0 merges with the previous command of the
// same key on the same surface (an opacity drag); -1 never merges.
class EditSurfaceCommand : public QUndoCommand {
public:
    EditSurfaceCommand(SceneModel& scene, const Surface& after, const QString& text,
                       int mergeKey = -1);
    void redo() override;
    void undo() override;
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const Surface& values);

    SceneModel& m_scene;
    Surface m_before;
    Surface m_after;
    int m_mergeKey;
};

} // namespace isoview::app
