#pragma once

// Shared by the Chromatin workspace tests: the real chr11 slices of tests/data/hmm (2 × 20,000
// bins, GM12878 and K562, with RefSeq genes and TSS ± 2 kb shifted onto the slice), a
// controller prepared on them, and small file writers for bad input.

#include "gui_test_helpers.h"

#include "ui/chromatin/chromatin_controller.h"

#include <QFile>
#include <QString>
#include <QStringList>

namespace cx::ui::test {

inline QString hmmData(const char* name) {
    return QStringLiteral(CX_TEST_DATA_DIR "/hmm/") + QString::fromLatin1(name);
}

inline QStringList sliceTracks() {
    return {hmmData("GM12878_chr11_slice.txt.gz"), hmmData("K562_chr11_slice.txt.gz")};
}

inline QString geneBed() {
    return hmmData("RefSeqGene.chr11_slice.bed");
}

inline QString tssBed() {
    return hmmData("RefSeqTSS2kb.chr11_slice.bed");
}

inline void writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(content);
    }
}

/// A controller with the slice tracks, genes + TSS ± 2 kb as foreground, and a first model at
/// γ = `gamma` (K = 7), its segmentation and enrichment.
inline bool prepareSlice(ChromatinController& controller, double gamma = 1.0) {
    controller.setDecodeDelay(0);
    controller.setGamma(gamma);
    controller.addAnnotations({geneBed(), tssBed()});
    controller.setEnrichmentAnnotations({geneBed(), tssBed()});
    controller.loadTracks(sliceTracks());
    if (!waitUntil([&] { return controller.data().isValid(); })) {
        return false;
    }
    RegionChoice choice;
    choice.foreground = {geneBed(), tssBed()};
    controller.applyRegions(choice);
    return waitUntil([&] {
        return controller.isIdle() && controller.solution().isValid() &&
               controller.segmentation() && controller.enrichment().has_value();
    });
}

} // namespace cx::ui::test
