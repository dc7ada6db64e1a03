// readLabelTable on the real D99 atlas table (AFNI semicolon text), on small Slicer, FreeSurfer
// and ITK-SNAP tables written here, on bad tables (each refused with the file and the line),
// and on a 3D Slicer .seg.nrrd header's segments.
#include "core/error.h"
#include "io/label_table_reader.h"
#include "io_test_support.h"
#include "support/child_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::messageOf;
using test::TempDir;
using test::writeFile;

TEST(LabelTableReader, ReadsTheD99AtlasTableWithCleanNames)
{
    const LabelTable table =
        io::readLabelTable(test::sharedDataPath("labels/D99_v2.0_labels_semicolon.txt"));

    // 368 numbered lines, 1..522 with gaps; CRLF endings, quotes and trailing spaces.
    EXPECT_EQ(table.size(), 368u);
    EXPECT_EQ(table.entries().front().value, 1u);
    EXPECT_EQ(table.entries().back().value, 522u);
    EXPECT_EQ(table.nameOf(1), "putamen");
    EXPECT_EQ(table.nameOf(13), "ventral anterior nucleus, parvicellular division");
    EXPECT_EQ(table.nameOf(300), "dorsomedial prefrontal area");                     // "area  \r"
    EXPECT_EQ(table.nameOf(307), "lateral nucleus of amygdala, dorsal subdivision"); // "...  \""
    EXPECT_EQ(table.nameOf(522), "retroinsula");
    EXPECT_FALSE(table.contains(0));
    EXPECT_FALSE(table.find(1)->hasColor); // the palette colours them
}

TEST(LabelTableReader, ReadsSlicerFreeSurferAndItkSnapTables)
{
    TempDir dir;
    // Slicer: the fourth column is an opacity.
    writeFile(dir.path() / "a.ctbl", "# Color table file /tmp/a.ctbl\n# 3 values\n"
                                     "0 Background 0 0 0 0\n"
                                     "1 tissue 128 174 128 255\r\n"
                                     "7 bone 241 214 145 51\n");
    const LabelTable slicer = io::readLabelTable(dir.path() / "a.ctbl");
    ASSERT_EQ(slicer.size(), 3u);
    EXPECT_EQ(slicer.nameOf(7), "bone");
    EXPECT_EQ(slicer.colorOf(1), glm::vec4(128, 174, 128, 255) / 255.0f);
    EXPECT_FLOAT_EQ(slicer.colorOf(7).a, 51.0f / 255.0f);
    EXPECT_FLOAT_EQ(slicer.colorOf(0).a, 0.0f);

    // FreeSurfer: the fourth column is a transparency, 0 on every line: all opaque.
    writeFile(dir.path() / "FreeSurferColorLUT.txt",
              "#No. Label Name:                            R   G   B   A\n\n"
              "0   Unknown                                 0   0   0   0\n"
              "2   Left-Cerebral-White-Matter              245 245 245 0\n"
              "17  Left-Hippocampus                        220 216 20  0\n");
    const LabelTable freeSurfer = io::readLabelTable(dir.path() / "FreeSurferColorLUT.txt");
    ASSERT_EQ(freeSurfer.size(), 3u);
    EXPECT_EQ(freeSurfer.nameOf(17), "Left-Hippocampus");
    EXPECT_EQ(freeSurfer.colorOf(17), glm::vec4(220, 216, 20, 255) / 255.0f);
    EXPECT_FLOAT_EQ(freeSurfer.colorOf(0).a, 1.0f);

    // ITK-SNAP: quoted names with spaces, float opacity, VIS and MSH.
    writeFile(dir.path() / "labels.txt",
              "# ITK-SnAP Label Description File\n"
              "# IDX   -R-  -G-  -B-  -A--  VIS MSH  LABEL\n"
              "    0     0    0    0        0  0  0    \"Clear Label\"\n"
              "    1   255    0    0        1  1  1    \"Left ventricle\"\n"
              "   12     0    0  255      0.5  1  0    \"Label 12\"\n");
    const LabelTable snap = io::readLabelTable(dir.path() / "labels.txt");
    ASSERT_EQ(snap.size(), 3u);
    EXPECT_EQ(snap.nameOf(1), "Left ventricle");
    EXPECT_EQ(snap.colorOf(1), glm::vec4(1, 0, 0, 1));
    EXPECT_EQ(snap.colorOf(12), glm::vec4(0, 0, 1, 0.5f));
    EXPECT_TRUE(snap.find(1)->visible);
    EXPECT_FALSE(snap.find(12)->visible); // no mesh
}

