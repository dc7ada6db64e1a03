// A fresh, empty folder under the system temp folder for one test, removed with everything in
// it when the object goes out of scope. The name carries the running test's name, so a folder
// left behind by a crash says where it came from.
//
// Example:
//   isoview::test::TempDir dir;
//   writePly(dir.path() / "mesh.ply", mesh, geometry);
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <stdlib.h>
#include <string>
#include <system_error>
#include <vector>

namespace isoview::test {

class TempDir {
public:
    TempDir()
    {
        std::string name = "isoview-test";
        if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
            name += std::string("-") + info->test_suite_name() + "-" + info->name();
        }
        for (char& c : name) {
            if (c == '/') c = '_'; // parameterised test names contain '/'
        }
        std::string pattern =
            (std::filesystem::temp_directory_path() / (name + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::filesystem::filesystem_error(
                "cannot create a test folder", pattern,
                std::error_code(errno, std::generic_category()));
        }
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }

    // Names of everything directly inside the folder, sorted.
    std::vector<std::string> entries() const
    {
        std::vector<std::string> names;
        for (const auto& entry : std::filesystem::directory_iterator(m_path)) {
            names.push_back(entry.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    std::filesystem::path m_path;
};

} // namespace isoview::test
