// Where a slice view's header texts go: the orientation name and slice number at the top left,
// the anatomical letter at the top centre and the window/level at the top right, on one line
// when they fit; in a narrow view (the 1 x 3 layout) the slice number and then the window wrap
// to lines of their own, and a text wider than its room is elided, so no two texts overlap at
// any width. The bottom line likewise: the cursor's readout beside the bottom letter, or on the
// line above it when the two would meet. Pure layout from font metrics: the view paints what
// this returns, and tests check the rectangles.
#pragma once

#include <QFontMetrics>
#include <QRect>
#include <QString>
#include <vector>

namespace isoview::app {

struct SliceHeaderItem {
    QString text; // as drawn (elided where needed)
    QRect rect;   // the text's box in widget pixels (advance x font height)
};

struct SliceHeaderTexts {
    QString orientation; // "Axial"
    QString slice;       // "12/85"
    QString letter;      // "A", or empty without patient space
    QString window;      // "W 400.0 L 40.0"
};

// Lays the texts out inside `area` (the view's rectangle less its text margins). The letter, when
// not empty, is always the first item; empty texts give no item. Cheap: a few font measures.
std::vector<SliceHeaderItem> layoutSliceHeader(const QFontMetrics& metrics, const QRect& area,
                                               const SliceHeaderTexts& texts);

// Lays out the bottom of `area`: the letter (when not empty, the first item) at the bottom
// centre and the readout at the left, on the bottom line when it ends a gap before the letter,
// else on the line above, elided to the area's width. An empty readout gives no item.
std::vector<SliceHeaderItem> layoutSliceFooter(const QFontMetrics& metrics, const QRect& area,
                                               const QString& letter, const QString& readout);

} // namespace isoview::app
