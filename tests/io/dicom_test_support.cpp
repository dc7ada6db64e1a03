#include "io/dicom_test_support.h"

#include "test_paths.h"

#include <dcmtk/dcmdata/dcuid.h>

#include <cstdio>
#include <cstring>

namespace isoview::test {

namespace fs = std::filesystem;

fs::path dicomData(const std::string& relative)
{
    const fs::path path = fs::path(test::kSharedDataDir) / "dicom" / relative;
    if (!fs::exists(path)) {
        ADD_FAILURE() << "missing shared test data " << path
                      << " (set ISOVIEW_SHARED_DATA_DIR to the shared data folder)";
    }
    return path;
}

fs::path singleFile(const std::string& name)
{
    return dicomData("single/" + name);
}

Volume loadDefault(const fs::path& path, io::LoadMonitor* monitor)
{
    const io::DicomScan scan = io::scanDicom(path, monitor);
    return io::loadDicomSeries(scan.series.at(scan.defaultSeries), monitor);
}

std::string ds(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

namespace {

std::vector<std::int64_t> sliceValues(const SliceSpec& spec)
{
    if (!spec.values.empty()) return spec.values;
    std::vector<std::int64_t> values(std::size_t(spec.columns) * spec.rows);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = std::int64_t(i % 100);
    }
    return values;
}

} // namespace

void writeSlice(const fs::path& path, const SliceSpec& spec, E_TransferSyntax xfer)
{
    DcmFileFormat file;
    DcmDataset* d = file.getDataset();
    char uid[100];
    const std::string sopUid = spec.sopInstanceUid.empty()
                                   ? dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT)
                                   : spec.sopInstanceUid;
    const auto put = [d](const DcmTagKey& tag, const std::string& value) {
        ASSERT_TRUE(d->putAndInsertString(tag, value.c_str()).good()) << DcmTag(tag).getTagName();
    };
    put(DCM_SOPClassUID, spec.modality == "MR" ? UID_MRImageStorage : UID_CTImageStorage);
    put(DCM_SOPInstanceUID, sopUid);
    put(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.9.7433.77");
    put(DCM_SeriesInstanceUID, spec.seriesUid);
    put(DCM_Modality, spec.modality);
    put(DCM_PatientName, "Synthetic^Stack");
    put(DCM_PatientID, "ISOVIEW-TEST");
    put(DCM_SeriesDescription, "synthetic");
    put(DCM_InstanceNumber, std::to_string(spec.instanceNumber));
    if (spec.position) {
        put(DCM_ImagePositionPatient,
            (*spec.position)[0] + "\\" + (*spec.position)[1] + "\\" + (*spec.position)[2]);
    }
    put(DCM_ImageOrientationPatient, spec.orientation);
    put(DCM_PixelSpacing, "0.5\\0.75");
    put(DCM_SliceThickness, "2");
    if (spec.slope) put(DCM_RescaleSlope, *spec.slope);
    if (spec.intercept) put(DCM_RescaleIntercept, *spec.intercept);
    put(DCM_PhotometricInterpretation, "MONOCHROME2");
    ASSERT_TRUE(d->putAndInsertUint16(DCM_SamplesPerPixel, 1).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Rows, Uint16(spec.rows)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Columns, Uint16(spec.columns)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsAllocated, Uint16(spec.bitsAllocated)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsStored, Uint16(spec.bitsStored)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_HighBit, Uint16(spec.bitsStored - 1)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_PixelRepresentation, spec.isSigned ? 1 : 0).good());

    const std::vector<std::int64_t> values = sliceValues(spec);
    if (spec.bitsAllocated == 8) {
        std::vector<Uint8> raw;
        for (const std::int64_t v : values) {
            raw.push_back(Uint8(std::uint64_t(v) & 0xFF));
        }
        ASSERT_TRUE(d->putAndInsertUint8Array(DCM_PixelData, raw.data(), raw.size()).good());
    } else if (spec.bitsAllocated == 16) {
        std::vector<Uint16> raw;
        for (const std::int64_t v : values) {
            raw.push_back(Uint16(std::uint64_t(v) & 0xFFFF));
        }
        ASSERT_TRUE(d->putAndInsertUint16Array(DCM_PixelData, raw.data(), raw.size()).good());
    } else {
        std::vector<std::uint32_t> raw;
        for (const std::int64_t v : values) {
            raw.push_back(std::uint32_t(std::uint64_t(v)));
        }
        std::vector<Uint16> words(raw.size() * 2);
        std::memcpy(words.data(), raw.data(), raw.size() * 4);
        ASSERT_TRUE(d->putAndInsertUint16Array(DCM_PixelData, words.data(), words.size()).good());
    }
    const OFCondition status = file.saveFile(path.c_str(), xfer);
    ASSERT_TRUE(status.good()) << status.text();
}

} // namespace isoview::test
