// computeSequenceMomentsDirect: the moments of computeSequenceMoments from explicit feature
// vectors, one triple at a time — the slow, obvious oracle the counting passes are tested
// against.
#include "core/hmm/sequence_moments.h"
#include "core/hmm/sequence_moments_detail.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cx {

SequenceMoments computeSequenceMomentsDirect(const ChromatinData& data, const BinClasses& classes,
                                             ObservationEncoding encoding, int lag, int window) {
    detail::checkClasses(data, classes, "computeSequenceMomentsDirect");
    SequenceMoments out;
    out.encoding = encoding;
    out.markNames = data.markNames;
    out.numPatterns = data.numPatterns();
    out.lag = lag;
    if (lag < 1 || window < 1 || (window > 1 && encoding != ObservationEncoding::MarkVector)) {
        throw std::invalid_argument("computeSequenceMomentsDirect: need lag >= 1 and window >= 1 "
                                    "(window > 1 for MarkVector only)");
    }
    out.window = window;
    const int m = data.numMarks();
    std::vector<Eigen::VectorXd> features(static_cast<size_t>(data.numPatterns()));
    if (encoding == ObservationEncoding::MarkVector) {
        out.featureDim = m + 1;
        for (int p = 0; p < data.numPatterns(); ++p) {
            Eigen::VectorXd phi = Eigen::VectorXd::Zero(m + 1);
            for (int j = 0; j < m; ++j) {
                phi[j] = data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present) ? 1 : 0;
            }
            phi[m] = 1;
            features[static_cast<size_t>(p)] = phi;
        }
        out.scale = Eigen::VectorXd::Unit(m + 1, m);
    } else {
        for (int p = 0; p < data.numPatterns(); ++p) {
            if (!data.patternHasMissing(p)) {
                out.categoryPattern.push_back(p);
            }
        }
        out.categoryMarks = detail::categoryMarkFlags(data, out.categoryPattern);
        out.featureDim = static_cast<int>(out.categoryPattern.size());
        for (size_t c = 0; c < out.categoryPattern.size(); ++c) {
            features[static_cast<size_t>(out.categoryPattern[c])] =
                Eigen::VectorXd::Unit(out.featureDim, static_cast<Eigen::Index>(c));
        }
        out.scale = Eigen::VectorXd::Ones(out.featureDim);
    }
    const int d = out.featureDim;
    out.basis = Eigen::MatrixXd::Identity(d, d);
    // Side view of a window: (φ_1[0..M), …, φ_L[0..M), 1) for MarkVector, φ itself for L = 1.
    const int side = window == 1 ? d : window * m + 1;
    out.sideScale = window == 1 ? out.scale : Eigen::VectorXd::Unit(side, side - 1);
    const int reach = lag + window - 1;
    for (auto [flag, target] :
         {std::pair{kForegroundBin, &out.foreground}, std::pair{kBackgroundBin, &out.background}}) {
        ClassMoments& moments = *target;
        detail::emptyMoments(moments, d, side);
        const bool third = encoding == ObservationEncoding::MarkVector;
        if (third) {
            moments.m222 = DenseTensor3(d, d, d);
        }
        for (const auto& run : runsWithFlag(data, classes, flag, true)) {
            ++moments.numRuns;
            moments.numBins += run.length();
            const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
            auto sideView = [&](std::int64_t t, int direction) {
                if (window == 1) {
                    return Eigen::VectorXd(
                        features[bins[static_cast<size_t>(t + direction * lag)]]);
                }
                Eigen::VectorXd v = Eigen::VectorXd::Zero(side);
                for (int l = 0; l < window; ++l) {
                    const auto& x = features[bins[static_cast<size_t>(t + direction * (lag + l))]];
                    v.segment(l * m, m) = x.head(m);
                }
                v[side - 1] = 1;
                return v;
            };
            for (std::int64_t t = run.begin + reach; t + reach < run.end; ++t) {
                const Eigen::VectorXd x0 = sideView(t, -1);
                const auto& x1 = features[bins[static_cast<size_t>(t)]];
                const Eigen::VectorXd x2 = sideView(t, +1);
                moments.m12 += x0 * x1.transpose();
                moments.m13 += x0 * x2.transpose();
                moments.m23 += x1 * x2.transpose();
                moments.m11 += x0 * x0.transpose();
                moments.m22 += x1 * x1.transpose();
                moments.m33 += x2 * x2.transpose();
                moments.m123.addRankOne(1.0, x0, x1, x2);
                if (third) {
                    moments.m222.addRankOne(1.0, x1, x1, x1);
                }
                ++moments.numTriples;
            }
        }
        if (moments.numTriples > 0) {
            const double inv = 1.0 / static_cast<double>(moments.numTriples);
            moments.m12 *= inv;
            moments.m13 *= inv;
            moments.m23 *= inv;
            moments.m11 *= inv;
            moments.m22 *= inv;
            moments.m33 *= inv;
            moments.m123.matrix() *= inv;
            moments.m222.matrix() *= inv;
        }
    }
    return out;
}

} // namespace cx
