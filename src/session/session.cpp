// Sessions as JSON text and files (format in session.h).
//
// Writing: nlohmann's ordered JSON, two-space indented, keys in the order a person reads them
// (the volume first). Doubles print as their shortest round-trip decimal; floats (colours,
// the camera's quaternion) widen to double, which reads back as the same float.
//
// Reading: the checks run in the order a person would fix them (is it JSON, is it a session,
// which version, then each section), and each message names the key and the problem. Numbers
// are range-checked here, before the window sees them: a session is applied only after all of
// it has been read.
#include "session/session.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "scene/versioned_json.h"

#include <cerrno>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>
#include <unistd.h>

namespace isoview {
namespace {

// Written in a fixed key order (ordered_json); read into std::map objects (json), whose
// inserts are logarithmic: ordered_json's are linear, and 300,000 keys took minutes.
using Json = nlohmann::ordered_json;
using ReadJson = nlohmann::json;

constexpr std::string_view kFormat = "isoview-session";
constexpr int kVersion = 1;
// A session is a few kilobytes (a long transfer function included); larger is the wrong file.
constexpr std::uint64_t kMaxFileBytes = 16ULL * 1024 * 1024;
// Physical coordinates and distances beyond a kilometre are no scan's.
constexpr double kMaxMillimetres = 1e6;
// Real values (HU, MR intensities, floats): anything finite a float volume can hold.
constexpr double kMaxRealValue = 1e38;
// Voxel indices: a dimension fits 32 bits.
constexpr double kMaxIndex = 4294967295.0;
// More surfaces than anyone tells apart in one view: a session with more is the wrong file.
constexpr std::uint64_t kMaxSurfaces = 256;
// Label numbers of a label map (uint16), and so its styles.
constexpr std::uint64_t kMaxLabelStyles = 65535;

std::string quoted(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

// ---- writing --------------------------------------------------------------------------------

[[noreturn]] void failWrite(const std::string& what)
{
    throw InvalidInputError("cannot save the session: " + what);
}

double finiteOrFail(double x, const std::string& what)
{
    if (!std::isfinite(x)) failWrite(what + " is not a finite number");
    return x;
}

Json vec3Json(glm::dvec3 v, const std::string& what)
{
    return Json::array({finiteOrFail(v.x, what), finiteOrFail(v.y, what), finiteOrFail(v.z, what)});
}

Json uvec3Json(glm::uvec3 v)
{
    return Json::array({v.x, v.y, v.z});
}

// {"path": relative to the session's folder, "absolutePath": ...}: a file the session names.
Json pathJson(const std::filesystem::path& path, const std::filesystem::path& sessionFile)
{
    const std::filesystem::path absolute = std::filesystem::absolute(path).lexically_normal();
    const std::filesystem::path folder =
        std::filesystem::absolute(sessionFile).lexically_normal().parent_path();
    std::filesystem::path relative = absolute.lexically_relative(folder);
    if (relative.empty()) relative = absolute; // another root: only the absolute path works
    Json j = Json::object();
    j["path"] = relative.generic_string();
    j["absolutePath"] = absolute.generic_string();
    return j;
}

Json volumeJson(const SessionVolume& volume, const std::filesystem::path& sessionFile)
{
    if (volume.path.empty()) failWrite("no volume path");
    Json j = pathJson(volume.path, sessionFile);
    j["folder"] = volume.folder;
    if (volume.seriesIndex) j["series"] = *volume.seriesIndex;
    if (!volume.seriesUid.empty()) j["seriesUid"] = volume.seriesUid;
    if (volume.raw) {
        const io::RawVolumeParameters& raw = *volume.raw;
        j["raw"] = {{"dims", uvec3Json(raw.dims)},
                    {"type", std::string(scalarTypeName(raw.type))},
                    {"bigEndian", raw.bigEndian},
                    {"spacing", vec3Json(raw.spacing, "the raw spacing")},
                    {"headerOffset", raw.headerOffset}};
    }
    return j;
}

Json colorJson(const glm::vec3& c, const std::string& what)
{
    for (int i = 0; i < 3; ++i) {
        if (!(c[i] >= 0.0f && c[i] <= 1.0f)) failWrite(what + " has a component outside 0..1");
    }
    return vec3Json(glm::dvec3(c), what);
}

Json surfacesJson(const std::vector<Surface>& surfaces)
{
    Json list = Json::array();
    for (std::size_t i = 0; i < surfaces.size(); ++i) {
        const Surface& s = surfaces[i];
        const std::string what = "surface " + std::to_string(i + 1);
        if (s.name.empty()) failWrite(what + " has no name");
        if (!(s.opacity >= 0.0f && s.opacity <= 1.0f))
            failWrite(what + "'s opacity is outside 0..1");
        Json j = {{"name", s.name}, {"isovalue", finiteOrFail(s.isovalue, what + "'s isovalue")}};
        if (s.color) j["color"] = colorJson(*s.color, what + "'s colour");
        j["opacity"] = s.opacity;
        j["visible"] = s.visible;
        list.push_back(std::move(j));
    }
    return list;
}

Json cameraJson(const OrbitCamera::Pose& pose)
{
    const glm::quat q = pose.orientation;
    return {{"target", vec3Json(pose.target, "the camera target")},
            {"distance", finiteOrFail(pose.distance, "the camera distance")},
            {"orientation", Json::array({finiteOrFail(q.w, "the camera orientation"),
                                         finiteOrFail(q.x, "the camera orientation"),
                                         finiteOrFail(q.y, "the camera orientation"),
                                         finiteOrFail(q.z, "the camera orientation")})},
            {"projection",
             pose.projection == Projection::Orthographic ? "orthographic" : "perspective"}};
}

// ---- reading --------------------------------------------------------------------------------

// Reads one session's JSON; `context` starts every message ("session JSON", or the file).
class Reader {
public:
    Reader(std::string context, std::filesystem::path sessionFile,
           std::vector<std::string>* warnings)
        : m_context(std::move(context)), m_sessionFile(std::move(sessionFile)), m_warnings(warnings)
    {
    }

    Session read(std::string_view text) const
    {
        const auto doc = json::readVersionedJson<ReadJson>(text, kFormat, "session", m_context);
        const ReadJson& root = doc.root;
        const long long v = doc.version;
        if (v > kVersion) {
            fail("written by a newer isoview (session version " + std::to_string(v) +
                 "); this isoview reads version " + std::to_string(kVersion) +
                 ": update isoview to open it");
        }
        if (v != kVersion) {
            fail("unsupported session version " + std::to_string(v) + " (this isoview reads " +
                 std::to_string(kVersion) + ")");
        }
        warnUnknown(root,
                    {"format", "version", "volume", "isovalue", "surfaces", "selectedSurface",
                     "transferFunction", "camera", "crop", "view", "sliceViews", "measurements",
                     "labels"},
                    "");

        Session s;
        s.volume = readVolume(require(root, "volume", ""));
        const ReadJson* surfaces = optional(root, "surfaces");
        // Only a session without surfaces needs the single isovalue.
        if (const ReadJson* iso =
                surfaces ? optional(root, "isovalue") : &require(root, "isovalue", ""))
            s.isovalue = number(*iso, "'isovalue'", kMaxRealValue);
        if (surfaces) s.surfaces = readSurfaces(*surfaces);
        if (const ReadJson* tf = optional(root, "transferFunction")) {
            s.transferFunction = readTransferFunction(*tf);
        }
        if (const ReadJson* camera = optional(root, "camera")) s.camera = readCamera(*camera);
        if (const ReadJson* crop = optional(root, "crop")) s.crop = readCrop(*crop);
        if (const ReadJson* view = optional(root, "view")) readView(*view, s);
        if (const ReadJson* slices = optional(root, "sliceViews"))
            s.sliceViews = readSlices(*slices);
        if (const ReadJson* m = optional(root, "measurements")) s.distance = readMeasurements(*m);
        if (const ReadJson* labels = optional(root, "labels")) s.labels = readLabels(*labels);

        if (s.surfaces.empty()) {
            s.surfaces.push_back(Surface{0, "Surface 1", s.isovalue, s.surfaceColor, 1.0f, true});
        }
        if (const ReadJson* selected = optional(root, "selectedSurface")) {
            s.selectedSurface = std::size_t(count(*selected, "'selectedSurface'", kMaxSurfaces));
            if (s.selectedSurface >= s.surfaces.size()) {
                fail("'selectedSurface' is " + selected->dump() + " but there " +
                     (s.surfaces.size() == 1
                          ? "is 1 surface"
                          : "are " + std::to_string(s.surfaces.size()) + " surfaces") +
                     " (counted from 0)");
            }
        }
        // "surfaces" wins: the single values are the selected surface's.
        s.isovalue = s.surfaces[s.selectedSurface].isovalue;
        s.surfaceColor = s.surfaces[s.selectedSurface].color;
        return s;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw InvalidInputError(m_context + ": " + what);
    }

    // "'camera' 'distance'" for key "distance" in section "camera".
    static std::string name(const std::string& section, const std::string& key)
    {
        return section.empty() ? "'" + key + "'" : "'" + section + "' '" + key + "'";
    }

    // One warning per unknown key, up to kNamedUnknownKeys; beyond them one warning counts the
    // rest, so that a file of 300,000 unknown keys costs a line, not 300,000 log lines.
    void warnUnknown(const ReadJson& object, std::initializer_list<std::string_view> known,
                     const std::string& section) const
    {
        constexpr std::size_t kNamedUnknownKeys = 5;
        if (!m_warnings) return;
        const std::set<std::string_view> keys(known);
        std::size_t unknown = 0;
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (keys.count(it.key())) continue;
            if (++unknown > kNamedUnknownKeys) continue;
            m_warnings->push_back(m_context + ": unknown key " + name(section, it.key()) +
                                  " ignored (written by a newer isoview?)");
        }
        if (unknown > kNamedUnknownKeys) {
            m_warnings->push_back(m_context + ": " + std::to_string(unknown - kNamedUnknownKeys) +
                                  " more unknown keys" +
                                  (section.empty() ? "" : " in '" + section + "'") + " ignored (" +
                                  std::to_string(unknown) + " in all)");
        }
    }

    const ReadJson& require(const ReadJson& object, const char* key,
                            const std::string& section) const
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            fail(section.empty() ? "missing '" + std::string(key) + "'"
                                 : "'" + section + "' has no '" + key + "'");
        }
        return *it;
    }

