// The transfer function: a piecewise-linear colour and opacity curve over the volume's real
// values (HU for CT). It drives direct volume rendering and gives the isosurface its default
// colour. Pure data, no GL and no Qt.
//
// Semantics: control points are kept sorted by value (equal values keep insertion order).
// evaluate() interpolates colour and opacity linearly between neighbouring points and holds the
// first/last point's colour and opacity outside them; an empty function is transparent black.
// At a step (two points of equal value) the later point holds from that value on.
//
// Threads: a TransferFunction is a value; const calls may run concurrently, edits may not.
// Edits are strong-exception-safe (a throwing edit changes nothing); evaluate() never throws.
//
// Example:
//   TransferFunction tf = transferFunctionPreset(TransferPreset::CtBone, {-1024, 3071});
//   glm::vec4 rgba = tf.evaluate(400.0);
//   std::vector<glm::vec4> lut = tf.sample(-1024.0, 3071.0, 1024);
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview {

struct TransferPoint {
    double value = 0.0;    // real units
    glm::vec3 color{1.0f}; // linear RGB in [0, 1]
    float opacity = 0.0f;  // [0, 1], of one sample per voxel (the ray caster corrects for its step)
    bool operator==(const TransferPoint&) const = default;
};

// Throws InvalidInputError when the point's value is not finite or a colour component or its
// opacity lies outside [0, 1]; the message starts with `what` ("transfer function point 3").
void validateTransferPoint(const TransferPoint& point, std::string_view what);

class TransferFunction {
public:
    TransferFunction() = default;
    // Sorts the points. Throws InvalidInputError on a non-finite value or a colour/opacity
    // outside [0, 1].
    explicit TransferFunction(std::vector<TransferPoint> points, std::string name = {});

    const std::vector<TransferPoint>& points() const { return m_points; }
    std::size_t size() const { return m_points.size(); }
    const std::string& name() const { return m_name; }
    void setName(std::string name) { m_name = std::move(name); }

    // Edits keep the points sorted and return the point's index afterwards. Out-of-range
    // indices and invalid values throw InvalidInputError.
    std::size_t addPoint(const TransferPoint& point);
    void removePoint(std::size_t index);
    // Moves a point to a new value and opacity, keeping its colour; it may pass its neighbours.
    // Onto a neighbour's value it stays on its own side of it (the sorted place nearest its
    // old index).
    std::size_t movePoint(std::size_t index, double value, float opacity);
    void setColor(std::size_t index, glm::vec3 color);

    glm::vec4 evaluate(double value) const; // rgb, opacity; NaN gives transparent black
    // n samples at the centres of n equal steps over [min, max] (a lookup texture). Throws
    // InvalidInputError for n == 0 or a non-finite bound.
    std::vector<glm::vec4> sample(double min, double max, std::size_t n) const;

    bool operator==(const TransferFunction&) const = default;

private:
    std::vector<TransferPoint> m_points;
    std::string m_name;
};

enum class TransferPreset { CtBone, CtSkinSoftTissue, CtLung, Mr };

std::string_view transferPresetName(TransferPreset preset); // "CT bone", ...
std::vector<TransferPreset> allTransferPresets();
// CT presets are in Hounsfield units: fixed points, except that their flat end points move out
// to realRange's ends where it is wider than -1024..3071 (evaluate() is the same either way).
// The MR preset is laid out over realRange (MR intensities have no absolute scale); it throws
// InvalidInputError for a non-finite or reversed range and widens a single value a little.
TransferFunction transferFunctionPreset(TransferPreset preset, ValueRange realRange);
// A sensible first function for a volume: CT skin/soft tissue for CT (modality "CT" or units
// "HU"), else the MR ramp over the volume's real range (storedRange() through rescale()).
TransferFunction defaultTransferFunction(const Volume& volume);

// JSON, version 1:
//   {"format": "isoview-transfer-function", "version": 1, "name": "...",
//    "points": [{"value": 300.0, "color": [1, 0.9, 0.8], "opacity": 0.5}, ...]}
// Round trip is exact (values printed with enough digits to read back identically; colours and
// opacities as the shortest decimal of their float). One point per line. A name that is not
// valid UTF-8 is written with U+FFFD in place of the bad bytes.
std::string transferFunctionToJson(const TransferFunction& tf);
// Throws InvalidInputError naming what is wrong (not JSON, with nlohmann's line and column;
// wrong format or version; a missing, mistyped or out-of-range field, points numbered from 1).
// "name" is optional, "version" must be the integer 1, unknown keys are ignored, an empty
// "points" list gives the empty function, and points may come in any order.
TransferFunction transferFunctionFromJson(std::string_view json);
// File variants: save writes atomically (AtomicFileWriter); both throw IoError on I/O failure
// (naming the path). A file whose content is wrong throws InvalidInputError naming the file.
void saveTransferFunction(const std::filesystem::path& path, const TransferFunction& tf);
TransferFunction loadTransferFunction(const std::filesystem::path& path);

} // namespace isoview
