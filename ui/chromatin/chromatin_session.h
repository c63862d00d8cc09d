#pragma once

#include "ui/chromatin/chromatin_types.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace cx::ui {

/// A described chromatin analysis (the bundled demo, resources/demo/chromatin/demo.json, or
/// any file of the same form): the tracks, the annotations with their roles, K, γ, seed,
/// encoding, decoding and an optional initial region of the track view. Paths are relative to
/// the descriptor's folder.
///
/// {"version": 1, "title": "…", "tracks": ["a_binary.txt.gz", …],
///  "annotations": [{"path": "genes.bed.gz", "foreground": true, "background": false,
///                   "lane": true, "enrichment": true}, …],
///  "k": 7, "gamma": 1.0, "seed": 1, "encoding": "marks", "decode": "posterior",
///  "region": "chr11:5000000-5800000"}
struct ChromatinSession {
    struct Annotation {
        QString path; ///< absolute
        bool foreground = false;
        bool background = false;
        bool lane = false;
        bool enrichment = true;
    };

    QString title;
    QStringList trackPaths; ///< absolute
    QVector<Annotation> annotations;
    ChromatinModelParameters parameters;
    double gamma = 0;
    cx::DecodingMethod decoding = cx::DecodingMethod::Posterior;
    QString region; ///< "chr:start-end" (empty: the whole first chromosome)

    static constexpr int kVersion = 1;

    /// Reads a descriptor; on failure returns nullopt and sets `error` ("FILE[:LINE]: problem").
    static std::optional<ChromatinSession> load(const QString& path, QString* error);
    /// Whether `path` looks like such a descriptor (a .json file with a "tracks" key).
    static bool looksLikeSession(const QString& path);
};

/// Parses "chr11:5,000,000-5,800,000" (commas allowed). Returns false on bad input.
bool parseGenomicRegion(const QString& text, QString* chrom, qint64* start, qint64* end);

/// resources/demo/chromatin/demo.json, or empty when it cannot be found.
QString chromatinDemoPath();

} // namespace cx::ui
