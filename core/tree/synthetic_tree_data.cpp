#include "core/tree/synthetic_tree_data.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/parallel.h"
#include "core/common/random.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace cx {

const std::array<ChromSize, 24> kHg19ChromSizes = {{
    {"chr1", 249250621},  {"chr2", 243199373},  {"chr3", 198022430},  {"chr4", 191154276},
    {"chr5", 180915260},  {"chr6", 171115067},  {"chr7", 159138663},  {"chr8", 146364022},
    {"chr9", 141213431},  {"chr10", 135534747}, {"chr11", 135006516}, {"chr12", 133851895},
    {"chr13", 115169878}, {"chr14", 107349540}, {"chr15", 102531392}, {"chr16", 90354753},
    {"chr17", 81195210},  {"chr18", 78077248},  {"chr19", 59128983},  {"chr20", 63025520},
    {"chr21", 48129895},  {"chr22", 51304566},  {"chrX", 155270560},  {"chrY", 59373566},
}};

std::vector<ChromSize> assemblyChromSizes(const std::string& assembly) {
    if (assembly == "hg19") {
        return {kHg19ChromSizes.begin(), kHg19ChromSizes.end()};
    }
    throw InputError("assembly '" + assembly + "' is not known (known: hg19)");
}

namespace {

/// Cumulative rows of a row-stochastic matrix (last entry forced to 1), row-major K × K.
std::vector<double> cumulativeRows(const Eigen::MatrixXd& m) {
    const auto k = static_cast<size_t>(m.rows());
    std::vector<double> out(k * k);
    for (size_t i = 0; i < k; ++i) {
        double sum = 0;
        for (size_t j = 0; j < k; ++j) {
            sum += m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
            out[i * k + j] = sum;
        }
        out[i * k + k - 1] = 1.0;
    }
    return out;
}

int drawCumulative(Rng& rng, const double* cumulative, int k) {
    const double u = rng.uniform();
    int j = 0;
    while (j + 1 < k && u >= cumulative[j]) {
        ++j;
    }
    return j;
}

/// A file written through a large buffer; errors name the file.
class OutFile {
public:
    explicit OutFile(std::string path) : m_path(std::move(path)) {
        m_file = std::fopen(m_path.c_str(), "wb");
        if (!m_file) {
            throw InputError(m_path, 0, std::string("cannot write: ") + std::strerror(errno));
        }
        m_buffer.reserve(kFlushBytes + 4096);
    }
    OutFile(const OutFile&) = delete;
    OutFile& operator=(const OutFile&) = delete;
    ~OutFile() {
        if (m_file) {
            std::fclose(m_file);
        }
    }
    std::string& buffer() { return m_buffer; }
    void maybeFlush() {
        if (m_buffer.size() >= kFlushBytes) {
            flush();
        }
    }
    void close() {
        flush();
        const int result = std::fclose(m_file);
        m_file = nullptr;
        if (result != 0) {
            throw InputError(m_path, 0, std::string("cannot write: ") + std::strerror(errno));
        }
    }

private:
    static constexpr size_t kFlushBytes = size_t{1} << 20;
    void flush() {
        if (!m_buffer.empty() &&
            std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size()) {
            throw InputError(m_path, 0, std::string("cannot write: ") + std::strerror(errno));
        }
        m_buffer.clear();
    }
    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string m_buffer;
};

void checkSpec(const SyntheticTreeDataSpec& spec) {
    if (spec.tree.numNodes() < 1) {
        throw InputError("synthetic tree data: the tree has no cell type");
    }
    if (spec.model.numStates < 1 || spec.model.numStates > 16) {
        throw InputError("synthetic tree data: K = " + std::to_string(spec.model.numStates) +
                         " is not in [1, 16]");
    }
    if (spec.model.numMarks < 1 || spec.model.numMarks > kMaxTreeMarks) {
        throw InputError("synthetic tree data: " + std::to_string(spec.model.numMarks) +
                         " marks is not in [1, " + std::to_string(kMaxTreeMarks) + "]");
    }
    if (spec.chroms.empty() || spec.chroms.size() != spec.chromBins.size()) {
        throw InputError("synthetic tree data: need one bin count per chromosome (got " +
                         std::to_string(spec.chroms.size()) + " names and " +
                         std::to_string(spec.chromBins.size()) + " bin counts)");
    }
    for (size_t c = 0; c < spec.chroms.size(); ++c) {
        if (spec.chromBins[c] < 1) {
            throw InputError("synthetic tree data: chromosome " + spec.chroms[c] + " has no bin (" +
                             std::to_string(spec.chromBins[c]) + ")");
        }
    }
    if (spec.binSize < 1) {
        throw InputError("synthetic tree data: bin size " + std::to_string(spec.binSize) +
                         " is not positive");
    }
    const double perBin = spec.tssPerMb * spec.binSize / 1e6;
    if (!(spec.tssPerMb >= 0) || !(perBin <= 1)) {
        throw InputError("synthetic tree data: " + formatNumber(spec.tssPerMb, 6) +
                         " TSS per Mb is not in [0, one per bin]");
    }
    if (!(spec.tssInPromoter >= 0 && spec.tssInPromoter <= 1)) {
        throw InputError("synthetic tree data: TSS fraction in the promoter state " +
                         formatNumber(spec.tssInPromoter, 6) + " is not in [0, 1]");
    }
}

/// One chromosome: samples it, writes every cell's binarized file and true-state BED, and
/// returns its tss.txt rows.
std::string writeChromosome(const SyntheticTreeDataSpec& spec, const TreeHmmParameters& model,
                            size_t c, const std::filesystem::path& dir,
                            const std::vector<std::string>& rows) {
    const std::string& chrom = spec.chroms[c];
    const std::int64_t bins = spec.chromBins[c];
    std::vector<std::vector<std::uint16_t>> codes, states;
    Rng tssRng(deriveSeed(deriveSeed(spec.seed, c + 1), 0));
    sampleTreeChromosome(model, bins, deriveSeed(spec.seed, c + 1), codes, states);
    const std::vector<std::string> labels = [&] {
        std::vector<std::string> out;
        for (int k = 0; k < model.numStates; ++k) {
            out.push_back("E" + std::to_string(k + 1));
        }
        return out;
    }();
    std::string header;
    for (const auto& mark : model.markNames) {
        header += (header.empty() ? "" : "\t") + mark;
    }
    for (size_t v = 0; v < codes.size(); ++v) {
        const std::string& cell = spec.tree.names[v];
        OutFile track((dir / (cell + "_" + chrom + "_binary.txt")).string());
        track.buffer() += cell + "\t" + chrom + "\n" + header + "\n";
        for (const std::uint16_t code : codes[v]) {
            track.buffer() += rows[code];
            track.maybeFlush();
        }
        track.close();
        OutFile bed((dir / "truth" / ("states_" + cell + "_" + chrom + ".bed")).string());
        const auto& s = states[v];
        for (std::int64_t t = 0; t < bins;) {
            std::int64_t end = t + 1;
            while (end < bins && s[static_cast<size_t>(end)] == s[static_cast<size_t>(t)]) {
                ++end;
            }
            bed.buffer() += chrom + '\t' + std::to_string(t * spec.binSize) + '\t' +
                            std::to_string(end * spec.binSize) + '\t' +
                            labels[s[static_cast<size_t>(t)]] + '\n';
            bed.maybeFlush();
            t = end;
        }
        bed.close();
    }
    // TSS: a fixed rate per bin, spread so that tssInPromoter of them fall in bins where the
    // root is in the promoter state (state 0).
    const double perBin = spec.tssPerMb * spec.binSize / 1e6;
    std::int64_t promoterBins = 0;
    for (const auto s : states[0]) {
        promoterBins += s == 0;
    }
    const double inPromoter =
        promoterBins > 0 ? std::min(1.0, spec.tssInPromoter * perBin * static_cast<double>(bins) /
                                             static_cast<double>(promoterBins))
                         : 0.0;
    const double outside =
        promoterBins < bins
            ? std::min(1.0, (1 - spec.tssInPromoter) * perBin * static_cast<double>(bins) /
                                static_cast<double>(bins - promoterBins))
            : 0.0;
    std::string tss;
    for (std::int64_t t = 0; t < bins; ++t) {
        const double p = states[0][static_cast<size_t>(t)] == 0 ? inPromoter : outside;
        if (tssRng.uniform() < p) {
            const auto pos =
                t * spec.binSize +
                static_cast<std::int64_t>(tssRng.below(static_cast<std::uint64_t>(spec.binSize)));
            tss += chrom + '\t' + std::to_string(pos) + '\t' +
                   (tssRng.uniform() < 0.5 ? '+' : '-') + '\n';
        }
    }
    return tss;
}

void writeTextFile(const std::string& path, const std::string& text) {
    OutFile file(path);
    file.buffer() = text;
    file.close();
}

} // namespace

