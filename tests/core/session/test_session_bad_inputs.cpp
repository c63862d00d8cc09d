// The session files of the bad-input catalogue (tests/data/bad/session_*.cxproj): each is
// refused with an InputError that names the session file, in readable text.
#include "core/common/error.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"
#include "core/session/topics_section.h"

#include <gtest/gtest.h>

#include <string>

namespace cx {
namespace {

const std::string kBad = std::string(CX_TEST_DATA_DIR) + "/bad/";

/// Valid UTF-8 without control characters other than line breaks and tabs: what a dialog can
/// show (a file's raw bytes pasted into a message fail this).
bool isPrintableText(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) {
                return false;
            }
            ++i;
            continue;
        }
        const size_t length = byte >= 0xf0 && byte < 0xf5 ? 4
                              : byte >= 0xe0              ? 3
                              : byte >= 0xc2              ? 2
                                                          : 0;
        if (length == 0 || (byte >= 0xe0 && length == 2) || i + length > text.size()) {
            return false;
        }
        for (size_t k = 1; k < length; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) {
                return false;
            }
        }
        i += length;
    }
    return true;
}

TEST(PrintableText, RejectsRawBytesAndAcceptsUtf8) {
    EXPECT_TRUE(isPrintableText("file.cxproj:1: not valid JSON (column 1) \xe2\x80\xa6"));
    EXPECT_FALSE(isPrintableText("last read: '\xff'"));
    EXPECT_FALSE(isPrintableText("last read: '\x01'"));
    EXPECT_FALSE(isPrintableText("cut \xe2\x80"));
}

/// Reads the session and its topics section; returns the InputError's message ("" if none).
std::string openSession(const std::string& file) {
    try {
        const Session session = readSession(file);
        PathResolver resolver(session.file); // no handler: a moved file is an error
        if (session.hasSection(TopicsSection::kKey)) {
            TopicsSection::fromSession(session, resolver);
        }
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

struct BadSession {
    const char* file;
    const char* problem;
};

class BadSessionCatalogue : public ::testing::TestWithParam<BadSession> {};

TEST_P(BadSessionCatalogue, IsRefusedNamingTheFile) {
    const std::string file = kBad + GetParam().file;
    const std::string message = openSession(file);
    ASSERT_FALSE(message.empty()) << file << " was accepted";
    EXPECT_NE(message.find(GetParam().file), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().problem), std::string::npos) << message;
    EXPECT_TRUE(isPrintableText(message)) << message;
    EXPECT_LT(message.size(), 2000u) << message;
}

const BadSession kSessions[] = {
    {"session_not_json.cxproj", ":1:"},
    {"session_truncated.cxproj", ""},
    {"session_newer_version.cxproj", "99"},
    {"session_wrong_format.cxproj", "format"},
    {"session_moved_data.cxproj", "corpus.tsv"},
    {"session_workspaces_array.cxproj", "workspaces"},
    {"session_random_bytes.cxproj", ""},
    {"session_empty.cxproj", ""},
    {"session_number_overflow.cxproj", "number overflow"},
};

std::string sessionCaseName(const ::testing::TestParamInfo<BadSession>& info) {
    std::string name;
    for (const char c : std::string(info.param.file)) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Files, BadSessionCatalogue, ::testing::ValuesIn(kSessions),
                         sessionCaseName);

} // namespace
} // namespace cx
