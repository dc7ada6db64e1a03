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
void writeSliceFromWords(const std::uint8_t* raw, std::size_t count, const SampleLayout& layout,
                         const SliceMapping& mapping, std::byte* target)
{
    const auto run = [&]<typename Out>(Out /*tag*/) {
        forEachStoredValue<Word>(raw, count, layout, [&](std::size_t i, std::int64_t value) {
            Out out;
            if constexpr (std::is_floating_point_v<Out>) {
                out = Out(double(value) * mapping.slope + mapping.intercept);
            } else {
                out = Out(mapping.negate ? -value : value);
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
                const double out = double(mapping.negate ? -value : value);
                std::memcpy(target + i * sizeof(double), &out, sizeof(double));
            });
        }
        break;
    }
}

} // namespace

void writeSlice(std::span<const std::uint8_t> raw, const SampleLayout& layout,
                const SliceMapping& mapping, std::size_t count, std::byte* target)
{
    switch (layout.bitsAllocated) {
    case 8: writeSliceFromWords<std::uint8_t>(raw.data(), count, layout, mapping, target); break;
    case 16: writeSliceFromWords<std::uint16_t>(raw.data(), count, layout, mapping, target); break;
    default: writeSliceFromWords<std::uint32_t>(raw.data(), count, layout, mapping, target); break;
    }
}

} // namespace isoview::io::dicom
