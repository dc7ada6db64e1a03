// Numbers as the viewer shows them: counts with the locale's digit grouping ("2,479,830"),
// values in six significant digits ("-400", "0.35").
//
// Thread: any.
#pragma once

#include <QString>
#include <cstdint>

namespace isoview::app {

QString formatCount(std::uint64_t n);
QString formatValue(double v);

} // namespace isoview::app
