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

bool isPrintableText(const std::string& text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && c != '\n' && c != '\t') {
            return false;
        }
    }
    return true;
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
