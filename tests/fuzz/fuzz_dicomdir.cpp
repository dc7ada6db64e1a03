// libFuzzer target: a DICOMDIR of arbitrary bytes, opened through io::scanDicom as File > Open
// and isoview-cli open one: the nesting guard, DCMTK's parse, the records' file IDs resolved
// under its folder (any case; never "..", never out of it), and the files they name scanned.
// The folder, made once per process under $TMPDIR, holds IMAGES/IMG0 (a real MR slice,
// ISOVIEW_FUZZ_DICOM_SLICE), IMAGES/SUB/ (a folder) and EMPTY (an empty file), so that IDs can
// resolve, miss, or name something that is not DICOM. isoview::Error is the expected outcome of
// bad input; a listed file outside the folder, or that does not exist, is a finding.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/dicom/dicom_series_loader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace {

namespace fs = std::filesystem;

// The DICOMDIR's folder, made on first use and removed at exit.
const fs::path& mediaFolder()
{
    static const fs::path folder = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/isoview-fuzz-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) std::abort();
        const fs::path made(pattern);
        fs::create_directories(made / "IMAGES" / "SUB");
        fs::copy_file(ISOVIEW_FUZZ_DICOM_SLICE, made / "IMAGES" / "IMG0");
        std::ofstream(made / "EMPTY").flush();
        std::atexit([] {
            std::error_code ignored;
            fs::remove_all(mediaFolder(), ignored);
        });
        return made;
    }();
    return folder;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fs::path index = mediaFolder() / "DICOMDIR";
    {
        std::ofstream out(index, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        if (!out) std::abort(); // the disk, not a finding
    }
    isoview::io::DicomScan scan;
    try {
        scan = isoview::io::scanDicom(index);
    } catch (const isoview::Error&) {
        return 0;
    }
    const std::string inside = mediaFolder().string() + "/";
    for (const isoview::io::DicomSeriesInfo& series : scan.series) {
        for (const fs::path& file : series.files) {
            std::error_code error;
            const fs::path real = fs::weakly_canonical(file, error);
            if (error || !fs::is_regular_file(real) || real.string().rfind(inside, 0) != 0)
                __builtin_trap();
        }
    }
    return 0;
}
