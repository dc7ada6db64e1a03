// Routes FFmpeg's log lines (libav's av_log: x264's statistics, a muxer's warnings) into the
// "video" spdlog logger, so they reach the same sinks as the rest of isoview (the viewer's log
// panel, the CLI's stderr) instead of being printed to stderr by libav itself. Private to
// src/video/.
//
// Levels: libav's errors -> error, warnings -> warn, info -> debug (x264 prints its settings
// and statistics at info), verbose and debug -> trace. Lines are formatted only when the
// logger would print them.
//
// Contract: installLibavLogForwarding() sets av_log's process-wide callback, once (later calls
// do nothing); thread-safe, as the callback is (libav calls it from its encoder threads).
//
// Example:
//   installLibavLogForwarding(); // before the first encoder is opened
#pragma once

namespace isoview::video {

void installLibavLogForwarding();

} // namespace isoview::video
