// The opening checks every isoview JSON document shares (transfer functions, sessions): the
// text is JSON, its top is an object, "format" names the kind of document and "version" is an
// integer. What each version means stays with the document's own reader.
//
// Example:
//   const auto doc = readVersionedJson<nlohmann::json>(text, "isoview-transfer-function",
//                                                      "transfer function", context);
//   if (doc.version != 1) ...;   // then read doc.root's own keys
//
// Thread: any. Throws InvalidInputError "<context>: <what is wrong>".
#pragma once

#include "core/error.h"

#include <string>
#include <string_view>

namespace isoview::json {

// nlohmann's messages start with "[json.exception.parse_error.101] "; a person needs the rest.
std::string withoutExceptionTag(const char* what);

// How a value reads in a message: strings in quotes (cut at 60 characters), other primitives
// as JSON, else "an array" / "an object".
template <class Json> std::string describe(const Json& j)
{
    if (j.is_string()) {
        const auto& s = j.template get_ref<const std::string&>();
        return "'" + (s.size() <= 60 ? s : s.substr(0, 60) + "...") + "'";
    }
    if (j.is_primitive()) return j.dump();
    return j.is_array() ? "an array" : "an object";
}

template <class Json> struct VersionedDocument {
    Json root;
    long long version = 0;
    std::string versionText; // as written, for messages
};

// kind names the document in messages ("not an isoview session (no 'format')").
template <class Json>
VersionedDocument<Json> readVersionedJson(std::string_view text, std::string_view format,
                                          std::string_view kind, const std::string& context)
{
    const auto fail = [&context](const std::string& what) {
        throw InvalidInputError(context + ": " + what);
    };
    VersionedDocument<Json> doc;
    try {
        doc.root = Json::parse(text.begin(), text.end());
    } catch (const typename Json::exception& e) {
        // parse_error (with line and column) or out_of_range (a number such as 1e400).
        fail("not valid JSON: " + withoutExceptionTag(e.what()));
    }
    const Json& root = doc.root;
    if (!root.is_object()) fail("expected an object at the top, got " + describe(root));
    const std::string what = "not an isoview " + std::string(kind);
    const auto formatIt = root.find("format");
    if (formatIt == root.end()) fail(what + " (no 'format')");
    if (!formatIt->is_string() ||
        formatIt->template get_ref<const std::string&>() != std::string(format)) {
        fail(what + " (format is " + describe(*formatIt) + ")");
    }
    const auto version = root.find("version");
    if (version == root.end()) fail("missing 'version'");
    if (!version->is_number_integer()) {
        fail("'version' must be an integer, got " + describe(*version));
    }
    doc.version = version->template get<long long>();
    doc.versionText = version->dump();
    return doc;
}

} // namespace isoview::json
