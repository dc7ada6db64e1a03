// isoview-cli's label maps (--labels): the volume's every structure as its own surface, all made
// in one GPU pass (gpu/label_map_extractor.h), named from a label table and written one file per
// label, or merged into one PLY coloured per label, or into one 3MF (-o ALL.3mf) with an object
// per label. Kept apart from isoview_cli.cpp, which
// parses the arguments, loads the volume and calls in here.
#pragma once

#include "mesh_processing/print_preparation.h"
#include "volume/label_statistics.h"
#include "volume/label_table.h"
#include "volume/volume.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::cli {

// "3,10,13" as labels (1 .. kMaxLabel, each once); nullopt with the reason in `error`.
std::optional<std::vector<std::uint32_t>> parseLabelList(std::string_view text, std::string& error);

// Whether an output name gives each label its own file ({label} or {name}).
bool isLabelNamePattern(const std::string& pattern);

// The file label's surface goes to: {label} replaced by its number, {name} by its name from the
// table made safe for a file name (the number where it has none).
std::string labelOutputFor(const std::string& pattern, std::uint32_t label,
                           const std::string& name);

// --info --labels: "label N: NAME, V voxels" per label, ascending, then the total.
void printLabelInfo(const LabelStatistics& statistics, const LabelTable& table);

struct LabelExport {
    std::vector<std::uint32_t> labels; // empty: every non-zero label
    LabelTable table;
    std::string output;    // -o: a {label}/{name} pattern, one file for one label, or one .3mf
    std::string mergedPly; // --merge-ply: every label in one PLY, coloured per label
    std::optional<std::array<std::uint32_t, 6>> crop;
    PrintSteps steps;              // closeBorders applies to labels on the box's faces
    double smoothingSigmaMm = 0.0; // > 0: Gaussian-smoothed surfaces, made on the CPU
    bool voxelSpace = false;
    bool ascii = false;
    bool gl33 = false;
    bool verbose = false;
};

// The labels to extract and each one's output file, checked before any work: labels the volume
// lacks, several labels into one file, two labels into the same file, an output that may not be
// replaced. Throws InvalidInputError saying which.
std::vector<std::uint32_t> checkLabelExport(const LabelExport& request,
                                            const LabelStatistics& statistics);

// Extracts the labels on the GPU, prints a report per label and writes the files. Throws Error
// (the caller prints it); returns the exit status.
int runLabelExport(const LabelExport& request, const Volume& volume,
                   const LabelStatistics& statistics, const std::string& volumePath);

} // namespace isoview::cli
