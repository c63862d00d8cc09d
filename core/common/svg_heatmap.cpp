#include "core/common/svg_heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace cx {

namespace {

struct HeatRgb {
    int r = 0, g = 0, b = 255;
};

HeatRgb parseColour(const std::string& text) {
    HeatRgb out;
    if (text.size() == 7 && text[0] == '#') {
        unsigned r = 0, g = 0, b = 0;
        if (std::sscanf(text.c_str() + 1, "%2x%2x%2x", &r, &g, &b) == 3) {
            out = {static_cast<int>(r), static_cast<int>(g), static_cast<int>(b)};
        }
    }
    return out;
}

std::string mix(const HeatRgb& high, double t) {
    t = std::clamp(t, 0.0, 1.0);
    const auto channel = [t](int c) { return static_cast<int>(std::lround(255 + (c - 255) * t)); };
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", channel(high.r), channel(high.g),
                  channel(high.b));
    return buffer;
}

} // namespace

std::string escapeXml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

void writeSvgHeatmap(std::ostream& out, const Eigen::MatrixXd& values,
                     const std::vector<std::string>& rowLabels,
                     const std::vector<std::string>& columnLabels,
                     const SvgHeatmapOptions& options) {
    if (static_cast<Eigen::Index>(rowLabels.size()) != values.rows() ||
        static_cast<Eigen::Index>(columnLabels.size()) != values.cols()) {
        throw std::invalid_argument("writeSvgHeatmap: " + std::to_string(values.rows()) + "×" +
                                    std::to_string(values.cols()) + " values with " +
                                    std::to_string(rowLabels.size()) + " row and " +
                                    std::to_string(columnLabels.size()) + " column labels");
    }
    const HeatRgb high = parseColour(options.highColour);
    size_t longestRow = 1;
    for (const auto& label : rowLabels) {
        longestRow = std::max(longestRow, label.size());
    }
    size_t longestColumn = 1;
    for (const auto& label : columnLabels) {
        longestColumn = std::max(longestColumn, label.size());
    }
    const int w = options.cellWidth;
    const int h = options.cellHeight;
    const int left = 40 + static_cast<int>(longestRow) * 8;
    const int top = 60 + static_cast<int>(std::min<size_t>(longestColumn, 40)) * 6;
    // Column labels run up and to the right at 45° from their column's centre, about 6 units
    // across a character (as the top margin allows upwards): the document is wide enough for the
    // last columns' labels, which would otherwise be cut at its right edge.
    int width = left + static_cast<int>(values.cols()) * w + 20;
    for (size_t c = 0; c < columnLabels.size(); ++c) {
        width = std::max(width, left + static_cast<int>(c) * w + w / 2 +
                                    static_cast<int>(columnLabels[c].size()) * 6 + 10);
    }
    const int height = top + static_cast<int>(values.rows()) * h + 20;

    // Scale: per column, or over the whole matrix (finite values only).
    const auto range = [&](Eigen::Index c0, Eigen::Index c1) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (Eigen::Index c = c0; c < c1; ++c) {
            for (Eigen::Index r = 0; r < values.rows(); ++r) {
                if (std::isfinite(values(r, c))) {
                    lo = std::min(lo, values(r, c));
                    hi = std::max(hi, values(r, c));
                }
            }
        }
        return std::make_pair(lo, hi);
    };
    const auto whole = range(0, values.cols());

    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!options.title.empty()) {
        out << "<text x=\"" << width / 2 << "\" y=\"22\" font-size=\"16\" text-anchor=\"middle\">"
            << escapeXml(options.title) << "</text>\n";
    }
    if (!options.xAxisLabel.empty()) {
        out << "<text x=\"" << left + static_cast<int>(values.cols()) * w / 2
            << "\" y=\"44\" font-size=\"13\" text-anchor=\"middle\">"
            << escapeXml(options.xAxisLabel) << "</text>\n";
    }
    if (!options.yAxisLabel.empty()) {
        const int cy = top + static_cast<int>(values.rows()) * h / 2;
        out << "<text x=\"14\" y=\"" << cy << "\" font-size=\"13\" text-anchor=\"middle\" "
            << "transform=\"rotate(-90 14 " << cy << ")\">" << escapeXml(options.yAxisLabel)
            << "</text>\n";
    }
    for (Eigen::Index c = 0; c < values.cols(); ++c) {
        const int x = left + static_cast<int>(c) * w + w / 2;
        out << "<text x=\"" << x << "\" y=\"" << top - 6 << "\" font-size=\"11\" "
            << "transform=\"rotate(-45 " << x << ' ' << top - 6 << ")\">"
            << escapeXml(columnLabels[static_cast<size_t>(c)]) << "</text>\n";
    }
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
        const int y = top + static_cast<int>(r) * h;
        out << "<text x=\"" << left - 6 << "\" y=\"" << y + h / 2 + 4
            << "\" font-size=\"12\" text-anchor=\"end\">"
            << escapeXml(rowLabels[static_cast<size_t>(r)]) << "</text>\n";
        for (Eigen::Index c = 0; c < values.cols(); ++c) {
            const double v = values(r, c);
            const auto [lo, hi] = options.scalePerColumn ? range(c, c + 1) : whole;
            std::string fill = "#cccccc";
            double t = 0;
            if (std::isfinite(v)) {
                t = hi > lo ? (v - lo) / (hi - lo) : 0.0;
                fill = mix(high, t);
            }
            const int x = left + static_cast<int>(c) * w;
            out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
                << "\" fill=\"" << fill << "\" stroke=\"#ffffff\" stroke-width=\"0.5\">"
                << "<title>" << escapeXml(rowLabels[static_cast<size_t>(r)]) << ", "
                << escapeXml(columnLabels[static_cast<size_t>(c)]) << ": " << v
                << "</title></rect>\n";
            if (options.showValues) {
                char buffer[64];
                if (std::isfinite(v)) {
                    std::snprintf(buffer, sizeof buffer, "%.*f", options.decimals, v);
                } else {
                    std::snprintf(buffer, sizeof buffer, "%s", std::isnan(v) ? "NaN" : "inf");
                }
                out << "<text x=\"" << x + w / 2 << "\" y=\"" << y + h / 2 + 4
                    << "\" font-size=\"11\" text-anchor=\"middle\" fill=\""
                    << (t > 0.6 ? "white" : "black") << "\">" << buffer << "</text>\n";
            }
        }
    }
    out << "</svg>\n";
}

} // namespace cx
