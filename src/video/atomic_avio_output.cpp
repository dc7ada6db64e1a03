#include "video/atomic_avio_output.h"

#include "core/error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <utility>

namespace isoview::video {
namespace {

constexpr int kBufferBytes = 64 * 1024;

} // namespace

AtomicAvioOutput::AtomicAvioOutput(AtomicFileWriter file) : m_file(std::move(file))
{
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
    if (buffer == nullptr) {
        throw IoError("cannot write '" + m_file.finalPath().string() +
                      "': " + libavError(AVERROR(ENOMEM)));
    }
    m_context.reset(
        avio_alloc_context(buffer, kBufferBytes, 1, this, nullptr, &writeCallback, &seekCallback));
    if (!m_context) {
        av_free(buffer);
        throw IoError("cannot write '" + m_file.finalPath().string() +
                      "': " + libavError(AVERROR(ENOMEM)));
    }
}

void AtomicAvioOutput::throwIfFailed() const
{
    if (m_error) throw IoError(*m_error);
}

void AtomicAvioOutput::commit()
{
    avio_flush(m_context.get());
    throwIfFailed();
    if (m_context->error < 0) {
        throw IoError("cannot write '" + m_file.finalPath().string() +
                      "': " + libavError(m_context->error));
    }
    m_file.commit();
}

int AtomicAvioOutput::writeCallback(void* opaque, WrittenBytes bytes, int size)
{
    auto& self = *static_cast<AtomicAvioOutput*>(opaque);
    if (self.m_error) return AVERROR(EIO);
    try {
        self.m_file.write(bytes, std::size_t(size));
        self.m_position += std::uint64_t(size);
        self.m_size = std::max(self.m_size, self.m_position);
        return size;
    } catch (const IoError& error) {
        self.m_error = error.what();
        return AVERROR(EIO);
    }
}

std::int64_t AtomicAvioOutput::seekCallback(void* opaque, std::int64_t offset, int whence)
{
    auto& self = *static_cast<AtomicAvioOutput*>(opaque);
    if (self.m_error) return AVERROR(EIO);
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) return std::int64_t(self.m_size);
    std::int64_t target = offset;
    if (whence == SEEK_CUR) {
        target += std::int64_t(self.m_position);
    } else if (whence == SEEK_END) {
        target += std::int64_t(self.m_size);
    } else if (whence != SEEK_SET) {
        return AVERROR(EINVAL);
    }
    if (target < 0) return AVERROR(EINVAL);
    try {
        self.m_file.seek(std::uint64_t(target));
        self.m_position = std::uint64_t(target);
        return target;
    } catch (const IoError& error) {
        self.m_error = error.what();
        return AVERROR(EIO);
    }
}

} // namespace isoview::video
