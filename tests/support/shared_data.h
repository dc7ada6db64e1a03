// Access to the real volumes in the shared test data folder (CMake cache variable
// ISOVIEW_SHARED_DATA_DIR, by default ../shared/data beside the checkout; the environment variable
// of the same name overrides it, for binaries carried elsewhere). A missing file is a
// test failure that names the variable, never a skip.
#pragma once

#include "volume/volume.h"

#include <filesystem>
#include <string_view>

namespace isoview::test {

// The absolute path of a file under the shared data folder; fails the current test (and
// throws) when it does not exist.
std::filesystem::path sharedDataPath(std::string_view relative);

// A raw volume named by the name_XxYxZ_type.raw convention, under the shared data folder.
Volume loadSharedRaw(std::string_view relative);

// The CThead study: 113 headerless big-endian 16-bit slices, CThead.1 .. CThead.113, read as
// int16 with spacing 1:1:2 (the data README gives the aspect, not millimetres).
Volume loadCtHead();

// The bundled sample shipped in resources/samples/.
Volume loadBundledSample();

} // namespace isoview::test
