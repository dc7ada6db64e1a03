// isoview-cli's command line: its options as one value (Arguments), read and checked before any
// file is opened (parseArguments: every misuse said on stderr with what to do instead), and the
// names of the files the surfaces go to (outputFor: -o's placeholders {iso}, {n} and {t}).
#pragma once

#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"

#include <glm/glm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isoview::cli {

struct Arguments {
    std::string volumePath;
    std::vector<double> isos;
    std::string output;
    std::optional<isoview::MeshFormat> format; // --format: of -o - (standard output)
    std::string mergedPly;
    bool info = false;
    bool labels = false;                  // --labels: a label map
    std::vector<std::uint32_t> labelList; // empty: every non-zero label
    std::string labelTable;
    double labelSmoothingMm = 0.0; // --label-smoothing: Gaussian sigma, 0 none
    bool strict = false;
    std::optional<std::size_t> series;
    bool allTimePoints = false; // --series all: every volume on the chosen one's grid
    std::optional<glm::dvec3> spacing;
    std::optional<glm::uvec3> rawDims;
    std::optional<std::array<std::uint32_t, 6>> crop; // I0 I1 J0 J1 K0 K1
    std::optional<std::string> rawType;
    bool bigEndian = false;
    std::uint64_t headerOffset = 0;
    bool voxelSpace = false;
    bool ascii = false;
    bool gl33 = false;
    bool verbose = false;
    isoview::PrintSteps steps;
};

// Parses and checks argv. Returns nullopt after printing the problem (exitCode 1) or the help or
// version (exitCode 0).
std::optional<Arguments> parseArguments(int argc, char** argv, int& exitCode);

// Whether -o names each surface's own file ({iso}, {n} or {t} in it).
bool isNamePattern(const std::string& output);
// "300", "-0.5", "40.5": the isovalue as a file name part.
std::string isoText(double iso);
// The file the surface at `index` (from 0) at `iso` goes to, of time point `timePoint` (from 0)
// with --series all: the -o name with {iso}, {n} (index + 1) and {t} (timePoint + 1) replaced.
std::string outputFor(const std::string& pattern, std::size_t index, double iso,
                      std::size_t timePoint = 0);

} // namespace isoview::cli
