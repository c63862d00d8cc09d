// Google Benchmark suite for the contrastive HMM on the full ChromHMM chr11 sample (GM12878 +
// K562, 1,344,522 bins). Not part of ctest. Needs ../shared/data/chromhmm_hg18_chr11; every
// benchmark is skipped with a message if it is absent. Run, e.g.:
//   ./build/tests/cx_bench --benchmark_filter=Hmm --benchmark_counters_tabular=true
//   ./build/tests/cx_bench --benchmark_filter=HmmChr11SpectralVsEm   (the full comparison
//       against 12 EM runs, whole genome (/0) and genes ∪ TSS±2kb foreground (/1); prints the
//       emission matrices and every number of the report to stdout)
//   ./build/tests/cx_bench --benchmark_filter=HmmChr11Variants       (lags, windows, pooled
//       lags, ALS, Jennrich, whitening: MAD to the best EM run, gaps after 10/20 EM rounds)
//   ./build/tests/cx_bench --benchmark_filter=HmmChr11Contrast       (fg = genes ∪ TSS±2kb)
#include "core/common/timer.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

using namespace cx;

const std::string kDir = std::string(CX_SHARED_DATA_DIR) + "/chromhmm_hg18_chr11/";

std::vector<std::string> trackPaths() {
    return {kDir + "GM12878_chr11_binary.txt.gz", kDir + "K562_chr11_binary.txt.gz"};
}

std::vector<std::string> foregroundPaths() {
    return {kDir + "COORDS/hg18/RefSeqGene.hg18.bed.gz",
            kDir + "COORDS/hg18/RefSeqTSS2kb.hg18.bed.gz"};
}

bool haveData(benchmark::State& state) {
    if (!std::filesystem::exists(trackPaths()[0])) {
        state.SkipWithError(("missing " + trackPaths()[0]).c_str());
        return false;
    }
    return true;
}

const ChromatinData& chr11() {
    static std::once_flag once;
    static std::unique_ptr<ChromatinData> data;
    std::call_once(
        once, [] { data = std::make_unique<ChromatinData>(readChromHmmTracks(trackPaths())); });
    return *data;
}

const SequenceMoments& chr11Moments(bool contrast) {
    static std::mutex mutex;
    static std::unique_ptr<SequenceMoments> cached[2];
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cached[contrast ? 1 : 0];
    if (!slot) {
        const BedRegions fg = readBedFiles(foregroundPaths());
        const BinClasses classes = classifyBins(chr11(), contrast ? &fg : nullptr, nullptr);
        slot = std::make_unique<SequenceMoments>(computeSequenceMoments(chr11(), classes));
    }
    return *slot;
}

void printMatrix(const char* title, const std::vector<std::string>& marks,
                 const Eigen::VectorXd& weights, const Eigen::MatrixXd& emissions) {
    std::printf("%s\n%-8s %8s", title, "state", "weight");
    for (const auto& mark : marks) {
        std::printf(" %8s", mark.c_str());
    }
    std::printf("\n");
    for (Eigen::Index k = 0; k < emissions.rows(); ++k) {
        std::printf("E%-7d %8.4f", static_cast<int>(k + 1), weights.size() > k ? weights[k] : 0.0);
        for (Eigen::Index j = 0; j < emissions.cols(); ++j) {
            std::printf(" %8.3f", emissions(k, j));
        }
        std::printf("\n");
    }
}

void BM_HmmChr11Load(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    for (auto _ : state) {
        ChromatinData data = readChromHmmTracks(trackPaths());
        benchmark::DoNotOptimize(data.tracks.data());
    }
    state.counters["bins"] = static_cast<double>(chr11().totalBins());
}
BENCHMARK(BM_HmmChr11Load)->Unit(benchmark::kMillisecond);

/// Loading + regions + moments from the files, as the CLI and GUI do (arg: 1 = genes ∪ TSS±2kb
/// foreground with the default background).
void BM_HmmChr11LoadAndMoments(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    for (auto _ : state) {
        ChromatinData data = readChromHmmTracks(trackPaths());
        BedRegions fg;
        if (state.range(0) == 1) {
            fg = readBedFiles(foregroundPaths());
        }
        const BinClasses classes = classifyBins(data, state.range(0) == 1 ? &fg : nullptr, nullptr);
        SequenceMoments moments = computeSequenceMoments(data, classes);
        benchmark::DoNotOptimize(moments.foreground.numTriples);
    }
}
BENCHMARK(BM_HmmChr11LoadAndMoments)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

/// Moments only, from loaded data (the "learning" part the spectral method adds to a load).
void BM_HmmChr11Moments(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const BinClasses classes = classifyBins(chr11(), nullptr, nullptr);
    for (auto _ : state) {
        SequenceMoments moments = computeSequenceMoments(chr11(), classes);
        benchmark::DoNotOptimize(moments.foreground.numTriples);
    }
}
BENCHMARK(BM_HmmChr11Moments)->Unit(benchmark::kMillisecond);

/// Per-γ update once moments are cached: args K, γ×100 (contrast moments).
void BM_HmmChr11SolveGamma(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const SequenceMoments& moments = chr11Moments(true);
    ContrastiveHmmOptions options;
    options.numComponents = static_cast<int>(state.range(0));
    const double gamma = static_cast<double>(state.range(1)) / 100.0;
    int specific = 0;
    for (auto _ : state) {
        const auto result = solveContrastiveHmm(moments, gamma, options);
        specific = result.numSpecific;
        benchmark::DoNotOptimize(result.weights.data());
    }
    state.counters["specific"] = specific;
}
BENCHMARK(BM_HmmChr11SolveGamma)
    ->Args({7, 0})
    ->Args({7, 50})
    ->Args({7, 100})
    ->Args({10, 0})
    ->Args({10, 100})
    ->Unit(benchmark::kMillisecond);

/// One Baum–Welch iteration (E + M step) over all bins, K = 7.
void BM_HmmChr11EmIteration(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const auto runs = wholeTrackRuns(chr11());
    const HmmParameters init = randomHmm(7, chr11(), ObservationEncoding::MarkVector, 1);
    BaumWelchOptions options;
    options.maxIterations = 1;
    options.tolerance = 0;
    for (auto _ : state) {
        const auto result = baumWelch(chr11(), runs, init, options);
        benchmark::DoNotOptimize(result.logLikelihoods.data());
    }
}
BENCHMARK(BM_HmmChr11EmIteration)->Unit(benchmark::kMillisecond);

/// Baum–Welch EM from random starts (seeds 1 … kEmSeeds) to convergence (relative
/// log-likelihood gain < 1e-5) on the same sequences the CLI uses (whole tracks, or the
/// foreground runs), same Bernoulli emission model. Computed once per process and region choice.
constexpr int kEmSeeds = 12;

struct EmReference {
    int seed = 0;
    BaumWelchResult result;
};

const std::vector<EmReference>& emReferences(bool contrast) {
    static std::mutex mutex;
    static std::unique_ptr<std::vector<EmReference>> cached[2];
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cached[contrast ? 1 : 0];
    if (!slot) {
        slot = std::make_unique<std::vector<EmReference>>();
        const ChromatinData& data = chr11();
        const BedRegions fg = readBedFiles(foregroundPaths());
        const BinClasses classes = classifyBins(data, contrast ? &fg : nullptr, nullptr);
        const auto runs =
            contrast ? runsWithFlag(data, classes, kForegroundBin, false) : wholeTrackRuns(data);
        for (int seed = 1; seed <= kEmSeeds; ++seed) {
            BaumWelchOptions options;
            options.tolerance = 1e-5;
            options.maxIterations = 2000;
            slot->push_back({seed, baumWelch(data, runs,
                                             randomHmm(7, data, ObservationEncoding::MarkVector,
                                                       static_cast<std::uint64_t>(seed)),
                                             options)});
        }
    }
    return *slot;
}

std::vector<BinRun> emSequences(bool contrast) {
    const BedRegions fg = readBedFiles(foregroundPaths());
    const BinClasses classes = classifyBins(chr11(), contrast ? &fg : nullptr, nullptr);
    return contrast ? runsWithFlag(chr11(), classes, kForegroundBin, false)
                    : wholeTrackRuns(chr11());
}

/// Index of the EM run with the highest log-likelihood.
size_t bestEm(const std::vector<EmReference>& ems) {
    size_t best = 0;
    for (size_t i = 1; i < ems.size(); ++i) {
        if (ems[i].result.finalLogLikelihood() > ems[best].result.finalLogLikelihood()) {
            best = i;
        }
    }
    return best;
}

struct SpectralScore {
    double madBest = 0;
    double madMean = 0;
    std::vector<double> mads;           ///< per EM seed
    std::vector<double> logLikelihoods; ///< spectral + 0 … rounds EM rounds
};

