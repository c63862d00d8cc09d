#include "core/hmm/synthetic_hmm.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace cx {

namespace {

double uniformIn(Rng& rng, double low, double high) {
    return low + (high - low) * rng.uniformOpen();
}

int drawCategorical(const double* probabilities, int n, std::ptrdiff_t stride, Rng& rng) {
    const double u = rng.uniformOpen();
    double cumulative = 0;
    for (int i = 0; i < n; ++i) {
        cumulative += probabilities[i * stride];
        if (u < cumulative) {
            return i;
        }
    }
    return n - 1;
}

} // namespace

HmmParameters randomSyntheticHmm(int numStates, int numMarks, std::uint64_t seed,
                                 double stickiness) {
    if (numStates < 1 || numMarks < 1 || !(stickiness >= 0 && stickiness < 1)) {
        throw std::invalid_argument("randomSyntheticHmm: need K >= 1, M >= 1, 0 <= stickiness < 1 "
                                    "(K = " +
                                    std::to_string(numStates) +
                                    ", M = " + std::to_string(numMarks) + ")");
    }
    Rng rng(seed);
    HmmParameters hmm;
    hmm.encoding = ObservationEncoding::MarkVector;
    hmm.emissions.resize(numStates, numMarks);
    for (int k = 0; k < numStates; ++k) {
        bool any = false;
        for (int j = 0; j < numMarks; ++j) {
            const bool on = k > 0 && rng.uniformOpen() < 0.35;
            any = any || on;
            hmm.emissions(k, j) =
                k == 0 ? uniformIn(rng, 0.005, 0.05)
                       : (on ? uniformIn(rng, 0.5, 0.95) : uniformIn(rng, 0.01, 0.08));
        }
        if (k > 0 && !any) {
            const int j = static_cast<int>(rng.below(static_cast<std::uint64_t>(numMarks)));
            hmm.emissions(k, j) = uniformIn(rng, 0.5, 0.95);
        }
    }
    hmm.transitions.resize(numStates, numStates);
    for (int i = 0; i < numStates; ++i) {
        if (numStates == 1) {
            hmm.transitions(0, 0) = 1.0;
            break;
        }
        double other = 0;
        for (int j = 0; j < numStates; ++j) {
            hmm.transitions(i, j) = j == i ? 0.0 : uniformIn(rng, 0.2, 1.0);
            other += hmm.transitions(i, j);
        }
        for (int j = 0; j < numStates; ++j) {
            hmm.transitions(i, j) =
                j == i ? stickiness : (1 - stickiness) * hmm.transitions(i, j) / other;
        }
    }
    hmm.start = stationaryDistribution(hmm.transitions);
    return hmm;
}

Eigen::VectorXd stationaryDistribution(const Eigen::MatrixXd& transitions) {
    const auto k = transitions.rows();
    if (k < 1 || transitions.cols() != k) {
        throw std::invalid_argument("stationaryDistribution: need a square non-empty matrix");
    }
    // Solve πᵀ(A − I) = 0 with Σπ = 1: replace one equation by the normalisation.
    Eigen::MatrixXd system = (transitions - Eigen::MatrixXd::Identity(k, k)).transpose();
    system.row(k - 1).setOnes();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(k);
    rhs[k - 1] = 1.0;
    Eigen::VectorXd pi = system.fullPivLu().solve(rhs);
    pi = pi.cwiseMax(0.0);
    return pi / pi.sum();
}

HmmSample sampleHmm(const HmmParameters& hmm, std::int64_t length, Rng& rng) {
    hmm.validate("sampleHmm");
    if (hmm.encoding != ObservationEncoding::MarkVector) {
        throw std::invalid_argument("sampleHmm: only the MarkVector encoding is supported");
    }
    const int k = hmm.numStates();
    const int m = static_cast<int>(hmm.emissions.cols());
    HmmSample sample;
    sample.states.resize(static_cast<size_t>(length));
    sample.values.resize(static_cast<size_t>(length) * static_cast<size_t>(m));
    // Row-major copy of transitions for contiguous rows.
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows =
        hmm.transitions;
    int state = drawCategorical(hmm.start.data(), k, 1, rng);
    for (std::int64_t t = 0; t < length; ++t) {
        if (t > 0) {
            state =
                drawCategorical(rows.data() + static_cast<std::ptrdiff_t>(state) * k, k, 1, rng);
        }
        sample.states[static_cast<size_t>(t)] = static_cast<std::uint16_t>(state);
        for (int j = 0; j < m; ++j) {
            sample
                .values[static_cast<size_t>(t) * static_cast<size_t>(m) + static_cast<size_t>(j)] =
                rng.uniformOpen() < hmm.emissions(state, j) ? 1 : 0;
        }
    }
    return sample;
}

