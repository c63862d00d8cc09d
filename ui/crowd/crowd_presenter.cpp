#include "ui/crowd/crowd_presenter.h"

#include "core/io/crowd_labels.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("CrowdPresenter", text);
}

} // namespace

QString crowdMethodLabel(cx::CrowdMethod method) {
    switch (method) {
    case cx::CrowdMethod::MajorityVote:
        return tr("Majority vote");
    case cx::CrowdMethod::Em:
        return tr("EM (random restarts)");
    case cx::CrowdMethod::MvEm:
        return tr("Dawid–Skene EM from majority vote");
    case cx::CrowdMethod::SpectralEm:
        return tr("Spectral-initialised EM");
    case cx::CrowdMethod::Stagewise:
        return tr("Stagewise EM");
    case cx::CrowdMethod::StagewiseRefine:
        return tr("Stagewise EM + refine");
    }
    return {};
}

QString crowdRunSummary(const cx::CrowdLabels& data, const cx::CrowdResult& result) {
    QString text = tr("<b>%1</b>: ").arg(QString::fromLatin1(cx::crowdMethodName(result.method)));
    if (std::isfinite(result.errorRate)) {
        text += tr("error <b>%1 %</b> on %2 gold items · ")
                    .arg(100 * result.errorRate, 0, 'f', 2)
                    .arg(data.numGold());
    }
    text += tr("%1 of %2 workers informative · %3 iterations · %4 ms")
                .arg(result.informativeSetSize())
                .arg(data.numWorkers)
                .arg(result.iterations)
                .arg(result.elapsedMs, 0, 'f', 1);
    for (const std::string& note : result.notes) {
        text += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
    }
    return text;
}

QString crowdDataSummary(const cx::CrowdLabels& data, const QString& labelsPath,
                         const QString& goldPath) {
    QStringList classes;
    for (const std::string& name : data.classNames) {
        classes << QString::fromStdString(name);
    }
    QString text = tr("<b>%1</b><br>%2 items · %3 workers · %4 labels<br>classes: %5")
                       .arg(QFileInfo(labelsPath).fileName().toHtmlEscaped())
                       .arg(data.numItems)
                       .arg(data.numWorkers)
                       .arg(data.observations.size())
                       .arg(classes.join(QStringLiteral(", ")).toHtmlEscaped());
    const double cells = static_cast<double>(data.numItems) * data.numWorkers;
    if (cells > 0) {
        const double density = static_cast<double>(data.observations.size()) / cells;
        text += tr("<br>%1 % of the item × worker matrix labelled").arg(100 * density, 0, 'f', 1);
    }
    if (data.hasGold()) {
        text += tr("<br>gold: %1 items%2")
                    .arg(data.numGold())
                    .arg(goldPath.isEmpty()
                             ? tr(" (gold column)")
                             : tr(" from %1").arg(QFileInfo(goldPath).fileName().toHtmlEscaped()));
    } else {
        text += tr("<br>no gold labels");
    }
    for (const std::string& warning : data.warnings) {
        text += QStringLiteral("<br><i>") + QString::fromStdString(warning).toHtmlEscaped() +
                QStringLiteral("</i>");
    }
    return text;
}

Provenance crowdProvenance(const QString& labelsPath, const QString& goldPath,
                           const cx::CrowdOptions& options) {
    Provenance provenance;
    provenance.addFiles(QObject::tr("labels file"), {labelsPath})
        .addFiles(QObject::tr("gold file"), {goldPath})
        .add(QObject::tr("K"), options.numComponents > 0 ? QString::number(options.numComponents)
                                                         : QObject::tr("classes"))
        .add(QObject::tr("seed"), static_cast<qint64>(options.seed))
        .add(QObject::tr("restarts"), options.restarts)
        .add(QObject::tr("EM iterations"), options.em.maxIterations)
        .add(QObject::tr("smoothing"), QString::number(options.em.smoothing, 'g', 6))
        .add(QObject::tr("significance"), QString::number(options.significance, 'g', 6))
        .add(QObject::tr("extension significance"),
             QString::number(options.extensionSignificance, 'g', 6))
        .add(QObject::tr("extension procedure"), static_cast<qint64>(options.extensionProcedure));
    return provenance;
}

} // namespace cx::ui
