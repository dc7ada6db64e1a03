#include "scene/versioned_json.h"

namespace isoview::json {

std::string withoutExceptionTag(const char* what)
{
    std::string message = what;
    if (message.rfind("[json.exception.", 0) == 0) {
        const std::size_t end = message.find("] ");
        if (end != std::string::npos) message.erase(0, end + 2);
    }
    return message;
}

} // namespace isoview::json
