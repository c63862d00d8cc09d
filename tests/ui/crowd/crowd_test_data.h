#pragma once

#include "core/crowd/synthetic_crowd.h"

#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <fstream>

namespace cx::ui::test {

/// A seeded beta-sparse crowd (3 classes, 80 % of the labels kept) as labels.csv + gold.csv
/// in `dir`.
inline void writeCrowd(const QTemporaryDir& dir, int items, int workers, std::uint64_t seed = 2) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.3, 0.75, items, workers, 3, seed);
    spec.labelProbability = 0.8;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    std::ofstream labels(dir.filePath(QStringLiteral("labels.csv")).toStdString());
    labels << "question,worker,answer\n";
    for (const cx::CrowdObservation& o : crowd.data.observations) {
        labels << "q" << o.item << ",w" << o.worker << "," << o.label << "\n";
    }
    std::ofstream gold(dir.filePath(QStringLiteral("gold.csv")).toStdString());
    gold << "question,truth\n";
    for (int n = 0; n < items; ++n) {
        gold << "q" << n << "," << crowd.data.gold[static_cast<size_t>(n)] << "\n";
    }
}

} // namespace cx::ui::test
