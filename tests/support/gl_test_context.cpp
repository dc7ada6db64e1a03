#include "support/gl_test_context.h"

#include <memory>

namespace isoview::test {

gpu::HeadlessContext& glContext()
{
    // Deliberately never destroyed: it must outlive every GL object of every test.
    static gpu::HeadlessContext* context = new gpu::HeadlessContext();
    return *context;
}

void GlTest::SetUp()
{
    ASSERT_NO_THROW(glContext()) << "GL tests need a headless OpenGL 3.3+ context (EGL)";
}

void GlPathTest::SetUp()
{
    ASSERT_NO_THROW(glContext()) << "GL tests need a headless OpenGL 3.3+ context (EGL)";
}

std::string glPathName(const ::testing::TestParamInfo<bool>& info)
{
    return info.param ? "gl33" : "gl4x";
}

} // namespace isoview::test
