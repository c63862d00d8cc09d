#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/timer.h"

#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace cx::ui {

cx::ContrastiveHmmOptions ChromatinModelParameters::toOptions() const {
    cx::ContrastiveHmmOptions options;
    options.numComponents = numComponents;
    options.seed = seed;
    options.initialization = decomposition;
    options.momentRefitSweeps = momentFit;
    options.momentRefitOrder = momentOrder;
    return options;
}

bool ChromatinModelParameters::sameSpectral(const ChromatinModelParameters& other) const {
    ChromatinModelParameters a = *this;
    a.refineEm = other.refineEm;
    a.refineTolerance = other.refineTolerance;
    return a == other;
}

SegmentationState decodeSegmentation(const cx::ChromatinData& data,
                                     const cx::ContrastiveHmmResult& result,
                                     cx::DecodingMethod method, bool labelBackground,
                                     const cx::CancelToken& cancel) {
    SegmentationState out;
    static_cast<cx::DecodedSegmentation&>(out) =
        cx::decodeSegmentation(data, result, method, labelBackground, cancel);
    return out;
}

EnrichmentTable computeEnrichment(const cx::ChromatinData& data,
                                  const SegmentationState& segmentation,
                                  const std::vector<AnnotationSource>& annotations,
                                  const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    std::vector<const cx::BedRegions*> regions;
    EnrichmentTable table;
    for (const AnnotationSource& source : annotations) {
        regions.push_back(source.regions.get());
        table.annotations << source.name;
        table.annotationPaths << source.path;
    }
    static_cast<cx::OverlapEnrichment&>(table) =
        cx::overlapEnrichment(data, segmentation, regions, cancel);
    table.generation = segmentation.generation;
    table.ms = watch.elapsedMs();
    return table;
}

LaneIntervals mergedLanes(const cx::BedRegions& regions) {
    LaneIntervals lanes;
    for (const auto& [chrom, intervals] : regions.byChrom) {
        lanes.byChrom.emplace(chrom, cx::mergeIntervals(intervals));
    }
    return lanes;
}

QString annotationDisplayName(const QString& path) {
    QString name = QFileInfo(path).fileName();
    for (const char* suffix : {".gz", ".bed", ".txt"}) {
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) {
            name.chop(static_cast<int>(qstrlen(suffix)));
        }
    }
    // Trailing ".hg18", ".chr11_0-30Mb", ".chr11_slice": assembly and region tags of subsets.
    static const QRegularExpression tag(
        QStringLiteral("\\.((hg|mm|rn|dm|ce|danRer|galGal|GRCh|GRCm)\\d+|chr[^.]*)$"),
        QRegularExpression::CaseInsensitiveOption);
    for (int i = 0; i < 3; ++i) {
        const QString stripped = QString(name).remove(tag);
        if (stripped == name || stripped.isEmpty()) {
            break;
        }
        name = stripped;
    }
    return name.isEmpty() ? QFileInfo(path).fileName() : name;
}

AnnotationSource loadAnnotation(const QString& path, const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    auto regions =
        std::make_shared<const cx::BedRegions>(cx::readBedFiles({path.toStdString()}, cancel));
    AnnotationSource source;
    source.path = path;
    source.name = annotationDisplayName(path);
    source.lanes = std::make_shared<const LaneIntervals>(mergedLanes(*regions));
    source.regions = std::move(regions);
    source.loadMs = watch.elapsedMs();
    return source;
}

QStringList summarizeWarnings(const std::vector<std::string>& warnings) {
    static const QRegularExpression contig(
        QStringLiteral("^(.*): (foreground|background) contig '([^']*)' is not in the tracks; "
                       "its (\\d+) interval\\(s\\) are ignored$"));
    struct Group {
        QString files;
        QString role;
        QStringList contigs;
        qint64 intervals = 0;
    };
    std::vector<Group> groups;
    QStringList out;
    for (const std::string& warning : warnings) {
        const QString text = QString::fromStdString(warning);
        const QRegularExpressionMatch match = contig.match(text);
        if (!match.hasMatch()) {
            out << text;
            continue;
        }
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
            return g.files == match.captured(1) && g.role == match.captured(2);
        });
        if (it == groups.end()) {
            groups.push_back({match.captured(1), match.captured(2), {}, 0});
            it = std::prev(groups.end());
        }
        it->contigs << match.captured(3);
        it->intervals += match.captured(4).toLongLong();
    }
    for (const Group& group : groups) {
        QStringList names;
        for (const QString& file : group.files.split(QLatin1Char(','))) {
            names << QFileInfo(file).fileName();
        }
        QString shown = QStringList(group.contigs.mid(0, 4)).join(QStringLiteral(", "));
        if (group.contigs.size() > 4) {
            shown += QStringLiteral(", … +%1").arg(group.contigs.size() - 4);
        }
        out << QStringLiteral("%1 (%2): %3 interval(s) on %4 contig(s) that no track covers "
                              "were ignored (%5)")
                   .arg(names.join(QStringLiteral(", ")), group.role,
                        QLocale().toString(group.intervals))
                   .arg(group.contigs.size())
                   .arg(shown);
    }
    return out;
}

WeightSweep sweepStateWeights(const cx::SequenceMoments& moments, const QVector<double>& gammas,
                              const cx::ContrastiveHmmOptions& options,
                              const cx::CancelToken& cancel) {
    cx::StateWeightSweep tracked = cx::sweepStateWeights(
        moments, std::vector<double>(gammas.begin(), gammas.end()), options, cancel);
    WeightSweep sweep;
    sweep.gammas = QVector<double>(tracked.gammas.begin(), tracked.gammas.end());
    sweep.weights = std::move(tracked.weights);
    sweep.profiles = std::move(tracked.profiles);
    sweep.specificInvalidMass = std::move(tracked.specificInvalidMass);
    sweep.path = std::move(tracked.path);
    return sweep;
}

QString segmentationBed9(const SegmentationState& segmentation, const QStringList& stateNames,
                         const QVector<QColor>& stateColours) {
    if (!segmentation.data) {
        return {};
    }
    const auto sanitize = [](QString name) {
        // BED fields are tab-separated: a name must not contain tabs or line breaks.
        name.replace(QLatin1Char('\t'), QLatin1Char(' '));
        name.replace(QLatin1Char('\n'), QLatin1Char(' '));
        name.replace(QLatin1Char('\r'), QLatin1Char(' '));
        return name.trimmed().isEmpty() ? QStringLiteral("state") : name.trimmed();
    };
    std::vector<std::string> names;
    std::vector<std::string> colours;
    for (int s = 0; s < segmentation.numStates; ++s) {
        names.push_back(sanitize(stateNames.value(s, QStringLiteral("E%1").arg(s + 1))).toStdString());
        const QColor colour = stateColours.value(s, QColor(127, 127, 127));
        colours.push_back(std::to_string(colour.red()) + ',' + std::to_string(colour.green()) +
                          ',' + std::to_string(colour.blue()));
    }
    std::function<std::string(const cx::ChromatinTrack&)> trackLine;
    if (segmentation.data->tracks.size() > 1) {
        trackLine = [method = segmentation.method](const cx::ChromatinTrack& track) {
            return "track name=\"" + track.cell + "\" description=\"Contrast Explorer states (" +
                   track.cell + ", " + track.chrom + ", " + cx::toString(method) +
                   ")\" itemRgb=\"On\"";
        };
    }
    std::ostringstream out;
    cx::writeRunsBed9(out, *segmentation.data, segmentation.runs, names, colours, trackLine);
    return QString::fromStdString(out.str());
}

} // namespace cx::ui
