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
    /// Reader options the demo's numbers depend on ("min_df", "max_df", "drop_numbers");
    /// everything else stays the library default.
    std::int64_t minDocumentFrequency = 2;
    double maxDocumentFraction = 1.0;
    bool dropNumbers = false;

    /// Reads a demo descriptor; on failure returns nullopt and sets `error` ("FILE: problem").
    static std::optional<DemoSession> load(const QString& path, QString* error);
};

} // namespace cx::ui
