// The names and colours of a label map's structures: a segmentation volume whose every integer
// value is one structure (0 is the background), shown as its own named, coloured surface.
// io::readLabelTable reads one from the files users bring (AFNI/nii2mesh semicolon text, 3D
// Slicer and FreeSurfer colour tables, ITK-SNAP label descriptions, .seg.nrrd headers).
//
// Contract:
// - LabelTable is a plain value (copyable, comparable, no I/O). Its entries are sorted by
//   value, each value at most once, every value in 0..kMaxLabel. The constructor throws
//   InvalidInputError naming the value when one repeats or exceeds kMaxLabel.
// - Lookups cost O(log n) and never throw; a value the table does not name has an empty name
//   and the palette's colour, so every label of a volume can be drawn.
// - distinctLabelColor is pure and deterministic (the same colour for a label in every run and
//   build): sessions and screenshots stay stable. Label 0 is black.
// - Thread: any (no shared state).
//
// Example:
//   LabelTable table({{1, "putamen"}, {2, "caudate nucleus", {1, 0, 0, 1}, true}});
//   table.nameOf(2);   // "caudate nucleus"
//   table.colorOf(1);  // the palette's colour for 1, opaque
//   for (const LabelEntry& e : table) { ... }  // ascending values
#pragma once

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace isoview {

struct LabelEntry {
    std::uint32_t value = 0;
    std::string name;                        // UTF-8 as written in the file; may be empty
    glm::vec4 color{0.0f, 0.0f, 0.0f, 1.0f}; // RGBA 0..1; meaningful only when hasColor
    bool hasColor = false;                   // false: colorOf falls back to the palette
    bool visible = true;                     // false where the file hides the label (ITK-SNAP)

    bool operator==(const LabelEntry&) const = default;
};

class LabelTable {
public:
    // Label values are unsigned 16-bit at most: the label maps isoview loads store them so, and
    // a table's value above that names no voxel.
    static constexpr std::uint32_t kMaxLabel = 65535;

    LabelTable() = default;
    // Sorts the entries by value; InvalidInputError for a repeated value or one over kMaxLabel.
    explicit LabelTable(std::vector<LabelEntry> entries);

    std::size_t size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }

    // The entry for value, or nullptr. The pointer lives as long as the table is unchanged.
    const LabelEntry* find(std::uint32_t value) const;
    bool contains(std::uint32_t value) const { return find(value) != nullptr; }
    // The entry's name; empty when the table does not name value.
    std::string nameOf(std::uint32_t value) const;
    // The entry's colour when the file gave one, else distinctLabelColor(value) with alpha 1.
    glm::vec4 colorOf(std::uint32_t value) const;

    // Ascending by value.
    const std::vector<LabelEntry>& entries() const { return m_entries; }
    std::vector<LabelEntry>::const_iterator begin() const { return m_entries.begin(); }
    std::vector<LabelEntry>::const_iterator end() const { return m_entries.end(); }

    bool operator==(const LabelTable&) const = default;

private:
    std::vector<LabelEntry> m_entries;
};

// A colour for label, RGB 0..1, well apart from the colours of nearby labels (see the .cpp for
// how). Black for 0, the background.
glm::vec3 distinctLabelColor(std::uint32_t label);

} // namespace isoview
