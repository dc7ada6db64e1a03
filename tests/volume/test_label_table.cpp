// LabelTable as a value (sorted lookups, names and colours with the palette's fallback, refused
// duplicates) and distinctLabelColor (deterministic, every label of a large atlas distinct,
// neighbouring labels far apart).
#include "core/error.h"
#include "volume/label_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace isoview {
namespace {

TEST(LabelTable, LooksUpSortedEntriesAndFallsBackToThePalette)
{
    const glm::vec4 red(1.0f, 0.0f, 0.0f, 0.5f);
    const LabelTable table({{7, "seven"}, {2, "two", red, true}, {300, "three hundred"}});

    ASSERT_EQ(table.size(), 3u);
    std::vector<std::uint32_t> order;
    for (const LabelEntry& entry : table)
        order.push_back(entry.value);
    EXPECT_EQ(order, (std::vector<std::uint32_t>{2, 7, 300}));
    EXPECT_EQ(table.nameOf(7), "seven");
    EXPECT_EQ(table.nameOf(8), "");
    EXPECT_EQ(table.find(8), nullptr);
    EXPECT_EQ(table.colorOf(2), red);
    EXPECT_EQ(table.colorOf(7), glm::vec4(distinctLabelColor(7), 1.0f));
    EXPECT_EQ(table.colorOf(9), glm::vec4(distinctLabelColor(9), 1.0f));

    EXPECT_THROW(LabelTable({{4, "a"}, {4, "b"}}), InvalidInputError);
    EXPECT_THROW(LabelTable({{LabelTable::kMaxLabel + 1, "too large"}}), InvalidInputError);
}

// RGB distance, each component 0..1 (the largest possible is sqrt(3)).
float distance(std::uint32_t a, std::uint32_t b)
{
    return glm::length(distinctLabelColor(a) - distinctLabelColor(b));
}

TEST(LabelPalette, IsDeterministicAndKeepsLabelsApart)
{
    EXPECT_EQ(distinctLabelColor(0), glm::vec3(0.0f));
    // Pinned: a session or screenshot shows label 1 in this colour in every build.
    const glm::vec3 one = distinctLabelColor(1);
    EXPECT_NEAR(one.r, 0.3149f, 1e-3f);
    EXPECT_NEAR(one.g, 0.6131f, 1e-3f);
    EXPECT_NEAR(one.b, 0.0497f, 1e-3f);

    // The D99 macaque atlas numbers its structures 1..522: any two of them stay apart, and
    // labels next to each other (often neighbours in the brain too) differ at a glance.
    constexpr std::uint32_t kLabels = 522;
    float closest = 10.0f;
    float closestNeighbours = 10.0f;
    for (std::uint32_t a = 1; a <= kLabels; ++a) {
        const glm::vec3 color = distinctLabelColor(a);
        for (int c = 0; c < 3; ++c) {
            ASSERT_GE(color[c], 0.0f);
            ASSERT_LE(color[c], 1.0f);
        }
        if (a < kLabels) closestNeighbours = std::min(closestNeighbours, distance(a, a + 1));
        for (std::uint32_t b = a + 1; b <= kLabels; ++b)
            closest = std::min(closest, distance(a, b));
    }
    EXPECT_GT(closest, 0.03f);
    EXPECT_GT(closestNeighbours, 0.5f);
}

} // namespace
} // namespace isoview
