// The volumes of one acquisition on one grid, shown one at a time as time: the time points of an
// fMRI or a cardiac series, the echoes or diffusion directions of one series, the 4th dimension
// of a NIfTI file. Every volume has the same dimensions, scalar type and geometry, so a surface,
// a crop box and a camera made for one are right for all, and the GPU can take each one's
// values in place of the last's.
//
// Threads: immutable once made, shared by the scene's copies (std::shared_ptr<const ...>).
// Cost: the volumes themselves (each is kept in memory).
//
// Example:
//   auto series = std::make_shared<const VolumeSeries>(volumes, labels);
//   scene.showTimePoint(series, 1); // the second volume
#pragma once

#include "volume/volume.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace isoview {

// Whether a and b have the same grid: dimensions, and voxel centres within a thousandth of the
// finest spacing (what two writers of one scan's geometry agree on after rounding).
bool onSameGrid(const Volume& a, const Volume& b);

class VolumeSeries {
public:
    // Throws InvalidInputError for fewer than two volumes, a null one, labels that are not one
    // per volume, or a volume whose dimensions, scalar type or grid differ from the first's
    // (the message names it).
    VolumeSeries(std::vector<std::shared_ptr<const Volume>> volumes,
                 std::vector<std::string> labels);

    std::size_t size() const { return m_volumes.size(); }
    const std::shared_ptr<const Volume>& volume(std::size_t timePoint) const
    {
        return m_volumes.at(timePoint);
    }
    // "volume 2 of 10 (t = 3 s)": what the reader said of it.
    const std::string& label(std::size_t timePoint) const { return m_labels.at(timePoint); }
    // The time point holding this volume, or size() for none.
    std::size_t indexOf(const Volume* volume) const;
    // Voxels of all time points: what keeping them all costs.
    std::uint64_t byteCount() const;

private:
    std::vector<std::shared_ptr<const Volume>> m_volumes;
    std::vector<std::string> m_labels;
};

} // namespace isoview