void appendTrackFromValues(ChromatinData& data, const std::string& cell, const std::string& chrom,
                           const std::vector<std::uint8_t>& values) {
    if (data.markNames.empty()) {
        throw std::invalid_argument("appendTrackFromValues: set data.markNames first");
    }
    const size_t m = data.markNames.size();
    if (values.size() % m != 0) {
        throw std::invalid_argument("appendTrackFromValues: value count is not a multiple of M");
    }
    std::unordered_map<std::string, std::uint32_t> index;
    for (size_t p = 0; p < data.patternCounts.size(); ++p) {
        index.emplace(std::string(reinterpret_cast<const char*>(&data.patternValues[p * m]), m),
                      static_cast<std::uint32_t>(p));
    }
    ChromatinTrack track;
    track.path = "<synthetic>";
    track.cell = cell;
    track.chrom = chrom;
    const size_t length = values.size() / m;
    track.bins.resize(length);
    std::string key(m, '\0');
    for (size_t t = 0; t < length; ++t) {
        for (size_t j = 0; j < m; ++j) {
            key[j] = static_cast<char>(values[t * m + j]);
        }
        auto [it, inserted] =
            index.emplace(key, static_cast<std::uint32_t>(data.patternCounts.size()));
        if (inserted) {
            data.patternCounts.push_back(0);
            data.patternValues.insert(data.patternValues.end(), key.begin(), key.end());
        }
        ++data.patternCounts[it->second];
        track.bins[t] = it->second;
    }
    data.tracks.push_back(std::move(track));
}

std::vector<std::string> numberedMarkNames(int numMarks) {
    std::vector<std::string> names;
    for (int j = 0; j < numMarks; ++j) {
        names.push_back("M" + std::to_string(j + 1));
    }
    return names;
}

ChromatinData sampleChromatinData(const HmmParameters& hmm,
                                  const std::vector<std::int64_t>& lengths, std::uint64_t seed) {
    Rng rng(seed);
    ChromatinData data;
    data.markNames = numberedMarkNames(static_cast<int>(hmm.emissions.cols()));
    for (size_t i = 0; i < lengths.size(); ++i) {
        const HmmSample sample = sampleHmm(hmm, lengths[i], rng);
        appendTrackFromValues(data, "C" + std::to_string(i), "chrS", sample.values);
    }
    return data;
}

