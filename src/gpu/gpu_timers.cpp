#include "gpu/gpu_timers.h"

#include <optional>

namespace isoview::gpu {
namespace {

bool available(const Query& q)
{
    GLint ready = 0;
    glGetQueryObjectiv(q.id(), GL_QUERY_RESULT_AVAILABLE, &ready);
    return ready != 0;
}

} // namespace

GpuTimers::GpuTimers()
{
    GLint bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
    m_supported = bits > 0;
}

void GpuTimers::beginFrame()
{
    collect();
    m_frame = nullptr;
    if (!m_supported) return;
    Frame& f = m_ring[m_next];
    if (f.pending) return; // the GPU is kRingSize frames behind: skip timing this one
    f.used = {};
    m_frame = &f;
}

void GpuTimers::begin(Pass pass)
{
    if (!m_frame) return;
    glBeginQuery(GL_TIME_ELAPSED, m_frame->queries[pass].id());
    m_frame->used[pass] = true;
}

void GpuTimers::end()
{
    if (m_frame) glEndQuery(GL_TIME_ELAPSED);
}

void GpuTimers::endFrame()
{
    if (!m_frame) return;
    m_frame->pending = m_frame->used[Extract] || m_frame->used[Surface] || m_frame->used[Volume];
    m_next = (m_next + 1) % kRingSize;
    m_frame = nullptr;
}

const FrameGpuTimes& GpuTimers::last()
{
    collect();
    return m_last;
}

// Reads every finished frame, oldest first, stopping at the first one still in flight. Never
// waits: GL_QUERY_RESULT_AVAILABLE is asked first.
void GpuTimers::collect()
{
    for (std::size_t i = 0; i < kRingSize; ++i) {
        Frame& f = m_ring[(m_next + i) % kRingSize];
        if (!f.pending) continue;
        bool ready = true;
        for (std::size_t p = 0; p < kPassCount; ++p)
            if (f.used[p] && !available(f.queries[p])) ready = false;
        if (!ready) return;
        FrameGpuTimes times;
        std::array<std::optional<double>*, kPassCount> out = {&times.extractMs, &times.surfaceMs,
                                                              &times.volumeMs};
        for (std::size_t p = 0; p < kPassCount; ++p) {
            if (!f.used[p]) continue;
            GLuint64 ns = 0;
            glGetQueryObjectui64v(f.queries[p].id(), GL_QUERY_RESULT, &ns);
            *out[p] = double(ns) / 1e6;
        }
        m_last = times;
        f.pending = false;
    }
}

} // namespace isoview::gpu
