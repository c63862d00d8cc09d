#pragma once

// Shared scaffolding of the libFuzzer targets (tests/fuzz/README.md). The readers take paths, so
// each input is written to a scratch file in a per-process folder; a parser may only answer
// with cx::InputError (a clear message for the user) — any other exception, crash, sanitizer
// report, hang or runaway allocation is a finding.

#include "core/common/error.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace cx::fuzz {

/// The scratch folder of this process (created on first use, emptied by the caller's files).
inline const std::filesystem::path& scratchDirectory() {
    static const std::filesystem::path dir = [] {
        auto path = std::filesystem::temp_directory_path() /
                    ("cx_fuzz_" + std::to_string(static_cast<long>(::getpid())));
        std::filesystem::create_directories(path);
        return path;
    }();
    return dir;
}

/// Writes `bytes` to scratchDirectory()/name (parents created) and returns the path.
inline std::string writeScratch(const std::string& name, std::string_view bytes) {
    const auto path = scratchDirectory() / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path.string();
}

/// Splits the input at NUL bytes into at most `maxParts` parts (the last one keeps any further
/// NULs), so one fuzz input can hold several files.
inline std::vector<std::string_view> splitParts(const std::uint8_t* data, size_t size,
                                                size_t maxParts) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> parts;
    while (parts.size() + 1 < maxParts) {
        const size_t nul = text.find('\0');
        if (nul == std::string_view::npos) {
            break;
        }
        parts.push_back(text.substr(0, nul));
        text.remove_prefix(nul + 1);
    }
    parts.push_back(text);
    return parts;
}

/// Runs `parse`; cx::InputError is the expected answer to bad input and is checked to name
/// something (a message is never empty). Everything else propagates to libFuzzer.
template <typename Fn> void expectOnlyInputErrors(Fn&& parse) {
    try {
        parse();
    } catch (const cx::InputError& error) {
        if (std::string_view(error.what()).empty()) {
            __builtin_trap();
        }
    }
}

} // namespace cx::fuzz
