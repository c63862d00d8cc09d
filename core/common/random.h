#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <random>

namespace cx {

/// Seeded pseudo-random source used everywhere in core. Same seed, same numbers, on every
/// platform: the engine is std::mt19937_64 (fully specified by the standard) and the
/// distributions below are written out here rather than taken from the library (whose
/// algorithms are implementation-defined).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}

    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    /// Uniform in (0, 1): 53 random bits, centred in their cell (never exactly 0 or 1).
    double uniformOpen() { return (static_cast<double>(m_engine() >> 11) + 0.5) * 0x1.0p-53; }
    /// Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n) {
        // Lemire-style rejection keeps it unbiased.
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x = m_engine();
        while (x >= limit) {
            x = m_engine();
        }
        return x % n;
    }
    /// Standard normal (Box–Muller, no caching so the stream position is simple to reason about).
    double normal() {
        double u1 = uniform();
        while (u1 <= 0.0) {
            u1 = uniform();
        }
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }
    /// Gamma(shape, 1) by Marsaglia–Tsang (shape < 1 via the boost u^(1/shape)).
    double gamma(double shape) {
        if (shape < 1.0) {
            const double u = uniform();
            return gamma(shape + 1.0) * std::pow(u > 0 ? u : 1e-300, 1.0 / shape);
        }
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x = normal();
            double v = 1.0 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            const double u = uniform();
            if (u < 1.0 - 0.0331 * x * x * x * x) {
                return d * v;
            }
            if (std::log(u > 0 ? u : 1e-300) < 0.5 * x * x + d * (1.0 - v + std::log(v))) {
                return d * v;
            }
        }
    }
    /// Dirichlet(alpha, …, alpha) of dimension n.
    Eigen::VectorXd dirichlet(Eigen::Index n, double alpha) {
        Eigen::VectorXd out(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            out[i] = gamma(alpha);
        }
        const double total = out.sum();
        if (total <= 0) {
            out.setConstant(1.0 / static_cast<double>(n));
        } else {
            out /= total;
        }
        return out;
    }
    /// Vector of standard normals.
    Eigen::VectorXd normalVector(Eigen::Index n) {
        Eigen::VectorXd out(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            out[i] = normal();
        }
        return out;
    }
    Eigen::MatrixXd normalMatrix(Eigen::Index rows, Eigen::Index cols) {
        Eigen::MatrixXd out(rows, cols);
        for (Eigen::Index j = 0; j < cols; ++j) {
            for (Eigen::Index i = 0; i < rows; ++i) {
                out(i, j) = normal();
            }
        }
        return out;
    }
    std::mt19937_64& engine() { return m_engine; }

private:
    std::mt19937_64 m_engine;
};

/// Derives an independent-looking seed for sub-stream `index` of `seed` (SplitMix64 mixing), so
/// that e.g. restart t of component j gets its own reproducible stream.
inline std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace cx
