// The viewer's isosurfaces: a list of named surfaces, each with its isovalue, colour, opacity
// and visibility, one of them selected (the one the isovalue slider and histogram edit). Pure
// data, no GL and no Qt: the window's panel shows it and turns it into the renderer's layers.
//
// Contracts: the list is never empty (remove() refuses the last surface) and exactly one
// surface is selected. Ids are unique for the list's life and never reused, so an undo command
// or the renderer can name a surface across edits. Every change calls the listener (when set)
// after the list has changed, on the caller's thread.
//
// Threads: not thread-safe; one owner (the GUI thread). Cost: a handful of surfaces, linear
// look-ups.
//
// Copies: a list is a value (a Scene holds one, and each frame request copies the scene). The
// listener belongs to the object, not to its value: a copy starts without one, and assigning
// a list to another keeps the target's listener (and tells it nothing: reset() is the edit).
//
// Example:
//   SurfaceList list(40.0);              // "Surface 1" at 40, selected
//   const auto bone = list.add(300.0);   // "Surface 2", the palette's first colour, selected
//   list.setOpacity(bone, 0.4f);
//   list.select(list.surfaces().front().id);
#pragma once

#include "scene/transfer_function.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace isoview {

struct Surface {
    std::uint32_t id = 0;
    std::string name;
    double isovalue = 0.0; // real units
    // Linear RGB in [0, 1]; none: the transfer function's colour at the isovalue.
    std::optional<glm::vec3> color;
    float opacity = 1.0f; // [0, 1]; 1 opaque
    bool visible = true;
    bool operator==(const Surface&) const = default;
};

class SurfaceList {
public:
    enum class Change {
        Added,    // id: the new surface
        Removed,  // id: the removed one (no longer in the list)
        Edited,   // id: one of its values changed
        Selected, // id: the newly selected one
        Reset,    // the whole list was replaced (id: the selected one)
    };
    using Listener = std::function<void(Change change, std::uint32_t id)>;

    // One surface, "Surface 1", at isovalue, coloured by the transfer function.
    explicit SurfaceList(double isovalue = 0.0);
    SurfaceList(const SurfaceList& other);
    SurfaceList& operator=(const SurfaceList& other);
    // The surfaces and the selection; the listener is not compared.
    bool operator==(const SurfaceList& other) const;

    const std::vector<Surface>& surfaces() const { return m_surfaces; }
    std::size_t size() const { return m_surfaces.size(); }
    const Surface& selected() const { return m_surfaces[m_selected]; }
    std::size_t selectedIndex() const { return m_selected; }
    // nullptr / nullopt for an id not in the list.
    const Surface* find(std::uint32_t id) const;
    std::optional<std::size_t> indexOf(std::uint32_t id) const;

    // Appends "Surface N" (N the lowest number no surface of the list is named with) at
    // isovalue in the first palette colour no surface has (all taken: in turn), selects it and
    // returns its id. So a list reset to one surface (a new volume) starts the palette afresh.
    // Throws InvalidInputError for a non-finite isovalue.
    std::uint32_t add(double isovalue);
    // Puts a surface back at index (clamped to the end) with its own id and values, e.g. to
    // undo remove(). Throws InvalidInputError when its id is in the list or a value is invalid.
    void insert(std::size_t index, const Surface& surface);
    // False (nothing changes) for the last surface or an unknown id. Removing the selected one
    // selects its neighbour (the next one, else the previous).
    bool remove(std::uint32_t id);
    // Throw InvalidInputError for an unknown id, an empty name, a non-finite isovalue, a colour
    // component or opacity outside [0, 1]. Setting a value it already has changes nothing and
    // tells nobody.
    void rename(std::uint32_t id, const std::string& name);
    void setIsovalue(std::uint32_t id, double isovalue);
    void setColor(std::uint32_t id, std::optional<glm::vec3> color);
    void setOpacity(std::uint32_t id, float opacity);
    void setVisible(std::uint32_t id, bool visible);
    void select(std::uint32_t id);
    // Replaces every surface (new ids, the values of `surfaces`; names as given) and selects
    // surfaces[selected]. Throws InvalidInputError for an empty list, an index out of range or
    // an invalid value; the list is unchanged then.
    void reset(const std::vector<Surface>& surfaces, std::size_t selected);
    // A list of these surfaces with their own ids (for a caller that names surfaces by id
    // across lists, as the engine's tests do), surfaces[selected] selected. Throws
    // InvalidInputError as reset() does, and for two surfaces with one id.
    static SurfaceList withIds(const std::vector<Surface>& surfaces, std::size_t selected);

    void setListener(Listener listener) { m_listener = std::move(listener); }

    // The palette that added surfaces take in turn (linear RGB): distinct hues that read on
    // the view's dark background and on each other.
    static const std::vector<glm::vec3>& palette();
    // The colour a new volume's first surface carries over from this list: the first surface's
    // own colour (the user's), none when it has none or the palette gave it (an added one's).
    std::optional<glm::vec3> carriedColor() const;

private:
    Surface& at(std::uint32_t id);
    void notify(Change change, std::uint32_t id) const;

    std::vector<Surface> m_surfaces;
    std::size_t m_selected = 0;
    std::uint32_t m_nextId = 1;
    Listener m_listener;
};

// Throws InvalidInputError when a value could not go into a list: an empty name, a non-finite
// isovalue, a colour component or opacity outside [0, 1].
void checkSurfaceValues(const Surface& surface);

// The colour a surface without one of its own is drawn in: the transfer function's colour at
// its isovalue, brightened when dark (a shaded near-black surface shows nothing). Linear RGB.
glm::vec3 transferFunctionSurfaceColor(const TransferFunction& tf, double isovalue);
// The surface's own colour, else the transfer function's (as above).
glm::vec3 surfaceDrawColor(const Surface& surface, const TransferFunction& tf);

} // namespace isoview
