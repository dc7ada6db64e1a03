// Asks where and how to export the surface: file (format follows the extension or the format
// box), coordinates (patient LPS or RAS millimetres, or voxel indices), PLY encoding, normals
// and vertex colour. The choices are remembered (QSettings group "export").
#pragma once

#include "mesh_export/mesh_export.h"

#include <QDialog>
#include <QString>
#include <optional>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace isoview::app {

class MeshExportDialog : public QDialog {
    Q_OBJECT
public:
    // folder: where the file goes by default; baseName: the file name without extension;
    // patientSpace: whether the volume has patient coordinates (DICOM) to offer LPS/RAS names.
    MeshExportDialog(const QString& folder, const QString& baseName, bool patientSpace,
                     QWidget* parent = nullptr);

    QString path() const;
    // The options chosen (progress callback and colour left for the caller).
    MeshExportOptions options() const;
    bool withVertexColor() const;

    struct Choice {
        QString path;
        MeshExportOptions options;
        bool vertexColor = false;
    };
    static std::optional<Choice> ask(const QString& folder, const QString& baseName,
                                     bool patientSpace, QWidget* parent);

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
};

} // namespace isoview::app
