#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace cx::ui {

/// The bundled demo session (resources/demo/demo.json): which corpus to open and with which
/// foreground, background, specificity rule, K, γ and seed. The lead tunes these values in the
/// JSON; nothing here hard-codes them.
struct DemoSession {
    QString title;
    QString corpusPath; ///< absolute
    QString format;     ///< "reuters", "tsv", ... (parseCorpusFormat)
    QString foreground;
    QString background;
    QString positive;
    int numComponents = 10;
    double gamma = 0;
    std::uint64_t seed = 1;

    /// Reads a demo descriptor; on failure returns nullopt and sets `error` ("FILE: problem").
    static std::optional<DemoSession> load(const QString& path, QString* error);
};

} // namespace cx::ui
