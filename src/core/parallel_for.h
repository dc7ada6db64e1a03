// Splits an index range into contiguous chunks run on the machine's cores. For loops whose
// iterations are independent and heavy enough (a nearest-triangle search per point, a vertex
// update per smoothing step); a short range runs on the caller's thread alone.
//
// Contract: body(begin, end) is called on disjoint ranges covering [0, count), concurrently
// from up to hardware_concurrency threads (the caller's included); it must not touch shared
// state without its own synchronisation. The first exception a chunk throws is rethrown on the
// caller's thread once every chunk has ended. Blocks until the whole range is done.
//
// Example:
//   parallelFor(points.size(), 4096, [&](std::size_t begin, std::size_t end) {
//       for (std::size_t i = begin; i < end; ++i) distances[i] = grid.nearest(points[i]);
//   });
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace isoview {

// Threads parallelFor uses at most: the hardware's, or 1 when it cannot tell.
inline unsigned parallelThreads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

template <class Body> void parallelFor(std::size_t count, std::size_t minChunk, const Body& body)
{
    const std::size_t chunks =
        std::min<std::size_t>(parallelThreads(), count / std::max<std::size_t>(minChunk, 1));
    if (chunks <= 1) {
        if (count > 0) body(std::size_t(0), count);
        return;
    }
    std::exception_ptr failure;
    std::mutex failureLock;
    const auto run = [&](std::size_t chunk) {
        try {
            body(count * chunk / chunks, count * (chunk + 1) / chunks);
        } catch (...) {
            const std::lock_guard lock(failureLock);
            if (!failure) failure = std::current_exception();
        }
    };
    {
        std::vector<std::jthread> workers;
        workers.reserve(chunks - 1);
        for (std::size_t chunk = 1; chunk < chunks; ++chunk)
            workers.emplace_back(run, chunk);
        run(0);
    } // the jthreads join here
    if (failure) std::rethrow_exception(failure);
}

} // namespace isoview
