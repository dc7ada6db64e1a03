// The whole content of a file as bytes, for tests that check what a writer left on disk
// (header-only, no GL, no gtest). A file that cannot be opened reads as "": the assertion that
// compares the content says what is wrong.
//
// Example:
//   EXPECT_EQ(isoview::test::readFile(dir.path() / "mesh.obj"), expected);
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace isoview::test {

inline std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace isoview::test
