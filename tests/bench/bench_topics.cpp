// Google Benchmark suite for the topic-model engine (issue: interactive speed at any size).
// Not part of ctest. Run:  ./build/tests/cx_bench --benchmark_counters_tabular=true
// Reuters benchmarks read ../shared/data/reuters21578 and are skipped with a message if absent.
#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/io/corpus_loader.h"
#include "core/io/selection.h"
#include "core/tensor/linalg.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/document_moments.h"
#include "core/topics/synthetic_topics.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

namespace {

using namespace cx;

/// Seeded synthetic corpora, generated once per (documents, vocabulary).
const SyntheticTopicCorpus& syntheticCorpus(std::int64_t documents, int vocabulary) {
    static std::map<std::pair<std::int64_t, int>, std::unique_ptr<SyntheticTopicCorpus>> cache;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cache[{documents, vocabulary}];
    if (!slot) {
        SyntheticTopicSpec spec;
        spec.vocabularySize = vocabulary;
        spec.numA = 3;
        spec.numB = 4;
        spec.numC = 3;
        spec.foregroundDocuments = documents / 2;
        spec.backgroundDocuments = documents - documents / 2;
        spec.documentLength = 100;
        spec.lengthSpread = 20;
        spec.seed = 7;
        slot = std::make_unique<SyntheticTopicCorpus>(generateSyntheticTopics(spec));
    }
    return *slot;
}

double tokensOf(const CountMatrix& counts, const std::vector<std::int64_t>& documents) {
    double total = 0;
    for (std::int64_t d : documents) {
        total += counts.rowLength(d);
    }
    return total;
}

/// Bytes a pass over the foreground must read at least: the CSR arrays (index 4 + count 4 bytes
/// per non-zero, 8 per row pointer).
double csrBytes(const CountMatrix& counts, const std::vector<std::int64_t>& documents) {
    std::int64_t nnz = 0;
    for (std::int64_t d : documents) {
        nnz += counts.rowPtr[d + 1] - counts.rowPtr[d];
    }
    return 8.0 * static_cast<double>(nnz) + 8.0 * static_cast<double>(documents.size());
}

/// One pass of the M2 estimator applied to a D × width block (the range-finder's unit of work).
void BM_M2Pass(benchmark::State& state) {
    const auto& data = syntheticCorpus(state.range(0), 20000);
    const DocumentMoments moments(data.corpus.counts, data.foregroundDocuments);
    Rng rng(1);
    const Eigen::MatrixXd x = rng.normalMatrix(moments.dimension(), state.range(1));
    for (auto _ : state) {
        benchmark::DoNotOptimize(moments.m2Times(x));
    }
    const double tokens = tokensOf(data.corpus.counts, data.foregroundDocuments);
    state.counters["tokens/s"] = benchmark::Counter(
        tokens * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["csr_bytes/s"] =
        benchmark::Counter(csrBytes(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_M2Pass)
    ->ArgsProduct({{10000, 100000, 1000000}, {30}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The range finder's product as the engine runs it: single precision, over a word-major layout
/// built once (outside the timing, as the engine builds it once per side for all its products).
void BM_M2SinglePass(benchmark::State& state) {
    const auto& data = syntheticCorpus(state.range(0), 20000);
    const DocumentMoments moments(data.corpus.counts, data.foregroundDocuments);
    Rng rng(1);
    const Eigen::MatrixXd x = rng.normalMatrix(moments.dimension(), state.range(1));
    const auto layout = moments.wordMajorLayout();
    for (auto _ : state) {
        benchmark::DoNotOptimize(moments.m2TimesSingle(x, *layout));
    }
    state.counters["csr_bytes/s"] =
        benchmark::Counter(csrBytes(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_M2SinglePass)
    ->ArgsProduct({{100000, 1000000}, {30}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// One pass of the implicit third moment M3(I, v, v) (the direct method's per-iteration cost).
void BM_M3ContractPass(benchmark::State& state) {
    const auto& data = syntheticCorpus(state.range(0), 20000);
    const DocumentMoments moments(data.corpus.counts, data.foregroundDocuments);
    Rng rng(2);
    const Eigen::VectorXd v = rng.normalVector(moments.dimension());
    for (auto _ : state) {
        benchmark::DoNotOptimize(moments.m3Contract(v));
    }
    state.counters["tokens/s"] =
        benchmark::Counter(tokensOf(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
    state.counters["csr_bytes/s"] =
        benchmark::Counter(csrBytes(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_M3ContractPass)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The projected-moment pass m2 = UᵀM2U, m3 = M3(U,U,U) for a basis of r columns.
void BM_ProjectionPass(benchmark::State& state) {
    const auto& data = syntheticCorpus(state.range(0), 20000);
    const DocumentMoments moments(data.corpus.counts, data.foregroundDocuments);
    Rng rng(3);
    const Eigen::MatrixXd basis =
        orthonormalBasis(rng.normalMatrix(moments.dimension(), state.range(1)));
    const auto layout = moments.wordMajorLayout(); // built once per side by the engine
    for (auto _ : state) {
        benchmark::DoNotOptimize(moments.project(basis, *layout));
    }
    state.counters["tokens/s"] =
        benchmark::Counter(tokensOf(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
    state.counters["csr_bytes/s"] =
        benchmark::Counter(csrBytes(data.corpus.counts, data.foregroundDocuments) *
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ProjectionPass)
    ->ArgsProduct({{10000, 100000, 1000000}, {20, 40, 80}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Whole engine build (range finding on both sides + projection) for K.
void BM_EngineBuild(benchmark::State& state) {
    const auto& data = syntheticCorpus(state.range(0), 20000);
    auto counts =
        std::shared_ptr<const CountMatrix>(&data.corpus.counts, [](const CountMatrix*) {});
    for (auto _ : state) {
        ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                      static_cast<int>(state.range(1)));
        benchmark::DoNotOptimize(engine.rank());
    }
}
BENCHMARK(BM_EngineBuild)
    ->ArgsProduct({{10000, 100000}, {5, 10, 20}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Per-γ decomposition latency once moments are cached, against K and vocabulary size.
void BM_SolveLatency(benchmark::State& state) {
    const int k = static_cast<int>(state.range(0));
    const int vocabulary = static_cast<int>(state.range(1));
    static std::map<std::pair<int, int>, std::unique_ptr<ContrastiveTopicEngine>> engines;
    auto& engine = engines[{k, vocabulary}];
    const auto& data = syntheticCorpus(20000, vocabulary);
    if (!engine) {
        auto counts =
            std::shared_ptr<const CountMatrix>(&data.corpus.counts, [](const CountMatrix*) {});
        engine = std::make_unique<ContrastiveTopicEngine>(counts, data.foregroundDocuments,
                                                          data.backgroundDocuments, k);
    }
    TopicModelOptions options;
    options.numComponents = k;
    options.decomposition = state.range(2) == 0 ? Decomposition::Power : Decomposition::Pencil;
    double gamma = 0.5;
    for (auto _ : state) {
        gamma = gamma >= 4.0 ? 0.5 : gamma + 0.1; // a different γ every time, as while dragging
        benchmark::DoNotOptimize(engine->solve(gamma, options));
    }
    state.counters["r"] = engine->rank();
}
// Arguments: K, vocabulary, decomposition (0 = power method, 1 = pencil, the GUI's default).
BENCHMARK(BM_SolveLatency)
    ->ArgsProduct({{5, 10, 20, 50}, {1000, 10000, 50000, 100000}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Reuters-21578 (full, 21,578 stories): USA foreground against economic-indicator stories.
struct ReutersFixture {
    std::shared_ptr<const Corpus> corpus;
    std::unique_ptr<ContrastiveTopicEngine> engine;
    std::vector<bool> positive;
    std::string error;
};

const char* kEconomicTopics =
    "gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,instal-debt,"
    "interest,money-fx";

ReutersFixture& reuters() {
    static ReutersFixture fixture = [] {
        ReutersFixture f;
        const std::string path = std::string(CX_SHARED_DATA_DIR) + "/reuters21578";
        if (!std::filesystem::exists(path)) {
            f.error = "Reuters data not found at " + path + " (skipped)";
            return f;
        }
        f.corpus = std::make_shared<const Corpus>(loadCorpus(path));
        const auto fg = selectDocuments(*f.corpus, "places=usa").documents;
        const auto bg =
            selectDocuments(*f.corpus, std::string("topics=") + kEconomicTopics).documents;
        const auto pos =
            selectDocuments(*f.corpus, std::string("!topics=") + kEconomicTopics).documents;
        for (std::int64_t d : fg) {
            f.positive.push_back(std::binary_search(pos.begin(), pos.end(), d));
        }
        f.engine = std::make_unique<ContrastiveTopicEngine>(
            std::shared_ptr<const CountMatrix>(f.corpus, &f.corpus->counts), fg, bg, 10);
        return f;
    }();
    return fixture;
}

void BM_ReutersSweep41(benchmark::State& state) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    TopicModelOptions options;
    options.numComponents = static_cast<int>(state.range(0));
    std::vector<double> gammas;
    for (int i = 0; i <= 40; ++i) {
        gammas.push_back(0.1 * i);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(specificitySweep(*f.engine, gammas, f.positive, options));
    }
}
BENCHMARK(BM_ReutersSweep41)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();

/// One step of a γ path: solveFrom the neighbour's solution (warm run + fresh check),
/// K ≤ 20 and K = 50, on the synthetic 20k-document corpus with vocabulary 10k.
void BM_PathStep(benchmark::State& state) {
    const int k = static_cast<int>(state.range(0));
    static std::map<int, std::unique_ptr<ContrastiveTopicEngine>> engines;
    auto& engine = engines[k];
    const auto& data = syntheticCorpus(20000, 10000);
    if (!engine) {
        auto counts =
            std::shared_ptr<const CountMatrix>(&data.corpus.counts, [](const CountMatrix*) {});
        engine = std::make_unique<ContrastiveTopicEngine>(counts, data.foregroundDocuments,
                                                          data.backgroundDocuments, k);
    }
    TopicModelOptions options;
    options.numComponents = k;
    double gamma = 0.5;
    TopicModelResult previous = engine->solve(gamma, options);
    for (auto _ : state) {
        gamma = gamma >= 4.0 ? 0.5 : gamma + 0.1;
        if (gamma == 0.5) {
            previous = engine->solve(gamma, options);
            continue;
        }
        previous = engine->solveFrom(gamma, options, previous);
        benchmark::DoNotOptimize(previous);
    }
}
BENCHMARK(BM_PathStep)
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Arg(50)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Reuters path sweep over γ 0..4 step 0.1 (41 points) + a 20-resample bootstrap.
void BM_ReutersBootstrap20(benchmark::State& state) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    TopicModelOptions options;
    options.numComponents = 10;
    std::vector<double> gammas;
    for (int i = 0; i <= 40; ++i) {
        gammas.push_back(0.1 * i);
    }
    BootstrapOptions bootstrap;
    bootstrap.replicates = 20;
    for (auto _ : state) {
        const SpecificitySweep sweep = specificitySweep(*f.engine, gammas, f.positive, options);
        benchmark::DoNotOptimize(
            bootstrapPath(*f.engine, sweep.path, f.positive, options, bootstrap));
    }
}
BENCHMARK(BM_ReutersBootstrap20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_ReutersSolve(benchmark::State& state) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    TopicModelOptions options;
    options.numComponents = 10;
    double gamma = 0;
    for (auto _ : state) {
        gamma = gamma >= 4.0 ? 0.0 : gamma + 0.1;
        benchmark::DoNotOptimize(f.engine->solve(gamma, options));
    }
}
BENCHMARK(BM_ReutersSolve)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Per-γ solve on Reuters at K = 20 and K = 50 with the pencil (the GUI's default) or the power
/// method, γ moving over 1 … 4 as while dragging: the latency targets (K ≤ 20 under 20 ms, K = 50
/// under 50 ms). The engine is built for K (projection rank per side max(2K, K + 8)).
void reutersSolveLatency(benchmark::State& state, Decomposition decomposition) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    const int k = static_cast<int>(state.range(0));
    static std::map<int, std::unique_ptr<ContrastiveTopicEngine>> engines;
    auto& engine = engines[k];
    if (!engine) {
        const auto fg = selectDocuments(*f.corpus, "places=usa").documents;
        const auto bg =
            selectDocuments(*f.corpus, std::string("topics=") + kEconomicTopics).documents;
        engine = std::make_unique<ContrastiveTopicEngine>(
            std::shared_ptr<const CountMatrix>(f.corpus, &f.corpus->counts), fg, bg, k);
    }
    TopicModelOptions options;
    options.numComponents = k;
    options.decomposition = decomposition;
    double gamma = 1.0;
    for (auto _ : state) {
        gamma = gamma >= 4.0 ? 1.0 : gamma + 0.1;
        benchmark::DoNotOptimize(engine->solve(gamma, options));
    }
    state.counters["r"] = engine->rank();
}
void BM_ReutersSolvePencil(benchmark::State& state) {
    reutersSolveLatency(state, Decomposition::Pencil);
}
BENCHMARK(BM_ReutersSolvePencil)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_ReutersSolvePower(benchmark::State& state) {
    reutersSolveLatency(state, Decomposition::Power);
}
BENCHMARK(BM_ReutersSolvePower)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReutersLikelihood(benchmark::State& state) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    TopicModelOptions options;
    options.numComponents = 10;
    const TopicModelResult model = f.engine->solve(2.0, options);
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            perTokenLogLikelihood(f.corpus->counts, f.engine->foreground().documents(), model));
    }
    state.counters["documents"] = static_cast<double>(f.engine->foreground().numDocuments());
}
BENCHMARK(BM_ReutersLikelihood)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReutersEngineBuild(benchmark::State& state) {
    ReutersFixture& f = reuters();
    if (!f.error.empty()) {
        state.SkipWithError(f.error.c_str());
        return;
    }
    std::shared_ptr<const CountMatrix> counts(f.corpus, &f.corpus->counts);
    for (auto _ : state) {
        ContrastiveTopicEngine engine(counts, f.engine->foreground().documents(),
                                      f.engine->background().documents(),
                                      static_cast<int>(state.range(0)));
        benchmark::DoNotOptimize(engine.rank());
    }
}
BENCHMARK(BM_ReutersEngineBuild)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReutersLoad(benchmark::State& state) {
    const std::string path = std::string(CX_SHARED_DATA_DIR) + "/reuters21578";
    if (!std::filesystem::exists(path)) {
        state.SkipWithError("Reuters data not found (skipped)");
        return;
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(loadCorpus(path));
    }
}
BENCHMARK(BM_ReutersLoad)->Unit(benchmark::kMillisecond)->UseRealTime();

/// STREAM-style triad a = b + s·c over 3 × 128 MB arrays on all threads: the machine's
/// sustainable memory bandwidth, the physical limit of a pass over the data.
void BM_MemoryBandwidthTriad(benchmark::State& state) {
    const std::int64_t n = 16 << 20; // 16 Mi doubles = 128 MB per array
    std::vector<double> a(static_cast<size_t>(n), 1.0), b(static_cast<size_t>(n), 2.0),
        c(static_cast<size_t>(n), 3.0);
    // The share count is read here: inside a share of parallelFor threadCount() is 1.
    const int threads = threadCount();
    for (auto _ : state) {
        parallelFor(threads, [&](std::int64_t worker) {
            std::int64_t begin = 0;
            std::int64_t end = 0;
            slotRange(n, threads, static_cast<int>(worker), begin, end);
            for (std::int64_t i = begin; i < end; ++i) {
                a[static_cast<size_t>(i)] =
                    b[static_cast<size_t>(i)] + 3.0 * c[static_cast<size_t>(i)];
            }
        });
        benchmark::ClobberMemory();
    }
    state.counters["bytes/s"] =
        benchmark::Counter(24.0 * static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MemoryBandwidthTriad)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