/// Emission MAD (Hungarian-matched) of the spectral K = 7 components against every EM run, and
/// the log-likelihood of spectral + n EM rounds (n = 0 … rounds, EM started from
/// smoothedForEm of the spectral HMM).
SpectralScore scoreSpectral(const ContrastiveHmmResult& spectral, bool contrast, int rounds) {
    const auto& ems = emReferences(contrast);
    SpectralScore score;
    for (const auto& em : ems) {
        score.mads.push_back(
            matchedMeanAbsoluteDifference(em.result.hmm.emissions, spectral.markProbabilities));
        score.madMean += score.mads.back() / static_cast<double>(ems.size());
    }
    score.madBest = score.mads[bestEm(ems)];
    if (rounds > 0 && spectral.hmm.numStates() > 0) {
        BaumWelchOptions refine;
        refine.maxIterations = rounds;
        refine.tolerance = 0;
        score.logLikelihoods =
            baumWelch(chr11(), emSequences(contrast), smoothedForEm(spectral.hmm, chr11()), refine)
                .logLikelihoods;
    }
    return score;
}

double gapPercent(double reference, double value) {
    return 100 * (reference - value) / std::abs(reference);
}

/// The comparison on both chr11 tracks, K = 7, γ = 0 (arg 0: whole genome; arg 1:
/// foreground = genes ∪ TSS ± 2 kb, EM on the foreground runs): spectral learning time (moments
/// + solve) against Baum–Welch EM from 12 random starts to convergence; emission agreement
/// after Hungarian matching against every EM run and the best one; spectral start + n EM
/// rounds against the best EM log-likelihood; the same for the rank-K decomposition without
/// reserve component (extraComponents = 0, the previous default). Runs once.
void BM_HmmChr11SpectralVsEm(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const bool contrast = state.range(0) == 1;
    const ChromatinData& data = chr11();
    const int k = 7;
    for (auto _ : state) {
        Stopwatch watch;
        const BedRegions fg = readBedFiles(foregroundPaths());
        const BinClasses classes = classifyBins(data, contrast ? &fg : nullptr, nullptr);
        const SequenceMoments moments = computeSequenceMoments(data, classes);
        const double momentsMs = watch.elapsedMs();
        ContrastiveHmmOptions options;
        options.numComponents = k;
        const ContrastiveHmmResult spectral = solveContrastiveHmm(moments, 0.0, options);
        // Median of 21 solves (the per-γ cost once moments are cached).
        std::vector<double> solveTimes;
        for (int i = 0; i < 21; ++i) {
            watch.restart();
            benchmark::DoNotOptimize(solveContrastiveHmm(moments, 0.0, options).weights.data());
            solveTimes.push_back(watch.elapsedMs());
        }
        std::sort(solveTimes.begin(), solveTimes.end());
        const double solveMs = solveTimes[10];
        const double spectralMs = momentsMs + solveMs;
        const char* where = contrast ? "genes ∪ TSS±2kb foreground" : "whole genome";
        char title[200];
        std::snprintf(title, sizeof title,
                      "spectral (%s, gamma = 0, K = 7): decomposition rank %d (%d tried), "
                      "invalid mass %.4f",
                      where, spectral.decompositionRank, spectral.candidateRanks,
                      spectral.invalidMass);
        printMatrix(title, data.markNames, spectral.weights, spectral.markProbabilities);
        if (spectral.droppedWeights.size() > 0) {
            printMatrix("dropped (least occupied) components", data.markNames,
                        spectral.droppedWeights, spectral.droppedMarkProbabilities);
        }
        std::printf("spectral learning: moments %.1f ms + solve %.2f ms (median of 21) = "
                    "%.1f ms\n",
                    momentsMs, solveMs, spectralMs);

        const auto& ems = emReferences(contrast);
        const size_t best = bestEm(ems);
        const double bestLl = ems[best].result.finalLogLikelihood();
        double emMsTotal = 0;
        for (const auto& em : ems) {
            std::printf("EM seed %2d: %6.0f ms, %3d iterations (%s), log-likelihood %.1f%s\n",
                        em.seed, em.result.elapsedMs, em.result.iterations,
                        toString(em.result.status), em.result.finalLogLikelihood(),
                        &em == &ems[best] ? "  <- best" : "");
            emMsTotal += em.result.elapsedMs;
        }
        std::printf("EM runs pairwise emission MAD to the best run:");
        for (const auto& em : ems) {
            std::printf(" %.3f", matchedMeanAbsoluteDifference(ems[best].result.hmm.emissions,
                                                               em.result.hmm.emissions));
        }
        std::printf("\n");
        printMatrix("best EM run (weights = stationary occupancy)", data.markNames,
                    stationaryDistribution(ems[best].result.hmm.transitions),
                    ems[best].result.hmm.emissions);

        ContrastiveHmmOptions previous = options;
        previous.extraComponents = 0;
        const ContrastiveHmmResult rankK = solveContrastiveHmm(moments, 0.0, previous);
        const int rounds = 20;
        for (const auto& [name, result] : {std::pair{"default (reserve component)", &spectral},
                                           std::pair{"rank K only (previous default)", &rankK}}) {
            const SpectralScore score = scoreSpectral(*result, contrast, rounds);
            std::printf("%s: emission MAD vs EM seeds 1-%d:", name, kEmSeeds);
            for (double mad : score.mads) {
                std::printf(" %.3f", mad);
            }
            std::printf("; vs best EM %.4f, mean %.4f\n", score.madBest, score.madMean);
            for (int n : {0, 5, 10, 15, 20}) {
                std::printf("  spectral + %2d EM rounds: log-likelihood %.1f, gap to best EM "
                            "%.3f %%\n",
                            n, score.logLikelihoods[static_cast<size_t>(n)],
                            gapPercent(bestLl, score.logLikelihoods[static_cast<size_t>(n)]));
            }
            if (result == &spectral) {
                state.counters["mad_best"] = score.madBest;
                state.counters["mad_mean"] = score.madMean;
                state.counters["gap10_pct"] = gapPercent(bestLl, score.logLikelihoods[10]);
                state.counters["gap20_pct"] = gapPercent(bestLl, score.logLikelihoods[20]);
            }
        }
        BaumWelchOptions toConvergence;
        toConvergence.tolerance = 1e-5;
        toConvergence.maxIterations = 2000;
        const BaumWelchResult converged = baumWelch(
            data, emSequences(contrast), smoothedForEm(spectral.hmm, data), toConvergence);
        std::printf(
            "spectral + EM to convergence: %d iterations, %.0f ms, log-likelihood %.1f "
            "(gap to best EM %.3f %%), emission MAD to best EM %.4f\n",
            converged.iterations, converged.elapsedMs, converged.finalLogLikelihood(),
            gapPercent(bestLl, converged.finalLogLikelihood()),
            matchedMeanAbsoluteDifference(ems[best].result.hmm.emissions, converged.hmm.emissions));
        std::printf("speed-up of spectral learning over EM to convergence: %.0fx (mean of %d "
                    "seeds)\n",
                    emMsTotal / static_cast<double>(ems.size()) / spectralMs, kEmSeeds);
        state.counters["spectral_ms"] = spectralMs;
        state.counters["solve_ms"] = solveMs;
        state.counters["speedup"] = emMsTotal / static_cast<double>(ems.size()) / spectralMs;
        std::fflush(stdout);
    }
}
BENCHMARK(BM_HmmChr11SpectralVsEm)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

