#include "views/slice_header.h"

#include <algorithm>

namespace isoview::app {

namespace {

// The box of `text` elided to `room` pixels, its left edge at x on line `line` of `area`.
SliceHeaderItem place(const QFontMetrics& metrics, const QRect& area, const QString& text, int room,
                      int x, int line)
{
    const QString shown = metrics.elidedText(text, Qt::ElideRight, std::max(room, 0));
    const int width = metrics.horizontalAdvance(shown);
    return {shown, QRect(x, area.top() + line * metrics.height(), width, metrics.height())};
}

} // namespace

std::vector<SliceHeaderItem> layoutSliceHeader(const QFontMetrics& metrics, const QRect& area,
                                               const SliceHeaderTexts& texts)
{
    std::vector<SliceHeaderItem> items;
    const int gap = metrics.horizontalAdvance(QStringLiteral("  "));
    const int left = area.left();
    const int right = area.left() + area.width(); // one past the last pixel
    // The letter at the top centre; the texts beside it on the first line keep a gap from it.
    int leftRoom = area.width();
    int rightStart = left;
    if (!texts.letter.isEmpty()) {
        const int width = metrics.horizontalAdvance(texts.letter);
        const int x = left + (area.width() - width) / 2;
        items.push_back({texts.letter, QRect(x, area.top(), width, metrics.height())});
        leftRoom = x - gap - left;
        rightStart = x + width + gap;
    }
    const QString title = texts.slice.isEmpty()
                              ? texts.orientation
                              : texts.orientation + QStringLiteral("  ") + texts.slice;
    const int titleWidth = metrics.horizontalAdvance(title);
    const int windowWidth = metrics.horizontalAdvance(texts.window);
    const bool oneLine = texts.letter.isEmpty()
                             ? titleWidth + gap + windowWidth <= area.width()
                             : titleWidth <= leftRoom && windowWidth <= right - rightStart;
    const auto add = [&](const QString& text, int room, int x, int line) {
        if (!text.isEmpty()) items.push_back(place(metrics, area, text, room, x, line));
    };
    const auto addRight = [&](const QString& text, int line) {
        if (text.isEmpty()) return;
        SliceHeaderItem item = place(metrics, area, text, area.width(), left, line);
        item.rect.moveRight(right - 1);
        items.push_back(item);
    };
    if (oneLine) {
        add(title, area.width(), left, 0); // fits: elidedText's fractional widths must not cut it
        addRight(texts.window, 0);
        return items;
    }
    // Narrow: the name beside the letter; the slice number and the window below, side by side
    // when they fit, else one line each.
    add(texts.orientation, leftRoom, left, 0);
    const int sliceWidth = metrics.horizontalAdvance(texts.slice);
    if (sliceWidth + gap + windowWidth <= area.width()) {
        add(texts.slice, area.width(), left, 1); // fits: its own width elided it to "…"
        addRight(texts.window, 1);
    } else {
        add(texts.slice, area.width(), left, 1);
        addRight(texts.window, texts.slice.isEmpty() ? 1 : 2);
    }
    return items;
}

std::vector<SliceHeaderItem> layoutSliceFooter(const QFontMetrics& metrics, const QRect& area,
                                               const QString& letter, const QString& readout)
{
    std::vector<SliceHeaderItem> items;
    const int bottomLine = area.top() + area.height() - metrics.height();
    int room = area.width(); // for the readout on the bottom line
    if (!letter.isEmpty()) {
        const int width = metrics.horizontalAdvance(letter);
        const int x = area.left() + (area.width() - width) / 2;
        items.push_back({letter, QRect(x, bottomLine, width, metrics.height())});
        room = x - metrics.horizontalAdvance(QStringLiteral("  ")) - area.left();
    }
    if (readout.isEmpty()) return items;
    const bool beside = metrics.horizontalAdvance(readout) <= room;
    const QString shown =
        beside ? readout : metrics.elidedText(readout, Qt::ElideRight, std::max(area.width(), 0));
    const int y = beside || letter.isEmpty() ? bottomLine : bottomLine - metrics.height();
    items.push_back(
        {shown, QRect(area.left(), y, metrics.horizontalAdvance(shown), metrics.height())});
    return items;
}

} // namespace isoview::app
