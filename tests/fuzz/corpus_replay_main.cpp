// Runs a libFuzzer target without libFuzzer, so that every ctest run exercises it on its seed
// corpus: each file whole, cut at every length, and with each byte in turn replaced by 0xFF
// (deterministic damage where parsers read counts and lengths). Linked with one fuzz_*.cpp in
// place of -fsanitize=fuzzer; a crash, a sanitizer report or an escaping exception fails the
// test, as it would be a finding of the fuzzer.
//
// Usage: replay_<target> CORPUS_FOLDER
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_FOLDER\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
        if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "no corpus files in %s\n", argv[1]);
        return 1;
    }
    std::size_t runs = 0;
    for (const std::filesystem::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
        for (std::size_t size = 0; size <= bytes.size(); ++size) {
            // A copy of exactly `size` bytes, so that reading past the end is caught.
            const std::vector<std::uint8_t> cut(bytes.begin(),
                                                bytes.begin() + std::ptrdiff_t(size));
            LLVMFuzzerTestOneInput(cut.data(), cut.size());
            ++runs;
        }
        std::vector<std::uint8_t> damaged = bytes;
        for (std::size_t at = 0; at < damaged.size(); ++at) {
            const std::uint8_t kept = damaged[at];
            damaged[at] = 0xFF;
            LLVMFuzzerTestOneInput(damaged.data(), damaged.size());
            damaged[at] = kept;
            ++runs;
        }
    }
    std::printf("%zu inputs from %zu corpus files, no finding\n", runs, files.size());
    return 0;
}
