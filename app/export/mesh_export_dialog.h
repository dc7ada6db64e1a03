// Asks where and how to export the surface: file (format follows the extension or the format
// box), coordinates (patient LPS or RAS millimetres, or voxel indices), PLY encoding, normals
// and vertex colour, and the print preparation (print_preparation.h: closing at the border,
// pieces, smoothing, decimation). A label estimates the triangles and file size the choices
// give. The choices are remembered (QSettings group "export"); the print steps are the group
// File > Export All Surfaces shows too (print_steps_box.h).
#pragma once

#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"

#include <QDialog>
#include <QString>
#include <cstdint>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace isoview::app {

class PrintStepsBox;

class MeshExportDialog : public QDialog {
    Q_OBJECT
public:
    // folder: where the file goes by default; baseName: the file name without extension;
    // patientSpace: whether the volume has patient coordinates (DICOM) to offer LPS/RAS names;
    // triangles: of the surface on screen, for the estimate (0: not known).
    MeshExportDialog(const QString& folder, const QString& baseName, bool patientSpace,
                     std::uint64_t triangles, QWidget* parent = nullptr);

    QString path() const;
    // The options chosen (progress callback and colour left for the caller).
    MeshExportOptions options() const;
    bool withVertexColor() const;
    PrintSteps steps() const;
    // "About 123,456 triangles, about 6.1 MB" for the current choices.
    QString estimate() const;

    struct Choice {
        QString path;
        MeshExportOptions options;
        bool vertexColor = false;
        PrintSteps steps;
    };
    static std::optional<Choice> ask(const QString& folder, const QString& baseName,
                                     bool patientSpace, std::uint64_t triangles, QWidget* parent);

private:
    void browse();
    void syncExtension();
    void updateEnabled();
    void remember() const;

    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QComboBox* m_space = nullptr;
    QCheckBox* m_ascii = nullptr;
    QCheckBox* m_normals = nullptr;
    QCheckBox* m_color = nullptr;

    std::uint64_t m_triangles = 0;
    PrintStepsBox* m_steps = nullptr;
    QLabel* m_estimate = nullptr;
};

// Bytes of a file of `triangles` triangles in this format, roughly (V ~ T/2 vertices on a
// closed surface); what the dialog's estimate shows.
std::uint64_t estimateMeshFileBytes(std::uint64_t triangles, const MeshExportOptions& options,
                                    bool vertexColor);

} // namespace isoview::app
