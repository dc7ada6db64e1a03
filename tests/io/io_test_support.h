// Small helpers shared by the io tests (header-only, so it needs no build entry): writing and
// reading test files (tests/support/file_contents.h), compressing with zlib, catching an
// error's message, a volume's bytes and warnings, and load monitors that record progress or
// cancel after a number of calls.
//
// Example:
//   writeFile(dir.path() / "a.nrrd", header + voxels);
//   EXPECT_NE(messageOf([&] { io::readNrrd(path); }).find("truncated"), std::string::npos);
//   const std::string why = messageOf<IoError>([&] { io::scanDicom(cut); }); // fails if none
#pragma once

#include "core/error.h"
#include "io/load_monitor.h"
#include "support/file_contents.h"
#include "volume/volume.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>
#include <zlib.h>

namespace isoview::test {

inline std::string asText(const void* data, std::size_t n)
{
    return std::string(static_cast<const char*>(data), n);
}

// A value's bytes in little- or big-endian order.
template <class T> std::string encode(T value, bool bigEndian)
{
    std::string bytes(sizeof(T), '\0');
    std::memcpy(bytes.data(), &value, sizeof(T));
    const bool hostBig = std::endian::native == std::endian::big;
    if (bigEndian != hostBig) std::reverse(bytes.begin(), bytes.end());
    return bytes;
}

// Compresses with a gzip (gzipWrapper) or zlib wrapper.
inline std::string deflateBytes(std::string_view data, bool gzipWrapper)
{
    z_stream stream{};
    EXPECT_EQ(
        deflateInit2(&stream, 6, Z_DEFLATED, gzipWrapper ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY),
        Z_OK);
    std::string out(deflateBound(&stream, uLong(data.size())) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(out.size() - stream.avail_out);
    deflateEnd(&stream);
    return out;
}

// The message of the isoview::Error that action throws, or "(no exception)".
inline std::string messageOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no exception)";
}

inline bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// The message of the exception of type E that f throws; a test failure (and "") when f throws
// nothing or another type.
template <typename E, typename F> std::string messageOf(F&& f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "unexpected exception type: " << e.what();
        return {};
    }
    ADD_FAILURE() << "no exception was thrown";
    return {};
}

inline std::vector<std::byte> voxelBytes(const Volume& volume)
{
    return std::vector<std::byte>(volume.bytes(), volume.bytes() + volume.byteCount());
}

// Every warning of the volume's metadata, one a line (for failure messages).
inline std::string allWarnings(const Volume& volume)
{
    std::string text;
    for (const std::string& w : volume.metadata().warnings) {
        text += w + "\n";
    }
    return text;
}

inline bool anyWarningContains(const Volume& volume, std::string_view text)
{
    const auto& warnings = volume.metadata().warnings;
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return contains(w, text); });
}

// Records every progress call; asks to cancel once `cancelAfter` calls have been seen.
class RecordingMonitor : public io::LoadMonitor {
public:
    explicit RecordingMonitor(int cancelAfter = -1) : m_cancelAfter(cancelAfter) {}
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) override
    {
        calls.push_back({std::string(stage), done, total});
    }
    bool cancelRequested() const override
    {
        return m_cancelAfter >= 0 && int(calls.size()) >= m_cancelAfter;
    }

    struct Call {
        std::string stage;
        std::uint64_t done;
        std::uint64_t total;
    };
    std::vector<Call> calls;

private:
    int m_cancelAfter;
};

} // namespace isoview::test
