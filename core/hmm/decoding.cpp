#include "core/hmm/decoding.h"

#include "core/hmm/segmentation_analysis.h"

#include "core/common/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace cx {

namespace {

void checkModel(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
                const char* where) {
    const auto k = start.size();
    if (k < 1 || transitions.rows() != k || transitions.cols() != k || table.rows() != k) {
        throw std::invalid_argument(std::string(where) +
                                    ": start, transitions and emission table disagree on K (" +
                                    std::to_string(k) + ", " + std::to_string(transitions.rows()) +
                                    ", " + std::to_string(table.rows()) + ")");
    }
    if (symbols.empty()) {
        throw std::invalid_argument(std::string(where) + ": empty sequence");
    }
    const auto cols = static_cast<std::uint32_t>(table.cols());
    for (auto s : symbols) {
        if (s >= cols) {
            throw std::invalid_argument(std::string(where) + ": symbol " + std::to_string(s) +
                                        " outside the emission table (" + std::to_string(cols) +
                                        " symbols)");
        }
    }
}

} // namespace

void HmmSufficientStats::reset(int numStates, int numPatterns) {
    logLikelihood = 0;
    numSequences = 0;
    start = Eigen::VectorXd::Zero(numStates);
    transitions = Eigen::MatrixXd::Zero(numStates, numStates);
    patternPosteriors = Eigen::MatrixXd::Zero(numStates, numPatterns);
}

void HmmSufficientStats::add(const HmmSufficientStats& other) {
    logLikelihood += other.logLikelihood;
    numSequences += other.numSequences;
    start += other.start;
    transitions += other.transitions;
    patternPosteriors += other.patternPosteriors;
}

