#include "ui/topics/selection_resolver.h"

#include "core/io/selection.h"

namespace cx::ui {

ResolvedSelection resolveSelection(const cx::Corpus& corpus, const SelectionSpec& spec) {
    cx::ForegroundBackground selected =
        cx::selectForegroundBackground(corpus, spec.foregroundRule.toStdString(),
                                       spec.backgroundMode, spec.backgroundRule.toStdString());
    ResolvedSelection out;
    out.foreground = std::move(selected.foreground);
    out.background = std::move(selected.background);
    out.overlap = selected.overlap;
    for (const auto& warning : selected.foregroundWarnings) {
        out.warnings << QStringLiteral("foreground: ") + QString::fromStdString(warning);
    }
    for (const auto& warning : selected.backgroundWarnings) {
        out.warnings << QStringLiteral("background: ") + QString::fromStdString(warning);
    }
    return out;
}

} // namespace cx::ui
