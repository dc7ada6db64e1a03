// The surface list (surface_list.h). Every setter validates before it changes anything, so a
// refused value leaves the list as it was.
#include "scene/surface_list.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>

namespace isoview {
namespace {

void checkIsovalue(double isovalue)
{
    if (!std::isfinite(isovalue))
        throw InvalidInputError("surface isovalue must be a finite number");
}

void checkColor(const std::optional<glm::vec3>& color)
{
    if (!color) return;
    for (int i = 0; i < 3; ++i) {
        const float c = (*color)[i];
        if (!(c >= 0.0f && c <= 1.0f))
            throw InvalidInputError("surface colour components must lie in 0..1, got " +
                                    std::to_string(c));
    }
}

void checkOpacity(float opacity)
{
    if (!(opacity >= 0.0f && opacity <= 1.0f))
        throw InvalidInputError("surface opacity must lie in 0..1, got " + std::to_string(opacity));
}

void checkName(const std::string& name)
{
    if (name.empty()) throw InvalidInputError("a surface needs a name");
}

} // namespace

void checkSurfaceValues(const Surface& s)
{
    checkName(s.name);
    checkIsovalue(s.isovalue);
    checkColor(s.color);
    checkOpacity(s.opacity);
}

SurfaceList::SurfaceList(double isovalue)
{
    checkIsovalue(isovalue);
    m_surfaces.push_back(Surface{m_nextId++, "Surface 1", isovalue, std::nullopt, 1.0f, true});
}

SurfaceList::SurfaceList(const SurfaceList& other)
    : m_surfaces(other.m_surfaces), m_selected(other.m_selected), m_nextId(other.m_nextId)
{
}

SurfaceList& SurfaceList::operator=(const SurfaceList& other)
{
    m_surfaces = other.m_surfaces;
    m_selected = other.m_selected;
    m_nextId = other.m_nextId;
    return *this;
}

bool SurfaceList::operator==(const SurfaceList& other) const
{
    return m_surfaces == other.m_surfaces && m_selected == other.m_selected;
}

const std::vector<glm::vec3>& SurfaceList::palette()
{
    static const std::vector<glm::vec3> colors = {
        {0.90f, 0.35f, 0.30f}, // red
        {0.30f, 0.55f, 0.95f}, // blue
        {0.40f, 0.80f, 0.40f}, // green
        {0.95f, 0.75f, 0.25f}, // amber
        {0.70f, 0.45f, 0.90f}, // violet
        {0.30f, 0.80f, 0.80f}, // cyan
    };
    return colors;
}

const Surface* SurfaceList::find(std::uint32_t id) const
{
    const auto it = std::find_if(m_surfaces.begin(), m_surfaces.end(),
                                 [id](const Surface& s) { return s.id == id; });
    return it == m_surfaces.end() ? nullptr : &*it;
}

std::optional<std::size_t> SurfaceList::indexOf(std::uint32_t id) const
{
    const Surface* s = find(id);
    if (!s) return std::nullopt;
    return std::size_t(s - m_surfaces.data());
}

Surface& SurfaceList::at(std::uint32_t id)
{
    const std::optional<std::size_t> i = indexOf(id);
    if (!i) throw InvalidInputError("no surface with id " + std::to_string(id));
    return m_surfaces[*i];
}

void SurfaceList::notify(Change change, std::uint32_t id) const
{
    if (m_listener) m_listener(change, id);
}

std::optional<glm::vec3> SurfaceList::carriedColor() const
{
    const std::optional<glm::vec3>& c = m_surfaces.front().color;
    const std::vector<glm::vec3>& colors = palette();
    if (!c || std::find(colors.begin(), colors.end(), *c) != colors.end()) return std::nullopt;
    return c;
}

std::uint32_t SurfaceList::add(double isovalue)
{
    checkIsovalue(isovalue);
    const auto named = [this](const std::string& name) {
        return std::any_of(m_surfaces.begin(), m_surfaces.end(),
                           [&](const Surface& s) { return s.name == name; });
    };
    int n = 1;
    while (named("Surface " + std::to_string(n)))
        ++n;
    const std::vector<glm::vec3>& colors = palette();
    const auto taken = [this](const glm::vec3& c) {
        return std::any_of(m_surfaces.begin(), m_surfaces.end(),
                           [&](const Surface& s) { return s.color == c; });
    };
    const auto free = std::find_if_not(colors.begin(), colors.end(), taken);
    const glm::vec3 color =
        free != colors.end() ? *free : colors[(m_surfaces.size() - 1) % colors.size()];
    Surface s{m_nextId++, "Surface " + std::to_string(n), isovalue, color, 1.0f, true};
    m_surfaces.push_back(s);
    m_selected = m_surfaces.size() - 1;
    notify(Change::Added, s.id);
    notify(Change::Selected, s.id);
    return s.id;
}

void SurfaceList::insert(std::size_t index, const Surface& surface)
{
    if (find(surface.id))
        throw InvalidInputError("surface id " + std::to_string(surface.id) + " is in the list");
    checkSurfaceValues(surface);
    const std::uint32_t selectedId = selected().id;
    index = std::min(index, m_surfaces.size());
    m_surfaces.insert(m_surfaces.begin() + std::ptrdiff_t(index), surface);
    m_selected = *indexOf(selectedId);
    m_nextId = std::max(m_nextId, surface.id + 1);
    notify(Change::Added, surface.id);
}

bool SurfaceList::remove(std::uint32_t id)
{
    const std::optional<std::size_t> i = indexOf(id);
    if (!i || m_surfaces.size() <= 1) return false;
    const std::uint32_t selectedId = selected().id;
    m_surfaces.erase(m_surfaces.begin() + std::ptrdiff_t(*i));
    const bool wasSelected = selectedId == id;
    m_selected = wasSelected ? std::min(*i, m_surfaces.size() - 1) : *indexOf(selectedId);
    notify(Change::Removed, id);
    if (wasSelected) notify(Change::Selected, selected().id);
    return true;
}

void SurfaceList::rename(std::uint32_t id, const std::string& name)
{
    checkName(name);
    Surface& s = at(id);
    if (s.name == name) return;
    s.name = name;
    notify(Change::Edited, id);
}

void SurfaceList::setIsovalue(std::uint32_t id, double isovalue)
{
    checkIsovalue(isovalue);
    Surface& s = at(id);
    if (s.isovalue == isovalue) return;
    s.isovalue = isovalue;
    notify(Change::Edited, id);
}

void SurfaceList::setColor(std::uint32_t id, std::optional<glm::vec3> color)
{
    checkColor(color);
    Surface& s = at(id);
    if (s.color == color) return;
    s.color = color;
    notify(Change::Edited, id);
}

void SurfaceList::setOpacity(std::uint32_t id, float opacity)
{
    checkOpacity(opacity);
    Surface& s = at(id);
    if (s.opacity == opacity) return;
    s.opacity = opacity;
    notify(Change::Edited, id);
}

void SurfaceList::setVisible(std::uint32_t id, bool visible)
{
    Surface& s = at(id);
    if (s.visible == visible) return;
    s.visible = visible;
    notify(Change::Edited, id);
}

void SurfaceList::select(std::uint32_t id)
{
    const std::optional<std::size_t> i = indexOf(id);
    if (!i) throw InvalidInputError("no surface with id " + std::to_string(id));
    if (*i == m_selected) return;
    m_selected = *i;
    notify(Change::Selected, id);
}

void SurfaceList::reset(const std::vector<Surface>& surfaces, std::size_t selected)
{
    if (surfaces.empty()) throw InvalidInputError("a surface list needs at least one surface");
    if (selected >= surfaces.size()) {
        throw InvalidInputError("selected surface " + std::to_string(selected + 1) +
                                " is beyond the " + std::to_string(surfaces.size()) + " surfaces");
    }
    for (const Surface& s : surfaces)
        checkSurfaceValues(s);
    std::vector<Surface> next = surfaces;
    for (Surface& s : next)
        s.id = m_nextId++;
    m_surfaces = std::move(next);
    m_selected = selected;
    notify(Change::Reset, this->selected().id);
}

SurfaceList SurfaceList::withIds(const std::vector<Surface>& surfaces, std::size_t selected)
{
    SurfaceList list;
    list.reset(surfaces, selected); // validates
    for (std::size_t i = 0; i < surfaces.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (surfaces[i].id == surfaces[j].id)
                throw InvalidInputError("two surfaces have id " + std::to_string(surfaces[i].id));
        }
        list.m_surfaces[i].id = surfaces[i].id;
        list.m_nextId = std::max(list.m_nextId, surfaces[i].id + 1);
    }
    return list;
}

glm::vec3 transferFunctionSurfaceColor(const TransferFunction& tf, double isovalue)
{
    glm::vec3 c = glm::vec3(tf.evaluate(isovalue));
    const float brightest = std::max({c.r, c.g, c.b});
    if (brightest < 0.05f) return {0.9f, 0.85f, 0.75f};
    if (brightest < 0.75f) c *= 0.85f / brightest;
    return c;
}

glm::vec3 surfaceDrawColor(const Surface& surface, const TransferFunction& tf)
{
    return surface.color ? *surface.color : transferFunctionSurfaceColor(tf, surface.isovalue);
}

} // namespace isoview