    // A key that may be absent; null counts as absent.
    static const ReadJson* optional(const ReadJson& object, const char* key)
    {
        const auto it = object.find(key);
        return it == object.end() || it->is_null() ? nullptr : &*it;
    }

    const ReadJson& object(const ReadJson& j, const std::string& what) const
    {
        if (!j.is_object()) fail(what + " must be an object, got " + json::describe(j));
        return j;
    }

    double number(const ReadJson& j, const std::string& what, double limit) const
    {
        if (!j.is_number()) fail(what + " must be a number, got " + json::describe(j));
        const double x = j.get<double>();
        if (!std::isfinite(x) || std::abs(x) > limit) {
            fail(what + " is " + j.dump() + ", outside -" + ReadJson(limit).dump() + ".." +
                 ReadJson(limit).dump());
        }
        return x;
    }

    std::uint64_t count(const ReadJson& j, const std::string& what, std::uint64_t max) const
    {
        if (!j.is_number_integer() ||
            (j.is_number_integer() && !j.is_number_unsigned() && j.get<long long>() < 0)) {
            fail(what + " must be a whole number from 0, got " + json::describe(j));
        }
        const auto x = j.get<std::uint64_t>();
        if (x > max) fail(what + " is " + j.dump() + ", more than " + std::to_string(max));
        return x;
    }

