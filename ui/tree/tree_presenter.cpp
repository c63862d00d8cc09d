#include "ui/tree/tree_presenter.h"

#include "core/common/error.h"

#include <QObject>

#include <algorithm>
#include <cstring>
#include <functional>
#include <sstream>

namespace cx::ui {

QString treeSpecProblem(const QString& text, const QStringList& cells) {
    cx::TreeSpec tree;
    try {
        tree = cx::parseTreeSpec(text.toStdString());
    } catch (const cx::InputError& error) {
        return QString::fromStdString(error.what());
    }
    if (cells.isEmpty()) {
        return {};
    }
    QStringList missing;
    for (const auto& name : tree.names) {
        if (!cells.contains(QString::fromStdString(name))) {
            missing << QString::fromStdString(name);
        }
    }
    if (missing.isEmpty()) {
        return {};
    }
    return QStringLiteral("no tracks for: %1 (have: %2)")
        .arg(missing.join(QStringLiteral(", ")), cells.join(QStringLiteral(", ")));
}

QString cellOfTrackFile(const QString& fileName) {
    QString name = fileName.section(QLatin1Char('/'), -1);
    for (const char* suffix : {"_binary.txt.gz", "_binary.txt"}) {
        if (name.endsWith(QLatin1String(suffix))) {
            name.chop(static_cast<int>(std::strlen(suffix)));
            break;
        }
    }
    const int chrom = name.lastIndexOf(QLatin1String("_chr"));
    return chrom > 0 ? name.left(chrom) : name;
}

QStringList cellsOfTrackFiles(const QStringList& files) {
    QStringList cells;
    for (const QString& file : files) {
        const QString cell = cellOfTrackFile(file);
        if (!cells.contains(cell)) {
            cells << cell;
        }
    }
    return cells;
}

QString defaultTreeText(const QStringList& cells) {
    if (cells.isEmpty()) {
        return {};
    }
    QStringList sorted = cells;
    sorted.sort();
    const QString root =
        sorted.contains(QStringLiteral("H1-hESC")) ? QStringLiteral("H1-hESC") : sorted.front();
    sorted.removeAll(root);
    return sorted.isEmpty() ? root : root + QLatin1Char('>') + sorted.join(QLatin1Char(','));
}

std::vector<TreeNodePlace> layOutTree(const cx::TreeSpec& tree) {
    const int n = tree.numNodes();
    std::vector<TreeNodePlace> places(static_cast<size_t>(n));
    if (n == 0) {
        return places;
    }
    int leaves = 0;
    for (int v = 0; v < n; ++v) {
        leaves += tree.children(v).empty() ? 1 : 0;
    }
    int nextLeaf = 0;
    std::function<void(int, int)> place = [&](int v, int depth) {
        auto& node = places[static_cast<size_t>(v)];
        node.name = QString::fromStdString(tree.names[static_cast<size_t>(v)]);
        node.parent = tree.parent[static_cast<size_t>(v)];
        node.depth = depth;
        const auto children = tree.children(v);
        if (children.empty()) {
            node.x = (nextLeaf + 0.5) / leaves;
            ++nextLeaf;
            return;
        }
        for (int child : children) {
            place(child, depth + 1);
        }
        node.x = (places[static_cast<size_t>(children.front())].x +
                  places[static_cast<size_t>(children.back())].x) /
                 2;
    };
    place(0, 0);
    return places;
}

int treeDepth(const std::vector<TreeNodePlace>& places) {
    int depth = 0;
    for (const auto& place : places) {
        depth = std::max(depth, place.depth);
    }
    return depth;
}

StateMatrixModel::Content emissionContent(const Eigen::MatrixXd& emissions,
                                          const std::vector<std::string>& marks,
                                          const std::vector<int>& slotStates,
                                          const QStringList& names,
                                          const QVector<QColor>& colours) {
    StateMatrixModel::Content content;
    const auto rows = static_cast<Eigen::Index>(slotStates.size());
    content.values.resize(rows, emissions.cols());
    for (Eigen::Index r = 0; r < rows; ++r) {
        content.values.row(r) = emissions.row(slotStates[static_cast<size_t>(r)]);
        content.rowSlots.push_back(static_cast<int>(r));
    }
    content.rowLabels = names;
    content.rowColours = colours;
    for (const auto& mark : marks) {
        content.columnLabels << QString::fromStdString(mark);
    }
    content.valueName = QStringLiteral("P(present)");
    return content;
}

std::shared_ptr<const cx::ChromatinData> combinedTrackData(const cx::MultiCellTracks& tracks) {
    auto data = std::make_shared<cx::ChromatinData>();
    data->markNames = tracks.markNames;
    data->binSize = tracks.binSize;
    for (int c = 0; c < tracks.numCells(); ++c) {
        cx::ChromatinData cell = tracks.cellData(c);
        const auto offset = static_cast<std::uint32_t>(data->patternCounts.size());
        for (auto& track : cell.tracks) {
            for (auto& bin : track.bins) {
                bin += offset;
            }
            data->tracks.push_back(std::move(track));
        }
        data->patternValues.insert(data->patternValues.end(), cell.patternValues.begin(),
                                   cell.patternValues.end());
        data->patternCounts.insert(data->patternCounts.end(), cell.patternCounts.begin(),
                                   cell.patternCounts.end());
    }
    return data;
}

SegmentationHandle combinedRuns(const cx::TreeSegmentation& segmentation, int numStates,
                                std::shared_ptr<const cx::ChromatinData> data) {
    auto out = std::make_shared<SegmentationState>();
    out->numStates = numStates;
    out->numSpecific = numStates;
    out->stateBins.assign(static_cast<size_t>(numStates), 0);
    out->logLikelihood = segmentation.logLikelihood;
    for (const auto& cell : segmentation.states) {
        for (const auto& bins : cell) {
            std::vector<cx::StateRun> runs;
            for (size_t t = 0; t < bins.size(); ++t) {
                const int state = bins[t];
                out->stateBins[static_cast<size_t>(state)] += 1;
                if (!runs.empty() && runs.back().state == state) {
                    runs.back().end = static_cast<std::int64_t>(t) + 1;
                } else {
                    runs.push_back(
                        {static_cast<std::int64_t>(t), static_cast<std::int64_t>(t) + 1, state});
                }
            }
            out->runs.push_back(std::move(runs));
        }
    }
    out->data = std::move(data);
    return out;
}

std::shared_ptr<const LaneIntervals> differingLane(const cx::MultiCellTracks& tracks,
                                                   const cx::TreeSegmentation& segmentation,
                                                   int cell) {
    auto lane = std::make_shared<LaneIntervals>();
    for (const auto& change : cx::stateChanges(segmentation, cell, 0)) {
        auto& list = lane->byChrom[tracks.chroms[static_cast<size_t>(change.chrom)]];
        const std::int64_t begin = change.begin * tracks.binSize;
        const std::int64_t end = change.end * tracks.binSize;
        cx::appendMerged(list, {begin, end});
    }
    return lane;
}

QString differingRegionsBed(const cx::MultiCellTracks& tracks,
                            const cx::TreeSegmentation& segmentation, int cell,
                            const std::vector<std::string>& labels) {
    std::ostringstream out;
    cx::writeStateChangesBed(out, tracks, cx::stateChanges(segmentation, cell, 0), labels);
    return QString::fromStdString(out.str());
}

Provenance treeProvenance(const TreeLearnRequest& request) {
    const cx::SpectralTreeOptions& options = request.options;
    Provenance provenance;
    provenance.addFiles(QObject::tr("cell-type tracks"), request.trackPaths)
        .add(QObject::tr("tree"), request.treeText)
        .add(QObject::tr("bin size"), request.binSize)
        .add(QObject::tr("strict marks"),
             request.strictMarks ? QObject::tr("on") : QObject::tr("off"))
        .add(QObject::tr("K"), options.numStates)
        .add(QObject::tr("decomposition"), QString::fromLatin1(cx::toString(options.decomposition)))
        .add(QObject::tr("seed"), static_cast<qint64>(options.seed))
        .add(QObject::tr("starts"), options.starts)
        .add(QObject::tr("moment refit"),
             options.momentFitSweeps < 0 ? QObject::tr("off")
                                         : QObject::tr("%1 sweeps").arg(options.momentFitSweeps))
        .add(QObject::tr("decode"), QString::fromLatin1(cx::toString(request.decode)))
        .add(QObject::tr("per-cell HMMs"),
             request.comparePerCell ? QObject::tr("on") : QObject::tr("off"))
        .addFiles(QObject::tr("TSS file"), {request.tssPath})
        .add(QObject::tr("flank"), request.flank)
        .add(QObject::tr("promoter state"), request.promoterState > 0
                                                ? QString::number(request.promoterState)
                                                : QObject::tr("auto"));
    return provenance;
}

QString startsSummary(const cx::SpectralTreeResult& learned) {
    if (learned.nodes.empty()) {
        return {};
    }
    const cx::SpectralTreeNodeReport* widest = &learned.nodes.front();
    for (const auto& node : learned.nodes) {
        if (node.starts.emissionSpread > widest->starts.emissionSpread) {
            widest = &node;
        }
    }
    const int starts = widest->starts.starts();
    if (starts <= 1) {
        return QObject::tr("One start per cell type.");
    }
    return QObject::tr("%1 starts per cell type, lowest moment residual kept; the starts' states "
                       "differ from the kept ones by up to %2 (mean |Δp|, %3).")
        .arg(starts)
        .arg(widest->starts.emissionSpread, 0, 'f', 3)
        .arg(QString::fromStdString(widest->cell));
}

QStringList promoterInputNames() {
    return {QObject::tr("TSS file"), QObject::tr("flank"), QObject::tr("promoter state"),
            QObject::tr("per-cell HMMs")};
}

} // namespace cx::ui
