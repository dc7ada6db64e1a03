// libFuzzer target: the NIfTI reader on arbitrary bytes (NIfTI-1 and -2, either byte order,
// gzip); what it checks is fuzz_nifti_checks.h's.
#include "fuzz_nifti_checks.h"
#include "fuzz_support.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    isoview::fuzz::checkNiftiBytes(data, size);
    return 0;
}