    bool boolean(const ReadJson& j, const std::string& what) const
    {
        if (!j.is_boolean()) fail(what + " must be true or false, got " + json::describe(j));
        return j.get<bool>();
    }

    const std::string& string(const ReadJson& j, const std::string& what) const
    {
        if (!j.is_string()) fail(what + " must be a string, got " + json::describe(j));
        return j.get_ref<const std::string&>();
    }

    // A string the file system will be given. It reads a path only up to its first NUL:
    // "/\u0000x" would name "/", which exists, so the session would open the root folder.
    const std::string& pathString(const ReadJson& j, const std::string& what) const
    {
        const std::string& text = string(j, what);
        if (text.find('\0') != std::string::npos) fail(what + " holds a NUL");
        return text;
    }

    const ReadJson& array(const ReadJson& j, std::size_t n, const std::string& what,
                          const char* elements) const
    {
        if (!j.is_array() || j.size() != n) {
            fail(what + " must be an array of " + std::to_string(n) + " " + elements + ", got " +
                 (j.is_array() ? std::to_string(j.size()) + " elements" : json::describe(j)));
        }
        return j;
    }

    glm::dvec3 vec3(const ReadJson& j, const std::string& what, double limit) const
    {
        array(j, 3, what, "numbers");
        glm::dvec3 v;
        for (int i = 0; i < 3; ++i)
            v[i] = number(j[std::size_t(i)], what + " element " + std::to_string(i + 1), limit);
        return v;
    }

