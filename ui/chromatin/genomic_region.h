#pragma once

#include <QString>

namespace cx::ui {

/// Parses "chr11:5,000,000-5,800,000" (commas allowed). Returns false on bad input.
bool parseGenomicRegion(const QString& text, QString* chrom, qint64* start, qint64* end);

} // namespace cx::ui
