#include "png_render.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace cx::cli {

namespace {

// cairo's largest image surface side, and a cap on the whole surface (4 bytes a pixel).
constexpr double kMaxPngSide = 32767;
constexpr double kMaxPngPixels = 268435456.0; // 2^28

struct GObjectUnref {
    void operator()(RsvgHandle* handle) const { g_object_unref(handle); }
};
struct SurfaceDestroy {
    void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
struct ContextDestroy {
    void operator()(cairo_t* context) const { cairo_destroy(context); }
};

/// Throws "renderSvgToPng: <what>: <GError message>" and frees the error.
[[noreturn]] void throwGError(const std::string& what, GError* error) {
    const std::string message = error && error->message ? error->message : "unknown error";
    if (error) {
        g_error_free(error);
    }
    throw std::runtime_error("renderSvgToPng: " + what + ": " + message);
}

cairo_status_t appendPngBytes(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

} // namespace

std::string renderSvgToPng(const std::string& svg, double dpi) {
    if (!(dpi > 0) || !std::isfinite(dpi)) {
        throw std::runtime_error("renderSvgToPng: the resolution must be a positive number of "
                                 "dots per inch");
    }
    GError* error = nullptr;
    std::unique_ptr<RsvgHandle, GObjectUnref> handle(
        rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error));
    if (!handle) {
        throwGError("librsvg cannot read the SVG document", error);
    }
    // User units and px at 96 DPI: the document's own size, then scaled to `dpi` by cairo.
    rsvg_handle_set_dpi(handle.get(), kSvgAuthoredDpi);
    double width = 0;
    double height = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &width, &height) || width <= 0 ||
        height <= 0) {
        throw std::runtime_error("renderSvgToPng: the SVG document has no absolute width and "
                                 "height to rasterise");
    }
    const double scale = dpi / kSvgAuthoredDpi;
    const double pixelWidth = std::max(1.0, std::round(width * scale));
    const double pixelHeight = std::max(1.0, std::round(height * scale));
    // The document fills the image exactly: each axis scaled to its rounded pixel count (within
    // half a pixel of `scale` over the whole side), so no edge row or column is left half drawn.
    const double scaleX = pixelWidth / width;
    const double scaleY = pixelHeight / height;
    if (pixelWidth > kMaxPngSide || pixelHeight > kMaxPngSide ||
        pixelWidth * pixelHeight > kMaxPngPixels) {
        throw std::runtime_error(
            "renderSvgToPng: " + std::to_string(static_cast<std::int64_t>(pixelWidth)) + "×" +
            std::to_string(static_cast<std::int64_t>(pixelHeight)) + " pixels at " +
            std::to_string(static_cast<int>(std::lround(dpi))) +
            " DPI is larger than a PNG image can be rendered (at most 32767 pixels a side and " +
            "268435456 in all)");
    }
    std::unique_ptr<cairo_surface_t, SurfaceDestroy> surface(cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, static_cast<int>(pixelWidth), static_cast<int>(pixelHeight)));
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
        throw std::runtime_error(std::string("renderSvgToPng: cannot create the image: ") +
                                 cairo_status_to_string(cairo_surface_status(surface.get())));
    }
    {
        std::unique_ptr<cairo_t, ContextDestroy> context(cairo_create(surface.get()));
        cairo_scale(context.get(), scaleX, scaleY);
        const RsvgRectangle viewport{0, 0, width, height};
        if (!rsvg_handle_render_document(handle.get(), context.get(), &viewport, &error)) {
            throwGError("librsvg cannot render the SVG document", error);
        }
        if (cairo_status(context.get()) != CAIRO_STATUS_SUCCESS) {
            throw std::runtime_error(std::string("renderSvgToPng: rendering failed: ") +
                                     cairo_status_to_string(cairo_status(context.get())));
        }
    }
    cairo_surface_flush(surface.get());
    std::string png;
    const cairo_status_t status =
        cairo_surface_write_to_png_stream(surface.get(), appendPngBytes, &png);
    if (status != CAIRO_STATUS_SUCCESS) {
        throw std::runtime_error(std::string("renderSvgToPng: cannot encode the PNG: ") +
                                 cairo_status_to_string(status));
    }
    return png;
}

} // namespace cx::cli
