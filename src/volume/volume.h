// A scalar volume in memory: voxels in their native type, the grid's dimensions, and the
// geometry that maps voxel indices to physical (patient/world) millimetres.
//
// Conventions (used everywhere in isoview):
// - Voxel (i, j, k) is stored at linear index i + W * (j + H * k): X varies fastest.
// - Marching cubes treats voxel centres as grid points, so a W x H x D volume has
//   (W-1) x (H-1) x (D-1) cells. Index space puts voxel (i, j, k) at the point (i, j, k).
// - physical = origin + direction * diag(spacing) * index   (direction: columns are the
//   physical directions of the i, j, k axes; for DICOM, LPS millimetres).
// - Stored values map to real units (HU for CT) as real = stored * slope + intercept.
//
// Example:
//   Volume v({64, 64, 64}, ScalarType::UInt8, std::move(bytes));
//   float value = v.valueAt(3, 4, 5);
#pragma once

#include "volume/stored_value.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview {

class InputProtection; // core/protected_inputs.h

enum class ScalarType { UInt8, Int8, UInt16, Int16, UInt32, Int32, Float32, Float64 };

// Bytes per voxel of a type.
std::size_t scalarSize(ScalarType type);
// The file-name spelling of a type: "uint8", "int16", "float32", ...
std::string_view scalarTypeName(ScalarType type);
// Parses the spelling above (also accepts "float" and "double"); throws InvalidInputError.
ScalarType parseScalarType(std::string_view name);

struct VolumeGeometry {
    glm::dvec3 spacing{1.0, 1.0, 1.0};
    glm::dvec3 origin{0.0, 0.0, 0.0};
    glm::dmat3 direction{1.0};
    // Empty for a regular grid. Otherwise one entry per slice k: the physical position of voxel
    // (0, 0, k), for stacks that are unevenly spaced or sheared (gantry tilt), which are kept as
    // measured rather than resampled. Then physical(i, j, k) = sliceOrigins[k] +
    // direction[0] * spacing.x * i + direction[1] * spacing.y * j, linear between slices for
    // fractional k; origin, spacing.z and direction[2] hold the nominal (mean) stack geometry.
    std::vector<glm::dvec3> sliceOrigins;

    // The physical position of an index-space point (honours sliceOrigins).
    glm::dvec3 toPhysical(const glm::dvec3& index) const;
    // The slice interval [k0, k0 + 1] that toPhysical interpolates in for slice coordinate k.
    std::size_t sliceIntervalAt(double k) const;
    // The linear part of index -> physical around slice coordinate k: columns are the physical
    // steps of one voxel along i, j and k (for sliceOrigins, the step between the slices of
    // sliceIntervalAt(k)).
    glm::dmat3 jacobianAt(double k) const;
    // Maps the central-difference gradient at a voxel of slice k to physical space: the inverse
    // transpose of the Jacobian whose third column is the step that the difference stencil
    // spans ((o[k+1] - o[k-1]) / 2 inside the stack, one-sided at its ends), so that gradients
    // across unequal gaps are scaled by the distance they really span. Equal to
    // gradientToPhysical() on regular grids.
    glm::dmat3 voxelGradientToPhysical(std::size_t k) const;
    bool hasSliceOrigins() const { return !sliceOrigins.empty(); }

    // The affine map index -> physical as a 4x4 matrix (the nominal one when sliceOrigins is
    // set).
    glm::dmat4 indexToPhysical() const;
    // True when indexToPhysical mirrors space; triangle winding must then be reversed so that
    // normals stay outward.
    bool isMirrored() const;
    // Maps an index-space gradient to a physical-space gradient (the inverse transpose of the
    // linear part of indexToPhysical). Normals are computed with it so that anisotropic
    // spacing is honoured.
    glm::dmat3 gradientToPhysical() const;
};

// Stored voxel values to real units and back: the one place the two meet (stored_value.h).
struct ValueRescale {
    double slope = 1.0;
    double intercept = 0.0;

    double toReal(StoredValue stored) const { return stored.value() * slope + intercept; }
    // A stored voxel value or range end as read (Volume::storedRange, VolumeSlice::storedAt).
    double toReal(double stored) const { return stored * slope + intercept; }
    StoredValue toStored(double real) const { return StoredValue((real - intercept) / slope); }
};

struct ValueRange {
    double min = 0.0;
    double max = 0.0;
};

