// Engine profiling harness: the synthetic corpus of docs/performance.md (vocabulary 20k, ~100
// tokens, seed 7) generated in memory, then the engine build (range finder + projection) or one
// pass, with process CPU time next to wall time. Built outside CMake by build.sh (a few files,
// minutes instead of a whole Release tree on a busy machine). Not part of ctest.
// usage: harness DOCS engine K [topics.txt]     engine build + one pencil solve at gamma = 2
//        harness DOCS m2|m2s|m3|proj WIDTH      one pass (m2Times, m2TimesSingle, m3Contract,
//                                               project) over the foreground, three times
//        harness REPS solve K [pencil|sweep]    per-gamma solve latency (BM_SolveLatency's corpus;
//                                               sweep: each continued from the previous γ)
// env: CX_THREADS, CX_RANGE_ITERATIONS
#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/common/timer.h"
#include "core/tensor/linalg.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/synthetic_topics.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
using namespace cx;
static double cpuNow() {
    return double(std::clock()) / CLOCKS_PER_SEC;
}
int main(int argc, char** argv) {
    const long docs = argc > 1 ? std::atol(argv[1]) : 200000;
    const std::string mode = argc > 2 ? argv[2] : "engine";
    const int k = argc > 3 ? std::atoi(argv[3]) : 10;
    const char* out = argc > 4 ? argv[4] : nullptr;
    SyntheticTopicSpec spec;
    spec.foregroundDocuments = docs / 2;
    spec.backgroundDocuments = docs - docs / 2;
    spec.vocabularySize = 20000;
    spec.documentLength = 100;
    spec.lengthSpread = 20;
    spec.topicConcentration = 0.05;
    spec.numA = 3;
    spec.numB = 4;
    spec.numC = 3;
    spec.seed = 7;
    if (mode == "solve") {
        SyntheticTopicSpec sp;
        sp.vocabularySize = 1000;
        sp.numA = 3;
        sp.numB = 4;
        sp.numC = 3;
        sp.foregroundDocuments = 10000;
        sp.backgroundDocuments = 10000;
        sp.documentLength = 100;
        sp.lengthSpread = 20;
        sp.seed = 7;
        auto d = generateSyntheticTopics(sp);
        auto cc = std::shared_ptr<const CountMatrix>(&d.corpus.counts, [](const CountMatrix*) {});
        ContrastiveTopicEngine engine(cc, d.foregroundDocuments, d.backgroundDocuments, k);
        TopicModelOptions options;
        options.numComponents = k;
        options.decomposition =
            (out && std::string(out) == "pencil") ? Decomposition::Pencil : Decomposition::Power;
        // "sweep": each solve continued from the previous γ's result (solveFrom), as a γ sweep
        // and the GUI's slider do.
        const bool sweep = out && std::string(out) == "sweep";
        const int reps = docs;
        double gamma = 0.5;
        Stopwatch sw;
        double cc0 = cpuNow();
        double checksum = 0;
        TopicModelResult previous;
        for (int i = 0; i < reps; ++i) {
            gamma = gamma >= 4.0 ? 0.5 : gamma + 0.1;
            auto r = sweep && i > 0 ? engine.solveFrom(gamma, options, previous)
                                    : engine.solve(gamma, options);
            for (int t = 0; t < r.numComponents(); ++t)
                checksum += std::abs(r.lambdas[t]);
            previous = std::move(r);
        }
        std::printf("solve K=%d r=%d: %.2f ms wall, %.2f ms cpu per solve; checksum %.12g\n", k,
                    engine.rank(), sw.elapsedMs() / reps, (cpuNow() - cc0) * 1000 / reps, checksum);
        return 0;
    }
    Stopwatch w;
    double c0 = cpuNow();
    auto data = generateSyntheticTopics(spec);
    std::fprintf(stderr, "generate %.2f s wall %.2f cpu, nnz %lld\n", w.elapsedMs() / 1000,
                 cpuNow() - c0, (long long)data.corpus.counts.nnz());
    auto counts =
        std::shared_ptr<const CountMatrix>(&data.corpus.counts, [](const CountMatrix*) {});
    if (mode == "engine") {
        w.restart();
        c0 = cpuNow();
        ProjectionOptions po;
        if (const char* q = std::getenv("CX_RANGE_ITERATIONS"))
            po.powerIterations = std::atoi(q);
        if (const char* t = std::getenv("CX_THREADS"))
            setThreadCount(std::atoi(t));
        ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments, k,
                                      po);
        std::printf("engine wall %.2f s cpu %.2f s: range %.2f s projection %.2f s, r = %d\n",
                    w.elapsedMs() / 1000, cpuNow() - c0, engine.timings().rangeMs / 1000,
                    engine.timings().projectionMs / 1000, engine.rank());
        TopicModelOptions options;
        options.numComponents = k;
        options.decomposition = Decomposition::Pencil;
        options.seed = 1;
        TopicModelResult r = engine.solve(2.0, options);
        std::printf("solve %.1f ms, fg-specific %d, weights:", r.solveMs,
                    r.numForegroundSpecific());
        for (int t = 0; t < r.numComponents(); ++t)
            std::printf(" %.4f", r.signedWeights[t]);
        std::printf("\n");
        if (out) {
            std::ofstream f(out);
            f.precision(17);
            f << r.topics << "\n";
        }
    } else {
        const DocumentMoments m(data.corpus.counts, data.foregroundDocuments);
        Rng rng(1);
        const Eigen::MatrixXd x = rng.normalMatrix(m.dimension(), k);
        w.restart();
        c0 = cpuNow();
        const auto layout = m.wordMajorLayout();
        std::printf("layout: wall %.3f s cpu %.3f s\n", w.elapsedMs() / 1000, cpuNow() - c0);
        for (int rep = 0; rep < 3; ++rep) {
            w.restart();
            c0 = cpuNow();
            if (const char* t = std::getenv("CX_THREADS"))
                setThreadCount(std::atoi(t));
            if (mode == "m2") {
                auto y = m.m2Times(x);
                std::printf("%g ", y(0, 0));
            } else if (mode == "m2s") {
                auto y = m.m2TimesSingle(x);
                std::printf("%g ", y(0, 0));
            } else if (mode == "m2w") {
                auto y = m.m2TimesSingle(x, *layout);
                std::printf("%g ", y(0, 0));
            } else if (mode == "m3") {
                auto y = m.m3Contract(x.col(0));
                std::printf("%g ", y(0));
            } else if (mode == "proj") {
                auto p = m.project(orthonormalBasis(x));
                std::printf("%g ", p.m2(0, 0));
            }
            std::printf("%s width %d: wall %.3f s cpu %.3f s\n", mode.c_str(), k,
                        w.elapsedMs() / 1000, cpuNow() - c0);
        }
    }
}
