#pragma once

#include "core/session/session.h"
#include "core/session/session_fields.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cx {

/// A data path as a session stores it: {"path": relative to `sessionDirectory` (or absolute when
/// no relative path exists, e.g. another drive), "absolute": the absolute path}.
SessionJson dataPathToJson(const std::filesystem::path& file,
                           const std::filesystem::path& sessionDirectory);

/// Rewrites, everywhere in `value`, the "path" of data path objects (objects holding both
/// "path" and "absolute") from `fromDirectory` to `toDirectory`. Absolute paths stay.
void rebaseDataPaths(SessionJson& value, const std::filesystem::path& fromDirectory,
                     const std::filesystem::path& toDirectory);

/// Asked when a data file of a session is neither at its relative nor at its absolute path:
/// `expected` is where it should have been (session folder / relative path), `pointer` the JSON
/// pointer of the entry. Returns the file's new location, or nullopt to give up (the session
/// is then not opened).
using MovedDataHandler = std::function<std::optional<std::filesystem::path>(
    const std::filesystem::path& expected, const std::string& pointer)>;

/// A MovedDataHandler for a session whose data moved below `root` (`contrast-cli run
/// --data-root DIR`, no one to ask): a missing file is looked for at `root` / the longest tail
/// of its expected path that exists there (/old/proj/data/a.gz → root/proj/data/a.gz, else
/// root/data/a.gz, else root/a.gz). PathResolver then learns the move, so the files beside it
/// follow. nullopt when no tail exists under `root`.
MovedDataHandler dataRootHandler(std::filesystem::path root);

/// Finds the data files of one session. For each entry it tries, in order: the session folder /
/// "path"; "absolute"; every move learnt so far; and finally the MovedDataHandler. When the
/// handler names a new location, the resolver learns the move as a change of folder (the
/// longest common tail of the expected and the given path is kept: expected /old/data/x.gz,
/// answer /new/place/x.gz → /old/data → /new/place), so the session's other files under the
/// same folder resolve from the answer without asking again.
class PathResolver {
public:
    PathResolver(std::filesystem::path sessionFile, MovedDataHandler onMissing = {});

    /// `entry` is a data path object (or a plain string: a relative or absolute path);
    /// `pointer` its JSON pointer for messages. Returns an absolute, existing path. Throws
    /// cx::InputError "SESSION: POINTER: EXPECTED: no such file or folder (…)" when the file is
    /// missing and the handler gives up or names a path that does not exist either.
    std::filesystem::path resolve(const SessionJson& entry, const std::string& pointer);

    /// Every entry of the array `key` of `fields` resolved, in order (a section's data files).
    /// Throws cx::InputError "POINTER: missing: `whenEmpty`" when the array is empty.
    std::vector<std::filesystem::path>
    resolveAll(const SessionFields& fields, const std::string& key, const std::string& whenEmpty);

    /// Moves learnt so far (old folder → new folder).
    const std::vector<std::pair<std::filesystem::path, std::filesystem::path>>& moves() const {
        return m_moves;
    }

private:
    std::optional<std::filesystem::path> applyMoves(const std::filesystem::path& path) const;
    void learnMove(const std::filesystem::path& expected, const std::filesystem::path& actual);

    std::filesystem::path m_sessionFile;
    std::filesystem::path m_directory;
    MovedDataHandler m_onMissing;
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> m_moves;
};

} // namespace cx
