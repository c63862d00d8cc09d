#pragma once

#include "ui/dialogs/export_helpers.h"

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
    explicit ImageExportDialog(QWidget* parent = nullptr);

    ImageExportSettings settings() const;
    void setSettings(const ImageExportSettings& settings);

    /// The whole interaction: this dialog, then a save-file dialog, then the export; errors go
    /// to ErrorReporter. `baseName` is the suggested file name without suffix. Reusable by
    /// every workspace's figures. Returns the written path or an empty string.
    static QString exportInteractively(QWidget* parent, const QString& what,
                                       const QString& baseName, const FigurePainter& paint);
    /// exportInteractively for a view that draws itself as a figure (its paintFigure(): the
    /// charts, heatmaps and the segmentation view).
    template <typename View>
    static QString exportViewInteractively(QWidget* parent, const QString& what,
                                           const QString& baseName, const View* view) {
        return exportInteractively(parent, what, baseName,
                                   [view](QPainter& painter, const QRectF& target) {
                                       view->paintFigure(painter, target);
                                   });
    }

private:
    void applyPreset(int index);
    void updateSummary();

    QComboBox* m_format = nullptr;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace cx::ui
