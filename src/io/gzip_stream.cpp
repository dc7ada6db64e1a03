#include "io/gzip_stream.h"

#include "core/error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <zlib.h>

namespace isoview::io::detail {
namespace {

constexpr std::size_t kInputBytes = 256 * 1024; // compressed bytes read at a time

bool startsGzipMember(const z_stream& stream)
{
    return stream.avail_in >= 2 && stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b;
}

} // namespace

GzipStream::GzipStream(ReadOnlyFile& file, std::uint64_t start, std::uint64_t length)
    : m_file(file), m_stream(std::make_unique<z_stream>()), m_input(kInputBytes), m_inputPos(start),
      m_inputLeft(length)
{
    if (inflateInit2(m_stream.get(), 15 + 32) != Z_OK) { // 15-bit window, zlib or gzip header
        throw IoError(file.prefix() + "zlib could not start decompressing " + file.label());
    }
}

GzipStream::~GzipStream()
{
    inflateEnd(m_stream.get());
}

// Moves unread input to the front and tops the buffer up from the file.
void GzipStream::refill()
{
    z_stream& stream = *m_stream;
    const std::size_t kept = stream.avail_in;
    if (kept > 0) std::memmove(m_input.data(), stream.next_in, kept);
    const std::size_t n = std::size_t(std::min<std::uint64_t>(m_input.size() - kept, m_inputLeft));
    m_file.readExactly(m_inputPos, m_input.data() + kept, n);
    m_inputPos += n;
    m_inputLeft -= n;
    stream.next_in = m_input.data();
    stream.avail_in = uInt(kept + n);
}

std::size_t GzipStream::read(void* destination, std::size_t n)
{
    return decode(destination, n, true);
}

std::size_t GzipStream::readInMember(void* destination, std::size_t n)
{
    return decode(destination, n, false);
}

std::size_t GzipStream::decode(void* destination, std::size_t n, bool acrossMembers)
{
    z_stream& stream = *m_stream;
    auto* out = static_cast<unsigned char*>(destination);
    std::size_t done = 0;
    while (done < n && m_state == State::Decoding) {
        if (m_betweenMembers) {
            if (!acrossMembers) break;
            inflateReset(&stream);
            m_betweenMembers = false;
        }
        if (stream.avail_in == 0 && m_inputLeft > 0) refill();
        const std::size_t room = std::min<std::size_t>(n - done, std::numeric_limits<uInt>::max());
        stream.next_out = out + done;
        stream.avail_out = uInt(room);
        const int result = inflate(&stream, Z_NO_FLUSH);
        const std::size_t wrote = room - stream.avail_out;
        done += wrote;
        m_position += wrote;

        if (result == Z_OK) continue;
        if (result == Z_STREAM_END) {
            if (stream.avail_in < 2 && m_inputLeft > 0) refill();
            // The next member is begun only when bytes are asked for that it may hold.
            m_betweenMembers = startsGzipMember(stream);
            if (m_betweenMembers) continue;
            m_state = State::Ended;
            m_trailing = stream.avail_in + m_inputLeft;
        } else if (result == Z_BUF_ERROR && stream.avail_in == 0 && m_inputLeft == 0) {
            m_state = State::Truncated; // room was never 0: only the input can have run out
        } else {
            m_state = State::Corrupt;
            m_reason = stream.msg != nullptr ? stream.msg : "error " + std::to_string(result);
        }
    }
    return done;
}

void GzipStream::throwIfCorrupt() const
{
    if (m_state != State::Corrupt) return;
    throw IoError(m_file.prefix() + "the compressed data in " + m_file.label() +
                  " are corrupt (zlib: " + m_reason + ") after " + std::to_string(m_position) +
                  " decompressed bytes");
}

} // namespace isoview::io::detail