// What a viewer shows about a volume besides its voxels. Empty strings where unknown.
struct VolumeMetadata {
    std::string sourceFormat; // "DICOM", "NRRD", "MetaImage", "raw"
    std::string modality;     // DICOM modality: "CT", "MR", ...
    std::string units;        // real-value units after rescale: "HU" for CT
    // Physical space is a patient's LPS millimetres (DICOM; NRRD with a patient space), so
    // views and axes can be named anatomically.
    bool patientSpace = false;
    std::string patientName;
    std::string patientId;
    std::string studyDate; // as stored (DICOM: YYYYMMDD)
    std::string seriesDescription;
    std::string seriesInstanceUid;
    std::optional<double> windowCenter; // real units
    std::optional<double> windowWidth;
    // The loader's notes a person should see: skipped files, gaps, uneven spacing, tilt.
    std::vector<std::string> warnings;
    // The stored value that marks padding voxels (DICOM PixelPaddingValue, which the loader
    // maps below every real value): no data. They lie outside every surface (inside is
    // value >= isovalue) and are left out of storedRange() and the histogram.
    std::optional<double> paddingValue;
    // The file says it is a label map (NIfTI intent NIFTI_INTENT_LABEL, a 3D Slicer .seg.nrrd's
    // segments): each value is a structure, not an intensity.
    bool declaresLabelMap = false;
};

class Volume {
public:
    // Takes ownership of the voxel bytes. Throws InvalidInputError when the byte count does not
    // match dims and type, when a dimension is zero, or when the rescale slope is not a
    // positive finite number.
    Volume(glm::uvec3 dims, ScalarType type, std::vector<std::byte> voxels,
           VolumeGeometry geometry = {}, ValueRescale rescale = {});

    glm::uvec3 dims() const { return m_dims; }
    ScalarType type() const { return m_type; }
    std::size_t voxelCount() const;
    const std::byte* bytes() const { return m_voxels.data(); }
    std::size_t byteCount() const { return m_voxels.size(); }

    const VolumeGeometry& geometry() const { return m_geometry; }
    // Throws InvalidInputError for a spacing that is not positive or above 1 km, and positions
    // or directions that are not finite or lie over 1,000 km out (the constructor checks the
    // same, and a value rescale whose real values overflow 32-bit floats).
    void setGeometry(const VolumeGeometry& geometry);
    const ValueRescale& rescale() const { return m_rescale; }
    const VolumeMetadata& metadata() const { return m_metadata; }
    // Recomputes storedRange() (one pass over the voxels) when the padding value changes.
    void setMetadata(VolumeMetadata metadata);

    // Stored value of voxel (i, j, k) converted to float: the same conversion the GPU sampler
    // performs, so CPU and GPU classify every corner identically. No bounds check.
    float valueAt(std::uint32_t i, std::uint32_t j, std::uint32_t k) const;
    float valueAt(std::size_t linearIndex) const;

    // Minimum and maximum finite stored values other than metadata().paddingValue (computed
    // at construction and when setMetadata changes the padding value).
    ValueRange storedRange() const { return m_range; }
    // The same values in real units (through rescale()), ordered: what every layer above the
    // engine shows and edits (the histogram's, the slider's, the transfer function's range).
    ValueRange realRange() const;

    // The files this volume was read from, which writers refuse to replace while any copy of
    // the volume lives (core/protected_inputs.h). loadVolume sets it; null for volumes made in
    // memory.
    void protectSourceFiles(std::shared_ptr<const InputProtection> protection)
    {
        m_inputProtection = std::move(protection);
    }
    const InputProtection* sourceFileProtection() const { return m_inputProtection.get(); }
    // The same, to hand on to a volume derived from this one (a label map's uint16 copy), so
    // its files stay protected as long as the derived volume lives.
    const std::shared_ptr<const InputProtection>& sharedSourceFileProtection() const
    {
        return m_inputProtection;
    }

private:
    // m_range: the finite stored values other than the metadata's padding value.
    void measureStoredRange();

    glm::uvec3 m_dims;
    ScalarType m_type;
    std::vector<std::byte> m_voxels;
    VolumeGeometry m_geometry;
    ValueRescale m_rescale;
    VolumeMetadata m_metadata;
    ValueRange m_range;
    std::shared_ptr<const InputProtection> m_inputProtection;
};

} // namespace isoview