void sampleTreeChromosome(const TreeHmmParameters& model, std::int64_t bins, std::uint64_t seed,
                          std::vector<std::vector<std::uint16_t>>& codes,
                          std::vector<std::vector<std::uint16_t>>& states) {
    model.validate("sampleTreeChromosome");
    Rng rng(seed);
    const auto n = static_cast<size_t>(model.numNodes());
    const int k = model.numStates;
    const int m = model.numMarks();
    const std::vector<int>& parent = model.tree.parent;
    // Cumulative transition rows: the root's, then per child and parent state.
    const std::vector<double> rootCum = cumulativeRows(model.rootTransitions);
    std::vector<double> startCum(static_cast<size_t>(k));
    double sum = 0;
    for (int j = 0; j < k; ++j) {
        sum += model.rootStart[j];
        startCum[static_cast<size_t>(j)] = j + 1 == k ? 1.0 : sum;
    }
    std::vector<std::vector<std::vector<double>>> childCum(n);
    for (size_t v = 1; v < n; ++v) {
        for (const auto& t : model.childTransitions[v]) {
            childCum[v].push_back(cumulativeRows(t));
        }
    }
    codes.assign(n, std::vector<std::uint16_t>(static_cast<size_t>(bins)));
    states.assign(n, std::vector<std::uint16_t>(static_cast<size_t>(bins)));
    std::vector<int> current(n, 0);
    const auto ku = static_cast<size_t>(k);
    for (size_t t = 0; t < static_cast<size_t>(bins); ++t) {
        for (size_t v = 0; v < n; ++v) {
            const size_t p = v == 0 ? 0 : static_cast<size_t>(parent[v]);
            if (t == 0) {
                current[v] = v == 0 ? drawCumulative(rng, startCum.data(), k) : current[p];
            } else if (v == 0) {
                current[v] =
                    drawCumulative(rng, rootCum.data() + static_cast<size_t>(current[v]) * ku, k);
            } else {
                const auto& table = childCum[v][static_cast<size_t>(current[p])];
                current[v] =
                    drawCumulative(rng, table.data() + static_cast<size_t>(current[v]) * ku, k);
            }
            std::uint16_t code = 0;
            for (int j = 0; j < m; ++j) {
                if (rng.uniform() < model.emissions[v](current[v], j)) {
                    code = static_cast<std::uint16_t>(code | (1u << j));
                }
            }
            codes[v][t] = code;
            states[v][t] = static_cast<std::uint16_t>(current[v]);
        }
    }
}

