// libFuzzer target: transferFunctionFromJson on arbitrary bytes, the parser of a file users
// load and share. InvalidInputError is the expected outcome of bad input; anything else (a
// crash, a sanitizer report, another exception) is a finding. A function that parses must
// hold the invariants the renderer relies on, and survive a save/parse round trip unchanged.
#include "core/error.h"
#include "fuzz_support.h"
#include "scene/transfer_function.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    isoview::TransferFunction tf;
    try {
        tf = isoview::transferFunctionFromJson(text);
    } catch (const isoview::InvalidInputError&) {
        return 0;
    }
    const auto& points = tf.points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const isoview::TransferPoint& p = points[i];
        const bool ok = std::isfinite(p.value) && p.opacity >= 0.0f && p.opacity <= 1.0f &&
                        p.color.r >= 0.0f && p.color.r <= 1.0f && p.color.g >= 0.0f &&
                        p.color.g <= 1.0f && p.color.b >= 0.0f && p.color.b <= 1.0f &&
                        (i == 0 || points[i - 1].value <= p.value);
        if (!ok) __builtin_trap();
    }
    const isoview::TransferFunction again =
        isoview::transferFunctionFromJson(isoview::transferFunctionToJson(tf));
    if (again.size() != tf.size()) __builtin_trap();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const isoview::TransferPoint& a = points[i];
        const isoview::TransferPoint& b = again.points()[i];
        if (a.value != b.value || a.opacity != b.opacity || a.color != b.color) __builtin_trap();
    }
    return 0;
}
