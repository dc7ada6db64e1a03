#include "support/shared_data.h"

#include "core/error.h"
#include "io/raw_volume_reader.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace isoview::test {

std::filesystem::path sharedDataPath(std::string_view relative)
{
    // The environment wins over the configured folder, so that test binaries carried to another
    // machine (packaging/gpu-check.sh) find the data that travelled with them.
    const char* overridden = std::getenv("ISOVIEW_SHARED_DATA_DIR");
    const std::filesystem::path root =
        overridden && *overridden ? std::filesystem::path(overridden) : kSharedDataDir;
    const std::filesystem::path path = root / relative;
    if (!std::filesystem::exists(path)) {
        ADD_FAILURE() << "shared test data missing: " << path
                      << " (set the CMake cache variable ISOVIEW_SHARED_DATA_DIR)";
        throw IoError("shared test data missing: " + path.string());
    }
    return path;
}

Volume loadSharedRaw(std::string_view relative)
{
    return io::readRawVolume(sharedDataPath(relative));
}

Volume loadCtHead()
{
    constexpr std::uint32_t kSide = 256;
    constexpr std::uint32_t kSlices = 113;
    const std::size_t sliceBytes = std::size_t(kSide) * kSide * 2;
    std::vector<std::byte> bytes(sliceBytes * kSlices);
    for (std::uint32_t k = 0; k < kSlices; ++k) {
        const std::filesystem::path path =
            sharedDataPath("raw/CThead_256x256x113_int16_be/CThead." + std::to_string(k + 1));
        std::ifstream file(path, std::ios::binary);
        file.read(reinterpret_cast<char*>(bytes.data() + k * sliceBytes),
                  std::streamsize(sliceBytes));
        if (file.gcount() != std::streamsize(sliceBytes)) {
            throw IoError("short CThead slice " + path.string());
        }
    }
    for (std::size_t i = 0; i < bytes.size(); i += 2)
        std::swap(bytes[i], bytes[i + 1]);
    VolumeGeometry geometry;
    geometry.spacing = {1.0, 1.0, 2.0};
    return Volume({kSide, kSide, kSlices}, ScalarType::Int16, std::move(bytes), geometry);
}

Volume loadBundledSample()
{
    const std::filesystem::path path =
        std::filesystem::path(kSourceDir) / "resources/samples/mr_head_128x128x85_uint16.raw";
    return io::readRawVolume(path);
}

} // namespace isoview::test
