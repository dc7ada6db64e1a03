// The headless OpenGL context GL tests run on (Mesa llvmpipe on machines without a GPU). It is
// created once per test process; failing to create it fails the test loudly, never skips it.
#pragma once

#include "gpu/headless_context.h"

#include <gtest/gtest.h>

namespace isoview::test {

// The process's context, created (and made current) on first call. Throws GlError if none can
// be made.
gpu::HeadlessContext& glContext();

// Fixture for GL tests: makes sure the context exists before the test body runs.
class GlTest : public ::testing::Test {
protected:
    void SetUp() override;
};

// Parameterised fixture variant: the parameter says whether the engine is limited to GL 3.3.
class GlPathTest : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override;
    bool limitToGl33() const { return GetParam(); }
};

std::string glPathName(const ::testing::TestParamInfo<bool>& info);

} // namespace isoview::test
