#include "io/dicom/dicom_pixel_writer.h"

#include <cstring>
#include <type_traits>

namespace isoview::io::dicom {
namespace {

// Calls store(i, value) with the stored value of each sample: the BitsStored bits that end at
// HighBit, sign-extended from the top one when the samples are signed.
template <typename Word, typename Store>
void forEachStoredValue(const std::uint8_t* raw, std::size_t count, const SampleLayout& layout,
                        Store&& store)
{
    const unsigned shift = layout.highBit + 1 - layout.bitsStored;
    const std::uint64_t mask = (std::uint64_t(1) << layout.bitsStored) - 1;
    const std::uint64_t signBit = std::uint64_t(1) << (layout.bitsStored - 1);
    for (std::size_t i = 0; i < count; ++i) {
        Word word;
        std::memcpy(&word, raw + i * sizeof(Word), sizeof(Word));
        auto value = std::int64_t((std::uint64_t(word) >> shift) & mask);
        if (layout.isSigned && (std::uint64_t(value) & signBit) != 0) {
            value -= std::int64_t(mask) + 1;
        }
        store(i, value);
    }
}

template <typename Word>
SliceWriteCounts writeSliceFromWords(const std::uint8_t* raw, std::size_t count,
                                     const SampleLayout& layout, const SliceMapping& mapping,
                                     std::byte* target)
{
    // Without padding the range is empty (low > high), so the test below never matches.
    const std::int64_t padLow = mapping.paddingLow.value_or(1);
    const std::int64_t padHigh = mapping.paddingLow ? mapping.paddingHigh : 0;
    // Integer voxels that are data but equal the padding value move up by one (see header).
    const std::int64_t sentinel =
        mapping.paddingLow ? std::int64_t(mapping.paddingValue) : std::int64_t(0);
    const bool guardSentinel = mapping.paddingLow.has_value() && !mapping.toReal;
    SliceWriteCounts counts;
    const auto run = [&]<typename Out>(Out /*tag*/) {
        forEachStoredValue<Word>(raw, count, layout, [&](std::size_t i, std::int64_t value) {
            Out out;
            if (value >= padLow && value <= padHigh) {
                out = static_cast<Out>(mapping.paddingValue);
                ++counts.padding;
            } else if constexpr (std::is_floating_point_v<Out>) {
                out = Out(double(value) * mapping.slope + mapping.intercept);
            } else {
                std::int64_t v = mapping.negate ? -value : value;
                if (guardSentinel && v == sentinel) {
                    ++v;
                    ++counts.movedOffPadding;
                }
                out = Out(v);
            }
            std::memcpy(target + i * sizeof(Out), &out, sizeof(Out));
        });
    };
    switch (mapping.type) {
    case ScalarType::UInt8: run(std::uint8_t{}); break;
    case ScalarType::Int8: run(std::int8_t{}); break;
    case ScalarType::UInt16: run(std::uint16_t{}); break;
    case ScalarType::Int16: run(std::int16_t{}); break;
    case ScalarType::UInt32: run(std::uint32_t{}); break;
    case ScalarType::Int32: run(std::int32_t{}); break;
    case ScalarType::Float32: run(float{}); break;
    case ScalarType::Float64:
        if (mapping.toReal) {
            run(double{});
        } else {
            // A negated uint32 range: exact in double.
            forEachStoredValue<Word>(raw, count, layout, [&](std::size_t i, std::int64_t value) {
                const bool isPadding = value >= padLow && value <= padHigh;
                counts.padding += isPadding ? 1 : 0;
                const double out =
                    isPadding ? mapping.paddingValue : double(mapping.negate ? -value : value);
                std::memcpy(target + i * sizeof(double), &out, sizeof(double));
            });
        }
        break;
    }
    return counts;
}

} // namespace

SliceWriteCounts writeSlice(std::span<const std::uint8_t> raw, const SampleLayout& layout,
                            const SliceMapping& mapping, std::size_t count, std::byte* target)
{
    switch (layout.bitsAllocated) {
    case 8: return writeSliceFromWords<std::uint8_t>(raw.data(), count, layout, mapping, target);
    case 16: return writeSliceFromWords<std::uint16_t>(raw.data(), count, layout, mapping, target);
    default: return writeSliceFromWords<std::uint32_t>(raw.data(), count, layout, mapping, target);
    }
}

} // namespace isoview::io::dicom
