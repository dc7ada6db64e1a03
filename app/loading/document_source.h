// What a controller (sessions, screenshots) may ask of the window's loading without knowing the
// window: the document on screen, whether a load runs, and opening a path the way the window
// does (in the background, asking what it must). The window fills it in and tells controllers of
// loads through their slots; controllers never include main_window.h.
//
// Thread: GUI only. The functions may be called for as long as the window lives.
#pragma once

#include "io/volume_loader.h"

#include <QString>
#include <functional>
#include <optional>

namespace isoview::app {

struct VolumeDocument;

struct DocumentSource {
    // The volume on screen with what was derived from it; null before the first.
    std::function<const VolumeDocument*()> current;
    std::function<bool()> isLoading;
    // Opens a volume file or folder; isovalue: real units to start at instead of the suggested.
    std::function<void(const QString& path, std::optional<double> isovalue,
                       const io::LoadOptions& options)>
        open;
    // Lays a label map over the volume on screen (in the background), names it from a table
    // when one is given (empty: none), then calls onOpened; nothing is called when it fails (an
    // error dialog says why).
    std::function<void(const QString& labelMap, const QString& table,
                       std::function<void()> onOpened)>
        openLabels;
};

} // namespace isoview::app
