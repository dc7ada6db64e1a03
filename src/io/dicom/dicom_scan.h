// Scanning: io::scanDicom (declared in dicom_series_loader.h, defined in dicom_scan.cpp) finds
// the files of a file, folder or DICOMDIR, reads their headers only, and groups the images by
// SeriesInstanceUID into stacks of one orientation and size.
#pragma once

#include "io/dicom/dicom_series_loader.h"

#include <filesystem>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// Every regular file under folder (recursively), sorted by path. A subfolder that cannot be
// listed (permissions) is left out with a note naming it, also added to *unreadable when given.
// Throws IoError when the folder cannot be listed at all; an error part-way stops the listing
// with a note.
std::vector<std::filesystem::path>
listFilesRecursively(const std::filesystem::path& folder, std::vector<std::string>& notes,
                     std::vector<std::string>* unreadable = nullptr);

} // namespace isoview::io::dicom
