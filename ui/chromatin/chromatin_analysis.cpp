#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/timer.h"

#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

cx::ContrastiveHmmOptions ChromatinModelParameters::toOptions() const {
    cx::ContrastiveHmmOptions options;
    options.numComponents = numComponents;
    options.seed = seed;
    return options;
}

std::vector<std::vector<StateRun>> segmentationRuns(const cx::Segmentation& segmentation) {
    std::vector<std::vector<StateRun>> out(segmentation.states.size());
    for (size_t t = 0; t < segmentation.states.size(); ++t) {
        const auto& states = segmentation.states[t];
        const auto n = static_cast<std::int64_t>(states.size());
        std::int64_t begin = 0;
        for (std::int64_t i = 1; i <= n; ++i) {
            if (i < n && states[static_cast<size_t>(i)] == states[static_cast<size_t>(begin)]) {
                continue;
            }
            out[t].push_back({begin, i, static_cast<int>(states[static_cast<size_t>(begin)])});
            begin = i;
        }
    }
    return out;
}

std::int64_t labelBackgroundRuns(const cx::ChromatinData& data,
                                 const cx::ContrastiveHmmResult& result,
                                 std::vector<std::vector<StateRun>>& runs,
                                 const cx::CancelToken& cancel) {
    const auto k = static_cast<int>(result.markProbabilities.rows());
    const int specific = result.numSpecific;
    if (specific >= k || specific == 0 || result.markProbabilities.cols() != data.numMarks()) {
        return 0;
    }
    // log P(pattern | component) for every distinct pattern: K × P, cheap (a few hundred
    // patterns), so the per-bin work is one table lookup per candidate.
    const int patterns = data.numPatterns();
    Eigen::MatrixXd logLikelihood = Eigen::MatrixXd::Zero(k, patterns);
    for (int c = 0; c < k; ++c) {
        for (int p = 0; p < patterns; ++p) {
            double sum = 0;
            for (int m = 0; m < data.numMarks(); ++m) {
                const std::uint8_t v = data.value(p, m);
                if (v > 1) {
                    continue; // missing
                }
                const double q = std::clamp(result.markProbabilities(c, m), 1e-6, 1 - 1e-6);
                sum += v == 1 ? std::log(q) : std::log1p(-q);
            }
            logLikelihood(c, p) = sum;
        }
    }
    std::int64_t relabelled = 0;
    for (size_t t = 0; t < runs.size() && t < data.tracks.size(); ++t) {
        cx::throwIfCancelled(cancel);
        const auto& bins = data.tracks[t].bins;
        std::vector<StateRun> merged;
        merged.reserve(runs[t].size());
        for (StateRun run : runs[t]) {
            Eigen::VectorXd score = Eigen::VectorXd::Zero(k);
            for (std::int64_t i = run.begin; i < run.end; ++i) {
                score += logLikelihood.col(bins[static_cast<size_t>(i)]);
            }
            int best = run.state;
            for (int b = specific; b < k; ++b) {
                if (score[b] > score[best]) {
                    best = b;
                }
            }
            if (best != run.state) {
                relabelled += run.end - run.begin;
                run.state = best;
            }
            if (!merged.empty() && merged.back().state == run.state &&
                merged.back().end == run.begin) {
                merged.back().end = run.end;
            } else {
                merged.push_back(run);
            }
        }
        runs[t] = std::move(merged);
    }
    return relabelled;
}

