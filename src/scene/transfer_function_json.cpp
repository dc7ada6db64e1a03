// Transfer functions as JSON text and files (format in transfer_function.h).
//
// Writing: one point per line, so that a hand-edited or version-controlled file diffs
// cleanly. Values are doubles printed by nlohmann's shortest round-trip formatter. Colours and
// opacities are floats: each is written as the shortest decimal that reads back as the same
// float ("0.9", not 0.8999999761581421), checked once more through the double that JSON
// carries, since decimal -> double -> float can round twice.
//
// Reading: the checks run in the order a person would fix them (is it JSON, is it ours, which
// version, then each point), and each message names the field and, for points, its 1-based
// position in the file. Unknown keys are ignored, so later version-1 writers may add fields. An
// empty point list is allowed: it is the empty (transparent) function.
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "scene/transfer_function.h"
#include "scene/versioned_json.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <unistd.h>

namespace isoview {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kFormat = "isoview-transfer-function";
constexpr int kVersion = 1;
// A transfer function file is a few kilobytes; anything this large is the wrong file.
constexpr long kMaxFileBytes = 16L * 1024 * 1024;

std::string quoted(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

std::string systemReason(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

// The JSON number for a float: the shortest decimal of the float when that survives the
// double JSON carries, else the float's exact double value (always exact, just longer).
Json floatToJson(float x)
{
    char buffer[64];
    const auto printed = std::to_chars(buffer, buffer + sizeof buffer, x);
    double shortest = 0.0;
    const auto parsed = std::from_chars(buffer, printed.ptr, shortest);
    if (parsed.ec == std::errc() && static_cast<float>(shortest) == x) return Json(shortest);
    return Json(static_cast<double>(x));
}

std::string pointToJson(const TransferPoint& p)
{
    return "{\"value\": " + Json(p.value).dump() + ", \"color\": [" +
           floatToJson(p.color.r).dump() + ", " + floatToJson(p.color.g).dump() + ", " +
           floatToJson(p.color.b).dump() + "], \"opacity\": " + floatToJson(p.opacity).dump() + "}";
}

// Reads JSON text; `context` starts every message ("transfer function JSON", or the file).
class Reader {
public:
    explicit Reader(std::string context) : m_context(std::move(context)) {}

    TransferFunction read(std::string_view text) const
    {
        const auto doc =
            json::readVersionedJson<Json>(text, kFormat, "transfer function", m_context);
        if (doc.version != kVersion) {
            fail("unsupported version " + doc.versionText + " (this isoview reads version " +
                 std::to_string(kVersion) + ")");
        }
        const Json& root = doc.root;

        std::string name;
        if (const auto it = root.find("name"); it != root.end()) {
            if (!it->is_string()) fail("'name' must be a string, got " + json::describe(*it));
            name = it->get<std::string>();
        }

        const auto points = root.find("points");
        if (points == root.end()) fail("missing 'points'");
        if (!points->is_array()) fail("'points' must be an array, got " + json::describe(*points));
        std::vector<TransferPoint> result;
        result.reserve(points->size());
        for (std::size_t i = 0; i < points->size(); ++i) {
            result.push_back(readPoint((*points)[i], "point " + std::to_string(i + 1)));
        }
        return TransferFunction(std::move(result), std::move(name));
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw InvalidInputError(m_context + ": " + what);
    }

    const Json& field(const Json& object, const char* key, const std::string& where) const
    {
        const auto it = object.find(key);
        if (it == object.end()) fail(where + " has no '" + key + "'");
        return *it;
    }

    double number(const Json& j, const std::string& what) const
    {
        if (!j.is_number()) fail(what + " must be a number, got " + json::describe(j));
        return j.get<double>();
    }

    // A colour or opacity: range-checked as the double in the file, then narrowed, so that
    // 1.0000001 is refused rather than rounded to 1.
    float unitFloat(const Json& j, const std::string& what) const
    {
        const double x = number(j, what);
        if (!(x >= 0.0 && x <= 1.0)) fail(what + " is " + j.dump() + ", expected 0..1");
        return static_cast<float>(x);
    }

    TransferPoint readPoint(const Json& j, const std::string& where) const
    {
        if (!j.is_object()) fail(where + " must be an object, got " + json::describe(j));
        TransferPoint p;
        p.value = number(field(j, "value", where), where + " 'value'");

        const Json& color = field(j, "color", where);
        if (!color.is_array() || color.size() != 3) {
            fail(where + " 'color' must be an array of 3 numbers (red, green, blue), got " +
                 (color.is_array() ? std::to_string(color.size()) + " elements"
                                   : json::describe(color)));
        }
        for (int c = 0; c < 3; ++c) {
            static constexpr const char* kChannel[] = {"red", "green", "blue"};
            p.color[c] = unitFloat(color[std::size_t(c)], where + " " + kChannel[c]);
        }

        const Json& opacity = field(j, "opacity", where);
        const double o = number(opacity, where + " 'opacity'");
        if (!(o >= 0.0 && o <= 1.0)) {
            fail(where + " has opacity " + opacity.dump() + ", expected 0..1");
        }
        p.opacity = static_cast<float>(o);

        // Catches what the JSON grammar lets through (no NaN there, and 1e400 fails to
        // parse), so the point meets the model's own rules.
        validateTransferPoint(p, m_context + ": " + where);
        return p;
    }

    std::string m_context;
};

std::string readWholeFile(const std::filesystem::path& path)
{
    const std::string what = "cannot read transfer function " + quoted(path);
    // Checked before the open: a FIFO or device must not block or stream forever.
    const InputFile file = InputFile::open(path, "transfer function " + quoted(path));
    if (file.size() > std::uint64_t(kMaxFileBytes)) {
        throw IoError(what + ": larger than " + std::to_string(kMaxFileBytes >> 20) +
                      " MiB, not a transfer function");
    }
    std::string text(std::size_t(file.size()), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t got = ::read(file.fd(), text.data() + done, text.size() - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw IoError(what + ": " + systemReason(errno));
        if (got == 0) break; // it shrank meanwhile: parse what is there
        done += std::size_t(got);
    }
    text.resize(done);
    return text;
}

} // namespace

std::string transferFunctionToJson(const TransferFunction& tf)
{
    // An invalid UTF-8 name (it is free text) becomes U+FFFD rather than an exception: saving
    // must not fail on a label.
    const std::string name = Json(tf.name()).dump(-1, ' ', false, Json::error_handler_t::replace);
    std::string text = "{\n  \"format\": " + Json(kFormat).dump() +
                       ",\n  \"version\": " + std::to_string(kVersion) + ",\n  \"name\": " + name +
                       ",\n  \"points\": [";
    const auto& points = tf.points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        text += (i == 0 ? "\n    " : ",\n    ") + pointToJson(points[i]);
    }
    text += points.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return text;
}

TransferFunction transferFunctionFromJson(std::string_view json)
{
    return Reader("transfer function JSON").read(json);
}

void saveTransferFunction(const std::filesystem::path& path, const TransferFunction& tf)
{
    const std::string text = transferFunctionToJson(tf);
    AtomicFileWriter out(path);
    out.write(text.data(), text.size());
    out.commit();
}

TransferFunction loadTransferFunction(const std::filesystem::path& path)
{
    const std::string text = readWholeFile(path);
    return Reader("transfer function file " + quoted(path)).read(text);
}

} // namespace isoview
