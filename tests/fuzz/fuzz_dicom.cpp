// libFuzzer target: the DICOM reader on arbitrary bytes, through the entry point the DICOM
// loader provides for fuzzing (io::fuzzDicomBytes in io/dicom_series_loader.h: parses one
// file's bytes and decodes its pixels as a load would). isoview::Error is the expected outcome
// of bad input; anything else is a finding.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/dicom/dicom_series_loader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        isoview::io::fuzzDicomBytes(data, size);
    } catch (const isoview::Error&) {
    }
    return 0;
}
