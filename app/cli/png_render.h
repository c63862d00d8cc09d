#pragma once

// PNG images of the SVG documents the CLI writes (the enrichment heatmaps), rasterised by librsvg
// onto a cairo image surface. Only contrast-cli links librsvg: core and the GUI never do.

#include <string>

namespace cx::cli {

/// The resolution SVG user units are authored at: one unit is one pixel at 96 DPI (CSS).
inline constexpr double kSvgAuthoredDpi = 96.0;

/// The PNG bytes of the SVG document `svg` (UTF-8 text with absolute width and height) rendered
/// at `dpi`: a W × H document becomes round(W·dpi/96) × round(H·dpi/96) pixels and fills them
/// (each axis scaled to its rounded size), transparent where the document draws nothing.
/// \throws std::runtime_error naming the reason when librsvg cannot parse or render the document,
/// when it has no absolute size, when `dpi` is not positive, or when the image would exceed
/// 32767 pixels a side or 2^28 pixels in all (1 GiB of surface).
std::string renderSvgToPng(const std::string& svg, double dpi);

} // namespace cx::cli
