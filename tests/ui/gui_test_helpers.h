#pragma once

#include "ui/workers/topic_types.h"

#include "core/models/synthetic_topics.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>

#include <functional>
#include <memory>

namespace cx::ui::test {

/// A small seeded A/B/C corpus (foreground = group foreground, background = group background)
/// that builds an engine in well under a second.
inline CorpusHandle syntheticCorpus(std::int64_t documentsPerSide = 1500, int vocabulary = 300,
                                    std::uint64_t seed = 7) {
    cx::SyntheticTopicSpec spec;
    spec.vocabularySize = vocabulary;
    spec.numA = 3;
    spec.numB = 3;
    spec.numC = 3;
    spec.foregroundDocuments = documentsPerSide;
    spec.backgroundDocuments = documentsPerSide;
    spec.documentLength = 40;
    spec.seed = seed;
    auto generated = cx::generateSyntheticTopics(spec);
    CorpusHandle handle;
    handle.corpus = std::make_shared<const cx::Corpus>(std::move(generated.corpus));
    handle.source = QStringLiteral("synthetic A/B/C corpus");
    return handle;
}

inline SelectionSpec syntheticSelection() {
    SelectionSpec spec;
    spec.foregroundRule = QStringLiteral("group=foreground");
    spec.backgroundRule = QStringLiteral("group=background");
    return spec;
}

/// Processes events until `condition` holds or `timeoutMs` passes. Returns the condition.
inline bool waitUntil(const std::function<bool()>& condition, int timeoutMs = 20000) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

} // namespace cx::ui::test