/// Pooled side views from windowed moments: ψ ↦ (mean of the L blocks, constant), the
/// "several lags pooled" view (still conditionally independent of x_t given h_t).
SequenceMoments pooledFromWindows(SequenceMoments moments) {
    const int r = moments.rank();
    const int side = moments.sideDim();
    Eigen::MatrixXd pool = Eigen::MatrixXd::Zero(r, side);
    for (int l = 0; l < moments.window; ++l) {
        pool += moments.sideBlock(l) / moments.window;
    }
    pool(r - 1, side - 1) = 1; // the shared constant
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(r, r);
    for (ClassMoments* c : {&moments.foreground, &moments.background}) {
        c->m12 = pool * c->m12;
        c->m13 = pool * c->m13 * pool.transpose();
        c->m23 = c->m23 * pool.transpose();
        c->m123 = c->m123.transformed(pool.transpose(), identity, pool.transpose());
        c->m11 = pool * c->m11 * pool.transpose();
        c->m33 = pool * c->m33 * pool.transpose();
    }
    moments.window = 1;
    moments.sideScale = moments.scale;
    return moments;
}

/// Estimator variants, K = 7, γ = 0 (arg 0 whole genome, arg 1 genes ∪ TSS±2kb foreground):
/// emission MAD to the best of 12 EM runs and the gap of spectral + 10 / 20 EM rounds to it.
void BM_HmmChr11Variants(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const bool contrast = state.range(0) == 1;
    const ChromatinData& data = chr11();
    const BedRegions fg = readBedFiles(foregroundPaths());
    const BinClasses classes = classifyBins(data, contrast ? &fg : nullptr, nullptr);
    struct Variant {
        std::string name;
        int lag = 1;
        int window = 1;
        bool pooled = false;
        int extra = 1;
        int als = 0;
        AsymmetricInit init = AsymmetricInit::Deflation;
        FeatureScaling scaling = FeatureScaling::InverseSqrtMean;
    };
    std::vector<Variant> variants = {
        {"rank K only (previous default)", 1, 1, false, 0},
        {"default: reserve component", 1, 1, false, 1},
        {"lag 2", 2},
        {"lag 3", 3},
        {"lag 4", 4},
        {"window 2", 1, 2},
        {"window 3", 1, 3},
        {"window 4", 1, 4},
        {"pooled lags 1-2", 1, 2, true},
        {"pooled lags 1-3", 1, 3, true},
        {"pooled lags 1-4", 1, 4, true},
        {"CP-ALS 100 sweeps", 1, 1, false, 1, 100},
        {"Jennrich", 1, 1, false, 1, 0, AsymmetricInit::SimultaneousDiagonalization},
        {"whitening (CCA)", 1, 1, false, 1, 0, AsymmetricInit::Deflation,
         FeatureScaling::Whitening},
        {"no feature scaling", 1, 1, false, 1, 0, AsymmetricInit::Deflation, FeatureScaling::None},
    };
    const auto& ems = emReferences(contrast);
    const double bestLl = ems[bestEm(ems)].result.finalLogLikelihood();
    for (auto _ : state) {
        std::printf("%-32s %5s %5s %8s %8s %8s %8s %8s\n", "variant (K = 7, gamma = 0)", "rank",
                    "inv", "MADbest", "MADmean", "gap+10%", "gap+20%", "solve_ms");
        for (const Variant& v : variants) {
            SequenceMomentOptions momentOptions;
            momentOptions.lag = v.lag;
            momentOptions.window = v.window;
            SequenceMoments moments = computeSequenceMoments(data, classes, momentOptions);
            if (v.pooled) {
                moments = pooledFromWindows(std::move(moments));
            }
            ContrastiveHmmOptions options;
            options.numComponents = 7;
            options.extraComponents = v.extra;
            options.alsSweeps = v.als;
            options.initialization = v.init;
            options.featureScaling = v.scaling;
            const auto result = solveContrastiveHmm(moments, 0.0, options);
            const SpectralScore score = scoreSpectral(result, contrast, 20);
            std::printf("%-32s %5d %5.3f %8.4f %8.4f %8.3f %8.3f %8.2f\n", v.name.c_str(),
                        result.decompositionRank, result.invalidMass, score.madBest, score.madMean,
                        gapPercent(bestLl, score.logLikelihoods[10]),
                        gapPercent(bestLl, score.logLikelihoods[20]), result.elapsedMs);
            std::fflush(stdout);
        }
    }
}
BENCHMARK(BM_HmmChr11Variants)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

