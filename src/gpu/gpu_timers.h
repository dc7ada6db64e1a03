// GPU time per pass of a frame (GL_TIME_ELAPSED queries), in a ring of frames: a frame's
// results are read only once GL_QUERY_RESULT_AVAILABLE says so, a frame or more later, and a
// frame whose ring slot is still in flight goes untimed rather than wait. TimedPass brackets one
// pass with its query.
//
// Contract: internal to the engine (SceneRenderer drives it). Every call, the constructor and
// the destructor need the creating OpenGL context current. Never waits for the GPU and never
// throws after construction; without timer queries (GL_QUERY_COUNTER_BITS 0) nothing is timed.
// Passes are not nested: one query is open at a time.
//
// Example:
//   timers.beginFrame();
//   { TimedPass timed(timers, GpuTimers::Surface); drawSurface(); }
//   timers.endFrame();
//   FrameGpuTimes times = timers.last(); // a frame or more behind
#pragma once

#include "gpu/gl_objects.h"
#include "scene/frame_policy.h"

#include <array>
#include <cstddef>

namespace isoview::gpu {

class GpuTimers {
public:
    enum Pass : std::size_t { Extract, Surface, Volume, kPassCount };

    GpuTimers();

    // Collects what finished, then times this frame unless its ring slot is still in flight.
    void beginFrame();
    void begin(Pass pass);
    void end();
    void endFrame();
    // The newest completed frame's times, collecting what finished since the last call.
    const FrameGpuTimes& last();

private:
    static constexpr std::size_t kRingSize = 4;
    struct Frame {
        std::array<Query, kPassCount> queries{Query::create(), Query::create(), Query::create()};
        std::array<bool, kPassCount> used{};
        bool pending = false;
    };

    void collect();

    bool m_supported = false;
    std::array<Frame, kRingSize> m_ring;
    std::size_t m_next = 0;
    Frame* m_frame = nullptr; // the frame being timed; null: this one goes untimed
    FrameGpuTimes m_last;
};

// Brackets one pass with its timer query.
class TimedPass {
public:
    TimedPass(GpuTimers& timers, GpuTimers::Pass pass) : m_timers(timers) { timers.begin(pass); }
    ~TimedPass() { m_timers.end(); }
    TimedPass(const TimedPass&) = delete;
    TimedPass& operator=(const TimedPass&) = delete;

private:
    GpuTimers& m_timers;
};

} // namespace isoview::gpu