namespace {

/// One scaled forward step: out_j = b_j·Σ_i prev_i A(i, j) (out_j = b_j·π_j at the first bin,
/// prev = nullptr), normalised to sum 1. Returns the scale c = Σ_j out_j before normalising;
/// c ≤ 0 (or NaN) means the sequence is impossible under the model, and `out` is left unscaled.
/// `a` is column-major (A(i, j) at i + K·j), `b` the emission probabilities of this bin.
inline double scaledForwardStep(const double* prev, const Eigen::VectorXd& start, const double* a,
                                const double* b, size_t k, double* out) {
    double c = 0;
    if (prev == nullptr) {
        for (size_t j = 0; j < k; ++j) {
            out[j] = start[static_cast<Eigen::Index>(j)] * b[j];
            c += out[j];
        }
    } else {
        for (size_t j = 0; j < k; ++j) {
            const double* col = a + k * j;
            double s = 0;
            for (size_t i = 0; i < k; ++i) {
                s += prev[i] * col[i];
            }
            out[j] = s * b[j];
            c += out[j];
        }
    }
    if (c > 0) {
        const double inv = 1.0 / c;
        for (size_t j = 0; j < k; ++j) {
            out[j] *= inv;
        }
    }
    return c;
}

/// The forward–backward kernel; KC > 0 fixes K at compile time so the K×K loops unroll.
template <int KC>
double forwardBackwardKernel(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                             const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
                             std::vector<double>& workspace, HmmSufficientStats* stats,
                             std::uint16_t* argmax, Eigen::MatrixXd* posteriors) {
    const size_t k = KC > 0 ? static_cast<size_t>(KC) : static_cast<size_t>(start.size());
    const size_t length = symbols.size();
    workspace.resize(length * k + length + 3 * k);
    double* alpha = workspace.data();     // L × K, row t contiguous
    double* scale = alpha + length * k;   // L
    double* beta = scale + length;        // K
    double* nextBeta = beta + k;          // K
    double* tmp = nextBeta + k;           // K
    const double* a = transitions.data(); // column-major: A(i, j) at i + K·j
    const double* tab = table.data();     // column p contiguous
    // A transposed, so that a row of A (fixed i) is contiguous: at[j + K·i] = A(i, j).
    std::vector<double> at(k * k);
    for (size_t i = 0; i < k; ++i) {
        for (size_t j = 0; j < k; ++j) {
            at[j + k * i] = a[i + k * j];
        }
    }
    // Forward.
    double logLikelihood = 0;
    for (size_t t = 0; t < length; ++t) {
        const double c =
            scaledForwardStep(t == 0 ? nullptr : alpha + (t - 1) * k, start, a,
                              tab + static_cast<size_t>(symbols[t]) * k, k, alpha + t * k);
        if (!(c > 0)) {
            return -std::numeric_limits<double>::infinity();
        }
        scale[t] = c;
        logLikelihood += std::log(c);
    }
    if (stats == nullptr && argmax == nullptr && posteriors == nullptr) {
        return logLikelihood;
    }
    if (posteriors != nullptr) {
        posteriors->resize(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(length));
    }
    // Expected transition counts without the A factor: X(i, j) = Σ_t α̂_t(i)·tmp_t(j); the
    // factor A(i, j) is applied once at the end.
    std::vector<double> x(stats != nullptr ? k * k : 0, 0.0);
    auto emit = [&](size_t t, const double* betaT) {
        const double* alphaT = alpha + t * k;
        size_t best = 0;
        double bestValue = -1;
        double* post = posteriors != nullptr ? posteriors->data() + t * k : nullptr;
        double* pp = stats != nullptr
                         ? stats->patternPosteriors.data() + static_cast<size_t>(symbols[t]) * k
                         : nullptr;
        for (size_t j = 0; j < k; ++j) {
            const double g = alphaT[j] * betaT[j];
            if (g > bestValue) {
                bestValue = g;
                best = j;
            }
            if (post != nullptr) {
                post[j] = g;
            }
            if (pp != nullptr) {
                pp[j] += g;
            }
        }
        if (argmax != nullptr) {
            argmax[t] = static_cast<std::uint16_t>(best);
        }
        if (t == 0 && stats != nullptr) {
            for (size_t j = 0; j < k; ++j) {
                stats->start[static_cast<Eigen::Index>(j)] += alphaT[j] * betaT[j];
            }
        }
    };
    for (size_t j = 0; j < k; ++j) {
        beta[j] = 1.0;
    }
    emit(length - 1, beta);
    for (size_t t = length - 1; t-- > 0;) {
        const double* b = tab + static_cast<size_t>(symbols[t + 1]) * k;
        const double inv = 1.0 / scale[t + 1];
        for (size_t j = 0; j < k; ++j) {
            tmp[j] = b[j] * beta[j] * inv;
        }
        if (stats != nullptr) {
            const double* alphaT = alpha + t * k;
            for (size_t i = 0; i < k; ++i) {
                const double ai = alphaT[i];
                double* row = x.data() + i * k;
                for (size_t j = 0; j < k; ++j) {
                    row[j] += ai * tmp[j];
                }
            }
        }
        for (size_t i = 0; i < k; ++i) {
            const double* row = at.data() + k * i;
            double s = 0;
            for (size_t j = 0; j < k; ++j) {
                s += row[j] * tmp[j];
            }
            nextBeta[i] = s;
        }
        std::swap(beta, nextBeta);
        // A state the forward pass cannot reach (α = 0: exact zeros in the transitions) has
        // no posterior mass and its β feeds only the β of other unreachable states; left alone
        // it can grow along a chromosome until it overflows, and inf·0 = NaN then reaches every
        // state of every earlier bin (decoded as state 0). Zeroing it changes no posterior and
        // no expected count (α(i)·A(i, j) = 0 for every reachable i).
        const double* alphaT = alpha + t * k;
        for (size_t j = 0; j < k; ++j) {
            if (alphaT[j] == 0) {
                beta[j] = 0;
            }
        }
        emit(t, beta);
    }
    if (stats != nullptr) {
        for (size_t i = 0; i < k; ++i) {
            for (size_t j = 0; j < k; ++j) {
                stats->transitions(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) +=
                    x[i * k + j] * a[i + k * j];
            }
        }
        stats->logLikelihood += logLikelihood;
        ++stats->numSequences;
    }
    return logLikelihood;
}

} // namespace

double forwardBackward(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                       const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
                       std::vector<double>& workspace, HmmSufficientStats* stats,
                       std::uint16_t* argmax, Eigen::MatrixXd* posteriors) {
    checkModel(start, transitions, table, symbols, "forwardBackward");
    switch (start.size()) {
#define CX_FB_CASE(n)                                                                              \
    case n:                                                                                        \
        return forwardBackwardKernel<n>(start, transitions, table, symbols, workspace, stats,      \
                                        argmax, posteriors);
        CX_FB_CASE(2)
        CX_FB_CASE(3)
        CX_FB_CASE(4)
        CX_FB_CASE(5)
        CX_FB_CASE(6)
        CX_FB_CASE(7)
        CX_FB_CASE(8)
        CX_FB_CASE(9)
        CX_FB_CASE(10)
        CX_FB_CASE(11)
        CX_FB_CASE(12)
#undef CX_FB_CASE
    default:
        return forwardBackwardKernel<0>(start, transitions, table, symbols, workspace, stats,
                                        argmax, posteriors);
    }
}

