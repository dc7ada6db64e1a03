// The surface list: naming, palette, selection, the never-empty rule, undoable insert and the
// listener's notifications.
#include "core/error.h"
#include "scene/surface_list.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace isoview {
namespace {

using Change = SurfaceList::Change;

TEST(SurfaceList, StartsWithOneSelectedSurfaceColouredByTheTransferFunction)
{
    const SurfaceList list(40.0);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list.selected().name, "Surface 1");
    EXPECT_EQ(list.selected().isovalue, 40.0);
    EXPECT_FALSE(list.selected().color.has_value());
    EXPECT_EQ(list.selected().opacity, 1.0f);
    EXPECT_TRUE(list.selected().visible);
}

TEST(SurfaceList, AddNamesSelectsAndTakesThePalettesColoursInTurn)
{
    SurfaceList list(0.0);
    const std::uint32_t a = list.add(100.0);
    const std::uint32_t b = list.add(200.0);
    ASSERT_EQ(list.size(), 3u);
    EXPECT_NE(a, b);
    EXPECT_EQ(list.selected().id, b);
    EXPECT_EQ(list.find(a)->name, "Surface 2");
    EXPECT_EQ(list.find(b)->name, "Surface 3");
    EXPECT_EQ(list.find(a)->color, SurfaceList::palette()[0]);
    EXPECT_EQ(list.find(b)->color, SurfaceList::palette()[1]);
    // A name and a colour are the lowest free ones: a removed surface's come back, and no two
    // surfaces share either (issue 26: "Surface 3" came with only "Surface 1" in the list).
    ASSERT_TRUE(list.remove(a));
    const std::uint32_t c = list.add(0.0);
    EXPECT_EQ(list.find(c)->name, "Surface 2");
    EXPECT_EQ(list.find(c)->color, SurfaceList::palette()[0]);
    EXPECT_EQ(list.find(list.add(0.0))->name, "Surface 4");

    // A list reset to one surface (a new volume's) starts the names and the palette afresh.
    list.reset({list.surfaces().front()}, 0);
    const std::uint32_t d = list.add(0.0);
    EXPECT_EQ(list.find(d)->name, "Surface 2");
    EXPECT_EQ(list.find(d)->color, SurfaceList::palette()[0]);

    // Past the palette's end its colours come round again.
    for (std::size_t i = 1; i < SurfaceList::palette().size(); ++i)
        list.add(0.0);
    EXPECT_EQ(list.find(list.add(0.0))->color, SurfaceList::palette()[0]);
}

TEST(SurfaceList, ANewVolumesFirstSurfaceCarriesOnlyTheUsersColour)
{
    SurfaceList list(0.0);
    EXPECT_EQ(list.carriedColor(), std::nullopt) << "the transfer function's";
    const glm::vec3 chosen(0.9f, 0.9f, 0.85f);
    list.setColor(list.selected().id, chosen);
    list.add(1.0); // selected, in the palette's colour
    EXPECT_EQ(list.carriedColor(), std::optional(chosen));
    // The first surface gone, the list's first is an added one: its palette colour stays.
    ASSERT_TRUE(list.remove(list.surfaces().front().id));
    EXPECT_EQ(list.carriedColor(), std::nullopt);
}

TEST(SurfaceList, TheLastSurfaceCannotBeRemoved)
{
    SurfaceList list(1.0);
    const std::uint32_t only = list.selected().id;
    EXPECT_FALSE(list.remove(only));
    EXPECT_EQ(list.size(), 1u);
    EXPECT_FALSE(list.remove(only + 100)); // unknown id
}

TEST(SurfaceList, RemovingTheSelectedOneSelectsItsNeighbour)
{
    SurfaceList list(0.0);
    const std::uint32_t first = list.selected().id;
    const std::uint32_t second = list.add(1.0);
    const std::uint32_t third = list.add(2.0);
    list.select(second);
    ASSERT_TRUE(list.remove(second));
    EXPECT_EQ(list.selected().id, third); // the next one
    ASSERT_TRUE(list.remove(third));
    EXPECT_EQ(list.selected().id, first); // the previous one, there being no next
}