/// Foreground = RefSeq genes ∪ TSS ± 2 kb, default background (every other bin), K = 7:
/// emission matrices and weights across γ (the analogue of the paper's Fig. 2b).
void BM_HmmChr11Contrast(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const SequenceMoments& moments = chr11Moments(true);
    for (auto _ : state) {
        std::printf("foreground bins (triples) %lld (%lld), background %lld (%lld)\n",
                    static_cast<long long>(moments.foreground.numBins),
                    static_cast<long long>(moments.foreground.numTriples),
                    static_cast<long long>(moments.background.numBins),
                    static_cast<long long>(moments.background.numTriples));
        for (double gamma : {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0}) {
            ContrastiveHmmOptions options;
            options.numComponents = 7;
            const auto result = solveContrastiveHmm(moments, gamma, options);
            char title[200];
            std::snprintf(title, sizeof title,
                          "gamma = %.2f: %d of 7 foreground-specific (%.2f ms); decomposition "
                          "rank %d, invalid mass %.4f",
                          gamma, result.numSpecific, result.elapsedMs, result.decompositionRank,
                          result.invalidMass);
            printMatrix(title, moments.markNames, result.weights, result.markProbabilities);
            std::printf("clipping/tolerance:");
            for (Eigen::Index t = 0; t < result.emissionClipping.size(); ++t) {
                std::printf(" %.3f/%.3f", result.emissionClipping[t], result.emissionTolerance[t]);
            }
            std::printf("\n");
            if (result.droppedWeights.size() > 0) {
                printMatrix("  dropped", moments.markNames, result.droppedWeights,
                            result.droppedMarkProbabilities);
            }
        }
        std::fflush(stdout);
    }
}
BENCHMARK(BM_HmmChr11Contrast)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace
