// Reads NIfTI-1 and NIfTI-2 volumes: single files (.nii, magic "n+1"/"n+2"), the same
// gzip-compressed (.nii.gz), and header/image pairs (.hdr + .img, magic "ni1"/"ni2"; .hdr.gz +
// .img.gz). Analyze 7.5 headers (no NIfTI magic) are refused.
//
// Debian's nifticlib (libnifti2) supplies the header layouts, their byte swapping and the
// quaternion-to-matrix conversion. The bytes themselves are read by isoview, gzip through the
// loaders' one gzip reader (gzip_stream.h, as NRRD and MetaImage): nifticlib's znzlib opens
// files with a plain open(), which blocks on a FIFO, and reports truncation only on stderr;
// here every file goes through InputFile first, progress and cancellation reach the
// LoadMonitor, and a short file names its expected and actual bytes.
//
// Volumes: dims 1-3 are the grid; dim[4] (time) lists one volume per index, of which one is
// loaded; dims 5-7 (vector or statistic components) larger than 1 are refused.
// Types: uint8 int8 uint16 int16 uint32 int32 float32 float64; others (int64, uint64,
// complex, RGB, float128, ...) are refused naming the datatype.
//
// Geometry (NIfTI world space is RAS+ millimetres; isoview's is patient LPS, so x and y are
// negated). The transform is chosen as nibabel and FSL choose it:
//   1. sform_code > 0: the sform (srow_x/y/z), exactly, shear included (the axes then keep
//      their non-orthogonal directions, as the NRRD reader keeps non-orthogonal space
//      directions; a warning says so);
//   2. else qform_code > 0: the qform (quaternion, qoffset, pixdim, qfac = pixdim[0]);
//   3. else NIfTI's method 1: pixdim scaling with the origin at 0, not flipped and not marked
//      as patient space (the orientation is unknown), with a warning.
// When both codes are set and the two transforms place the volume's corners more than
// 0.01 mm apart, a warning says by how much and that the sform was used (a qform that cannot
// be read beside a usable sform is a warning too, not a refusal). Voxel sizes outside
// 1e-6..1e6 mm are refused.
// Spatial units (xyzt_units): metres and micrometres are converted to millimetres; no unit
// means millimetres. Values: scl_slope and scl_inter become the rescale; a slope of 0 means
// no scaling (as the standard says); a non-finite or negative slope is ignored with a warning
// (isoview's rescale needs a positive slope).
//
// Contract:
// - parseNiftiHeader is pure (no I/O): it takes the first bytes of a header file (decompressed
//   when gzip), at least 348 for NIfTI-1 and 540 for NIfTI-2, and throws InvalidInputError on
//   anything malformed or unsupported, naming the field and its value; nothing else for any
//   input, so it can be fuzzed directly.
// - readNiftiHeader reads and parses only the header (at most 544 decompressed bytes): cheap,
//   for listing the volumes. IoError when the file cannot be opened or read, or is not a
//   regular file (a FIFO is refused before anything opens it).
// - niftiVolumesInFile checks dim[4] against the data file before anything is listed per
//   volume: how many volumes start inside it (uncompressed), or could at best decompress into
//   it (gzip, 1032:1). IoError when none (the header claims what no file of that size holds).
//   Opens the data file (the .img of a pair) for its size and first two bytes only.
// - readNifti reads one volume. Before allocating: the byte counts must not overflow and must
//   fit in memory (InvalidInputError); an uncompressed file must hold the chosen volume, a
//   compressed one must be large enough to decompress to it (IoError with the expected and
//   actual byte counts). A gzip stream that ends early or is corrupt is an IoError naming the
//   decompressed byte count reached; up to 256 KiB past the volume are decoded too (within its
//   gzip member), so damage just after it, a wrong check value at the stream's end among it, is
//   refused rather than shown. Memory: the volume plus ~1.3 MiB. Progress about every MiB
//   ("skipping to volume N" through earlier gzip volumes, then "reading voxels");
//   CancelledError when the monitor asks to stop. InvalidInputError for a volume index out of
//   range. Every file is opened through InputFile (recorded for input protection).
// - metadata.sourceFormat "NIfTI-1"/"NIfTI-2", seriesDescription = descrip, warnings = the
//   reader's notes (also logged). Thread: any.
//
// Example:
//   io::NiftiHeader header = io::readNiftiHeader("bold.nii.gz");  // 64x64x36, 200 volumes
//   Volume third = io::readNifti("bold.nii.gz", 2);               // volume 3 of 200
#pragma once

#include "io/load_monitor.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io {

// Where a volume's transform came from.
enum class NiftiTransform { Sform, Qform, Pixdim };

struct NiftiHeader {
    int version = 1;          // 1 or 2
    bool pairedFiles = false; // "ni1"/"ni2": the voxels are in the matching .img file
    bool bigEndian = false;   // byte order of the header and the voxels
    ScalarType type = ScalarType::UInt8;
    glm::uvec3 dims{1, 1, 1};
    std::uint64_t volumeCount = 1; // dim[4] when dim[0] >= 4
    std::uint64_t voxelOffset = 0; // vox_offset: where the voxels start (decompressed bytes)
    int qformCode = 0;
    int sformCode = 0;
    NiftiTransform transform = NiftiTransform::Pixdim;
    VolumeGeometry geometry; // LPS millimetres (method 1: pixdim scaling, unflipped)
    ValueRescale rescale;
    // Seconds from volume to volume and of the first volume (pixdim[4], toffset), when the time
    // unit says seconds, milliseconds or microseconds and pixdim[4] > 0; 0 otherwise.
    double timeStepSeconds = 0.0;
    double timeOffsetSeconds = 0.0;
    std::string description;     // descrip
    bool declaresLabels = false; // intent_code NIFTI_INTENT_LABEL (1002): a label map
    std::vector<std::string> warnings;
};

// Parses the header at the start of bytes (see the contract above).
NiftiHeader parseNiftiHeader(std::string_view bytes);

// Reads and parses the header of a .nii, .nii.gz or .hdr(.gz) file.
NiftiHeader readNiftiHeader(const std::filesystem::path& path);

// True when path is a regular file that starts like an uncompressed single-file NIfTI ("n+1"
// at byte 344 with sizeof_hdr 348, or "n+2" at byte 4 with sizeof_hdr 540). Never throws;
// never blocks (a FIFO is not opened).
bool looksLikeNifti(const std::filesystem::path& path);

// "volume 2 of 3 (t = 6 s)" for a file of several volumes; "" for a single volume.
std::string niftiVolumeLabel(const NiftiHeader& header, std::uint64_t volumeIndex);

// How many of header.volumeCount volumes the data file of path can hold (see the contract).
std::uint64_t niftiVolumesInFile(const std::filesystem::path& path, const NiftiHeader& header);

// Reads volume volumeIndex (0-based, along dim[4]) of a .nii, .nii.gz or .hdr(.gz) file.
Volume readNifti(const std::filesystem::path& path, std::uint64_t volumeIndex = 0,
                 LoadMonitor* monitor = nullptr);

} // namespace isoview::io
