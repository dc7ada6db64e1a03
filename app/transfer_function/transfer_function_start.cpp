#include "transfer_function/transfer_function_start.h"

#include "core/error.h"

#include <QAction>
#include <QSettings>

namespace isoview::app {
namespace {

constexpr const char* kKeepKey = "transferFunction/keep";

} // namespace

TransferFunctionStart::TransferFunctionStart(QObject* parent) : QObject(parent)
{
    m_keep = new QAction(tr("&Keep Transfer Function for New Volumes"), this);
    m_keep->setObjectName("keepTransferFunctionAction");
    m_keep->setCheckable(true);
    m_keep->setStatusTip(tr("Open the next volume with the transfer function shown now instead "
                            "of its modality's default (same units only)"));
    m_keep->setChecked(QSettings().value(kKeepKey, false).toBool());
    connect(m_keep, &QAction::toggled, this, [](bool on) { QSettings().setValue(kKeepKey, on); });
}

bool TransferFunctionStart::keeps() const
{
    return m_keep->isChecked();
}

TransferFunction TransferFunctionStart::forVolume(const Volume& volume, const QString& units,
                                                  const std::optional<TransferFunction>& current,
                                                  const QString& currentUnits) const
{
    if (keeps()) {
        if (current && current->size() > 0 && currentUnits == units) return *current;
        if (!current) {
            const QSettings s;
            if (s.value("transferFunction/lastUnits").toString() == units) {
                try {
                    TransferFunction saved = transferFunctionFromJson(
                        s.value("transferFunction/last").toString().toStdString());
                    if (saved.size() > 0) return saved;
                } catch (const Error&) {
                    // A damaged saved function: the default, as for a first run.
                }
            }
        }
    }
    return defaultTransferFunction(volume);
}

} // namespace isoview::app