TEST(LabelTableReader, RefusesBadTablesNamingTheFileAndTheLine)
{
    TempDir dir;
    const fs::path path = dir.path() / "bad.txt";
    const auto refusal = [&](const std::string& text) {
        writeFile(path, text);
        const std::string message = messageOf<InvalidInputError>([&] { io::readLabelTable(path); });
        EXPECT_TRUE(contains(message, "cannot read label table '" + path.string() + "': "))
            << message;
        return message;
    };
    const std::string duplicate = refusal("1;a;alpha\n2;b;beta\n# note\n1;c;gamma\n");
    EXPECT_TRUE(contains(duplicate, "line 4 '1;c;gamma': the label 1 is already on line 1"))
        << duplicate;
    EXPECT_TRUE(contains(refusal("1 a 1 2 3 255\n2 b 10 300 0 255\n"),
                         "line 2 '2 b 10 300 0 255': the colour component 300 is outside 0..255"));
    EXPECT_TRUE(contains(refusal("1 0 0 0 1.5 1 1 \"a\"\n"), "line 1 '1 0 0 0 1.5 1 1 \"a\"': "
                                                             "the opacity 1.5 is outside 0..1"));
    EXPECT_TRUE(
        contains(refusal("-3;a;alpha\n"), "line 1 '-3;a;alpha': the label '-3' is negative"));
    EXPECT_TRUE(contains(refusal("2.5;a;alpha\n"), "the label '2.5' is not a whole number"));
    EXPECT_TRUE(contains(refusal("70000 a 1 2 3 4\n"), "the label '70000' is over 65535"));
    EXPECT_TRUE(contains(refusal("1;a;alpha\n2 b 1 2 3 255\n"),
                         "line 2 '2 b 1 2 3 255': it is not an AFNI semicolon entry"));
    EXPECT_TRUE(
        contains(refusal("<html>\n"), "line 1 '<html>': it is none of the label table formats"));
    EXPECT_TRUE(contains(refusal("# only a comment\n\n"), "it names no labels"));
    EXPECT_TRUE(contains(refusal(std::string("1;a\0b;c\n", 8)), "it is not text (byte 0x00"));

    // Larger than any label table: refused before it is read.
    ASSERT_EQ(::truncate(path.c_str(), off_t(io::kMaxLabelTableBytes) + 1), 0);
    EXPECT_TRUE(contains(messageOf<InvalidInputError>([&] { io::readLabelTable(path); }),
                         "more than the 16.0 MiB a label table may have"));

    // A FIFO is refused, never waited on (in a child with an alarm, so a hang cannot stall
    // the suite).
    const fs::path fifo = dir.path() / "labels.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const test::ChildResult child = test::runInChild([&](std::string& message) {
        ::alarm(10);
        message = messageOf([&] { io::readLabelTable(fifo); });
        return 0;
    });
    ASSERT_TRUE(child.exited) << "blocked on the FIFO (signal " << child.signal << ")";
    EXPECT_TRUE(contains(child.message, "is a FIFO (named pipe), not a regular file"))
        << child.message;
}

TEST(LabelTableReader, ReadsSegmentNamesAndColoursFromASlicerSegNrrd)
{
    TempDir dir;
    const fs::path path = dir.path() / "Segmentation.seg.nrrd";
    const std::string header = "NRRD0004\ntype: unsigned char\ndimension: 3\n"
                               "sizes: 2 1 1\nencoding: raw\n"
                               "Segment0_Color:=0.5 0.25 1\n"
                               "Segment0_ID:=Segment_1\n"
                               "Segment0_LabelValue:=1\n"
                               "Segment0_Layer:=0\n"
                               "Segment0_Name:=liver\n"
                               "Segment1_ID:=tumour_id\n"
                               "Segment1_LabelValue:=3\n"
                               "Segment1_Layer:=0\n"
                               "Segment1_Name:=\n"
                               "Segmentation_MasterRepresentation:=Binary labelmap\n\n";
    writeFile(path, header + std::string("\x01\x03", 2));
    const std::optional<LabelTable> table = io::readSegNrrdLabelTable(path);
    ASSERT_TRUE(table.has_value());
    ASSERT_EQ(table->size(), 2u);
    EXPECT_EQ(table->nameOf(1), "liver");
    EXPECT_EQ(table->colorOf(1), glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
    EXPECT_EQ(table->nameOf(3), "tumour_id"); // no name: the ID
    EXPECT_FALSE(table->find(3)->hasColor);

    // Overlapping segments in two layers reuse label 1: only layer 0's segments are kept.
    std::map<std::string, std::string> keys = {
        {"Segment0_LabelValue", "1"}, {"Segment0_Layer", "0"}, {"Segment0_Name", "skin"},
        {"Segment1_LabelValue", "1"}, {"Segment1_Layer", "1"}, {"Segment1_Name", "skull"}};
    const std::optional<LabelTable> layered = io::labelTableFromSegNrrdKeys(keys);
    ASSERT_TRUE(layered.has_value());
    ASSERT_EQ(layered->size(), 1u);
    EXPECT_EQ(layered->nameOf(1), "skin");
    keys["Segment0_Color"] = "0.5 1.5 0";
    EXPECT_TRUE(contains(messageOf<InvalidInputError>([&] { io::labelTableFromSegNrrdKeys(keys); }),
                         "Segment0_Color"));
    // A plain NRRD names no segments.
    EXPECT_FALSE(io::labelTableFromSegNrrdKeys({{"isoview_rescale_slope", "1"}}).has_value());
}

} // namespace
} // namespace isoview
