#include "core/session/session_paths.h"

#include "core/common/error.h"
#include "core/session/session_fields.h"

namespace cx {

namespace {

namespace fs = std::filesystem;

fs::path normalAbsolute(const fs::path& path) {
    std::error_code error;
    const fs::path absolute = fs::absolute(path, error);
    return (error ? path : absolute).lexically_normal();
}

bool pathExists(const fs::path& path) {
    std::error_code error;
    return !path.empty() && fs::exists(path, error);
}

/// `path` relative to `directory` when one exists ("../data/x.gz"), else `path` itself.
fs::path relativeOrAbsolute(const fs::path& path, const fs::path& directory) {
    const fs::path relative = path.lexically_relative(directory);
    return relative.empty() ? path : relative;
}

/// Whether `prefix` is `path` or one of its ancestors (component-wise).
bool startsWith(const fs::path& path, const fs::path& prefix) {
    auto p = path.begin();
    for (auto q = prefix.begin(); q != prefix.end(); ++q, ++p) {
        if (p == path.end() || *p != *q) {
            return false;
        }
    }
    return true;
}

} // namespace

MovedDataHandler dataRootHandler(fs::path root) {
    root = normalAbsolute(root);
    return [root](const fs::path& expected, const std::string&) -> std::optional<fs::path> {
        const std::vector<fs::path> parts(expected.begin(), expected.end());
        // Longest tail first (the most specific place), never the root directory itself.
        for (size_t first = expected.has_root_path() ? 1 : 0; first < parts.size(); ++first) {
            fs::path candidate = root;
            for (size_t i = first; i < parts.size(); ++i) {
                candidate /= parts[i];
            }
            if (pathExists(candidate)) {
                return candidate.lexically_normal();
            }
        }
        return std::nullopt;
    };
}

SessionJson dataPathToJson(const fs::path& file, const fs::path& sessionDirectory) {
    const fs::path absolute = normalAbsolute(file);
    SessionJson entry = SessionJson::object();
    entry["path"] = relativeOrAbsolute(absolute, normalAbsolute(sessionDirectory)).generic_string();
    entry["absolute"] = absolute.generic_string();
    return entry;
}

void rebaseDataPaths(SessionJson& value, const fs::path& fromDirectory,
                     const fs::path& toDirectory) {
    if (value.is_array()) {
        for (auto& element : value) {
            rebaseDataPaths(element, fromDirectory, toDirectory);
        }
        return;
    }
    if (!value.is_object()) {
        return;
    }
    if (value.contains("path") && value.contains("absolute") && value["path"].is_string()) {
        const fs::path stored = value["path"].get<std::string>();
        if (stored.is_relative()) {
            const fs::path absolute = (normalAbsolute(fromDirectory) / stored).lexically_normal();
            value["path"] =
                relativeOrAbsolute(absolute, normalAbsolute(toDirectory)).generic_string();
        }
        return;
    }
    for (auto& [key, element] : value.items()) {
        rebaseDataPaths(element, fromDirectory, toDirectory);
    }
}

PathResolver::PathResolver(fs::path sessionFile, MovedDataHandler onMissing)
    : m_sessionFile(std::move(sessionFile)), m_onMissing(std::move(onMissing)) {
    m_directory = m_sessionFile.empty() ? normalAbsolute(fs::current_path())
                                        : normalAbsolute(m_sessionFile).parent_path();
}

std::optional<fs::path> PathResolver::applyMoves(const fs::path& path) const {
    for (const auto& [from, to] : m_moves) {
        if (startsWith(path, from)) {
            const fs::path moved = (to / path.lexically_relative(from)).lexically_normal();
            if (pathExists(moved)) {
                return moved;
            }
        }
    }
    return std::nullopt;
}

void PathResolver::learnMove(const fs::path& expected, const fs::path& actual) {
    // Strip the longest common tail: what is left of each side is the folder that moved.
    fs::path from = expected;
    fs::path to = actual;
    while (from.has_filename() && to.has_filename() && from.filename() == to.filename() &&
           from.has_parent_path() && to.has_parent_path() && from != from.root_path() &&
           to != to.root_path()) {
        from = from.parent_path();
        to = to.parent_path();
    }
    if (from != to) {
        m_moves.emplace_back(from, to);
    }
}

std::vector<fs::path> PathResolver::resolveAll(const SessionFields& fields, const std::string& key,
                                               const std::string& whenEmpty) {
    const SessionJson& entries = fields.array(key);
    if (entries.empty()) {
        fields.fail(key, "missing: " + whenEmpty);
    }
    std::vector<fs::path> out;
    for (size_t i = 0; i < entries.size(); ++i) {
        out.push_back(resolve(entries[i], fields.pointer(key) + "/" + std::to_string(i)));
    }
    return out;
}

fs::path PathResolver::resolve(const SessionJson& entry, const std::string& pointer) {
    fs::path stored;
    fs::path absolute;
    std::string entryPointer = pointer;
    if (entry.is_string()) {
        stored = entry.get<std::string>();
    } else {
        const SessionFields fields(entry, pointer, m_sessionFile);
        stored = fields.requiredString("path");
        absolute = fields.string("absolute", "");
        entryPointer = fields.pointer("path");
    }
    if (stored.empty()) {
        throw InputError(m_sessionFile.string(), 0, pointer + ": empty path");
    }
    const fs::path expected = (m_directory / stored).lexically_normal();
    if (pathExists(expected)) {
        return expected;
    }
    if (!absolute.empty() && pathExists(absolute)) {
        return normalAbsolute(absolute);
    }
    if (auto moved = applyMoves(expected)) {
        return *moved;
    }
    if (!absolute.empty()) {
        if (auto moved = applyMoves(normalAbsolute(absolute))) {
            return *moved;
        }
    }
    std::string problem = expected.string() + ": no such file or folder";
    if (!absolute.empty() && normalAbsolute(absolute) != expected) {
        problem += " (nor at " + absolute.string() + ")";
    }
    if (m_onMissing) {
        if (const std::optional<fs::path> answer = m_onMissing(expected, entryPointer)) {
            const fs::path actual = normalAbsolute(*answer);
            if (!pathExists(actual)) {
                throw InputError(m_sessionFile.string(), 0,
                                 entryPointer + ": " + actual.string() +
                                     ": no such file or folder");
            }
            learnMove(expected, actual);
            return actual;
        }
        problem += "; not located";
    }
    throw InputError(m_sessionFile.string(), 0, entryPointer + ": " + problem);
}

} // namespace cx
