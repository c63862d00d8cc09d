#include "ui/chromatin/chromatin_analysis.h"

#include "ui/views/state_catalog.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/hmm/decoding.h"
#include "core/hmm/enrichment.h"

#include <QCoreApplication>
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

namespace {

/// The core table in the views' layout: per segmentation state (E1…EK are states 0…K−1),
/// NaN rows for states that do not occur.
EnrichmentTable perStateTable(const cx::EnrichmentTable& core,
                              const cx::StateSegmentation& segmentation, int numStates) {
    EnrichmentTable table;
    const auto columns = static_cast<Eigen::Index>(core.columnNames.size());
    table.fold =
        Eigen::MatrixXd::Constant(numStates, columns, std::numeric_limits<double>::quiet_NaN());
    table.overlap = Eigen::MatrixXd::Zero(numStates, columns);
    table.stateBins.assign(static_cast<size_t>(numStates), 0);
    for (int state = 0; state < numStates; ++state) {
        const auto index = static_cast<size_t>(state + 1);
        if (index < segmentation.stateBins.size()) {
            table.stateBins[static_cast<size_t>(state)] =
                static_cast<std::int64_t>(std::llround(segmentation.stateBins[index]));
        }
    }
    table.totalBins = static_cast<std::int64_t>(std::llround(segmentation.totalBins));
    for (size_t r = 0; r < core.rowStates.size(); ++r) {
        const int state = core.rowStates[r] - 1;
        if (state < 0 || state >= numStates || columns == 0) {
            continue;
        }
        table.fold.row(state) = core.fold.row(static_cast<Eigen::Index>(r));
        table.overlap.row(state) = core.overlap.row(static_cast<Eigen::Index>(r));
    }
    table.annotationBins.assign(static_cast<size_t>(columns), 0);
    for (Eigen::Index c = 0; c < columns; ++c) {
        table.annotationBins[static_cast<size_t>(c)] =
            static_cast<std::int64_t>(std::llround(table.overlap.col(c).sum()));
        table.annotations << QString::fromStdString(core.columnNames[static_cast<size_t>(c)]);
    }
    table.chromhmm = core;
    return table;
}

} // namespace