ClassMoments populationMoments(const HmmParameters& hmm, int lag, int window) {
    hmm.validate("populationMoments");
    if (lag < 1 || window < 1) {
        throw std::invalid_argument("populationMoments: need lag >= 1 and window >= 1");
    }
    const int k = hmm.numStates();
    const int m = static_cast<int>(hmm.emissions.cols());
    const int d = m + 1;
    const Eigen::VectorXd pi = stationaryDistribution(hmm.transitions);
    Eigen::MatrixXd o(d, k);
    o.topRows(m) = hmm.emissions.transpose();
    o.row(m).setOnes();
    // Reverse transitions R(j, h) = P(h_{t−1} = j | h_t = h) = π_j A(j, h) / π_h.
    Eigen::MatrixXd reverse(k, k);
    for (int j = 0; j < k; ++j) {
        for (int h = 0; h < k; ++h) {
            reverse(j, h) = pi[h] > 0 ? pi[j] * hmm.transitions(j, h) / pi[h] : 0.0;
        }
    }
    // Side views: block l holds E[x_{t∓(lag+l)} | h_t] = O·R^{lag+l} (past) or O·(A^{lag+l})ᵀ.
    const int side = window == 1 ? d : window * m + 1;
    Eigen::MatrixXd a(side, k);
    Eigen::MatrixXd c(side, k);
    Eigen::MatrixXd backward = Eigen::MatrixXd::Identity(k, k);
    Eigen::MatrixXd forward = Eigen::MatrixXd::Identity(k, k);
    for (int step = 0; step < lag - 1; ++step) {
        backward = backward * reverse;
        forward = forward * hmm.transitions.transpose();
    }
    for (int l = 0; l < window; ++l) {
        backward = backward * reverse;
        forward = forward * hmm.transitions.transpose();
        const Eigen::MatrixXd pastBlock = o * backward;
        const Eigen::MatrixXd futureBlock = o * forward;
        if (window == 1) {
            a = pastBlock;
            c = futureBlock;
        } else {
            a.middleRows(l * m, m) = pastBlock.topRows(m);
            c.middleRows(l * m, m) = futureBlock.topRows(m);
        }
    }
    if (window > 1) {
        a.row(side - 1).setOnes();
        c.row(side - 1).setOnes();
    }
    // View second moments. Same bin: E[φφᵀ | h] = o oᵀ with the mark diagonal o_i (x_i² = x_i).
    // Bins Δ apart (stationary chain): E[x_s x_{s+Δ}ᵀ] = Σ_{j,i} π_j (A^Δ)_{ji} e_j e_iᵀ.
    const Eigen::MatrixXd e = hmm.emissions.transpose(); // M × K
    Eigen::MatrixXd same = Eigen::MatrixXd::Zero(d, d);
    for (int h = 0; h < k; ++h) {
        Eigen::MatrixXd block = o.col(h) * o.col(h).transpose();
        for (int i = 0; i < m; ++i) {
            block(i, i) = o(i, h);
        }
        same += pi[h] * block;
    }
    auto apart = [&](int delta) { // E[x_s x_{s+Δ}ᵀ], M × M
        Eigen::MatrixXd power = Eigen::MatrixXd::Identity(k, k);
        for (int step = 0; step < delta; ++step) {
            power = power * hmm.transitions;
        }
        return Eigen::MatrixXd(e * pi.asDiagonal() * power * e.transpose());
    };
    auto windowSecond = [&](bool pastWindow) {
        if (window == 1) {
            return same;
        }
        Eigen::MatrixXd out = Eigen::MatrixXd::Zero(side, side);
        const Eigen::VectorXd mean = e * pi;
        for (int l = 0; l < window; ++l) {
            out.block(l * m, l * m, m, m) = same.topLeftCorner(m, m);
            out.block(l * m, side - 1, m, 1) = mean;
            out.block(side - 1, l * m, 1, m) = mean.transpose();
            for (int l2 = l + 1; l2 < window; ++l2) {
                // Future window: bin l is the earlier one; past window: bin l is the later one.
                const Eigen::MatrixXd block =
                    pastWindow ? Eigen::MatrixXd(apart(l2 - l).transpose()) : apart(l2 - l);
                out.block(l * m, l2 * m, m, m) = block;
                out.block(l2 * m, l * m, m, m) = block.transpose();
            }
        }
        out(side - 1, side - 1) = 1;
        return out;
    };
    ClassMoments out;
    out.numTriples = 1;
    out.m11 = windowSecond(true);
    out.m22 = same;
    // Same bin, three coordinates: E[y_i y_j y_l | h] = Π over the distinct indices of o (x² = x).
    out.m222 = DenseTensor3(d, d, d);
    for (int h = 0; h < k; ++h) {
        for (int i = 0; i < d; ++i) {
            for (int j = 0; j < d; ++j) {
                for (int l = 0; l < d; ++l) {
                    double v = o(i, h);
                    v *= j != i ? o(j, h) : 1.0;
                    v *= l != i && l != j ? o(l, h) : 1.0;
                    out.m222(i, j, l) += pi[h] * v;
                }
            }
        }
    }
    out.m33 = windowSecond(false);
    out.m12 = a * pi.asDiagonal() * o.transpose();
    out.m13 = a * pi.asDiagonal() * c.transpose();
    out.m23 = o * pi.asDiagonal() * c.transpose();
    out.m123 = DenseTensor3(side, d, side);
    for (int h = 0; h < k; ++h) {
        out.m123.addRankOne(pi[h], a.col(h), o.col(h), c.col(h));
    }
    return out;
}