TEST(SurfaceList, InsertPutsARemovedSurfaceBackWithItsIdAndKeepsTheSelection)
{
    SurfaceList list(0.0);
    const std::uint32_t first = list.selected().id;
    const std::uint32_t second = list.add(5.0);
    list.setOpacity(second, 0.25f);
    const Surface removed = *list.find(second);
    list.select(first);
    ASSERT_TRUE(list.remove(second));
    list.insert(1, removed);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list.surfaces()[1], removed);
    EXPECT_EQ(list.selected().id, first);
    EXPECT_THROW(list.insert(0, removed), InvalidInputError); // its id is there again
    // New ids never collide with the restored one.
    EXPECT_GT(list.add(0.0), removed.id);
}

TEST(SurfaceList, SettersRefuseInvalidValuesAndLeaveTheListAsItWas)
{
    SurfaceList list(3.0);
    const std::uint32_t id = list.selected().id;
    const Surface before = list.selected();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(list.setIsovalue(id, nan), InvalidInputError);
    EXPECT_THROW(list.setIsovalue(id, std::numeric_limits<double>::infinity()), InvalidInputError);
    EXPECT_THROW(list.setOpacity(id, 1.5f), InvalidInputError);
    EXPECT_THROW(list.setOpacity(id, -0.1f), InvalidInputError);
    EXPECT_THROW(list.setColor(id, glm::vec3(0.5f, 1.2f, 0.0f)), InvalidInputError);
    EXPECT_THROW(list.rename(id, ""), InvalidInputError);
    EXPECT_THROW(list.setVisible(id + 7, false), InvalidInputError);
    EXPECT_THROW(list.add(nan), InvalidInputError);
    EXPECT_EQ(list.selected(), before);
    EXPECT_EQ(list.size(), 1u);
}

TEST(SurfaceList, TheListenerHearsEachChangeOnceAndNothingForNoChange)
{
    SurfaceList list(0.0);
    std::vector<std::pair<Change, std::uint32_t>> heard;
    list.setListener([&](Change c, std::uint32_t id) { heard.emplace_back(c, id); });
    const std::uint32_t first = list.selected().id;
    const std::uint32_t added = list.add(1.0);
    list.rename(added, "Bone");
    list.rename(added, "Bone"); // the same: nothing
    list.setVisible(added, false);
    list.select(first);
    list.select(first); // already: nothing
    list.remove(added);
    const std::vector<std::pair<Change, std::uint32_t>> expected = {
        {Change::Added, added},  {Change::Selected, added}, {Change::Edited, added},
        {Change::Edited, added}, {Change::Selected, first}, {Change::Removed, added}};
    EXPECT_EQ(heard, expected);
}

TEST(SurfaceList, ResetReplacesEverySurfaceAndRefusesABadListWhole)
{
    SurfaceList list(0.0);
    const std::vector<Surface> surfaces = {
        {0, "Skin", -500.0, glm::vec3(0.9f, 0.7f, 0.6f), 0.4f, true},
        {0, "Bone", 300.0, std::nullopt, 1.0f, false},
    };
    list.reset(surfaces, 1);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list.selected().name, "Bone");
    EXPECT_NE(list.surfaces()[0].id, list.surfaces()[1].id);
    EXPECT_EQ(list.surfaces()[0].opacity, 0.4f);

    std::vector<Surface> bad = surfaces;
    bad[1].opacity = 2.0f;
    EXPECT_THROW(list.reset(bad, 0), InvalidInputError);
    EXPECT_THROW(list.reset(surfaces, 2), InvalidInputError);
    EXPECT_THROW(list.reset({}, 0), InvalidInputError);
    EXPECT_EQ(list.selected().name, "Bone"); // unchanged
    // Added after a reset: the lowest free name, beside the restored ones.
    EXPECT_EQ(list.find(list.add(0.0))->name, "Surface 1");
}

} // namespace
} // namespace isoview