EnrichmentTable computeEnrichment(const cx::ChromatinData& data,
                                  const SegmentationState& segmentation,
                                  const std::vector<AnnotationSource>& annotations,
                                  const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    // One cell, as a segmentation file of ChromHMM (and `contrast-cli hmm`'s per-cell files).
    const std::string cell = data.tracks.empty() ? std::string() : data.tracks.front().cell;
    const std::vector<std::string> labels = cx::defaultStateLabels(segmentation.numStates);
    const cx::StateSegmentation states = cx::stateSegmentation(data, segmentation, labels, cell);
    std::vector<cx::EnrichmentAnnotation> overlapColumns;
    QStringList overlapNames;
    QStringList overlapPaths;
    std::vector<const AnnotationSource*> anchorSources;
    for (const AnnotationSource& source : annotations) {
        if (source.anchors) {
            anchorSources.push_back(&source);
        } else if (source.regions) {
            overlapColumns.push_back(
                {source.name.toStdString(), source.path.toStdString(), *source.regions});
            overlapNames << source.name;
            overlapPaths << source.path;
        }
    }
    // ChromHMM refuses an annotation that overlaps no state (other chromosome names); the
    // workspace drops that column with a warning and keeps the others.
    std::vector<std::string> warnings;
    cx::EnrichmentTable overlap;
    while (!overlapColumns.empty()) {
        try {
            overlap = cx::overlapEnrichment(states, overlapColumns, {}, cancel);
            break;
        } catch (const cx::InputError& error) {
            const auto it = std::find_if(overlapColumns.begin(), overlapColumns.end(),
                                         [&](const auto& a) { return a.path == error.file(); });
            if (it == overlapColumns.end()) {
                throw;
            }
            warnings.push_back(error.what());
            const auto column = static_cast<int>(it - overlapColumns.begin());
            overlapNames.removeAt(column);
            overlapPaths.removeAt(column);
            overlapColumns.erase(it);
        }
    }
    EnrichmentTable table = perStateTable(overlap, states, segmentation.numStates);
    table.chromhmm.warnings.insert(table.chromhmm.warnings.end(), warnings.begin(), warnings.end());
    table.annotations = overlapNames;
    table.annotationPaths = overlapPaths;
    table.title = QObject::tr("Overlap enrichment");
    for (const AnnotationSource* source : anchorSources) {
        cx::throwIfCancelled(cancel);
        cx::EnrichmentTable core;
        try {
            core = cx::neighborhoodEnrichment(states, *source->anchors, source->path.toStdString());
        } catch (const cx::InputError& error) {
            table.chromhmm.warnings.push_back(error.what()); // no anchor on these chromosomes
            continue;
        }
        EnrichmentTable around = perStateTable(core, states, segmentation.numStates);
        around.annotationPaths = {source->path};
        around.title = QObject::tr("Neighbourhood of %1").arg(source->name);
        around.cell = QString::fromStdString(cell);
        around.generation = segmentation.generation;
        table.neighborhoods.push_back(std::move(around));
    }
    table.cell = QString::fromStdString(cell);
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

bool isAnchorPath(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile() || path.endsWith(QLatin1String(".bed"), Qt::CaseInsensitive) ||
        path.endsWith(QLatin1String(".bed.gz"), Qt::CaseInsensitive)) {
        return false;
    }
    try {
        return cx::isAnchorFile(path.toStdString());
    } catch (const std::exception&) {
        return false;
    }
}

AnnotationSource loadAnnotation(const QString& path, const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    AnnotationSource source;
    std::shared_ptr<const cx::BedRegions> regions;
    if (cx::isAnchorFile(path.toStdString())) {
        // A ChromHMM ANCHORFILE: its positions, and one base at each for lanes and regions.
        auto anchors = std::make_shared<const std::vector<cx::AnchorRecord>>(
            cx::readAnchorFile(path.toStdString(), true, cancel));
        cx::BedRegions points;
        points.sources.push_back(path.toStdString());
        for (const cx::AnchorRecord& anchor : *anchors) {
            points.byChrom[anchor.chrom].push_back({anchor.position, anchor.position + 1});
            ++points.numIntervals;
        }
        regions = std::make_shared<const cx::BedRegions>(std::move(points));
        source.anchors = std::move(anchors);
    } else {
        regions =
            std::make_shared<const cx::BedRegions>(cx::readBedFiles({path.toStdString()}, cancel));
    }
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
                         const QVector<QColor>& stateColours, const QString& model) {
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
        names.push_back(
            sanitize(stateNames.value(s, QStringLiteral("E%1").arg(s + 1))).toStdString());
        const QColor colour = stateColours.value(s, QColor(127, 127, 127));
        colours.push_back(rgbText(colour));
    }
    // Quotes would end the UCSC attribute early.
    const auto unquote = [](std::string text) {
        std::replace(text.begin(), text.end(), '"', '\'');
        return text;
    };
    const std::string description =
        model.isEmpty() ? "Contrast Explorer states, " +
                              std::string(cx::toString(segmentation.method)) + " decoding"
                        : model.toStdString();
    const std::function<std::string(const cx::ChromatinTrack&)> trackLine =
        [&](const cx::ChromatinTrack& track) {
            return "track name=\"" + unquote(track.cell) + "\" description=\"" +
                   unquote(track.cell + " " + description) + "\" itemRgb=\"On\"";
        };
    std::ostringstream out;
    cx::writeRunsBed9(out, *segmentation.data, segmentation.runs, names, colours, trackLine);
    return QString::fromStdString(out.str());
}

} // namespace cx::ui
