// Between the viewer's Scene (scene/scene.h) and a Session (session.h): what a session file
// records of a scene, and the scene a session brings back on the volume it names. Pure data, no
// GL and no Qt, so the window's File > Save/Open Session is a JSON round trip of its scene.
//
// Threads: values; the functions are reentrant. Cost: a few surfaces and points.
//
// Example:
//   saveSession(path, sessionFromScene(model.scene(), source));
//   ... once the session's volume is the scene's:
//   std::vector<std::string> notes;
//   model.restore(sceneFromSession(loadSession(path), model.scene(), &notes));
#pragma once

#include "scene/scene.h"
#include "session/session.h"

#include <string>
#include <string_view>
#include <vector>

namespace isoview {

// The session of a scene whose volume came from `volume` (the scene's own volume is not
// saved, only where it came from). The crop is saved only when it cuts something.
Session sessionFromScene(const Scene& scene, const SessionVolume& volume);

// The scene `session` describes, on `current`'s volume (loaded from the session's
// SessionVolume) with `current`'s fitted camera: the surfaces, crop, transfer function (the
// current one when the session has none), view, slice views and distance of the session. What
// does not fit this volume is left as `current` has it and described in *notes (when given): a
// crop box outside the volume, a series whose UID differs from the one saved, surfaces that are
// not valid. The crosshair is clamped into the volume.
Scene sceneFromSession(const Session& session, const Scene& current,
                       std::vector<std::string>* notes = nullptr);

// Gives a freshly opened label map's layer the session's styles and selection (the label map
// itself is loaded by the viewer, in the background). Styles of labels the map no longer holds
// are left out and counted in *notes.
void applySessionLabels(const SessionLabels& saved, LabelLayer& layer,
                        std::vector<std::string>* notes = nullptr);

// "2x2", "1x3", "3d": the arrangements' names in session files.
std::string_view arrangementName(ViewArrangement arrangement);

} // namespace isoview
