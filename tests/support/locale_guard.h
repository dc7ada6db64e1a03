// Global locales for the tests that check a writer's text is locale-independent (header-only,
// no GL). GlobalLocaleGuard puts the C and C++ global locales back however the test ends;
// useCommaDecimalGlobally() then switches both to German-style numbers ("1.234,5"). Not
// thread-safe: the global locale is process-wide, so use it only on the test's own thread.
//
// Example:
//   const isoview::test::GlobalLocaleGuard guard;
//   ASSERT_EQ(isoview::test::useCommaDecimalGlobally(), "1.234,5");
//   writePly(path, mesh, {}, {.encoding = PlyEncoding::Ascii}); // must still write "1234.5"
#pragma once

#include <clocale>
#include <locale>
#include <sstream>
#include <string>

namespace isoview::test {

// Restores the C and C++ global locales however the test ends.
class GlobalLocaleGuard {
public:
    GlobalLocaleGuard() : m_cpp(std::locale()), m_c(std::setlocale(LC_ALL, nullptr)) {}
    ~GlobalLocaleGuard()
    {
        std::locale::global(m_cpp);
        std::setlocale(LC_ALL, m_c.c_str());
    }
    GlobalLocaleGuard(const GlobalLocaleGuard&) = delete;
    GlobalLocaleGuard& operator=(const GlobalLocaleGuard&) = delete;

private:
    std::locale m_cpp;
    std::string m_c;
};

// German-style numbers without needing an installed locale.
class CommaDecimal : public std::numpunct<char> {
protected:
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
};

// The C locale as well, where de_DE.UTF-8 is installed; the C++ facet needs no installed
// locale. Returns how a fresh stream now prints 1234.5 ("1.234,5" when the comma is in
// effect), for the caller to assert before relying on it.
inline std::string useCommaDecimalGlobally()
{
    std::setlocale(LC_ALL, "de_DE.UTF-8");
    std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
    std::ostringstream probe;
    probe << 1234.5;
    return probe.str();
}

} // namespace isoview::test
