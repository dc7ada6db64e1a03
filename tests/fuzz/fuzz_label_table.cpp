// libFuzzer target: io::parseLabelTable on arbitrary bytes (every label table format at once,
// since the format is told from the content). InvalidInputError is the expected answer to bad
// input; anything else is a finding, and so is an accepted table that breaks LabelTable's
// invariants: at least one entry, ascending unique values up to kMaxLabel, colours finite and
// in 0..1.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/label_table_reader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    isoview::LabelTable table;
    try {
        table = isoview::io::parseLabelTable(text);
    } catch (const isoview::InvalidInputError&) {
        return 0;
    }
    if (table.empty()) __builtin_trap();
    bool first = true;
    std::uint32_t previous = 0;
    for (const isoview::LabelEntry& entry : table) {
        if (entry.value > isoview::LabelTable::kMaxLabel || (!first && entry.value <= previous)) {
            __builtin_trap();
        }
        for (int c = 0; c < 4; ++c) {
            const float component = table.colorOf(entry.value)[c];
            if (!std::isfinite(component) || component < 0.0f || component > 1.0f) {
                __builtin_trap();
            }
        }
        first = false;
        previous = entry.value;
    }
    return 0;
}
