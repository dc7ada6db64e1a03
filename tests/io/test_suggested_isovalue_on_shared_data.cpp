// The isovalue a volume opens at, on every volume of the shared test data that has cells: the
// first view must show the object's outer surface, not a rod, a speck or noise. Each volume
// is loaded as the viewer loads it, its histogram and suggestion computed as VolumeDocument
// does, and the CPU reference extracts the surface there. The floors on the triangle count
// and on the surface's extent (its bounding box over the volume's, the smallest axis ratio)
// are set from measurements (in the comments) with a margin: they fail when the suggestion
// moves up into a few bright structures (a rod, specks) or the object is lost.
#include "extraction/cpu_marching_cubes.h"
#include "io/volume_loader.h"
#include "support/shared_data.h"
#include "volume/histogram.h"
#include "volume/isovalue_suggestion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace isoview {
namespace {

struct SharedVolume {
    const char* path; // under the shared data folder
    std::optional<io::RawVolumeParameters> raw;
    std::size_t minTriangles;
    double minExtent; // the surface's bounding box over the volume's, smallest axis ratio
};

io::RawVolumeParameters ctHeadParameters()
{
    io::RawVolumeParameters p;
    p.dims = {256, 256, 0};
    p.type = ScalarType::Int16;
    p.bigEndian = true;
    p.spacing = {1.0, 1.0, 2.0};
    return p;
}

struct Measured {
    double iso = 0.0; // real units
    std::size_t triangles = 0;
    double extent = 0.0;
};

Measured measure(const Volume& volume)
{
    Measured m;
    m.iso = suggestIsovalue(computeHistogram(volume), volume.metadata());
    const auto stored = volume.rescale().toStored(m.iso).classified();
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(stored));
    m.triangles = mesh.triangleCount();
    if (mesh.positions.empty()) return m;
    glm::vec3 lo(mesh.positions.front());
    glm::vec3 hi = lo;
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 span = glm::vec3(volume.dims() - glm::uvec3(1));
    m.extent = 1.0;
    for (int a = 0; a < 3; ++a) {
        if (span[a] > 0.0f) m.extent = std::min(m.extent, double((hi[a] - lo[a]) / span[a]));
    }
    return m;
}

class SuggestedIsovalue : public ::testing::TestWithParam<SharedVolume> {};

TEST_P(SuggestedIsovalue, ShowsTheOuterSurface)
{
    const SharedVolume& v = GetParam();
    const Volume volume = io::loadVolume(test::sharedDataPath(v.path), {.raw = v.raw});
    const Measured m = measure(volume);
    std::printf("%s: %ux%ux%u, iso %.6g, %zu triangles, extent %.2f\n", v.path, volume.dims().x,
                volume.dims().y, volume.dims().z, m.iso, m.triangles, m.extent);
    EXPECT_GE(m.triangles, v.minTriangles) << v.path << " at " << m.iso;
    EXPECT_GE(m.extent, v.minExtent) << v.path << " at " << m.iso;
}

// The single-slice files (MR_small*, mr.001, the CTImage set, no_meta, JPEG-lossy) have no
// cells, so no surface, and are left out.
// Measured at the suggestion (triangles, extent), and the floors: about two thirds of the
// triangles and 0.1 less extent, so a small drift passes and a surface that loses the object
// does not.
const SharedVolume kVolumes[] = {
    // -400 HU, the skin rule: 1,241,706 triangles, extent 0.93.
    {"dicom/ct_philips_head_phantom_5mm", std::nullopt, 800000, 0.8},
    // 136.9: the face and head, 1,448,190 triangles, extent 0.89.
    {"dicom/mr_philips_mprage_sag", std::nullopt, 950000, 0.75},
    // Two slices of a phantom at 50 HU: 49,038 triangles, extent 0.62.
    {"dicom/single/CT0012.fragmented_no_bot_jpeg_baseline.51.dcm", std::nullopt, 32000, 0.5},
    // A dose grid has no background: every isovalue gives one isodose plane, 252 triangles.
    {"dicom/single/rtdose.dcm", std::nullopt, 200, 0.0},
    // The object fills the box: 26,741 triangles, extent 1.
    {"dicom/single/emri_small.dcm", std::nullopt, 17000, 0.9},
    // The MR phantom, a disc 28 of 63 voxels wide and 6 slices deep (so edge-on from the front):
    // 1,736 triangles, extent 0.42; the same disc from 60 to 570, only the background below.
    {"dicom/single/siemens_xa10_enhanced_6_1.dcm", std::nullopt, 1200, 0.35},
    // A signed 12-bit EPI mosaic, its background (0) in the middle of -2048..2047: 375, the
    // head, 31,990 triangles, extent 0.80. It opened at -0.5, the middle of the range, on the
    // stripes stored as -1 and -241: 2,901 triangles.
    {"dicom/single/12bitSigned_0x0F0F.dcm", std::nullopt, 21000, 0.7},
    // EPI heads: 15,600 / 27,422 / 25,420 triangles, extent 0.72 / 0.92 / 0.70.
    {"dicom/mosaic/cor_asc_35sl", std::nullopt, 10000, 0.6},
    {"dicom/mosaic/sag_asc_36sl", std::nullopt, 18000, 0.8},
    {"dicom/mosaic/ax_int_36sl", std::nullopt, 17000, 0.6},
    {"nifti/cor_asc_35sl_16.nii", std::nullopt, 10000, 0.6},
    {"nifti/sag_asc_36sl_19.nii", std::nullopt, 18000, 0.8},
    {"nifti/ax_int_36sl_12.nii", std::nullopt, 17000, 0.6},
    // 94: the whole molecule, 21,920 triangles, extent 0.75. The saturated 255s once drew the
    // suggestion to 242, a few bright specks of 7,480 triangles.
    {"raw/neghip_64x64x64_uint8.raw", std::nullopt, 14000, 0.65},
    // 112: the tooth, 127,972 triangles, extent 0.86.
    {"raw/tooth_103x94x161_uint8.raw", std::nullopt, 85000, 0.75},
    // 760: the skin, 482,880 triangles, extent 0.83.
    {"raw/CThead_256x256x113_int16_be", ctHeadParameters(), 320000, 0.7},
    // 33: the head, 44,674 triangles, extent 0.86.
    {"raw/HeadMRVolume/HeadMRVolume.mhd", std::nullopt, 30000, 0.75},
    // 113: the head, 276,584 triangles, extent 1.
    {"nrrd/brain1_image.nrrd", std::nullopt, 180000, 0.9},
};

std::string volumeName(const ::testing::TestParamInfo<SharedVolume>& info)
{
    std::string name = info.param.path;
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(SharedData, SuggestedIsovalue, ::testing::ValuesIn(kVolumes), volumeName);

} // namespace
} // namespace isoview