SequenceMoments populationContrastiveMoments(const HmmParameters& a, const HmmParameters& b,
                                             double rho, int lag, int window) {
    if (a.emissions.cols() != b.emissions.cols()) {
        throw std::invalid_argument("populationContrastiveMoments: HMMs have different marks");
    }
    const int m = static_cast<int>(a.emissions.cols());
    SequenceMoments out;
    out.encoding = ObservationEncoding::MarkVector;
    out.markNames = numberedMarkNames(m);
    out.featureDim = m + 1;
    out.basis = Eigen::MatrixXd::Identity(m + 1, m + 1);
    out.scale = Eigen::VectorXd::Unit(m + 1, m);
    out.lag = lag;
    out.window = window;
    const int side = window == 1 ? m + 1 : window * m + 1;
    out.sideScale = Eigen::VectorXd::Unit(side, side - 1);
    const ClassMoments ma = populationMoments(a, lag, window);
    const ClassMoments mb = populationMoments(b, lag, window);
    out.foreground.numTriples = 1;
    out.foreground.m12 = (1 - rho) * ma.m12 + rho * mb.m12;
    out.foreground.m13 = (1 - rho) * ma.m13 + rho * mb.m13;
    out.foreground.m23 = (1 - rho) * ma.m23 + rho * mb.m23;
    out.foreground.m11 = (1 - rho) * ma.m11 + rho * mb.m11;
    out.foreground.m22 = (1 - rho) * ma.m22 + rho * mb.m22;
    out.foreground.m33 = (1 - rho) * ma.m33 + rho * mb.m33;
    out.foreground.m222 = ma.m222;
    out.foreground.m222.matrix() = (1 - rho) * ma.m222.matrix() + rho * mb.m222.matrix();
    out.foreground.m123 = ma.m123;
    out.foreground.m123.matrix() = (1 - rho) * ma.m123.matrix() + rho * mb.m123.matrix();
    out.background = mb;
    return out;
}

SyntheticContrast syntheticContrastiveData(const HmmParameters& a, const HmmParameters& b,
                                           int numBlocks, int blockLength, double rho,
                                           std::uint64_t seed) {
    if (numBlocks < 1 || blockLength < 3 || !(rho >= 0 && rho <= 1) ||
        a.emissions.cols() != b.emissions.cols()) {
        throw std::invalid_argument("syntheticContrastiveData: need numBlocks >= 1, blockLength "
                                    ">= 3, 0 <= rho <= 1 and HMMs over the same marks");
    }
    Rng rng(seed);
    const int m = static_cast<int>(a.emissions.cols());
    const int ka = a.numStates();
    SyntheticContrast out;
    out.data.binSize = 200;
    out.data.markNames = numberedMarkNames(m);
    std::vector<std::uint8_t> values;
    std::int64_t position = 0;
    std::int64_t fgFromB = 0;
    std::int64_t fgBins = 0;
    auto& fg = out.foreground.byChrom["chrS"];
    auto& bg = out.background.byChrom["chrS"];
    for (int block = 0; block < numBlocks; ++block) {
        for (int part = 0; part < 2; ++part) {
            const bool foreground = part == 0;
            const bool fromB = !foreground || rng.uniformOpen() < rho;
            const HmmSample sample = sampleHmm(fromB ? b : a, blockLength, rng);
            values.insert(values.end(), sample.values.begin(), sample.values.end());
            for (auto s : sample.states) {
                out.states.push_back(static_cast<std::uint16_t>(fromB ? s + ka : s));
            }
            const BedInterval interval{position * out.data.binSize,
                                       (position + blockLength) * out.data.binSize};
            (foreground ? fg : bg).push_back(interval);
            if (foreground) {
                fgBins += blockLength;
                fgFromB += fromB ? blockLength : 0;
            }
            position += blockLength;
        }
    }
    out.foreground.numIntervals = static_cast<std::int64_t>(fg.size());
    out.background.numIntervals = static_cast<std::int64_t>(bg.size());
    out.foreground.sources.push_back("<synthetic foreground>");
    out.background.sources.push_back("<synthetic background>");
    out.rho = fgBins > 0 ? static_cast<double>(fgFromB) / static_cast<double>(fgBins) : 0.0;
    appendTrackFromValues(out.data, "SYN", "chrS", values);
    return out;
}

} // namespace cx
