#include "ui/chromatin/chromatin_worker.h"

#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/timer.h"

#include <QFileInfo>
#include <QLocale>

#include <filesystem>
#include <stdexcept>

namespace cx::ui {

namespace {

/// The union of several annotations' intervals as one BedRegions (what classifyBins takes).
cx::BedRegions unionOf(const std::vector<AnnotationSource>& sources) {
    cx::BedRegions out;
    for (const AnnotationSource& source : sources) {
        if (!source.regions) {
            continue;
        }
        for (const auto& [chrom, intervals] : source.regions->byChrom) {
            auto& target = out.byChrom[chrom];
            target.insert(target.end(), intervals.begin(), intervals.end());
        }
        out.sources.insert(out.sources.end(), source.regions->sources.begin(),
                           source.regions->sources.end());
        out.numIntervals += source.regions->numIntervals;
    }
    return out;
}

std::string fileNames(const QStringList& paths) {
    QStringList names;
    for (const QString& path : paths) {
        names << QFileInfo(path).fileName();
    }
    return names.join(QStringLiteral(", ")).toStdString();
}

std::string chromosomes(const cx::ChromatinData& data) {
    std::vector<std::string> seen;
    for (const auto& track : data.tracks) {
        if (std::find(seen.begin(), seen.end(), track.chrom) == seen.end()) {
            seen.push_back(track.chrom);
        }
    }
    std::string out;
    for (const auto& chrom : seen) {
        out += (out.empty() ? "" : ", ") + chrom;
    }
    return out;
}

} // namespace

void ChromatinWorker::load(const LoadTracksRequest& request) {
    const QString first = request.reads && request.binarize ? request.reads->inputFiles().value(0)
                                                            : request.paths.value(0);
    const QString outOfMemory =
        QStringLiteral("%1: not enough memory to load these tracks").arg(first);
    runTask(request.generation, outOfMemory, [&] {
        cx::Stopwatch watch;
        const cx::ProgressFn progress = progressReporter(request.generation);
        ChromatinDataHandle handle;
        handle.paths = request.paths;
        handle.reads = request.reads;
        const bool binarize = request.reads && request.binarize;
        if (binarize) {
            // Reads first: binarization is most of the work (90 % of the bar).
            handle.paths = cx::ui::binarizeReads(
                *request.reads, request.cancel,
                [&](double fraction, const char* phase) { progress(0.9 * fraction, phase); });
            handle.binarizeMs = watch.elapsedMs();
            watch.restart();
        }
        std::vector<std::string> paths;
        for (const QString& path : handle.paths) {
            paths.push_back(path.toStdString());
        }
        cx::ChromHmmReadOptions options;
        options.binSize = binarize ? request.reads->options.binSize : request.binSize;
        handle.data = std::make_shared<const cx::ChromatinData>(cx::readChromHmmTracks(
            paths, options, request.cancel,
            binarize ? cx::ProgressFn([&](double fraction, const char* phase) {
                progress(0.9 + 0.1 * fraction, phase);
            })
                     : progress));
        handle.loadMs = watch.elapsedMs();
        emit loaded(request.generation, handle);
    });
}

MomentsState ChromatinWorker::buildMoments(const MomentsRequest& request,
                                           const cx::ProgressFn& progress) {
    if (!request.data) {
        throw std::invalid_argument("buildMoments: no tracks");
    }
    const cx::ChromatinData& data = *request.data;
    cx::Stopwatch watch;
    if (progress) {
        progress(0.0, "classifying bins");
    }
    const cx::BedRegions foreground = unionOf(request.foreground);
    const cx::BedRegions background = unionOf(request.background);
    const auto classesHandle = std::make_shared<const cx::BinClasses>(
        cx::classifyBins(data, request.choice.foreground.isEmpty() ? nullptr : &foreground,
                         request.choice.background.isEmpty() ? nullptr : &background));
    const cx::BinClasses& classes = *classesHandle;
    MomentsState state;
    state.classifyMs = watch.elapsedMs();
    if (classes.foregroundBins == 0) {
        const QStringList& files = request.choice.foreground.isEmpty() ? request.choice.background
                                                                       : request.choice.foreground;
        throw cx::InputError(fileNames(files), 0,
                             request.choice.foreground.isEmpty()
                                 ? "the background covers every bin, so the foreground is empty"
                                 : "empty foreground: no bin of the tracks (" + chromosomes(data) +
                                       ") overlaps these regions; check the chromosome names");
    }
    cx::throwIfCancelled(request.cancel);
    watch.restart();
    cx::SequenceMomentOptions options;
    options.encoding = request.encoding;
    auto moments = std::make_shared<cx::SequenceMoments>(
        cx::computeSequenceMoments(data, classes, options, request.cancel, progress));
    if (moments->foreground.numTriples == 0) {
        throw cx::InputError(fileNames(request.choice.foreground), 0,
                             "empty foreground: no run of 3 consecutive foreground bins without "
                             "missing marks");
    }
    state.momentsMs = watch.elapsedMs();
    state.moments = std::move(moments);
    state.data = request.data;
    state.choice = request.choice;
    state.encoding = request.encoding;
    state.totalBins = data.totalBins();
    state.foregroundBins = classes.foregroundBins;
    state.backgroundBins = classes.backgroundBins;
    state.classes = classesHandle;
    state.warnings = summarizeWarnings(classes.warnings);
    if (!request.choice.isWholeGenome() && state.moments->background.numTriples == 0) {
        state.warnings << QStringLiteral("the background has no run of 3 consecutive bins: γ "
                                         "has nothing to subtract");
    }
    return state;
}

void ChromatinWorker::computeMoments(const MomentsRequest& request) {
    const QString outOfMemory =
        QStringLiteral("not enough memory to compute the moments of this choice");
    runTask(request.generation, outOfMemory, [&] {
        emit momentsReady(request.generation,
                          buildMoments(request, progressReporter(request.generation)));
    });
}

void ChromatinWorker::solve(const HmmSolveRequest& request) {
    runSolve(request.generation, request.epoch, [&] {
        cx::Stopwatch watch;
        const cx::ContrastiveHmmOptions options =
            request.start ? request.start->options(request.cancel) : request.parameters.toOptions();
        HmmSolution solution;
        solution.generation = request.generation;
        solution.epoch = request.epoch;
        solution.gamma = request.gamma;
        solution.parameters = request.parameters;
        solution.moments = request.moments;
        std::shared_ptr<const cx::ContrastiveHmmResult> result;
        if (request.path) {
            bool continued = false;
            result = std::make_shared<const cx::ContrastiveHmmResult>(
                cx::solveOnPath(*request.moments->moments, *request.path, request.gamma, options,
                                request.cancel, &continued));
            solution.onPath = true;
            solution.continued = continued;
        } else {
            result = std::make_shared<const cx::ContrastiveHmmResult>(cx::solveContrastiveHmm(
                *request.moments->moments, request.gamma, options, request.cancel));
        }
        solution.solveMs = result->elapsedMs;
        if (request.withReference) {
            solution.reference =
                request.gamma == 0.0
                    ? result
                    : std::make_shared<const cx::ContrastiveHmmResult>(cx::solveContrastiveHmm(
                          *request.moments->moments, 0.0, options, request.cancel));
        }
        solution.result = std::move(result);
        solution.requestedAtMs = request.requestedAtMs;
        solution.workerMs = watch.elapsedMs();
        emit solved(solution);
    });
}

} // namespace cx::ui