    glm::uvec3 uvec3(const ReadJson& j, const std::string& what) const
    {
        array(j, 3, what, "whole numbers");
        glm::uvec3 v;
        for (int i = 0; i < 3; ++i) {
            v[i] =
                std::uint32_t(count(j[std::size_t(i)], what + " element " + std::to_string(i + 1),
                                    std::numeric_limits<std::uint32_t>::max()));
        }
        return v;
    }

    // The relative path when it exists, else the absolute one when that exists, else where the
    // relative one points (the viewer then asks where the volume went).
    std::filesystem::path resolve(const std::string& relative, const std::string& absolute) const
    {
        const std::filesystem::path folder =
            std::filesystem::absolute(m_sessionFile).lexically_normal().parent_path();
        std::filesystem::path nearSession = (folder / relative).lexically_normal();
        std::error_code ec;
        if (std::filesystem::exists(nearSession, ec)) return nearSession;
        if (!absolute.empty() && std::filesystem::exists(absolute, ec)) return absolute;
        return nearSession;
    }

    // A file a section names: its relative path resolved against the session's folder (resolve).
    std::filesystem::path readPath(const ReadJson& j, const std::string& section) const
    {
        const std::string& path = pathString(require(j, "path", section), name(section, "path"));
        if (path.empty()) fail(name(section, "path") + " is empty");
        std::string absolute;
        if (const ReadJson* a = optional(j, "absolutePath")) {
            absolute = pathString(*a, name(section, "absolutePath"));
            if (!absolute.empty() && !std::filesystem::path(absolute).is_absolute())
                fail(name(section, "absolutePath") + " " + json::describe(*a) + " is not absolute");
        }
        return resolve(path, absolute);
    }

    SessionVolume readVolume(const ReadJson& j) const
    {
        const std::string section = "volume";
        object(j, "'volume'");
        warnUnknown(j, {"path", "absolutePath", "folder", "series", "seriesUid", "raw"}, section);
        SessionVolume v;
        v.path = readPath(j, section);
        if (const ReadJson* f = optional(j, "folder"))
            v.folder = boolean(*f, name(section, "folder"));
        if (const ReadJson* series = optional(j, "series"))
            v.seriesIndex = std::size_t(count(*series, name(section, "series"), 1'000'000));
        if (const ReadJson* uid = optional(j, "seriesUid"))
            v.seriesUid = string(*uid, name(section, "seriesUid"));
        if (const ReadJson* raw = optional(j, "raw")) v.raw = readRaw(*raw);
        return v;
    }

