#include "ui/chromatin/genomic_region.h"

#include <QRegularExpression>

namespace cx::ui {

bool parseGenomicRegion(const QString& text, QString* chrom, qint64* start, qint64* end) {
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*([^:\\s]+)\\s*:\\s*([\\d,]+)\\s*[-–]\\s*([\\d,]+)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        return false;
    }
    bool okStart = false;
    bool okEnd = false;
    const qint64 s = match.captured(2).remove(QLatin1Char(',')).toLongLong(&okStart);
    const qint64 e = match.captured(3).remove(QLatin1Char(',')).toLongLong(&okEnd);
    if (!okStart || !okEnd || e <= s) {
        return false;
    }
    if (chrom) {
        *chrom = match.captured(1);
    }
    if (start) {
        *start = s;
    }
    if (end) {
        *end = e;
    }
    return true;
}

} // namespace cx::ui