SegmentationState decodeSegmentation(const cx::ChromatinData& data,
                                     const cx::ContrastiveHmmResult& result,
                                     cx::DecodingMethod method, bool labelBackground,
                                     const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    const cx::Segmentation segmentation = cx::segmentTracks(data, result.hmm, method, cancel);
    cx::throwIfCancelled(cancel);
    SegmentationState out;
    out.method = method;
    out.numSpecific = segmentation.numStates;
    out.numStates = std::max(out.numSpecific, static_cast<int>(result.markProbabilities.rows()));
    out.logLikelihood = segmentation.logLikelihood;
    out.runs = segmentationRuns(segmentation);
    out.backgroundLabelled = labelBackground;
    if (labelBackground) {
        out.backgroundBins = labelBackgroundRuns(data, result, out.runs, cancel);
    }
    out.stateBins.assign(static_cast<size_t>(std::max(0, out.numStates)), 0);
    for (const auto& runs : out.runs) {
        for (const StateRun& run : runs) {
            out.stateBins[static_cast<size_t>(run.state)] += run.end - run.begin;
        }
    }
    out.decodeMs = watch.elapsedMs();
    return out;
}

EnrichmentTable computeEnrichment(const cx::ChromatinData& data,
                                  const SegmentationState& segmentation,
                                  const std::vector<AnnotationSource>& annotations,
                                  const cx::CancelToken& cancel) {
    cx::Stopwatch watch;
    EnrichmentTable table;
    table.generation = segmentation.generation;
    const int numStates = segmentation.numStates;
    const auto numAnnotations = static_cast<Eigen::Index>(annotations.size());
    table.overlap = Eigen::MatrixXd::Zero(numStates, numAnnotations);
    table.fold = Eigen::MatrixXd::Constant(numStates, numAnnotations,
                                           std::numeric_limits<double>::quiet_NaN());
    table.stateBins.assign(static_cast<size_t>(numStates), 0);
    table.annotationBins.assign(annotations.size(), 0);
    for (const auto& runs : segmentation.runs) {
        for (const StateRun& run : runs) {
            table.stateBins[static_cast<size_t>(run.state)] += run.end - run.begin;
            table.totalBins += run.end - run.begin;
        }
    }
    for (Eigen::Index a = 0; a < numAnnotations; ++a) {
        cx::throwIfCancelled(cancel);
        const AnnotationSource& source = annotations[static_cast<size_t>(a)];
        table.annotations << source.name;
        table.annotationPaths << source.path;
        if (!source.regions) {
            continue;
        }
        // classifyBins' foreground flag is exactly "overlaps at least one interval".
        const cx::BinClasses classes = cx::classifyBins(data, source.regions.get(), nullptr);
        for (size_t t = 0; t < segmentation.runs.size() && t < classes.flags.size(); ++t) {
            const auto& flags = classes.flags[t];
            for (const StateRun& run : segmentation.runs[t]) {
                std::int64_t hits = 0;
                for (std::int64_t i = run.begin; i < run.end; ++i) {
                    hits += (flags[static_cast<size_t>(i)] & cx::kForegroundBin) != 0 ? 1 : 0;
                }
                table.overlap(run.state, a) += static_cast<double>(hits);
                table.annotationBins[static_cast<size_t>(a)] += hits;
            }
        }
    }
    for (int s = 0; s < numStates; ++s) {
        for (Eigen::Index a = 0; a < numAnnotations; ++a) {
            const auto stateBins = static_cast<double>(table.stateBins[static_cast<size_t>(s)]);
            const auto annotationBins =
                static_cast<double>(table.annotationBins[static_cast<size_t>(a)]);
            if (stateBins > 0 && annotationBins > 0 && table.totalBins > 0) {
                table.fold(s, a) = (table.overlap(s, a) / stateBins) /
                                   (annotationBins / static_cast<double>(table.totalBins));
            }
        }
    }
    table.ms = watch.elapsedMs();
    return table;
}

