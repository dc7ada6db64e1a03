// DICOMDIR: the files a DICOM media index lists. ReferencedFileIDs ("DIR\SUBDIR\FILE") are
// resolved under the DICOMDIR's folder, component by component and without regard to case
// (media written on other systems often differ in case); IDs that leave the folder ("..",
// "/") are refused.
//
// Contract: filesOfDicomDir returns nullopt when the file is not a DICOMDIR (unreadable, not
// DICOM, or without a DirectoryRecordSequence); otherwise the existing listed files, sorted
// and unique, with a note saying how many listed files do not exist. Reads the DICOMDIR up to
// its pixel data and lists folders only; call ensureDcmtk() first.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io::dicom {

std::optional<std::vector<std::filesystem::path>> filesOfDicomDir(const std::filesystem::path& file,
                                                                  std::vector<std::string>& notes);

} // namespace isoview::io::dicom
