#include "core/session/session.h"

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/format.h"
#include "core/session/session_fields.h"
#include "core/session/session_paths.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace cx {

namespace {

constexpr std::uintmax_t kMaxSessionBytes = 64u << 20; // a session is a few kB; refuse junk

std::filesystem::path absoluteOf(const std::filesystem::path& path) {
    if (path.empty()) {
        return {};
    }
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(path, error);
    return (error ? path : absolute).lexically_normal();
}

/// "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error …" →
/// "syntax error … (column 5)": the file and line are put in front by the caller.
std::string parseProblem(const nlohmann::json::parse_error& error) {
    const std::string what = error.what();
    const size_t column = what.find("column ");
    const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    std::string problem = colon == std::string::npos ? what : what.substr(colon + 2);
    if (column != std::string::npos) {
        const size_t end = what.find(':', column);
        problem += " (" + what.substr(column, end - column) + ")";
    }
    return "not valid JSON: " + printableAscii(problem);
}

std::int64_t lineOfByte(std::string_view text, size_t byte) {
    const size_t end = std::min(text.size(), byte > 0 ? byte - 1 : 0);
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n');
}

} // namespace

std::filesystem::path Session::directory() const {
    if (file.empty()) {
        return absoluteOf(std::filesystem::current_path());
    }
    return absoluteOf(file).parent_path();
}

void Session::setSection(const std::string& key, SessionJson section) {
    workspaces[key] = std::move(section);
}

void migrateSession(SessionJson& document, int fromVersion, const std::filesystem::path& file) {
    if (fromVersion == 0) {
        // A pre-session analysis descriptor: the whole object describes one workspace, with
        // plain relative paths. Move its keys into that workspace's section.
        SessionJson session = SessionJson::object();
        session["format"] = Session::kFormat;
        session["version"] = 1;
        if (document.contains("title")) {
            session["title"] = document["title"];
        }
        SessionJson section = SessionJson::object();
        std::string key;
        if (document.contains("tracks")) {
            key = "chromatin";
            section["tracks"] = SessionJson::array();
            for (const auto& track : document["tracks"]) {
                section["tracks"].push_back(SessionJson{{"path", track}});
            }
            if (document.contains("annotations")) {
                section["annotations"] = document["annotations"];
            }
            SessionJson model = SessionJson::object();
            for (const char* name : {"k", "gamma", "seed", "encoding", "decode"}) {
                if (document.contains(name)) {
                    model[name] = document[name];
                }
            }
            section["model"] = model;
            if (document.contains("region")) {
                section["view"] = SessionJson{{"region", document["region"]}};
            }
        } else if (document.contains("corpus")) {
            key = "topics";
            section["corpus"] = SessionJson::array({SessionJson{{"path", document["corpus"]}}});
            SessionJson reader = SessionJson::object();
            for (const char* name : {"format", "min_df", "max_df", "drop_numbers"}) {
                if (document.contains(name)) {
                    reader[name] = document[name];
                }
            }
            section["reader"] = reader;
            for (const char* name : {"foreground", "background"}) {
                if (document.contains(name)) {
                    section[name] = document[name];
                }
            }
            SessionJson model = SessionJson::object();
            for (const char* name : {"k", "gamma", "seed"}) {
                if (document.contains(name)) {
                    model[name] = document[name];
                }
            }
            section["model"] = model;
            if (document.contains("positive")) {
                section["auc"] = SessionJson{{"positive", document["positive"]}};
            }
        } else {
            throw InputError(file.string(), 0,
                             "not a Contrast Explorer session (no \"format\": \"" +
                                 std::string(Session::kFormat) + "\")");
        }
        session["active"] = key;
        session["workspaces"] = SessionJson{{key, section}};
        document = std::move(session);
        fromVersion = 1;
    }
    // Future versions: one step per version here (1 → 2, …), each rewriting `document`.
    if (fromVersion != Session::kVersion) {
        throw InputError(file.string(), 0,
                         "/version: cannot migrate from version " + std::to_string(fromVersion));
    }
}

