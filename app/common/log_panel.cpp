#include "common/log_panel.h"

#include "core/log.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>

#include <QDir>
#include <QMetaObject>
#include <QPointer>
#include <QStandardPaths>
#include <mutex>

namespace isoview::app {
namespace {

// Formats each record on the logging thread and posts it to the panel's thread.
class PanelSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit PanelSink(LogPanel* panel) : m_panel(panel) {}

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override
    {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        QString line = QString::fromUtf8(formatted.data(), qsizetype(formatted.size())).trimmed();
        const int level = int(msg.level);
        QPointer<LogPanel> panel = m_panel;
        if (!panel) return;
        QMetaObject::invokeMethod(
            panel.data(),
            [panel, line, level] {
                if (panel) panel->appendLine(line, level);
            },
            Qt::QueuedConnection);
    }
    void flush_() override {}

private:
    QPointer<LogPanel> m_panel;
};

QString& logFileStorage()
{
    static QString path;
    return path;
}

} // namespace

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(kMaxLines);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setObjectName("logPanel");
    QFont mono("monospace");
    mono.setStyleHint(QFont::TypeWriter);
    setFont(mono);
}

void LogPanel::attachToEngineLog()
{
    auto sink = std::make_shared<PanelSink>(this);
    sink->set_pattern("%H:%M:%S.%e %n %l: %v");
    log::addSink(sink);
}

void LogPanel::appendLine(const QString& line, int level)
{
    if (level >= int(spdlog::level::err))
        appendHtml(
            QStringLiteral("<span style='color:#d04040'>%1</span>").arg(line.toHtmlEscaped()));
    else if (level == int(spdlog::level::warn))
        appendHtml(
            QStringLiteral("<span style='color:#c08000'>%1</span>").arg(line.toHtmlEscaped()));
    else
        appendPlainText(line);
}

QString startLogFile()
{
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/logs";
    if (!QDir().mkpath(folder)) return {};
    QString path = folder + "/isoview.log";
    try {
        // 5 MB per file, 3 files: enough to hold a session, never fills a disk.
        auto sink = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(path.toStdString(),
                                                                           5 * 1024 * 1024, 3);
        sink->set_pattern("%Y-%m-%d %H:%M:%S.%e [%n] %l: %v");
        log::addSink(sink);
        logFileStorage() = path;
    } catch (const spdlog::spdlog_ex&) {
        return {};
    }
    return path;
}

QString logFilePath()
{
    return logFileStorage();
}

} // namespace isoview::app
