// A segmentation in the scene: a label map on the volume's grid whose every label is its own
// surface, with the label's name and colour from its table and what the user set per label
// (shown or hidden, colour, opacity). The renderer extracts all labels once per label map
// (gpu/label_map_extractor.h explains the pass); a style change is a texture update, never an
// extraction.
#pragma once

#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "volume/label_statistics.h"
#include "volume/label_table.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace isoview {

struct LabelStyle {
    glm::vec3 color{1.0f}; // RGB 0..1
    float opacity = 1.0f;  // 0..1; below 1 drawn translucent
    bool visible = true;

    bool operator==(const LabelStyle&) const = default;
};

// Label surfaces smoothed off the GUI thread (extraction/smoothed_label_surfaces.h): made for
// one label map, sigma and crop; the renderer draws them instead of its own extraction.
struct SmoothedLabelSurfaces {
    std::shared_ptr<const Volume> labelMap;
    double sigmaMm = 0.0;
    VoxelBox crop;
    std::vector<LabelSurface> surfaces; // ascending labels, index space
};

struct LabelLayer {
    // uint16 labels (toLabelVolume) on the volume's grid; never null in a scene's layer.
    std::shared_ptr<const Volume> labelMap;
    std::shared_ptr<const LabelStatistics> statistics; // of labelMap: the labels it holds
    LabelTable table;                                  // names and colours (may be empty)
    std::map<std::uint32_t, LabelStyle> styles;        // one per label the map holds
    std::optional<std::uint32_t> selected;             // the label the user picked
    // Where the label map and its table were read from (what a session saves); empty for one
    // made in memory.
    std::filesystem::path source;
    std::optional<std::filesystem::path> tableSource;
    // Gaussian smoothing of every label's indicator (sigma, mm; 0: the voxels' own surfaces),
    // what the user sets; `smoothed` is what was made for it (null until made, and at 0). While
    // a new smoothing is made the previous one stays drawn.
    double smoothingSigmaMm = 0.0;
    std::shared_ptr<const SmoothedLabelSurfaces> smoothed;

    // A layer of `labelMap` with each label in its table's colour (or the palette's), shown,
    // opaque where the table says nothing else.
    static LabelLayer of(std::shared_ptr<const Volume> labelMap,
                         std::shared_ptr<const LabelStatistics> statistics, LabelTable table);

    // The label's style (a hidden grey one for a label the map lacks).
    LabelStyle style(std::uint32_t label) const;
    // What the renderer draws: RGBA8 per label number up to the largest label (alpha 0:
    // hidden).
    std::vector<glm::u8vec4> drawStyles() const;

    // The smoothed surfaces to draw: those of this label map while smoothing is on (perhaps
    // made for an earlier sigma or crop), else null.
    const SmoothedLabelSurfaces* drawnSmoothing() const;
    // Whether these smoothed surfaces are what smoothingSigmaMm over `crop` asks for (this label
    // map, this sigma, this crop, smoothing on).
    bool wantsSmoothing(const SmoothedLabelSurfaces& made, const VoxelBox& crop) const;
    // Whether `smoothed` is what smoothingSigmaMm over `crop` asks for (nothing to make).
    bool smoothingIsCurrent(const VoxelBox& crop) const;

    bool operator==(const LabelLayer&) const = default;
};

} // namespace isoview
