// A value in a volume's STORED units: what its voxels hold before the rescale to real units
// (ValueRescale: real = stored * slope + intercept; HU for CT). Only the engine works in stored
// units: extraction classifies voxels against an isovalue in them, as float, exactly as the GPU's
// samplers compare. Every layer above the engine (the scene, the app, the CLI) speaks real units.
//
// The type exists so that a real value cannot go where a stored one is meant, nor a stored one
// come back out as if it were real: its constructor is explicit, it converts to nothing, and
// ValueRescale (volume.h) is the one place that maps between the two.
//
// Example:
//   const StoredValue iso = volume.rescale().toStored(300.0); // 300 HU
//   IsoMesh mesh = extractIsosurfaceCpu(volume, iso);
#pragma once

namespace isoview {

class StoredValue {
public:
    constexpr explicit StoredValue(double value) : m_value(value) {}

    constexpr double value() const { return m_value; }
    // The value voxels are classified against (inside: voxel >= it): the float the CPU reference
    // (Volume::valueAt) and the GPU's samplers compare with.
    constexpr float classified() const { return float(m_value); }

    constexpr bool operator==(const StoredValue&) const = default;
    // (No <=>: its header trips Qt 6.4's moc in every header that includes this one.)
    constexpr bool operator<(const StoredValue& other) const { return m_value < other.m_value; }

private:
    double m_value;
};

} // namespace isoview
