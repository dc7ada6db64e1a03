// A file's whole content as bytes, both ways, for tests that prepare input files or check
// what a writer left on disk (header-only, no GL). readFile() reads a file that cannot be
// opened as "": the assertion that compares the content says what is wrong. writeFile() fails
// the running test (ASSERT) when the bytes cannot be written.
//
// Example:
//   writeFile(dir.path() / "a.nrrd", header + voxels);
//   EXPECT_EQ(isoview::test::readFile(dir.path() / "mesh.obj"), expected);
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace isoview::test {

inline std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeFile(const std::filesystem::path& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    ASSERT_TRUE(out.good()) << "cannot write test file " << path;
}

} // namespace isoview::test