    io::RawVolumeParameters readRaw(const ReadJson& j) const
    {
        const std::string section = "volume' 'raw";
        object(j, "'volume' 'raw'");
        warnUnknown(j, {"dims", "type", "bigEndian", "spacing", "headerOffset"}, section);
        io::RawVolumeParameters raw;
        raw.dims = uvec3(require(j, "dims", section), name(section, "dims"));
        if (glm::any(glm::equal(raw.dims, glm::uvec3(0))))
            fail(name(section, "dims") + " has a zero dimension");
        const std::string& type = string(require(j, "type", section), name(section, "type"));
        try {
            raw.type = parseScalarType(type);
        } catch (const Error& e) {
            fail(name(section, "type") + ": " + e.what());
        }
        if (const ReadJson* b = optional(j, "bigEndian"))
            raw.bigEndian = boolean(*b, name(section, "bigEndian"));
        if (const ReadJson* spacing = optional(j, "spacing")) {
            raw.spacing = vec3(*spacing, name(section, "spacing"), kMaxMillimetres);
            if (!glm::all(glm::greaterThan(raw.spacing, glm::dvec3(0.0))))
                fail(name(section, "spacing") + " must be positive on every axis");
        }
        if (const ReadJson* offset = optional(j, "headerOffset")) {
            raw.headerOffset = count(*offset, name(section, "headerOffset"),
                                     std::uint64_t(std::numeric_limits<std::int64_t>::max()));
        }
        return raw;
    }

    TransferFunction readTransferFunction(const ReadJson& j) const
    {
        object(j, "'transferFunction'");
        try {
            return transferFunctionFromJson(j.dump());
        } catch (const InvalidInputError& e) {
            // "transfer function JSON: point 2 ..." -> "'transferFunction': point 2 ...".
            std::string message = e.what();
            const std::string prefix = "transfer function JSON: ";
            if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
            fail("'transferFunction': " + message);
        }
    }

    OrbitCamera::Pose readCamera(const ReadJson& j) const
    {
        const std::string section = "camera";
        object(j, "'camera'");
        warnUnknown(j, {"target", "distance", "orientation", "projection"}, section);
        OrbitCamera::Pose pose;
        pose.target = vec3(require(j, "target", section), name(section, "target"), kMaxMillimetres);
        pose.distance =
            number(require(j, "distance", section), name(section, "distance"), kMaxMillimetres);
        if (!(pose.distance > 0.0)) fail(name(section, "distance") + " must be positive");
        const ReadJson& q = array(require(j, "orientation", section), 4,
                                  name(section, "orientation"), "numbers (w, x, y, z)");
        glm::dvec4 wxyz;
        for (int i = 0; i < 4; ++i)
            wxyz[i] = number(q[std::size_t(i)], name(section, "orientation"), 2.0);
        const double length = glm::length(wxyz);
        if (!(length > 0.5 && length < 1.5)) {
            fail(name(section, "orientation") + " is not a rotation (its length is " +
                 ReadJson(length).dump() + ", expected 1)");
        }
        pose.orientation =
            glm::quat(float(wxyz[0]), float(wxyz[1]), float(wxyz[2]), float(wxyz[3]));
        if (const ReadJson* p = optional(j, "projection")) {
            const std::string& projection = string(*p, name(section, "projection"));
            if (projection == "perspective")
                pose.projection = Projection::Perspective;
            else if (projection == "orthographic")
                pose.projection = Projection::Orthographic;
            else
                fail(name(section, "projection") + " is " + json::describe(*p) +
                     ", expected 'perspective' or 'orthographic'");
        }
        return pose;
    }

    VoxelBox readCrop(const ReadJson& j) const
    {
        const std::string section = "crop";
        object(j, "'crop'");
        warnUnknown(j, {"first", "last"}, section);
        VoxelBox box;
        box.first = uvec3(require(j, "first", section), name(section, "first"));
        box.last = uvec3(require(j, "last", section), name(section, "last"));
        if (!glm::all(glm::lessThanEqual(box.first, box.last)))
            fail("'crop' 'first' must not exceed 'last' on any axis");
        return box;
    }