SyntheticTreeDataSummary writeSyntheticTreeData(const SyntheticTreeDataSpec& spec,
                                                const std::string& outDir,
                                                const CancelToken& cancel) {
    checkSpec(spec);
    namespace fs = std::filesystem;
    const fs::path dir(outDir);
    std::error_code error;
    fs::create_directories(dir / "truth", error);
    if (error || !fs::is_directory(dir / "truth")) {
        throw InputError(outDir, 0, "cannot create output folder: " + error.message());
    }
    SyntheticTreeDataSummary summary;
    summary.model = randomTreeHmm(spec.tree, spec.model, spec.seed);
    const TreeHmmParameters& model = summary.model;
    const int m = model.numMarks();
    // The text row of every code: "0\t1\t…\n".
    std::vector<std::string> rows(size_t{1} << m);
    for (size_t code = 0; code < rows.size(); ++code) {
        for (int j = 0; j < m; ++j) {
            rows[code] += ((code >> j) & 1) ? '1' : '0';
            rows[code] += j + 1 < m ? '\t' : '\n';
        }
    }
    // Chromosomes are handed out one at a time (largest first keeps the threads busy); each
    // writes its own files, so the output does not depend on the thread count.
    const size_t chroms = spec.chroms.size();
    std::vector<size_t> order(chroms);
    for (size_t c = 0; c < chroms; ++c) {
        order[c] = c;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return spec.chromBins[a] > spec.chromBins[b]; });
    std::vector<std::string> tss(chroms);
    std::atomic<size_t> next{0};
    const int workers = std::max(1, std::min(threadCount(), static_cast<int>(chroms)));
    parallelFor(workers, [&](std::int64_t) {
        for (size_t i = next++; i < chroms; i = next++) {
            throwIfCancelled(cancel);
            tss[order[i]] = writeChromosome(spec, model, order[i], dir, rows);
        }
    });
    std::string tssText;
    for (const auto& rowsOfChrom : tss) {
        tssText += rowsOfChrom;
        summary.tssSites += std::count(rowsOfChrom.begin(), rowsOfChrom.end(), '\n');
    }
    writeTextFile((dir / "tss.txt").string(), tssText);
    for (int v = 0; v < model.numNodes(); ++v) {
        const Eigen::MatrixXd& e = model.emissions[static_cast<size_t>(v)];
        std::string text = "state";
        for (const auto& mark : model.markNames) {
            text += '\t' + mark;
        }
        text += '\n';
        for (Eigen::Index h = 0; h < e.rows(); ++h) {
            text += "E" + std::to_string(h + 1);
            for (Eigen::Index j = 0; j < e.cols(); ++j) {
                text += '\t' + formatNumber(e(h, j), 6);
            }
            text += '\n';
        }
        const std::string& cell = spec.tree.names[static_cast<size_t>(v)];
        writeTextFile((dir / "truth" / ("emissions_" + cell + ".tsv")).string(), text);
        for (const auto& chrom : spec.chroms) {
            summary.trackFiles.push_back((dir / (cell + "_" + chrom + "_binary.txt")).string());
        }
    }
    for (const auto bins : spec.chromBins) {
        summary.binsPerCell += bins;
    }
    return summary;
}

} // namespace cx