LaneIntervals mergedLanes(const cx::BedRegions& regions) {
    LaneIntervals lanes;
    for (const auto& [chrom, intervals] : regions.byChrom) {
        std::vector<cx::BedInterval> sorted = intervals;
        std::sort(sorted.begin(), sorted.end(),
                  [](const cx::BedInterval& a, const cx::BedInterval& b) {
                      return a.start < b.start || (a.start == b.start && a.end < b.end);
                  });
        std::vector<cx::BedInterval> merged;
        for (const cx::BedInterval& interval : sorted) {
            if (!merged.empty() && interval.start <= merged.back().end) {
                merged.back().end = std::max(merged.back().end, interval.end);
            } else {
                merged.push_back(interval);
            }
        }
        lanes.byChrom.emplace(chrom, std::move(merged));
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
    WeightSweep sweep;
    Eigen::MatrixXd previous;
    for (double gamma : gammas) {
        cx::throwIfCancelled(cancel);
        const cx::ContrastiveHmmResult result =
            cx::solveContrastiveHmm(moments, gamma, options, cancel);
        const Eigen::MatrixXd& current = result.markProbabilities;
        const auto k = current.rows();
        std::vector<int> order(static_cast<size_t>(k));
        if (previous.rows() == k && previous.cols() == current.cols()) {
            order = cx::matchStates(previous, current);
        } else {
            for (Eigen::Index i = 0; i < k; ++i) {
                order[static_cast<size_t>(i)] = static_cast<int>(i);
            }
        }
        Eigen::VectorXd weights(k);
        Eigen::MatrixXd profiles(k, current.cols());
        for (Eigen::Index t = 0; t < k; ++t) {
            weights[t] = result.weights[order[static_cast<size_t>(t)]];
            profiles.row(t) = current.row(order[static_cast<size_t>(t)]);
        }
        sweep.gammas << gamma;
        sweep.weights.push_back(weights);
        sweep.profiles.push_back(profiles);
        sweep.specificInvalidMass.push_back(result.specificInvalidMass());
        previous = profiles;
    }
    return sweep;
}

QString segmentationBed9(const SegmentationState& segmentation, const QStringList& stateNames,
                         const QVector<QColor>& stateColours) {
    QString out;
    if (!segmentation.data) {
        return out;
    }
    const cx::ChromatinData& data = *segmentation.data;
    const bool trackLines = data.tracks.size() > 1;
    const std::int64_t binSize = data.binSize;
    const auto sanitize = [](QString name) {
        // BED fields are tab-separated: a name must not contain tabs or line breaks.
        name.replace(QLatin1Char('\t'), QLatin1Char(' '));
        name.replace(QLatin1Char('\n'), QLatin1Char(' '));
        name.replace(QLatin1Char('\r'), QLatin1Char(' '));
        return name.trimmed().isEmpty() ? QStringLiteral("state") : name.trimmed();
    };
    QStringList names;
    QStringList colours;
    for (int s = 0; s < segmentation.numStates; ++s) {
        names << sanitize(stateNames.value(s, QStringLiteral("E%1").arg(s + 1)));
        const QColor colour = stateColours.value(s, QColor(127, 127, 127));
        colours
            << QStringLiteral("%1,%2,%3").arg(colour.red()).arg(colour.green()).arg(colour.blue());
    }
    for (size_t t = 0; t < data.tracks.size() && t < segmentation.runs.size(); ++t) {
        const cx::ChromatinTrack& track = data.tracks[t];
        const QString chrom = QString::fromStdString(track.chrom);
        if (trackLines) {
            out += QStringLiteral("track name=\"%1\" description=\"Contrast Explorer states (%1, "
                                  "%2, %3)\" itemRgb=\"On\"\n")
                       .arg(QString::fromStdString(track.cell), chrom,
                            QString::fromLatin1(cx::toString(segmentation.method)));
        }
        for (const StateRun& run : segmentation.runs[t]) {
            const QString start = QString::number(run.begin * binSize);
            const QString end = QString::number(run.end * binSize);
            out += chrom + QLatin1Char('\t') + start + QLatin1Char('\t') + end + QLatin1Char('\t') +
                   names.value(run.state) + QStringLiteral("\t0\t.\t") + start + QLatin1Char('\t') +
                   end + QLatin1Char('\t') + colours.value(run.state) + QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace cx::ui
