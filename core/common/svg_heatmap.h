#pragma once

// A heatmap as a standalone SVG document, for outputs written without Qt (the CLI's enrichment
// tables). Hand-written because no packaged C++ library writes SVG charts without a GUI toolkit;
// the format needs only rectangles and text.

#include <Eigen/Dense>

#include <iosfwd>
#include <string>
#include <vector>

namespace cx {

struct SvgHeatmapOptions {
    std::string title;
    std::string xAxisLabel;
    std::string yAxisLabel;
    /// Colour of the largest value ("#RRGGBB"); the smallest is white (ChromHMM's scheme).
    std::string highColour = "#0000ff";
    /// Scale each column between its own minimum and maximum (ChromHMM's overlap heatmap);
    /// otherwise one scale for the whole matrix.
    bool scalePerColumn = false;
    /// Write each cell's value (with `decimals` decimals) in it.
    bool showValues = true;
    int decimals = 2;
    int cellWidth = 64;
    int cellHeight = 28;
};

/// Writes `values` (rows × columns, NaN cells grey) with `rowLabels` on the left and
/// `columnLabels` on top. \throws std::invalid_argument when the label counts do not match.
void writeSvgHeatmap(std::ostream& out, const Eigen::MatrixXd& values,
                     const std::vector<std::string>& rowLabels,
                     const std::vector<std::string>& columnLabels,
                     const SvgHeatmapOptions& options = {});

/// `text` with &, <, >, " and ' escaped for XML.
std::string escapeXml(const std::string& text);

} // namespace cx
