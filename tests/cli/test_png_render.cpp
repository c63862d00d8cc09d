// The CLI's PNG rasteriser (app/cli/png_render): librsvg draws an SVG document at a chosen
// resolution; cairo decodes the PNG bytes back to check sizes and pixels.
#include "app/cli/png_render.h"
#include "core/common/svg_heatmap.h"

#include <cairo.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cx {
namespace {

/// 40 × 20 user units, transparent, an orange rectangle over x 10…30, y 5…15.
const std::string kOrangeRectSvg =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\" viewBox=\"0 0 40 20\">"
    "<rect x=\"10\" y=\"5\" width=\"20\" height=\"10\" fill=\"#ff8000\"/></svg>\n";

struct PngReadCursor {
    const std::string* bytes;
    size_t offset = 0;
};

cairo_status_t readPngBytes(void* closure, unsigned char* data, unsigned int length) {
    auto* cursor = static_cast<PngReadCursor*>(closure);
    if (cursor->offset + length > cursor->bytes->size()) {
        return CAIRO_STATUS_READ_ERROR;
    }
    std::memcpy(data, cursor->bytes->data() + cursor->offset, length);
    cursor->offset += length;
    return CAIRO_STATUS_SUCCESS;
}

using DecodedPng = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

DecodedPng decodePng(const std::string& png) {
    PngReadCursor cursor{&png};
    return {cairo_image_surface_create_from_png_stream(readPngBytes, &cursor),
            cairo_surface_destroy};
}

/// The pixel at (x, y) as cairo's ARGB32: 0xAARRGGBB (premultiplied; opaque colours as written).
std::uint32_t argbAt(cairo_surface_t* surface, int x, int y) {
    const unsigned char* row =
        cairo_image_surface_get_data(surface) + y * cairo_image_surface_get_stride(surface);
    std::uint32_t pixel = 0;
    std::memcpy(&pixel, row + 4 * x, sizeof pixel);
    return pixel;
}

TEST(PngRender, FilledRectangleHasItsColourAtEveryResolution) {
    const std::string png = cli::renderSvgToPng(kOrangeRectSvg, 96);
    ASSERT_GE(png.size(), 8u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    const DecodedPng image = decodePng(png);
    ASSERT_EQ(cairo_surface_status(image.get()), CAIRO_STATUS_SUCCESS);
    ASSERT_EQ(cairo_image_surface_get_format(image.get()), CAIRO_FORMAT_ARGB32);
    EXPECT_EQ(cairo_image_surface_get_width(image.get()), 40);
    EXPECT_EQ(cairo_image_surface_get_height(image.get()), 20);
    EXPECT_EQ(argbAt(image.get(), 20, 10), 0xffff8000u);
    EXPECT_EQ(argbAt(image.get(), 12, 6), 0xffff8000u);
    EXPECT_EQ(argbAt(image.get(), 2, 2) >> 24, 0u); // outside: transparent

    // 300 DPI: 40 × 20 units → 125 × 62.5 → 125 × 63 pixels (3.125 and 3.15 a unit); the
    // rectangle scales with them.
    const DecodedPng print = decodePng(cli::renderSvgToPng(kOrangeRectSvg, 300));
    ASSERT_EQ(cairo_surface_status(print.get()), CAIRO_STATUS_SUCCESS);
    EXPECT_EQ(cairo_image_surface_get_width(print.get()), 125);
    EXPECT_EQ(cairo_image_surface_get_height(print.get()), 63);
    EXPECT_EQ(argbAt(print.get(), 33, 17), 0xffff8000u); // units (10.7, 5.6): inside
    EXPECT_EQ(argbAt(print.get(), 92, 45), 0xffff8000u); // units (29.6, 14.4): inside
    EXPECT_EQ(argbAt(print.get(), 29, 30) >> 24, 0u);    // units (9.4, 9.7): left of it
    EXPECT_EQ(argbAt(print.get(), 62, 49) >> 24, 0u);    // units (20.0, 15.7): below it
}

// The enrichment heatmap's column labels (annotation file names) rise at 45° to the right of
// their column: the last ones used to run past the document's right edge and were cut.
TEST(PngRender, HeatmapColumnLabelsEndInsideTheImage) {
    const std::vector<std::string> columns = {
        "Genome %", "CpGIsland.hg19.bed.gz", "RefSeqTSS2kb.hg19.bed.gz", "laminB1lads.hg19.bed.gz"};
    Eigen::MatrixXd values(2, 4);
    values << 10, 1, 2, 3, 90, 4, 5, 6;
    std::ostringstream svg;
    writeSvgHeatmap(svg, values, {"E1", "E2"}, columns);
    const DecodedPng image = decodePng(cli::renderSvgToPng(svg.str(), 96));
    ASSERT_EQ(cairo_surface_status(image.get()), CAIRO_STATUS_SUCCESS);
    const int width = cairo_image_surface_get_width(image.get());
    const int height = cairo_image_surface_get_height(image.get());
    // Nothing but the white background in the 4 rightmost pixel columns.
    int inked = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = width - 4; x < width; ++x) {
            inked += argbAt(image.get(), x, y) != 0xffffffffu;
        }
    }
    EXPECT_EQ(inked, 0) << width << "×" << height;
    // …and the last label is drawn there: ink above the cells (the first <rect x=… y=…> of the
    // document is the top-left cell), right of the last cell (the last one, 64 units wide).
    const std::string text = svg.str();
    const size_t firstCell = text.find("<rect x=\"");
    const size_t lastCell = text.rfind("<rect x=\"");
    ASSERT_NE(firstCell, std::string::npos);
    const int cellsTop = std::stoi(text.substr(text.find("y=\"", firstCell) + 3));
    const int cellsRight = std::stoi(text.substr(lastCell + 9)) + 64;
    int labelInk = 0;
    for (int y = 0; y < cellsTop; ++y) {
        for (int x = cellsRight; x < width; ++x) {
            labelInk += argbAt(image.get(), x, y) != 0xffffffffu;
        }
    }
    EXPECT_GT(labelInk, 100) << "cells end at x " << cellsRight << ", y " << cellsTop;
}

TEST(PngRender, BadDocumentOrSizeIsAClearError) {
    const auto errorOf = [](const std::string& svg, double dpi) -> std::string {
        try {
            cli::renderSvgToPng(svg, dpi);
        } catch (const std::runtime_error& error) {
            return error.what();
        }
        return "no error";
    };
    const std::string truncated = kOrangeRectSvg.substr(0, kOrangeRectSvg.size() / 2);
    EXPECT_NE(errorOf(truncated, 96).find("cannot read the SVG document"), std::string::npos)
        << errorOf(truncated, 96);
    EXPECT_NE(errorOf("not an SVG document", 96).find("cannot read"), std::string::npos);
    EXPECT_NE(errorOf("", 96).find("cannot read"), std::string::npos);
    const std::string sizeless = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 4 2\"/>";
    EXPECT_NE(errorOf(sizeless, 96).find("no absolute width"), std::string::npos)
        << errorOf(sizeless, 96);
    const std::string huge =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20000\" height=\"10\"/>";
    EXPECT_NE(errorOf(huge, 300).find("62500×31 pixels at 300 DPI"), std::string::npos)
        << errorOf(huge, 300);
    EXPECT_NE(errorOf(kOrangeRectSvg, 0).find("positive"), std::string::npos);
}

} // namespace
} // namespace cx