double forwardLogLikelihood(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                            const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols) {
    checkModel(start, transitions, table, symbols, "forwardLogLikelihood");
    const auto k = static_cast<size_t>(start.size());
    std::vector<double> prev(k), cur(k);
    const double* a = transitions.data();
    const double* tab = table.data();
    double logLikelihood = 0;
    for (size_t t = 0; t < symbols.size(); ++t) {
        const double c =
            scaledForwardStep(t == 0 ? nullptr : prev.data(), start, a,
                              tab + static_cast<size_t>(symbols[t]) * k, k, cur.data());
        if (!(c > 0)) {
            return -std::numeric_limits<double>::infinity();
        }
        prev.swap(cur);
        logLikelihood += std::log(c);
    }
    return logLikelihood;
}

double viterbi(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
               const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
               std::vector<std::uint16_t>& path) {
    checkModel(start, transitions, table, symbols, "viterbi");
    const auto k = static_cast<size_t>(start.size());
    if (k > 65535) {
        throw std::invalid_argument("viterbi: at most 65535 states (K = " + std::to_string(k) +
                                    ")");
    }
    const size_t length = symbols.size();
    const Eigen::MatrixXd logA = transitions.array().log().matrix();
    const Eigen::MatrixXd logTable = table.array().log().matrix();
    std::vector<std::uint16_t> back(length * k);
    std::vector<double> delta(k), next(k);
    for (size_t j = 0; j < k; ++j) {
        delta[j] = std::log(start[static_cast<Eigen::Index>(j)]) +
                   logTable(static_cast<Eigen::Index>(j), symbols[0]);
    }
    const double* la = logA.data();
    for (size_t t = 1; t < length; ++t) {
        const double* lb = logTable.data() + static_cast<size_t>(symbols[t]) * k;
        std::uint16_t* bp = back.data() + t * k;
        for (size_t j = 0; j < k; ++j) {
            const double* col = la + k * j;
            double best = -std::numeric_limits<double>::infinity();
            size_t arg = 0;
            for (size_t i = 0; i < k; ++i) {
                const double v = delta[i] + col[i];
                if (v > best) {
                    best = v;
                    arg = i;
                }
            }
            next[j] = best + lb[j];
            bp[j] = static_cast<std::uint16_t>(arg);
        }
        std::swap(delta, next);
    }
    size_t state = 0;
    double best = -std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < k; ++j) {
        if (delta[j] > best) {
            best = delta[j];
            state = j;
        }
    }
    path.resize(length);
    for (size_t t = length; t-- > 0;) {
        path[t] = static_cast<std::uint16_t>(state);
        if (t > 0) {
            state = back[t * k + state];
        }
    }
    return best;
}

double logLikelihood(const ChromatinData& data, const std::vector<BinRun>& runs,
                     const HmmParameters& hmm, const CancelToken& cancel) {
    hmm.validate("logLikelihood");
    const Eigen::MatrixXd table = emissionLikelihoods(hmm, data);
    std::vector<double> perRun(runs.size(), 0.0);
    parallelFor(static_cast<std::int64_t>(runs.size()), [&](std::int64_t r) {
        throwIfCancelled(cancel);
        const auto& run = runs[static_cast<size_t>(r)];
        const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
        perRun[static_cast<size_t>(r)] =
            forwardLogLikelihood(hmm.start, hmm.transitions, table,
                                 std::span<const std::uint32_t>(bins.data() + run.begin,
                                                                static_cast<size_t>(run.length())));
    });
    double total = 0;
    for (double v : perRun) {
        total += v;
    }
    return total;
}

const char* toString(DecodingMethod method) {
    return method == DecodingMethod::Viterbi ? "viterbi" : "posterior";
}

Segmentation segmentTracks(const ChromatinData& data, const HmmParameters& hmm,
                           DecodingMethod method, const CancelToken& cancel) {
    hmm.validate("segmentTracks");
    if (hmm.numStates() > 65535) {
        throw std::invalid_argument("segmentTracks: at most 65535 states");
    }
    const Eigen::MatrixXd table = emissionLikelihoods(hmm, data);
    Segmentation out;
    out.method = method;
    out.numStates = hmm.numStates();
    out.states.resize(data.tracks.size());
    std::vector<double> perTrack(data.tracks.size(), 0.0);
    parallelFor(static_cast<std::int64_t>(data.tracks.size()), [&](std::int64_t t) {
        throwIfCancelled(cancel);
        const auto& bins = data.tracks[static_cast<size_t>(t)].bins;
        auto& states = out.states[static_cast<size_t>(t)];
        if (bins.empty()) {
            return;
        }
        std::span<const std::uint32_t> symbols(bins.data(), bins.size());
        std::vector<double> workspace;
        if (method == DecodingMethod::Posterior) {
            states.resize(bins.size());
            perTrack[static_cast<size_t>(t)] = forwardBackward(
                hmm.start, hmm.transitions, table, symbols, workspace, nullptr, states.data());
        } else {
            viterbi(hmm.start, hmm.transitions, table, symbols, states);
            perTrack[static_cast<size_t>(t)] =
                forwardLogLikelihood(hmm.start, hmm.transitions, table, symbols);
        }
    });
    for (double v : perTrack) {
        out.logLikelihood += v;
    }
    return out;
}

