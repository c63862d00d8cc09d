#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace cx {

/// The JSON value type of sessions: objects keep their keys in insertion order, so a saved
/// file reads top to bottom like the GUI and diffs cleanly.
using SessionJson = nlohmann::ordered_json;

/// A saved project session (`.cxproj`): every workspace that has data open, plus the active tab.
///
///     {"format": "contrast-explorer-session", "version": 1, "title": "…", "active": "topics",
///      "workspaces": {"topics": {…}, "chromatin": {…}}}
///
/// Each workspace owns its section (core/session/topics_section.h, chromatin_section.h, …) and
/// reads/writes it itself; this type only holds them. Sections of workspaces this version does
/// not know (written by a newer one) and unknown top-level keys are kept verbatim and written
/// back, so opening and saving never loses another workspace's analysis.
///
/// Data files are named by objects {"path": RELATIVE, "absolute": ABSOLUTE}: `path` relative to
/// the session file's folder (what is tried first, so a project folder can be moved as a whole),
/// `absolute` the fallback (see PathResolver). Any object with both keys, in any section, is a
/// data path: writing the session to another folder rewrites its `path`.
struct Session {
    static constexpr std::string_view kFormat = "contrast-explorer-session";
    /// Version written by this build; files of a higher version are refused.
    static constexpr int kVersion = 1;
    static constexpr std::string_view kExtension = ".cxproj";

    std::string title;
    std::string active; ///< key of the workspace shown ("topics", "chromatin", …); may be empty
    /// Workspace key → section, paths relative to directory(). Always a JSON object.
    SessionJson workspaces = SessionJson::object();
    /// Top-level keys this version does not know, kept for writing back.
    SessionJson extra = SessionJson::object();
    /// The file it was read from or last written to (absolute); empty for a new session.
    std::filesystem::path file;
    /// Version of the file as read: < kVersion when it was migrated (0 = a pre-session
    /// analysis descriptor, e.g. the old resources/demo/*.json).
    int fileVersion = kVersion;

    /// Folder that relative data paths are resolved against: the file's. A session without a
    /// file (not yet saved) holds paths relative to the folder it will be written to.
    std::filesystem::path directory() const;
    bool hasSection(const std::string& key) const { return workspaces.contains(key); }
    /// The section of `key`; throws std::out_of_range when absent.
    const SessionJson& section(const std::string& key) const { return workspaces.at(key); }
    void setSection(const std::string& key, SessionJson section);
    void removeSection(const std::string& key) { workspaces.erase(key); }
};

/// Parses a session's text. `file` names it in errors and anchors its relative paths.
/// Validates the envelope (format, integer version ≤ Session::kVersion, "workspaces" an object
/// of objects, "active" a string) and migrates older versions. Throws cx::InputError
/// "FILE:LINE: problem" for malformed JSON and "FILE: /json/pointer: problem" for content that
/// is not a session; a newer version is refused with both version numbers.
Session parseSession(std::string_view text, const std::filesystem::path& file);

/// Reads and parses a session file (see parseSession). Throws cx::InputError.
Session readSession(const std::filesystem::path& file);

/// The text of `session` as it would be written to `target`: relative data paths of every
/// section are rewritten from session.directory() to target's folder. Pretty-printed, ends
/// with a newline.
std::string serializeSession(const Session& session, const std::filesystem::path& target);

/// Writes `session` to `target` atomically (writeFileAtomically: a failed write leaves an
/// existing file intact) and, on success, sets session.file = absolute target and rewrites its
/// sections' relative paths for the new folder (a session without a file is taken to hold paths
/// relative to target's folder already). Throws cx::InputError naming `target`; on failure the
/// session is unchanged.
void writeSession(Session& session, const std::filesystem::path& target);

/// Migrates a parsed document of an older version to Session::kVersion, in place. Version 0 is
/// a pre-session analysis descriptor (the old demo.json files: {"corpus": …} for topics,
/// {"tracks": …} for chromatin). Throws cx::InputError naming `file`.
void migrateSession(SessionJson& document, int fromVersion, const std::filesystem::path& file);

} // namespace cx
