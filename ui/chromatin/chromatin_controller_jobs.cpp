// ChromatinController: the thread-pool jobs that follow the shown solution — decoding and
// enrichment of the segmentation, the weights-vs-γ sweep and its block bootstrap, and the
// Baum–Welch refinement of the γ = 0 model. (Loading, moments and the solves are in
// chromatin_controller.cpp.)
#include "ui/chromatin/chromatin_controller.h"

#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/error.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <functional>

namespace cx::ui {

void ChromatinController::scheduleDecode() {
    if (!m_shown.isValid() || isSolving()) {
        return;
    }
    if (m_segmentation && m_segmentation->generation == m_shown.generation &&
        m_segmentation->method == m_decoding &&
        m_segmentation->backgroundLabelled == m_labelBackground && !m_decodeJob.running) {
        return; // the shown model is decoded already
    }
    m_decodeTimer.start();
    emit activityChanged();
}

void ChromatinController::cancelDecode() {
    m_decodeTimer.stop();
    m_decodeJob.stop();
    m_enrichmentJob.stop();
}

void ChromatinController::startDecode() {
    if (!m_shown.isValid() || isSolving()) {
        emit activityChanged();
        return;
    }
    cancelDecode();
    const quint64 generation = m_decodeJob.restart();
    if (m_shown.result->numSpecific == 0) {
        // Nothing to decode with: every component is background-like at this γ.
        m_segmentation.reset();
        m_enrichment.reset();
        emit segmentationChanged(m_segmentation);
        emit activityChanged();
        return;
    }
    ++m_stats.decodesStarted;
    const auto data = m_shown.moments->data;
    const auto result = m_shown.result;
    const quint64 solutionGeneration = m_shown.generation;
    const cx::DecodingMethod method = m_decoding;
    const bool label = m_labelBackground;
    const auto classes = m_shown.moments->classes;
    startJob(
        m_decodePool, m_decodeJob, generation,
        [data, result, classes, solutionGeneration, method, label](const cx::CancelToken& cancel) {
            // A pass over every bin of every track (hundreds of ms on a whole chromosome),
            // never on the GUI thread.
            auto state = std::make_shared<SegmentationState>(
                cx::ui::decodeSegmentation(*data, *result, method, label, cancel));
            state->generation = solutionGeneration;
            state->data = data;
            if (classes) {
                state->contrast = cx::decodedContrast(*state, *classes, *result);
            }
            return SegmentationHandle(std::move(state));
        },
        [this](SegmentationHandle segmentation, const QString& error) {
            if (!error.isEmpty()) {
                emit errorOccurred(tr("Could not decode the segmentation"), error);
                emit activityChanged();
                return;
            }
            m_segmentation = std::move(segmentation);
            ++m_stats.decodesShown;
            emit segmentationChanged(m_segmentation);
            startEnrichment();
            emit activityChanged();
        });
    emit activityChanged();
}

void ChromatinController::startEnrichment() {
    const quint64 generation = m_enrichmentJob.restart();
    if (!m_segmentation) {
        return;
    }
    std::vector<AnnotationSource> sources;
    for (const QString& path : m_enrichmentPaths) {
        if (const AnnotationSource* source = annotation(path)) {
            sources.push_back(*source);
        }
    }
    const SegmentationHandle segmentation = m_segmentation;
    startJob(
        m_decodePool, m_enrichmentJob, generation,
        [segmentation, sources](const cx::CancelToken& cancel) {
            // After any decode queued before it: one pass over the bins per annotation.
            return computeEnrichment(*segmentation->data, *segmentation, sources, cancel);
        },
        [this](const EnrichmentTable& table, const QString& error) {
            if (!error.isEmpty()) {
                emit errorOccurred(tr("Could not compute the enrichment"), error);
            } else {
                m_enrichment = table;
                ++m_stats.enrichmentsShown;
                emit enrichmentChanged(table);
            }
            emit activityChanged();
        });
    emit activityChanged();
}

bool ChromatinController::hasCurrentPath() const {
    return m_sweep.path && m_sweep.epoch == m_solves.epoch() && !m_sweepJob.running &&
           momentsFit() && m_moments->classes && m_moments->data;
}

int ChromatinController::bandReplicates() const {
    if (m_bootstrapJob.running) {
        return m_bootstrapReplicates;
    }
    return m_sweep.bootstrap ? m_sweep.bootstrap->replicates : 0;
}

int ChromatinController::bandBlockLength() const {
    if (m_bootstrapJob.running) {
        return m_bootstrapBlockLength;
    }
    return m_sweep.bootstrap ? m_bandBlockLength : 0;
}

void ChromatinController::startBootstrap(int replicates, int blockLength) {
    const quint64 generation = m_bootstrapJob.restart();
    if (!m_sweep.path || m_sweep.epoch != m_solves.epoch() || !momentsFit() ||
        !m_moments->classes || !m_moments->data) {
        emit bootstrapFailed(tr("Wait for the weights-vs-γ sweep: the bootstrap resamples its "
                                "path"));
        return;
    }
    if (replicates < 2 || replicates > cx::kMaxHmmBootstrapReplicates) {
        emit bootstrapFailed(
            tr("The bootstrap needs 2 to %1 resamples").arg(cx::kMaxHmmBootstrapReplicates));
        return;
    }
    if (blockLength < 0) {
        emit bootstrapFailed(tr("The block length must be 0 (automatic) or positive"));
        return;
    }
    m_bootstrapBlockLength = blockLength;
    const auto moments = m_moments;
    const auto path = m_sweep.path;
    const auto start = keptStart();
    const std::uint64_t seed = m_parameters.seed;
    startBootstrapJob(
        m_sweepPool, generation, replicates,
        [moments, path, start, seed, replicates, blockLength](
            const cx::CancelToken& cancel, const std::function<void(int, int)>& progress) {
            const cx::ContrastiveHmmOptions options = start->options(cancel); // the path's
            const cx::HmmBlockMoments blocks = cx::computeBlockMoments(
                *moments->data, *moments->classes, *moments->moments, blockLength, cancel);
            cx::HmmBootstrapOptions bootstrap;
            bootstrap.replicates = replicates;
            bootstrap.seed = seed; // as `hmm --bootstrap`: the resamples from the user's seed
            bootstrap.blockLength = blockLength;
            return std::make_shared<const cx::HmmPathBootstrap>(cx::bootstrapHmmPath(
                blocks, *path, options, bootstrap, cx::HmmPathStarts::Continued, cancel, progress));
        },
        [this, path, blockLength](std::shared_ptr<const cx::HmmPathBootstrap> result,
                                  const QString& error) {
            if (result && error.isEmpty() && m_sweep.path == path) {
                m_sweep.bootstrap = std::move(result);
                m_bandBlockLength = blockLength;
                emit bootstrapFinished();
                emit sweepChanged(m_sweep);
            } else {
                emit bootstrapFailed(error.isEmpty() ? tr("The sweep changed; bootstrap again")
                                                     : error);
            }
        });
}

void ChromatinController::restartSweep() {
    cancelBootstrap(); // its path is about to be superseded
    const quint64 generation = m_sweepJob.restart();
    m_sweep = {};
    if (!momentsFit() || m_sweepGammas.isEmpty() || !m_moments->hasBackground()) {
        // Without a background every γ gives the same model: nothing to sweep.
        emit sweepChanged(m_sweep);
        emit activityChanged();
        return;
    }
    ++m_stats.sweepsStarted;
    const auto moments = m_moments;
    const QVector<double> gammas = m_sweepGammas;
    const auto start = keptStart();
    const quint64 epoch = m_solves.epoch();
    startJob(
        m_sweepPool, m_sweepJob, generation,
        [moments, gammas, start, epoch](const cx::CancelToken& cancel) {
            WeightSweep sweep = cx::ui::sweepStateWeights(*moments->moments, gammas,
                                                          start->options(cancel), cancel);
            sweep.epoch = epoch;
            return sweep;
        },
        [this](const WeightSweep& sweep, const QString& /*error*/) {
            // A failing sweep (e.g. an impossible K) is reported by the γ solve itself; the
            // chart just stays empty.
            m_sweep = sweep;
            emit sweepChanged(m_sweep);
            // The shown model was solved before the path existed: show the path's solution.
            if (m_sweep.path && m_sweep.epoch == m_solves.epoch() &&
                !(m_shown.isValid() && m_shown.onPath && m_shown.epoch == m_sweep.epoch)) {
                requestSolve();
            }
            emit activityChanged();
        });
    emit sweepChanged(m_sweep);
    emit activityChanged();
}

void ChromatinController::resetRefinement() {
    m_refineJob.stop();
    if (m_refinement) {
        m_refinement.reset();
        emit refinementChanged();
    }
}

void ChromatinController::startRefinement() {
    const quint64 generation = m_refineJob.restart();
    const bool had = m_refinement != nullptr;
    m_refinement.reset();
    if (had) {
        emit refinementChanged();
    }
    if (m_parameters.refineEm <= 0 || !m_reference || m_referenceEpoch != m_solves.epoch() ||
        !momentsFit() || !m_moments->data) {
        emit activityChanged();
        return;
    }
    const auto moments = m_moments;
    const auto reference = m_reference;
    const quint64 epoch = m_solves.epoch();
    const int maxRounds = m_parameters.refineEm;
    const double tolerance = m_parameters.refineTolerance;
    const auto start = keptStart();
    const bool marks = m_parameters.encoding == cx::ObservationEncoding::MarkVector;
    // The start must account for the data (an HMM whose weights sum to 1, with the unmarked
    // state when the data have one): the moment selection supplies it (marks only).
    const bool reuse = !marks || m_parameters.momentFit >= 0;
    std::function<void(int)> progress = [this, generation, maxRounds](int round) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, round, maxRounds] {
                if (m_refineJob.isCurrent(generation)) {
                    emit refinementProgress(round, maxRounds);
                }
            },
            Qt::QueuedConnection);
    };
    startJob(
        m_refinePool, m_refineJob, generation,
        [moments, reference, epoch, maxRounds, tolerance, start, reuse,
         progress](const cx::CancelToken& cancel) {
            auto out = std::make_shared<ReferenceRefinement>();
            out->epoch = epoch;
            out->maxRounds = maxRounds;
            out->tolerance = tolerance;
            if (reuse) {
                out->start = reference;
            } else {
                cx::ContrastiveHmmOptions options = start->options(cancel);
                options.momentRefitSweeps = 0; // marks without the refit (reuse otherwise)
                out->start = std::make_shared<const cx::ContrastiveHmmResult>(
                    cx::solveContrastiveHmm(*moments->moments, 0.0, options, cancel));
            }
            if (out->start->numSpecific == 0) {
                throw cx::InputError("no state with positive weight at γ = 0 to refine");
            }
            const cx::ChromatinData& data = *moments->data;
            const std::vector<cx::BinRun> runs = foregroundRuns(*moments);
            out->model = cx::refineWithBaumWelch(
                data, runs, out->start->hmm, maxRounds, tolerance, cancel,
                [&](double fraction, const char*) {
                    progress(static_cast<int>(std::lround(fraction * maxRounds)));
                });
            return std::shared_ptr<const ReferenceRefinement>(std::move(out));
        },
        [this](std::shared_ptr<const ReferenceRefinement> result, const QString& error) {
            if (!error.isEmpty() || !result) {
                emit errorOccurred(tr("Could not refine the γ = 0 model"), error);
            } else {
                m_refinement = std::move(result);
            }
            emit refinementChanged();
            emit activityChanged();
        });
    emit refinementStarted(maxRounds);
    emit activityChanged();
}

} // namespace cx::ui
