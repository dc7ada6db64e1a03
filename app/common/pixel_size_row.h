// The width and height of a picture in pixels, as the size dialogs ask them (screenshots,
// movies): two spin boxes ("1920 px") side by side as "W x H".
//
// Thread: GUI only.
#pragma once

class QHBoxLayout;
class QSpinBox;
class QWidget;

namespace isoview::app {

struct PixelSizeRow {
    QSpinBox* width = nullptr;
    QSpinBox* height = nullptr;
    QHBoxLayout* row = nullptr; // for the dialog's layout to take
};

// Spin boxes from least to most pixels in steps of step, children of parent, named
// `<name>Width` and `<name>Height` (what the tests find them by).
PixelSizeRow makePixelSizeRow(QWidget* parent, const char* name, int least, int most, int step = 1);

} // namespace isoview::app
