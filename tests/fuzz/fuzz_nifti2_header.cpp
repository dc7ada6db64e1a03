// libFuzzer target: the NIfTI-2 reader. Arbitrary bytes rarely pass a NIfTI-2 header's
// 540-byte size and 8-byte magic, so the target frames them: the first byte chooses the byte
// order, the rest follow sizeof_hdr and the magic "n+2\0\r\n\032\n" (every 64-bit field,
// the dimensions, vox_offset and the transforms, is then the fuzzer's). The framed bytes get
// fuzz_nifti_checks.h's checks.
#include "fuzz_nifti_checks.h"
#include "fuzz_support.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    const bool bigEndian = (data[0] & 1) != 0;
    constexpr std::array<std::uint8_t, 8> kMagic = {'n', '+', '2', 0, '\r', '\n', 032, '\n'};
    std::vector<std::uint8_t> framed(12 + size - 1);
    const std::uint32_t headerSize = 540;
    for (int i = 0; i < 4; ++i) {
        const int shift = bigEndian ? 8 * (3 - i) : 8 * i;
        framed[std::size_t(i)] = std::uint8_t(headerSize >> shift);
    }
    std::memcpy(framed.data() + 4, kMagic.data(), kMagic.size());
    std::memcpy(framed.data() + 12, data + 1, size - 1);
    isoview::fuzz::checkNiftiBytes(framed.data(), framed.size());
    return 0;
}
