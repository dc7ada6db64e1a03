#include "labels/label_commands.h"

#include <QObject>

namespace isoview::app {

LabelStylesCommand::LabelStylesCommand(SceneModel& scene,
                                       const std::map<std::uint32_t, LabelStyle>& after,
                                       const QString& text, int mergeKey)
    : QUndoCommand(text), m_scene(scene), m_after(after), m_mergeKey(mergeKey)
{
    const std::optional<LabelLayer>& layer = scene.scene().labels;
    for (const auto& [label, style] : after)
        m_before[label] = layer ? layer->style(label) : style;
}

void LabelStylesCommand::redo()
{
    if (m_scene.scene().labels) m_scene.setLabelStyles(m_after);
}

void LabelStylesCommand::undo()
{
    if (m_scene.scene().labels) m_scene.setLabelStyles(m_before);
}

bool LabelStylesCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const LabelStylesCommand*>(other);
    if (next == nullptr || m_mergeKey < 0 || next->m_mergeKey != m_mergeKey) return false;
    for (const auto& [label, style] : next->m_after) {
        if (!m_after.contains(label)) return false; // another set of labels: its own step
    }
    m_after = next->m_after;
    return true;
}

namespace {
constexpr int kSmoothingMerge = 0x5e1a; // consecutive sigma steps are one undo step
} // namespace

LabelSmoothingCommand::LabelSmoothingCommand(SceneModel& scene, double before, double after)
    : QUndoCommand(QObject::tr("Label smoothing %1 mm").arg(after)), m_scene(scene),
      m_before(before), m_after(after)
{
}

void LabelSmoothingCommand::redo()
{
    if (m_scene.scene().labels) m_scene.setLabelSmoothing(m_after);
}

void LabelSmoothingCommand::undo()
{
    if (m_scene.scene().labels) m_scene.setLabelSmoothing(m_before);
}

int LabelSmoothingCommand::id() const
{
    return kSmoothingMerge;
}

bool LabelSmoothingCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const LabelSmoothingCommand*>(other);
    if (next == nullptr) return false;
    m_after = next->m_after;
    setText(next->text());
    return true;
}

} // namespace isoview::app
