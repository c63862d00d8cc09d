#pragma once

#include "ui/widgets/export_helpers.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

namespace cx::ui {

/// Asks for a figure's format, size and resolution (with presets for journal columns and
/// slides). Settings persist under "export.image.*".
class ImageExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `printSize` (logical units, 1/96 in; empty: none): the figure's print layout, offered
    /// as the first preset and chosen at first; at that preset the pixels follow the DPI.
    explicit ImageExportDialog(QWidget* parent = nullptr, const QSizeF& printSize = {});

    ImageExportSettings settings() const;
    void setSettings(const ImageExportSettings& settings);

    /// The whole interaction: this dialog, then a save-file dialog, then the export; errors go
    /// to ErrorReporter. `baseName` is the suggested file name without suffix. Reusable by
    /// every workspace's figures. Returns the written path or an empty string.
    /// `printSize`: the figure's print layout (see the constructor). `data`: the values the
    /// figure plots, written beside the image as NAME.tsv (writeFigureData, as Export All).
    static QString exportInteractively(QWidget* parent, const QString& what,
                                       const QString& baseName, const FigurePainter& paint,
                                       const QSizeF& printSize = {},
                                       const std::function<QString()>& data = {});
    /// exportInteractively for a view that draws itself as a figure (its paintFigure(): the
    /// charts, heatmaps and the segmentation view) at its print layout (its figureSize(), as
    /// Export All Figures), with its figureData() beside it.
    template <typename View>
    static QString exportViewInteractively(QWidget* parent, const QString& what,
                                           const QString& baseName, const View* view) {
        return exportInteractively(
            parent, what, baseName,
            [view](QPainter& painter, const QRectF& target) { view->paintFigure(painter, target); },
            view->figureSize(), [view] { return view->figureData(); });
    }
    /// Whether the print-layout preset is chosen (tests).
    bool usesPrintLayout() const;

    struct Preset; ///< a fixed size and DPI

private:
    void applyPreset(int index);
    void applyFixedPreset(const Preset& preset);
    void updateSummary();

    QComboBox* m_format = nullptr;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
    QSizeF m_printSize;
};

} // namespace cx::ui
