// Asks how to read a raw (headerless) volume file whose name does not carry its layout:
// dimensions, scalar type, byte order, voxel spacing and a header to skip. Given a folder, it
// asks the same for a folder of per-slice files (name.1 .. name.N, io::findRawSliceSeries):
// the depth is then the file count and the sizes are checked against each file.
//
// A preview shows the middle slice as the values shown decode it (grey from its own minimum to
// maximum), read again on every change that keeps the size matching: one slice only, so it is
// cheap, and a wrong byte order or width is visible at once (noise, or sheared rows).
//
// The byte count the answers describe (W x H x D x type size + header) is checked against the
// file's size on every keystroke, and the status line says whether they match and by how many
// bytes they differ. Open is enabled only on an exact match, which is what
// io::readRawVolume demands, so an accepted dialog never leads to a size error. A "Guess"
// button proposes dimensions from the file size for the chosen type (a cube, or square slices
// 512, 256 or 128 wide). The parameters last accepted are remembered (QSettings group
// "rawImport") and proposed the next time.
//
// Contract: GUI thread only. The file's size (a folder's slice files) is read once, at
// construction; of its bytes only the preview slice is read, through io::readRawSlice. Nothing is
// thrown: a file whose size cannot be read leaves Open disabled and says so. Limits of the spin
// boxes: dimensions 1 .. 100,000, header offset below 2 GiB; within them the byte count cannot
// overflow 64 bits.
//
// Example:
//   if (std::optional<io::RawVolumeParameters> p = RawImportDialog::ask(path, this, {}))
//       startLoad(path, {.raw = *p});
#pragma once

#include "io/raw_volume_reader.h"
#include "io/volume_loader.h"

#include <glm/glm.hpp>

#include <QDialog>
#include <QImage>
#include <QString>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace isoview::app {

// Dimensions that hold exactly dataBytes bytes of values of typeSize bytes each: a cube n^3
// first, then w x w x d slices for w = 512, 256, 128 (in that order). nullopt when none fits.
std::optional<glm::uvec3> guessRawDimensions(std::uint64_t dataBytes, std::size_t typeSize);

class RawImportDialog : public QDialog {
    Q_OBJECT
public:
    // Starts from the parameters last accepted (or 256 x 256 x 1 uint8, spacing 1 mm); when
    // those do not fit the file, a guess for their type is applied.
    explicit RawImportDialog(const QString& path, QWidget* parent = nullptr);

    // Shows the given parameters (values beyond the spin boxes' ranges are clamped).
    void setParameters(const io::RawVolumeParameters& parameters);
    io::RawVolumeParameters parameters() const;

    // The file's size in bytes (folder mode: each slice file's); nullopt when it cannot be read.
    std::optional<std::uint64_t> fileSize() const { return m_fileSize; }
    // Folder mode: the path is a folder of slice files, this many (the depth).
    bool isFolderMode() const { return m_folderMode; }
    std::size_t sliceFileCount() const { return m_sliceFiles.size(); }
    // Header offset + W x H x D x type size for the values shown (folder mode: W x H, per file).
    std::uint64_t expectedSize() const;
    // The preview of the middle slice for the values shown (Format_Grayscale8, one pixel per
    // voxel); null when the sizes do not match or the slice cannot be read.
    const QImage& previewImage() const { return m_preview; }
    // Shows proposed parameters with a note saying where they come from.
    void proposeParameters(const io::RawVolumeParameters& parameters, const QString& note);
    // True when the file size is known and equals expectedSize(); Open is enabled exactly then.
    bool sizeMatches() const;

    // Applies guessRawDimensions() to the file size minus the header, for the chosen type.
    // Returns whether a guess was found; either way the note under the status line says so.
    bool applyGuess();

    // Accepts only when the size matches, and remembers the parameters.
    void accept() override;

    // Runs the dialog modally; initial (when given) replaces the remembered parameters.
    // Returns the parameters when the user pressed Open.
    static std::optional<io::RawVolumeParameters>
    ask(const QString& path, QWidget* parent,
        const std::optional<io::RawVolumeParameters>& initial);
    // The same for an opened source: its rawGuess replaces the remembered parameters when it
    // comes from the name, or when the remembered ones do not fit; the note says which.
    static std::optional<io::RawVolumeParameters> ask(const io::VolumeSource& source,
                                                      QWidget* parent);

private:
    void updateStatus();
    void updatePreview(bool sizeOk);
    void fillHeaderFromRemainder();
    void remember() const;
    static io::RawVolumeParameters remembered();

    QString m_path;
    bool m_folderMode = false;
    std::vector<std::filesystem::path> m_sliceFiles; // folder mode, in slice order
    std::optional<std::uint64_t> m_fileSize;
    QImage m_preview;
    QLabel* m_previewLabel = nullptr;
    QLabel* m_previewCaption = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_depth = nullptr;
    QComboBox* m_type = nullptr;
    QComboBox* m_byteOrder = nullptr;
    QDoubleSpinBox* m_spacingX = nullptr;
    QDoubleSpinBox* m_spacingY = nullptr;
    QDoubleSpinBox* m_spacingZ = nullptr;
    QSpinBox* m_headerOffset = nullptr;
    QPushButton* m_remainderButton = nullptr;
    QLabel* m_statusIcon = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_guessNote = nullptr;
    QPushButton* m_openButton = nullptr;
};

} // namespace isoview::app
