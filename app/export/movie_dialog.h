// File > Export Movie's options: what moves (a turn of the view, an isovalue sweep between two
// values, the slice plane facing the view through the volume, a series' time points), how many
// frames at what rate, and the frames' size, independent of the window's (HD, Full HD, 4K UHD or
// any even size). The file and its kind (MP4 or numbered PNGs) are asked next, by the file dialog.
// The last choices are remembered (QSettings "movie/...").
//
// Thread: GUI only.
#pragma once

#include "scene/movie_animation.h"

#include <QDialog>
#include <QSize>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace isoview::app {

struct MovieOptions {
    MovieAnimation animation;
    double framesPerSecond = 30.0;
    QSize size;
};

class MovieDialog : public QDialog {
    Q_OBJECT
public:
    // isovalue: the live surface's (real units), where a sweep starts by default; the sweep's
    // bounds are kept within [lowest, highest], the volume's real range. timePoints: the
    // scene's (Scene::timePointCount); with fewer than 2, time cannot be chosen.
    MovieDialog(double isovalue, double lowest, double highest, std::size_t timePoints = 1,
                QWidget* parent = nullptr);

    MovieOptions options() const;

    // Remembers the choice for the next dialog (called on accept).
    void accept() override;

private:
    void onAnimationChanged();
    void onPresetChanged(int index);

    QComboBox* m_animation = nullptr;
    QDoubleSpinBox* m_isoFrom = nullptr;
    QDoubleSpinBox* m_isoTo = nullptr;
    QSpinBox* m_frames = nullptr;
    QSpinBox* m_fps = nullptr;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QLabel* m_duration = nullptr;
};

} // namespace isoview::app