std::string stateColor(int state) {
    static const char* palette[] = {"31,119,180",  "255,127,14",  "44,160,44",   "214,39,40",
                                    "148,103,189", "140,86,75",   "227,119,194", "127,127,127",
                                    "188,189,34",  "23,190,207",  "174,199,232", "255,187,120",
                                    "152,223,138", "255,152,150", "197,176,213", "196,156,148",
                                    "247,182,210", "199,199,199", "219,219,141", "158,218,229"};
    constexpr int n = static_cast<int>(sizeof(palette) / sizeof(palette[0]));
    return palette[((state % n) + n) % n];
}

std::vector<std::string> defaultStateLabels(int numStates) {
    std::vector<std::string> labels;
    for (int k = 0; k < numStates; ++k) {
        labels.push_back("E" + std::to_string(k + 1));
    }
    return labels;
}

std::vector<std::string> namedStateLabels(const std::vector<std::string>& names, int numStates) {
    std::vector<std::string> labels = defaultStateLabels(numStates);
    for (size_t s = 0; s < names.size() && s < labels.size(); ++s) {
        labels[s] = names[s];
        std::replace_if(
            labels[s].begin(), labels[s].end(),
            [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    }
    return labels;
}

void writeSegmentationBed9(std::ostream& out, const ChromatinData& data,
                           const Segmentation& segmentation,
                           const std::vector<std::string>& stateLabels, bool trackLines,
                           int onlyTrack) {
    if (segmentation.states.size() != data.tracks.size()) {
        throw std::invalid_argument("writeSegmentationBed9: segmentation has " +
                                    std::to_string(segmentation.states.size()) +
                                    " tracks, data has " + std::to_string(data.tracks.size()));
    }
    if (static_cast<int>(stateLabels.size()) < segmentation.numStates) {
        throw std::invalid_argument("writeSegmentationBed9: fewer labels than states");
    }
    std::vector<std::string> colours;
    for (int state = 0; state < segmentation.numStates; ++state) {
        colours.push_back(stateColor(state));
    }
    std::function<std::string(const ChromatinTrack&)> trackLine;
    if (trackLines) {
        trackLine = [&segmentation](const ChromatinTrack& track) {
            return "track name=\"" + track.cell + "\" description=\"contrast-cli hmm states (" +
                   track.cell + ", " + toString(segmentation.method) + ")\" itemRgb=\"On\"";
        };
    }
    writeRunsBed9(out, data, segmentationRuns(segmentation), stateLabels, colours, trackLine,
                  onlyTrack);
}

void writeSampleTracksBed9(std::ostream& out, const ChromatinData& data,
                           const Segmentation& segmentation,
                           const std::vector<std::string>& stateLabels,
                           const std::string& description, const std::string& onlyCell,
                           const std::vector<std::string>& stateColours) {
    if (segmentation.states.size() != data.tracks.size()) {
        throw std::invalid_argument("writeSampleTracksBed9: segmentation has " +
                                    std::to_string(segmentation.states.size()) +
                                    " tracks, data has " + std::to_string(data.tracks.size()));
    }
    if (static_cast<int>(stateLabels.size()) < segmentation.numStates) {
        throw std::invalid_argument("writeSampleTracksBed9: fewer labels than states");
    }
    if (!stateColours.empty() && static_cast<int>(stateColours.size()) < segmentation.numStates) {
        throw std::invalid_argument("writeSampleTracksBed9: fewer colours than states");
    }
    std::vector<std::string> colours = stateColours;
    for (int state = static_cast<int>(colours.size()); state < segmentation.numStates; ++state) {
        colours.push_back(stateColor(state));
    }
    // Quotes would end the UCSC attribute early.
    const auto unquote = [](std::string text) {
        std::replace(text.begin(), text.end(), '"', '\'');
        return text;
    };
    const auto trackLine = [&](const ChromatinTrack& track) {
        return "track name=\"" + unquote(track.cell) + "\" description=\"" + unquote(track.cell) +
               (description.empty() ? "" : " " + unquote(description)) + "\" itemRgb=\"On\"";
    };
    writeRunsBed9(out, data, segmentationRuns(segmentation), stateLabels, colours, trackLine, -1,
                  onlyCell);
}

std::string igvBatchScript(const std::vector<std::string>& files, const std::string& locus) {
    std::string script = "new\n";
    for (const auto& file : files) {
        script += "load " + file + "\n";
    }
    if (!locus.empty()) {
        script += "goto " + locus + "\n";
    }
    return script;
}

} // namespace cx