    void readView(const ReadJson& j, Session& s) const
    {
        const std::string section = "view";
        object(j, "'view'");
        warnUnknown(j, {"mode", "orientationMarker", "surfaceColor"}, section);
        if (const ReadJson* m = optional(j, "mode")) {
            const std::string& mode = string(*m, name(section, "mode"));
            const std::optional<RenderMode> known = renderModeFromName(mode);
            if (!known)
                fail(name(section, "mode") + " is " + json::describe(*m) +
                     ", expected 'surface', 'volume', 'both', 'mip', 'minip' or 'average'");
            s.renderMode = *known;
        }
        if (const ReadJson* marker = optional(j, "orientationMarker"))
            s.orientationMarker = boolean(*marker, name(section, "orientationMarker"));
        if (const ReadJson* c = optional(j, "surfaceColor")) {
            s.surfaceColor = color(*c, name(section, "surfaceColor"));
        }
    }

    glm::vec3 color(const ReadJson& j, const std::string& what) const
    {
        const glm::dvec3 c = vec3(j, what, 1.0);
        if (!glm::all(glm::greaterThanEqual(c, glm::dvec3(0.0))))
            fail(what + " components must lie in 0..1");
        return glm::vec3(c);
    }

    std::vector<Surface> readSurfaces(const ReadJson& j) const
    {
        if (!j.is_array() || j.empty() || j.size() > kMaxSurfaces) {
            fail("'surfaces' must be an array of 1 to " + std::to_string(kMaxSurfaces) +
                 " surfaces, got " +
                 (j.is_array() ? std::to_string(j.size()) + " elements" : json::describe(j)));
        }
        std::vector<Surface> surfaces;
        surfaces.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) {
            // "'surfaces' element 2 'opacity'": the element counted from 1, as a person does.
            const std::string element = "'surfaces' element " + std::to_string(i + 1);
            const auto key = [&](const char* k) { return element + " '" + k + "'"; };
            const auto needed = [&](const char* k) -> const ReadJson& {
                if (!j[i].contains(k)) fail(element + " has no '" + k + "'");
                return j[i][k];
            };
            object(j[i], element);
            warnUnknown(j[i], {"name", "isovalue", "color", "opacity", "visible"},
                        "surfaces' element '" + std::to_string(i + 1));
            Surface s;
            s.name = string(needed("name"), key("name"));
            if (s.name.empty()) fail(key("name") + " is empty");
            s.isovalue = number(needed("isovalue"), key("isovalue"), kMaxRealValue);
            if (const ReadJson* c = optional(j[i], "color")) s.color = color(*c, key("color"));
            if (const ReadJson* o = optional(j[i], "opacity")) {
                const double opacity = number(*o, key("opacity"), 1.0);
                if (opacity < 0.0) fail(key("opacity") + " must lie in 0..1");
                s.opacity = float(opacity);
            }
            if (const ReadJson* v = optional(j[i], "visible"))
                s.visible = boolean(*v, key("visible"));
            surfaces.push_back(std::move(s));
        }
        return surfaces;
    }

    SessionLabels readLabels(const ReadJson& j) const
    {
        const std::string section = "labels";
        object(j, "'labels'");
        warnUnknown(j, {"path", "absolutePath", "table", "styles", "selected", "smoothingSigmaMm"},
                    section);
        SessionLabels labels;
        labels.path = readPath(j, section);
        if (const ReadJson* table = optional(j, "table")) {
            object(*table, name(section, "table"));
            warnUnknown(*table, {"path", "absolutePath"}, "labels' 'table");
            labels.table = readPath(*table, "labels' 'table");
        }
        if (const ReadJson* styles = optional(j, "styles")) {
            if (!styles->is_array() || styles->size() > kMaxLabelStyles)
                fail(name(section, "styles") + " must be an array of at most " +
                     std::to_string(kMaxLabelStyles) + " labels");
            for (std::size_t i = 0; i < styles->size(); ++i) {
                const ReadJson& e = (*styles)[i];
                const std::string element = "'labels' 'styles' element " + std::to_string(i + 1);
                const auto key = [&](const char* k) { return element + " '" + k + "'"; };
                object(e, element);
                warnUnknown(e, {"label", "color", "opacity", "visible"},
                            "labels' 'styles' element '" + std::to_string(i + 1));
                if (!e.contains("label")) fail(element + " has no 'label'");
                const auto label = std::uint32_t(count(e["label"], key("label"), kMaxLabelStyles));
                if (label == 0) fail(key("label") + " is 0, the background");
                LabelStyle style;
                if (const ReadJson* c = optional(e, "color")) style.color = color(*c, key("color"));
                if (const ReadJson* o = optional(e, "opacity")) {
                    const double opacity = number(*o, key("opacity"), 1.0);
                    if (opacity < 0.0) fail(key("opacity") + " must lie in 0..1");
                    style.opacity = float(opacity);
                }
                if (const ReadJson* v = optional(e, "visible"))
                    style.visible = boolean(*v, key("visible"));
                if (!labels.styles.emplace(label, style).second)
                    fail(key("label") + " names label " + std::to_string(label) + " again");
            }
        }
        if (const ReadJson* selected = optional(j, "selected"))
            labels.selected =
                std::uint32_t(count(*selected, name(section, "selected"), kMaxLabelStyles));
        // Bounded by the label map's grid when it is applied (validateLabelSmoothing).
        if (const ReadJson* sigma = optional(j, "smoothingSigmaMm")) {
            labels.smoothingSigmaMm = number(*sigma, name(section, "smoothingSigmaMm"), 1e6);
            if (labels.smoothingSigmaMm < 0.0)
                fail(name(section, "smoothingSigmaMm") + " is negative");
        }
        return labels;
    }

    std::optional<std::array<glm::dvec3, 2>> readMeasurements(const ReadJson& j) const
    {
        const std::string section = "measurements";
        object(j, "'measurements'");
        warnUnknown(j, {"distance"}, section);
        const ReadJson* d = optional(j, "distance");
        if (!d) return std::nullopt;
        const ReadJson& points = array(*d, 2, name(section, "distance"), "points [x, y, z]");
        return std::array<glm::dvec3, 2>{
            vec3(points[0], name(section, "distance") + " point 1", kMaxMillimetres),
            vec3(points[1], name(section, "distance") + " point 2", kMaxMillimetres)};
    }

    SessionSliceViews readSlices(const ReadJson& j) const
    {
        const std::string section = "sliceViews";
        object(j, "'sliceViews'");
        warnUnknown(j, {"layout", "windowCenter", "windowWidth", "crosshair"}, section);
        SessionSliceViews slices;
        if (const ReadJson* layout = optional(j, "layout")) {
            slices.layout = string(*layout, name(section, "layout"));
            if (slices.layout != "2x2" && slices.layout != "1x3" && slices.layout != "3d")
                fail(name(section, "layout") + " is " + json::describe(*layout) +
                     ", expected '2x2', '1x3' or '3d'");
        }
        if (const ReadJson* c = optional(j, "crosshair"))
            slices.crosshair = vec3(*c, name(section, "crosshair"), kMaxIndex);
        if (const ReadJson* c = optional(j, "windowCenter"))
            slices.windowCenter = number(*c, name(section, "windowCenter"), kMaxRealValue);
        if (const ReadJson* w = optional(j, "windowWidth")) {
            slices.windowWidth = number(*w, name(section, "windowWidth"), kMaxRealValue);
            if (!(*slices.windowWidth > 0.0))
                fail(name(section, "windowWidth") + " must be positive");
        }
        return slices;
    }

    std::string m_context;
    std::filesystem::path m_sessionFile;
    std::vector<std::string>* m_warnings;
};

