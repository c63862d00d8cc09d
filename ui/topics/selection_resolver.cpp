#include "ui/topics/selection_resolver.h"

#include "core/common/error.h"
#include "core/io/selection.h"

#include <algorithm>
#include <iterator>

namespace cx::ui {

namespace {

std::vector<std::int64_t> allDocuments(const cx::Corpus& corpus) {
    std::vector<std::int64_t> documents(static_cast<size_t>(corpus.numDocuments()));
    for (size_t i = 0; i < documents.size(); ++i) {
        documents[i] = static_cast<std::int64_t>(i);
    }
    return documents;
}

} // namespace

ResolvedSelection resolveSelection(const cx::Corpus& corpus, const SelectionSpec& spec) {
    ResolvedSelection out;
    const cx::Selection fg = cx::selectDocuments(corpus, spec.foregroundRule.toStdString());
    out.foreground = fg.documents;
    for (const auto& warning : fg.warnings) {
        out.warnings << QStringLiteral("foreground: ") + QString::fromStdString(warning);
    }
    switch (spec.backgroundMode) {
    case BackgroundMode::Rule: {
        const cx::Selection bg = cx::selectDocuments(corpus, spec.backgroundRule.toStdString());
        out.background = bg.documents;
        for (const auto& warning : bg.warnings) {
            out.warnings << QStringLiteral("background: ") + QString::fromStdString(warning);
        }
        break;
    }
    case BackgroundMode::NotForeground: {
        const std::vector<std::int64_t> all = allDocuments(corpus);
        std::set_difference(all.begin(), all.end(), out.foreground.begin(), out.foreground.end(),
                            std::back_inserter(out.background));
        break;
    }
    case BackgroundMode::All:
        out.background = allDocuments(corpus);
        break;
    }
    std::vector<std::int64_t> common;
    std::set_intersection(out.foreground.begin(), out.foreground.end(), out.background.begin(),
                          out.background.end(), std::back_inserter(common));
    out.overlap = static_cast<std::int64_t>(common.size());
    return out;
}

std::vector<bool> matchForeground(const cx::Corpus& corpus,
                                  const std::vector<std::int64_t>& foreground,
                                  const QString& positiveRule) {
    const cx::Selection positives = cx::selectDocuments(corpus, positiveRule.toStdString());
    std::vector<bool> flags;
    flags.reserve(foreground.size());
    for (const std::int64_t document : foreground) {
        flags.push_back(
            std::binary_search(positives.documents.begin(), positives.documents.end(), document));
    }
    return flags;
}

} // namespace cx::ui
