// Entry point of the GUI tests: gtest, with one QApplication for the whole run. The application
// is created by a test environment, so that listing the tests (gtest_discover_tests at build
// time) needs no display; running them needs one (Xvfb in CI: packaging/build-and-test.sh runs
// ctest under xvfb-run) and a missing display fails loudly.
#include "app_test_support.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <cstdlib>
#include <memory>

namespace {

int g_argc = 1;
char g_arg0[] = "isoview_app_tests";
char* g_argv[] = {g_arg0, nullptr};

class QtApplicationEnvironment : public ::testing::Environment {
public:
    void SetUp() override
    {
        isoview::app::test::setUpApplicationDefaults();
        m_app = std::make_unique<QApplication>(g_argc, g_argv);
    }
    void TearDown() override { m_app.reset(); }

private:
    std::unique_ptr<QApplication> m_app;
};

} // namespace

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new QtApplicationEnvironment);
    return RUN_ALL_TESTS();
}
