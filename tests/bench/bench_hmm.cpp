// Google Benchmark suite for the contrastive HMM on the full ChromHMM chr11 sample (GM12878 +
// K562, 1,344,522 bins). Not part of ctest. Needs ../shared/data/chromhmm_hg18_chr11; every
// benchmark is skipped with a message if it is absent. Run, e.g.:
//   ./build/tests/cx_bench --benchmark_filter=Hmm --benchmark_counters_tabular=true
//   ./build/tests/cx_bench --benchmark_filter=HmmChr11SpectralVsEm   (the full comparison;
//       prints the emission matrices and every number of the report to stdout)
//   ./build/tests/cx_bench --benchmark_filter=HmmChr11Contrast       (fg = genes ∪ TSS±2kb)
#include "core/common/timer.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/bed.h"
#include "core/hmm/chromhmm_reader.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/sequence_moments.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

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

/// The comparison on both chr11 tracks, K = 7, whole genome: spectral learning time
/// (moments + solve) against Baum–Welch EM from random starts (seeds 1–3) to convergence
/// (relative log-likelihood gain < 1e-5); emission agreement after Hungarian matching; spectral
/// start + N EM rounds against EM's converged log-likelihood. Runs once.
void BM_HmmChr11SpectralVsEm(benchmark::State& state) {
    if (!haveData(state)) {
        return;
    }
    const ChromatinData& data = chr11();
    const auto runs = wholeTrackRuns(data);
    const int k = 7;
    for (auto _ : state) {
        Stopwatch watch;
        const BinClasses classes = classifyBins(data, nullptr, nullptr);
        const SequenceMoments moments = computeSequenceMoments(data, classes);
        const double momentsMs = watch.elapsedMs();
        watch.restart();
        ContrastiveHmmOptions options;
        options.numComponents = k;
        const ContrastiveHmmResult spectral = solveContrastiveHmm(moments, 0.0, options);
        const double solveMs = watch.elapsedMs();
        const double spectralMs = momentsMs + solveMs;
        const double spectralLl = logLikelihood(data, runs, spectral.hmm);
        printMatrix("spectral (gamma = 0, K = 7)", data.markNames, spectral.weights,
                    spectral.markProbabilities);
        std::printf("spectral learning: moments %.1f ms + solve %.2f ms = %.1f ms; "
                    "log-likelihood %.1f\n",
                    momentsMs, solveMs, spectralMs, spectralLl);

        double bestEmLl = -1e300;
        double emMsTotal = 0;
        std::vector<BaumWelchResult> ems;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            BaumWelchOptions emOptions;
            emOptions.tolerance = 1e-5;
            emOptions.maxIterations = 2000;
            BaumWelchResult em = baumWelch(
                data, runs, randomHmm(k, data, ObservationEncoding::MarkVector, seed), emOptions);
            const double mad =
                matchedMeanAbsoluteDifference(em.hmm.emissions, spectral.markProbabilities);
            std::printf("EM seed %d: %.0f ms, %d iterations (%s), log-likelihood %.1f; "
                        "spectral vs EM emissions: mean |diff| %.4f after matching\n",
                        static_cast<int>(seed), em.elapsedMs, em.iterations, toString(em.status),
                        em.finalLogLikelihood(), mad);
            emMsTotal += em.elapsedMs;
            bestEmLl = std::max(bestEmLl, em.finalLogLikelihood());
            state.counters["em" + std::to_string(seed) + "_ms"] = em.elapsedMs;
            state.counters["em" + std::to_string(seed) + "_iter"] = em.iterations;
            state.counters["mad_em" + std::to_string(seed)] = mad;
            ems.push_back(std::move(em));
        }
        printMatrix("EM seed 1 (converged)", data.markNames, Eigen::VectorXd(),
                    ems[0].hmm.emissions);
        BaumWelchOptions refine;
        refine.maxIterations = 60;
        refine.tolerance = 0;
        const BaumWelchResult refined =
            baumWelch(data, runs, smoothedForEm(spectral.hmm, data), refine);
        for (int n : {0, 5, 10, 20, 40, 60}) {
            const double ll = refined.logLikelihoods[static_cast<size_t>(n)];
            std::printf("spectral + %2d EM rounds: log-likelihood %.1f, gap to best EM %.3f %%, "
                        "to EM seeds 1/2/3 %.3f / %.3f / %.3f %%\n",
                        n, ll, 100 * (bestEmLl - ll) / std::abs(bestEmLl),
                        100 * (ems[0].finalLogLikelihood() - ll) / std::abs(bestEmLl),
                        100 * (ems[1].finalLogLikelihood() - ll) / std::abs(bestEmLl),
                        100 * (ems[2].finalLogLikelihood() - ll) / std::abs(bestEmLl));
            state.counters["gap" + std::to_string(n) + "_pct"] =
                100 * (bestEmLl - ll) / std::abs(bestEmLl);
        }
        BaumWelchOptions toConvergence;
        toConvergence.tolerance = 1e-5;
        toConvergence.maxIterations = 2000;
        const BaumWelchResult converged =
            baumWelch(data, runs, smoothedForEm(spectral.hmm, data), toConvergence);
        std::printf("spectral + EM to convergence: %d iterations, %.0f ms, log-likelihood %.1f "
                    "(gap to best EM %.3f %%)\n",
                    converged.iterations, converged.elapsedMs, converged.finalLogLikelihood(),
                    100 * (bestEmLl - converged.finalLogLikelihood()) / std::abs(bestEmLl));
        std::printf("speed-up of spectral learning over EM to convergence: %.0fx (mean of 3 "
                    "seeds), over ChromHMM 1.27's 76 s: %.0fx\n",
                    emMsTotal / 3 / spectralMs, 76000.0 / spectralMs);
        state.counters["spectral_ms"] = spectralMs;
        state.counters["solve_ms"] = solveMs;
        state.counters["speedup"] = emMsTotal / 3 / spectralMs;
        std::fflush(stdout);
    }
}
BENCHMARK(BM_HmmChr11SpectralVsEm)->Iterations(1)->Unit(benchmark::kSecond);

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
        for (double gamma : {0.0, 0.25, 0.5, 0.75, 1.0}) {
            ContrastiveHmmOptions options;
            options.numComponents = 7;
            const auto result = solveContrastiveHmm(moments, gamma, options);
            char title[96];
            std::snprintf(title, sizeof title,
                          "gamma = %.2f: %d of 7 foreground-specific (%.2f ms)", gamma,
                          result.numSpecific, result.elapsedMs);
            printMatrix(title, moments.markNames, result.weights, result.markProbabilities);
        }
        std::fflush(stdout);
    }
}
BENCHMARK(BM_HmmChr11Contrast)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace
