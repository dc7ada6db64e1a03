// The Labels dock's undo commands. LabelStylesCommand: one edit of the label styles (a check box, a
// colour, an opacity, show all, hide all, isolate), however many labels it touches. It names labels
// by number, so undo and redo restore exact styles. An opacity drag is a run of commands with the
// same merge key that merge into one undo step.
//
// The scene model outlives the stack the commands are on; the stack is cleared when the label
// map goes (SceneModel::setLabels). redo/undo never throw. GUI thread.
//
// Example:
//   std::map<std::uint32_t, LabelStyle> after = {{7, hidden}};
//   history->push(new LabelStylesCommand(model, after, tr("Hide label 7")));
#pragma once

#include "scene_model.h"

#include <QString>
#include <QUndoCommand>
#include <cstdint>
#include <map>

namespace isoview::app {

class LabelStylesCommand : public QUndoCommand {
public:
    // after: the new styles of the labels it changes (the others keep theirs). mergeKey >= 0
    // merges with the previous command of the same key on the same labels.
    LabelStylesCommand(SceneModel& scene, const std::map<std::uint32_t, LabelStyle>& after,
                       const QString& text, int mergeKey = -1);
    void redo() override;
    void undo() override;
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    SceneModel& m_scene;
    std::map<std::uint32_t, LabelStyle> m_before;
    std::map<std::uint32_t, LabelStyle> m_after;
    int m_mergeKey;
};

// One change of the labels' smoothing sigma (Labels dock); spin-box steps in a row merge.
class LabelSmoothingCommand : public QUndoCommand {
public:
    LabelSmoothingCommand(SceneModel& scene, double before, double after);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    SceneModel& m_scene;
    double m_before;
    double m_after;
};

} // namespace isoview::app