std::string readWholeFile(const std::filesystem::path& path)
{
    const std::string what = "cannot read session " + quoted(path);
    // Checked before the open: a FIFO or device must not block or stream forever.
    const InputFile file = InputFile::open(path, "session " + quoted(path));
    if (file.size() > kMaxFileBytes) {
        throw IoError(what + ": larger than " + std::to_string(kMaxFileBytes >> 20) +
                      " MiB, not a session");
    }
    std::string text(std::size_t(file.size()), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t got = ::read(file.fd(), text.data() + done, text.size() - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw IoError(what + ": " + std::error_code(errno, std::generic_category()).message());
        if (got == 0) break; // it shrank meanwhile: parse what is there
        done += std::size_t(got);
    }
    text.resize(done);
    return text;
}

} // namespace

std::string sessionToJson(const Session& session, const std::filesystem::path& sessionFile)
{
    Json root = Json::object();
    root["format"] = kFormat;
    root["version"] = kVersion;
    root["volume"] = volumeJson(session.volume, sessionFile);
    std::optional<glm::vec3> surfaceColor = session.surfaceColor;
    double isovalue = session.isovalue;
    if (!session.surfaces.empty()) {
        if (session.selectedSurface >= session.surfaces.size())
            failWrite("the selected surface is beyond the list");
        // The single values an isoview of one surface reads: the selected surface's.
        isovalue = session.surfaces[session.selectedSurface].isovalue;
        surfaceColor = session.surfaces[session.selectedSurface].color;
    }
    root["isovalue"] = finiteOrFail(isovalue, "the isovalue");
    if (!session.surfaces.empty()) {
        root["surfaces"] = surfacesJson(session.surfaces);
        root["selectedSurface"] = session.selectedSurface;
    }
    root["transferFunction"] = Json::parse(transferFunctionToJson(session.transferFunction));
    if (session.camera) root["camera"] = cameraJson(*session.camera);
    if (session.crop) {
        root["crop"] = {{"first", uvec3Json(session.crop->first)},
                        {"last", uvec3Json(session.crop->last)}};
    }
    Json view = {{"mode", renderModeName(session.renderMode)},
                 {"orientationMarker", session.orientationMarker}};
    if (surfaceColor) view["surfaceColor"] = colorJson(*surfaceColor, "the colour");
    root["view"] = view;
    if (session.sliceViews) {
        Json slices = Json::object();
        if (!session.sliceViews->layout.empty()) slices["layout"] = session.sliceViews->layout;
        if (session.sliceViews->windowCenter)
            slices["windowCenter"] = finiteOrFail(*session.sliceViews->windowCenter, "the window");
        if (session.sliceViews->windowWidth)
            slices["windowWidth"] = finiteOrFail(*session.sliceViews->windowWidth, "the window");
        if (session.sliceViews->crosshair)
            slices["crosshair"] = vec3Json(*session.sliceViews->crosshair, "the crosshair");
        root["sliceViews"] = slices;
    }
    if (session.distance) {
        root["measurements"] = {
            {"distance", Json::array({vec3Json((*session.distance)[0], "the distance's points"),
                                      vec3Json((*session.distance)[1], "the distance's points")})}};
    }
    if (session.labels) {
        const SessionLabels& l = *session.labels;
        if (l.path.empty()) failWrite("no label map path");
        Json labels = pathJson(l.path, sessionFile);
        if (l.table) labels["table"] = pathJson(*l.table, sessionFile);
        Json styles = Json::array();
        for (const auto& [label, style] : l.styles) {
            if (!(style.opacity >= 0.0f && style.opacity <= 1.0f))
                failWrite("a label's opacity outside 0..1");
            styles.push_back({{"label", label},
                              {"color", colorJson(style.color, "a label's colour")},
                              {"opacity", style.opacity},
                              {"visible", style.visible}});
        }
        labels["styles"] = styles;
        if (l.selected) labels["selected"] = *l.selected;
        if (l.smoothingSigmaMm > 0.0) labels["smoothingSigmaMm"] = l.smoothingSigmaMm;
        root["labels"] = labels;
    }
    // Free text (a series UID, a transfer function's name) that is not UTF-8 becomes U+FFFD
    // rather than an exception: saving must not fail on a label.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Session sessionFromJson(std::string_view json, const std::filesystem::path& sessionFile,
                        std::vector<std::string>* warnings)
{
    return Reader("session JSON", sessionFile, warnings).read(json);
}

void saveSession(const std::filesystem::path& path, const Session& session)
{
    const std::string text = sessionToJson(session, path);
    AtomicFileWriter out(path);
    out.write(text.data(), text.size());
    out.commit();
}

Session loadSession(const std::filesystem::path& path, std::vector<std::string>* warnings)
{
    const std::string text = readWholeFile(path);
    return Reader("session file " + quoted(path), path, warnings).read(text);
}

} // namespace isoview
