#include "io/dicom/dicom_common.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "io/volume_size_check.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdict.h>
#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmjpeg/djdecode.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/oflog/appender.h>
#include <dcmtk/oflog/logger.h>
#include <dcmtk/oflog/spi/logevent.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fmt/format.h>
#include <unistd.h>

namespace isoview::io::dicom {
namespace {

namespace fs = std::filesystem;

// DCMTK logs per file (odd lengths, private tags); isoview says what matters in its own words,
// so DCMTK's lines go to the io logger at debug level instead of DCMTK's console appender.
class DcmtkLogToSpdlog final : public dcmtk::log4cplus::Appender {
public:
    ~DcmtkLogToSpdlog() override { destructorImpl(); }
    void close() override {}

protected:
    void append(const dcmtk::log4cplus::spi::InternalLoggingEvent& event) override
    {
        log::get("io")->debug("dcmtk: {}", event.getMessage().c_str());
    }
};

struct DcmtkSetup {
    DcmtkSetup()
    {
        dcmtk::log4cplus::Logger root = dcmtk::log4cplus::Logger::getRoot();
        root.removeAllAppenders();
        root.addAppender(dcmtk::log4cplus::SharedAppenderPtr(new DcmtkLogToSpdlog));
        root.setLogLevel(dcmtk::log4cplus::WARN_LOG_LEVEL);
        DJDecoderRegistration::registerCodecs();
        DJLSDecoderRegistration::registerCodecs();
        DcmRLEDecoderRegistration::registerCodecs();
        dictionaryLoaded = dcmDataDict.isDictionaryLoaded();
    }
    ~DcmtkSetup()
    {
        DcmRLEDecoderRegistration::cleanup();
        DJLSDecoderRegistration::cleanup();
        DJDecoderRegistration::cleanup();
    }
    DcmtkSetup(const DcmtkSetup&) = delete;
    DcmtkSetup& operator=(const DcmtkSetup&) = delete;

    bool dictionaryLoaded = false;
};

} // namespace

void ensureDcmtk()
{
    static const DcmtkSetup setup; // thread-safe one-time initialisation
    if (!setup.dictionaryLoaded) {
        throw IoError("DCMTK's DICOM data dictionary is not available (install DCMTK's dicom.dic "
                      "or set DCMDICTPATH); implicit VR files cannot be read without it");
    }
}

std::string quoted(const fs::path& path)
{
    return detail::quotedPath(path);
}

std::string trim(std::string text)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c) && c != '\0'; };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    return text;
}

std::string mm(double value)
{
    return fmt::format("{:.6g} mm", value);
}

std::vector<std::uint8_t> readFileBytes(const fs::path& path, std::uint64_t maxBytes)
{
    const InputFile file = InputFile::open(path, quoted(path));
    std::vector<std::uint8_t> bytes(
        static_cast<std::size_t>(std::min<std::uint64_t>(maxBytes, file.size())));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t got =
            ::pread(file.fd(), bytes.data() + done, bytes.size() - done, off_t(done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw IoError("cannot read " + quoted(path) + ": " + detail::systemReason(errno));
        if (got == 0) break; // shorter than it was a moment ago
        done += std::size_t(got);
    }
    bytes.resize(done);
    return bytes;
}

} // namespace isoview::io::dicom
