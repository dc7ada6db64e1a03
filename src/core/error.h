// isoview's error family. Loaders and GL setup throw these; the per-frame path never throws.
// Every message is written for a person: it says what failed and, where it helps, the limit
// or value involved.
#pragma once

#include <stdexcept>
#include <string>

namespace isoview {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A file could not be read, parsed or written (names the path and the reason).
class IoError : public Error {
public:
    using Error::Error;
};

// The input is well-formed but cannot be processed (absurd dimensions, unsupported type).
class InvalidInputError : public Error {
public:
    using Error::Error;
};

// Work stopped because the caller asked it to (a cancelled load). Not a failure to report.
class CancelledError : public Error {
public:
    using Error::Error;
};

// The OpenGL context is missing, too old, or a resource exceeds a GL limit.
class GlError : public Error {
public:
    using Error::Error;
};

// A shader failed to compile or link; the message carries the file name and the driver log.
class ShaderError : public GlError {
public:
    using GlError::GlError;
};

} // namespace isoview
