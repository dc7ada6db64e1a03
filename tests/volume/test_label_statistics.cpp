// Label statistics on real label maps (the prostate phantom's 4 labels, the D99 macaque atlas's
// 365), on a sheared stack (per-slice voxel volumes), the volumes that are not label maps, and
// the "open as labels?" guess on label maps and on images.
#include "io/volume_loader.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "volume/label_statistics.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>

namespace isoview {
namespace {

Volume loadShared(const char* relative)
{
    return io::loadVolume(test::sharedDataPath(relative));
}

TEST(LabelStatistics, RealLabelMapsCountsBoxesAndVolumes)
{
    const Volume prostate = loadShared("nrrd/prostate_phantom_subvolume-label.nrrd");
    const LabelStatistics stats = analyseLabels(prostate);
    ASSERT_EQ(stats.labels.size(), 4u);
    const std::map<std::uint32_t, std::uint64_t> expected{{1, 168}, {7, 170}, {8, 2997}, {9, 9088}};
    // Bounding boxes checked against a plain scan through Volume::valueAt.
    std::map<std::uint32_t, std::pair<glm::uvec3, glm::uvec3>> boxes;
    const glm::uvec3 d = prostate.dims();
    for (std::uint32_t k = 0; k < d.z; ++k) {
        for (std::uint32_t j = 0; j < d.y; ++j) {
            for (std::uint32_t i = 0; i < d.x; ++i) {
                const auto label = std::uint32_t(prostate.valueAt(i, j, k));
                if (label == 0) continue;
                auto [it, added] =
                    boxes.try_emplace(label, glm::uvec3(i, j, k), glm::uvec3(i, j, k));
                it->second.first = glm::min(it->second.first, glm::uvec3(i, j, k));
                it->second.second = glm::max(it->second.second, glm::uvec3(i, j, k));
            }
        }
    }
    std::uint64_t labelled = 0;
    for (const LabelInfo& info : stats.labels) {
        ASSERT_TRUE(expected.count(info.label)) << info.label;
        EXPECT_EQ(info.voxelCount, expected.at(info.label)) << info.label;
        EXPECT_EQ(info.first, boxes.at(info.label).first) << info.label;
        EXPECT_EQ(info.last, boxes.at(info.label).second) << info.label;
        // Spacing 0.5 x 0.5 x 3 mm: 0.75 mm^3 per voxel.
        EXPECT_DOUBLE_EQ(labelVolumeMl(info), double(info.voxelCount) * 0.75e-3) << info.label;
        labelled += info.voxelCount;
    }
    EXPECT_EQ(labelled + stats.backgroundVoxels, prostate.voxelCount());
    ASSERT_NE(stats.find(9), nullptr);
    EXPECT_EQ(stats.find(9)->voxelCount, 9088u);
    EXPECT_EQ(stats.find(2), nullptr);

    const Volume d99 = loadShared("labels/D99_atlas_v2.0_right.nii.gz");
    ASSERT_EQ(d99.type(), ScalarType::Float32);
    const LabelStatistics atlas = analyseLabels(d99);
    ASSERT_EQ(atlas.labels.size(), 365u);
    EXPECT_EQ(atlas.labels.front().label, 1u);
    EXPECT_EQ(atlas.labels.back().label, 522u);
    std::uint64_t atlasLabelled = 0;
    for (const LabelInfo& info : atlas.labels) {
        atlasLabelled += info.voxelCount;
        EXPECT_TRUE(glm::all(glm::lessThanEqual(info.first, info.last))) << info.label;
        EXPECT_DOUBLE_EQ(info.volumeMm3, double(info.voxelCount) * 0.25 * 0.25 * 0.25);
    }
    EXPECT_EQ(atlasLabelled + atlas.backgroundVoxels, d99.voxelCount());

    // A sheared stack with gaps 2 and 4 between its three slices: voxels 2, 3 and 4 mm thick.
    VolumeGeometry stack;
    stack.spacing = {0.5, 2.0, 3.0};
    stack.sliceOrigins = {{0.0, 0.0, 0.0}, {0.0, 1.0, 2.0}, {0.0, 1.0, 6.0}};
    const Volume slab = test::makeTypedVolume<std::uint8_t>(
        {2, 3, 3}, [](auto, auto, auto) { return 4; }, stack);
    const LabelStatistics stacked = analyseLabels(slab);
    ASSERT_EQ(stacked.labels.size(), 1u);
    EXPECT_DOUBLE_EQ(stacked.labels[0].volumeMm3, 6 * (0.5 * 2.0) * (2.0 + 3.0 + 4.0));
}

TEST(LabelStatistics, ValuesNoLabelMapHoldsAreRefusedNamingTheVoxel)
{
    const auto withValueAt = [](ScalarType type, double value) {
        std::vector<std::byte> bytes(60 * scalarSize(type));
        for (std::size_t i = 0; i < 60; ++i) // labels 0..3, then one bad voxel
            test::storeValue(bytes.data() + i * scalarSize(type), type, double(i % 4));
        test::storeValue(bytes.data() + (3 + 5 * (1 + 4 * 2)) * scalarSize(type), type, value);
        return Volume({5, 4, 3}, type, std::move(bytes));
    };
    const auto messageFor = [](const Volume& v) -> std::string {
        try {
            analyseLabels(v);
        } catch (const NotALabelMapError& e) {
            return e.what();
        }
        return "no error";
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(analyseLabels(withValueAt(ScalarType::Float32, 2.0)).labels.size(), 3u);
    const struct {
        ScalarType type;
        double value;
        const char* says;
    } cases[] = {{ScalarType::Float32, 2.5, "holds 2.5, which is not a whole number"},
                 {ScalarType::Int16, -4.0, "holds -4, which is negative"},
                 {ScalarType::Float64, nan, "holds nan, which is not a finite number"},
                 {ScalarType::Float32, -2.5, "holds -2.5, which is not a whole number"},
                 {ScalarType::UInt32, 70000.0, "holds 70000, which is over 65535"}};
    for (const auto& c : cases) {
        const std::string message = messageFor(withValueAt(c.type, c.value));
        EXPECT_NE(message.find("voxel (3, 1, 2)"), std::string::npos) << message;
        EXPECT_NE(message.find(c.says), std::string::npos) << message;
    }
}

TEST(LabelStatistics, LooksLikeLabelMapTellsLabelMapsFromImages)
{
    for (const char* path : {"nrrd/prostate_phantom_subvolume-label.nrrd",
                             "labels/D99_atlas_v2.0_right.nii.gz", "nrrd/brain1_label.nrrd"}) {
        EXPECT_TRUE(looksLikeLabelMap(loadShared(path))) << path;
    }
    for (const char* path : {"nrrd/prostate_phantom_subvolume.nrrd", "nrrd/brain1_image.nrrd"}) {
        EXPECT_FALSE(looksLikeLabelMap(loadShared(path))) << path;
    }
    EXPECT_FALSE(looksLikeLabelMap(test::loadBundledSample()));
    // Few whole values from 0, but noise: neighbours differ (the piecewise-constant test).
    EXPECT_FALSE(looksLikeLabelMap(test::makeRandomVolume({64, 64, 64}, ScalarType::UInt8, 7)));
    // Whole numbers, but not from 0 (no background).
    EXPECT_FALSE(looksLikeLabelMap(test::makeTypedVolume<std::uint8_t>(
        {8, 8, 8}, [](auto i, auto, auto) { return 1 + i / 4; })));
}

} // namespace
} // namespace isoview