Session parseSession(std::string_view text, const std::filesystem::path& file) {
    const std::string name = file.string();
    SessionJson document;
    try {
        document = SessionJson::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& error) {
        throw InputError(name, lineOfByte(text, error.byte), parseProblem(error));
    } catch (const nlohmann::json::exception& error) {
        // Not a syntax error but a value the parser cannot hold (a number beyond double range:
        // out_of_range.406). nlohmann gives no position for these.
        const std::string what = error.what();
        const size_t bracket = what.find("] ");
        throw InputError(name, 0,
                         "not valid JSON: " + printableAscii(bracket == std::string::npos
                                                                 ? what
                                                                 : what.substr(bracket + 2)));
    }
    if (!document.is_object()) {
        throw InputError(name, 0, "/: expected a JSON object, got " + jsonTypeName(document));
    }
    int version = 0;
    const bool isSession = document.contains("format") && document["format"].is_string() &&
                           document["format"].get<std::string>() == Session::kFormat;
    if (isSession) {
        const SessionJson& value =
            document.contains("version") ? document["version"] : SessionJson();
        if (!value.is_number_integer() || value.get<std::int64_t>() < 1) {
            throw InputError(name, 0,
                             "/version: expected an integer ≥ 1, got " + jsonTypeName(value) +
                                 (value.is_null() ? "" : " " + value.dump()));
        }
        // Positive integers parse as unsigned: compare as unsigned so 2^63 is "newer" too.
        if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(Session::kVersion)) {
            throw InputError(name, 0,
                             "written by a newer Contrast Explorer (session version " +
                                 value.dump() + "; this one reads up to version " +
                                 std::to_string(Session::kVersion) + ")");
        }
        version = value.get<int>();
    } else if (document.contains("format") && !document.contains("corpus")) {
        throw InputError(name, 0,
                         "/format: expected \"" + std::string(Session::kFormat) + "\", got " +
                             document["format"].dump());
    }
    const int fileVersion = version;
    if (version < Session::kVersion) {
        migrateSession(document, version, file);
    }

    Session session;
    session.file = absoluteOf(file);
    session.fileVersion = fileVersion;
    const SessionFields fields(document, "", file);
    session.title = fields.string("title", "");
    session.active = fields.string("active", "");
    if (document.contains("workspaces")) {
        const SessionJson& workspaces = document["workspaces"];
        if (!workspaces.is_object()) {
            fields.fail("workspaces", "expected an object, got " + jsonTypeName(workspaces));
        }
        for (const auto& [key, section] : workspaces.items()) {
            if (!section.is_object()) {
                fields.object("workspaces")
                    .fail(key, "expected an object, got " + jsonTypeName(section));
            }
        }
        session.workspaces = workspaces;
    }
    if (!session.active.empty() && !session.workspaces.contains(session.active)) {
        fields.fail("active", "names no workspace of the session (\"" + session.active + "\")");
    }
    for (const auto& [key, value] : document.items()) {
        if (key != "format" && key != "version" && key != "title" && key != "active" &&
            key != "workspaces") {
            session.extra[key] = value;
        }
    }
    return session;
}

Session readSession(const std::filesystem::path& file) {
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
        throw InputError(file.string(), 0, "is a folder, not a session file");
    }
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    if (error) {
        throw InputError(file.string(), 0, "cannot read: " + error.message());
    }
    if (size > kMaxSessionBytes) {
        throw InputError(file.string(), 0,
                         "too large for a session (" + std::to_string(size) + " bytes)");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(file.string(), 0, "cannot read");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parseSession(text, file);
}

std::string serializeSession(const Session& session, const std::filesystem::path& target) {
    SessionJson document = SessionJson::object();
    document["format"] = Session::kFormat;
    document["version"] = Session::kVersion;
    if (!session.title.empty()) {
        document["title"] = session.title;
    }
    if (!session.active.empty()) {
        document["active"] = session.active;
    }
    SessionJson workspaces = session.workspaces;
    const std::filesystem::path targetDirectory = absoluteOf(target).parent_path();
    if (!session.file.empty() && targetDirectory != session.directory()) {
        rebaseDataPaths(workspaces, session.directory(), targetDirectory);
    }
    document["workspaces"] = std::move(workspaces);
    for (const auto& [key, value] : session.extra.items()) {
        document[key] = value;
    }
    return document.dump(2) + "\n";
}

void writeSession(Session& session, const std::filesystem::path& target) {
    const std::string text = serializeSession(session, target);
    writeFileAtomically(target, text);
    const std::filesystem::path targetDirectory = absoluteOf(target).parent_path();
    if (!session.file.empty() && targetDirectory != session.directory()) {
        rebaseDataPaths(session.workspaces, session.directory(), targetDirectory);
    }
    session.file = absoluteOf(target);
    session.fileVersion = Session::kVersion;
}

} // namespace cx
