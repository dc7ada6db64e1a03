// DICOM files for the loader tests (no GL: the io tests link no GL library). Paths into the
// shared data folder's dicom/ tree, loading a path's default series, and synthetic slices
// written with DCMTK (a small CT or MR image whose position, orientation, bit depth, rescale
// and values a test chooses), or a real file rewritten with an edit.
//
// Contract: dicomData() and singleFile() fail the running test (ADD_FAILURE) when the file is
// missing, never skip; writeSlice() and rewrite() fail it with an ASSERT when DCMTK refuses a
// value or the file cannot be saved. Everything else throws what the loader throws.
//
// Example:
//   SliceSpec spec;
//   spec.position = std::array<std::string, 3>{"0", "0", ds(2.5)};
//   writeSlice(dir.path() / "s0.dcm", spec);
//   const Volume v = loadDefault(dir.path());
#pragma once

#include "io/dicom/dicom_series_loader.h"
#include "io/load_monitor.h"
#include "volume/volume.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::test {

// A file or folder under <shared data>/dicom/.
std::filesystem::path dicomData(const std::string& relative);

// A file of <shared data>/dicom/single/ (one object each, many transfer syntaxes).
std::filesystem::path singleFile(const std::string& name);

// The CT slice of single/ that the compressed variants decode to.
inline const std::string kCtReference =
    "CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm";

// Scans a path and loads its default series.
Volume loadDefault(const std::filesystem::path& path, io::LoadMonitor* monitor = nullptr);

// One synthetic slice: a CT (or MR) image of columns x rows values.
struct SliceSpec {
    std::uint32_t columns = 8;
    std::uint32_t rows = 8;
    std::optional<std::array<std::string, 3>> position = std::array<std::string, 3>{"0", "0", "0"};
    std::string orientation = "1\\0\\0\\0\\1\\0";
    std::string seriesUid = "1.2.826.0.1.3680043.9.7433.77.1";
    std::string sopInstanceUid; // generated when empty
    int instanceNumber = 1;
    unsigned bitsAllocated = 16;
    unsigned bitsStored = 16;
    bool isSigned = true;
    std::optional<std::string> slope;
    std::optional<std::string> intercept;
    std::vector<std::int64_t> values; // rows x columns; a ramp when empty
    std::string modality = "CT";
};

// A decimal string (DICOM DS) of value, 10 significant digits.
std::string ds(double value);

// Writes spec as a DICOM file in xfer.
void writeSlice(const std::filesystem::path& path, const SliceSpec& spec,
                E_TransferSyntax xfer = EXS_LittleEndianExplicit);

// Loads a DICOM file, lets `edit` change it, and saves it elsewhere in `xfer`.
template <typename Edit>
void rewrite(const std::filesystem::path& from, const std::filesystem::path& to, Edit&& edit,
             E_TransferSyntax xfer = EXS_Unknown)
{
    DcmFileFormat file;
    ASSERT_TRUE(file.loadFile(from.c_str()).good()) << from;
    ASSERT_TRUE(file.loadAllDataIntoMemory().good());
    edit(*file.getDataset());
    if (xfer != EXS_Unknown) {
        ASSERT_TRUE(file.getDataset()->chooseRepresentation(xfer, nullptr).good());
    }
    const OFCondition status = file.saveFile(to.c_str(), xfer);
    ASSERT_TRUE(status.good()) << status.text();
}

} // namespace isoview::test
