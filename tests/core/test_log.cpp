// The log seam: a warning or an error is on disk as soon as the call returns, so the log file an
// error dialog names already holds it (it used to stay in the file sink's buffer until exit).
#include "core/log.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/basic_file_sink.h>

#include <string>

namespace isoview {
namespace {

using test::readFile;

TEST(Log, WarningsAndErrorsReachTheFileWithoutClosingIt)
{
    test::TempDir dir;
    const std::filesystem::path path = dir.path() / "isoview.log";
    log::setLevel(spdlog::level::info);
    auto existing = log::get("io"); // made before the file sink: it gets the sink too
    log::addSink(std::make_shared<spdlog::sinks::basic_file_sink_mt>(path.string()));

    existing->warn("slice 12 is missing");
    EXPECT_NE(readFile(path).find("slice 12 is missing"), std::string::npos);

    log::get("app-created-after-the-sink")->error("Cannot open head.nrrd");
    EXPECT_NE(readFile(path).find("Cannot open head.nrrd"), std::string::npos);

    // An info line before a warning comes out with it, in order.
    existing->info("opened head.nrrd");
    existing->warn("uneven spacing");
    const std::string text = readFile(path);
    const auto info = text.find("opened head.nrrd");
    ASSERT_NE(info, std::string::npos);
    EXPECT_LT(info, text.find("uneven spacing"));
}

} // namespace
} // namespace isoview
