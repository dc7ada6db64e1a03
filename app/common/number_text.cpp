#include "common/number_text.h"

#include <QLocale>

namespace isoview::app {

QString formatCount(std::uint64_t n)
{
    return QLocale().toString(qulonglong(n));
}

QString formatValue(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace isoview::app
