// File > Save Screenshot's options: the size of the picture (the 3D view as shown, Full HD,
// 4K UHD or any width and height up to the GPU's limit, rendered off screen) and whether its
// background is transparent. The last choice is remembered (QSettings "screenshot/...").
//
// Thread: GUI only.
#pragma once

#include <QDialog>
#include <QSize>
#include <optional>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace isoview::app {

struct ScreenshotOptions {
    // None: the 3D view as shown, with its overlays (axis letters, hints); else this many
    // pixels rendered off screen, the scene alone.
    std::optional<QSize> size;
    bool transparent = false; // implies an off-screen picture (of the view's size without one)
};

class ScreenshotDialog : public QDialog {
    Q_OBJECT
public:
    // The widest and tallest picture offered (llvmpipe's and most GPUs' texture limit).
    static constexpr int kMaxSide = 16384;

    // viewSize: the 3D view's size in device pixels, offered as "as shown".
    ScreenshotDialog(QSize viewSize, QWidget* parent = nullptr);

    ScreenshotOptions options() const;

    // Remembers the choice for the next dialog (called on accept).
    void accept() override;

private:
    void onPresetChanged(int index);

    QSize m_viewSize;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QCheckBox* m_transparent = nullptr;
};

} // namespace isoview::app
