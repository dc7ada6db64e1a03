#include "io/dicom/dicomdir_reader.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"
#include "io/dicom/dicom_header.h"
#include "io/dicom/dicom_parsing.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace isoview::io::dicom {
namespace {

namespace fs = std::filesystem;

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) ==
                      std::toupper(static_cast<unsigned char>(y));
           });
}

// A ReferencedFileID ("DIR\SUBDIR\FILE") under the DICOMDIR's folder; components are matched
// without regard to case, since media written on other systems often differ in case.
std::optional<fs::path> resolveFileId(const fs::path& base, const std::string& fileId)
{
    fs::path current = base;
    std::size_t start = 0;
    while (start <= fileId.size()) {
        const std::size_t end = std::min(fileId.find('\\', start), fileId.size());
        const std::string component = trim(fileId.substr(start, end - start));
        start = end + 1;
        if (component.empty() || component == "." || component == ".." ||
            component.find('/') != std::string::npos) {
            return std::nullopt;
        }
        std::error_code error;
        if (fs::exists(current / component, error)) {
            current /= component;
            continue;
        }
        std::optional<fs::path> match;
        for (fs::directory_iterator it(current, error), end; !error && it != end;
             it.increment(error)) {
            if (equalsIgnoringCase(it->path().filename().string(), component)) {
                match = it->path();
                break;
            }
        }
        if (!match) return std::nullopt;
        current = *match;
    }
    return current;
}

} // namespace

// The files a DICOMDIR lists, or nullopt when the file is not a DICOMDIR.
std::optional<std::vector<fs::path>> filesOfDicomDir(const fs::path& file,
                                                     std::vector<std::string>& notes)
{
    std::optional<ParsedDicom> parsed;
    try {
        parsed.emplace(parseDicomFile(file, ReadDepth::Header));
    } catch (const IoError&) {
        return std::nullopt;
    }
    DcmSequenceOfItems* records = nullptr;
    if (parsed->dataset().findAndGetSequence(DCM_DirectoryRecordSequence, records).bad() ||
        records == nullptr) {
        return std::nullopt;
    }
    std::vector<fs::path> files;
    std::size_t missing = 0;
    std::string firstMissing;
    for (unsigned long i = 0; i < records->card(); ++i) {
        DcmItem* record = records->getItem(i);
        if (record == nullptr) continue;
        const std::string fileId = getString(*record, DCM_ReferencedFileID);
        if (fileId.empty()) continue;
        if (const std::optional<fs::path> path = resolveFileId(file.parent_path(), fileId)) {
            files.push_back(*path);
        } else {
            if (missing++ == 0) firstMissing = fileId;
        }
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    if (missing > 0) {
        notes.push_back(quoted(file) + " lists " + std::to_string(missing) +
                        " file(s) that do not exist (e.g. " + firstMissing + ")");
    }
    return files;
}

} // namespace isoview::io::dicom
