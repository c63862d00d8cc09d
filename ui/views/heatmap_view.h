#pragma once

#include "ui/views/colour_scale.h"
#include "ui/widgets/exportable_figure.h"
#include "ui/widgets/state_matrix_model.h" // complete for QPointer<StateMatrixModel> (moc)

#include <QPointer>
#include <QPolygonF>
#include <QWidget>

class QLineEdit;

namespace cx::ui {

/// A states × columns heatmap in the ChromHMM convention: states as rows (colour swatch and
/// name on the left), columns (marks, states or annotations) labelled on top, one colour scale
/// for every cell with a legend underneath, values written in the cells when they fit and on
/// hover (tooltip with the model's text). An optional weight column on the right draws each
/// state's signed weight as a bar (blue > 0, orange < 0); "dimmed" rows (background-like
/// states) are drawn faded. Row names can be edited in place (double-click) when enabled;
/// the edit goes to the model's setHeaderData. Paints the model; owns no data.
class HeatmapView : public QWidget, public ExportableFigure {
    Q_OBJECT
public:
    QString figureKind() const override { return QStringLiteral("heatmap"); }
    int figureKindOrder() const override { return 0; }
    QString figureTitle() const override { return title(); }
    explicit HeatmapView(QWidget* parent = nullptr);

    void setModel(StateMatrixModel* model);
    StateMatrixModel* model() const { return m_model; }
    void setScale(const ColourScale& scale);
    const ColourScale& scale() const { return m_scale; }
    void setTitle(const QString& title, const QString& subtitle = {});
    QString title() const { return m_title; }
    QString subtitle() const { return m_subtitle; }
    /// Shown instead of the matrix when the model is empty.
    void setPlaceholder(const QString& text);
    void setRowLabelsEditable(bool editable) { m_editable = editable; }
    void setShowValues(bool show);
    void setWeightTitle(const QString& title) { m_weightTitle = title; }
    /// Largest cell (the view does not stretch cells beyond it).
    void setMaximumCellSize(const QSizeF& size);

    /// Draws the heatmap (title, labels, legend) as a stand-alone figure into `target`.
    void paintFigure(QPainter& painter, const QRectF& target) const override;
    /// Print size of the figure (logical units, 1/96 in), whatever the view's size on screen:
    /// the narrowest journal width (89, 120 or 183 mm) whose cells hold their values and whose
    /// labels are not shortened; the rows decide the height (at most a page).
    QSizeF figureSize() const override;
    /// The model's cells (StateMatrixModel::delimited: row label, weight, one column each).
    QString figureData() const override;

    /// Geometry in widget coordinates (tests, editing).
    QRectF cellRect(int row, int column) const;
    QRectF rowLabelRect(int row) const;
    /// The box column `column`'s label is drawn in (rotated: four corners; empty without data).
    QPolygonF columnLabelBox(int column) const;
    /// Whether row `row`'s name is shortened with "…" at the view's current size.
    bool rowLabelElided(int row) const;
    /// (row, column) under `position`; column −1 on a row label; (−1, −1) elsewhere.
    QPoint cellAt(const QPointF& position) const;
    /// Opens the inline name editor on `row` (what a double-click on the label does).
    void editRowLabel(int row);
    QLineEdit* rowEditor() const { return m_editor; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Layout {
        QRectF title;
        QRectF matrix;
        QRectF labels;  ///< row labels (swatch + name)
        QRectF weights; ///< weight bars (empty when none)
        double cellWidth = 0;
        double cellHeight = 0;
        /// Column labels: degrees above the horizontal (50, steeper when the cells are too
        /// narrow for neighbouring labels to clear each other) and point size (8.5, smaller
        /// only when even upright labels would touch).
        double labelAngle = 50;
        double labelPoints = 8.5;
        QRectF legend;
        bool valid = false;
    };
    Layout computeLayout(const QRectF& area, bool figure) const;
    static constexpr double kSwatch = 9; ///< colour swatch before each row name
    /// "0.12", "0.004", "−3e-05": a weight as the bars and tooltips print it.
    static QString weightText(double weight);
    void paintInto(QPainter& painter, const QRectF& area, bool figure) const;
    void paintLegend(QPainter& painter, const QRectF& rect, const QFont& font) const;
    void paintRowLabels(QPainter& painter, const Layout& layout, const QFont& labelFont,
                        bool figure) const;
    void paintWeights(QPainter& painter, const Layout& layout, const QFont& labelFont) const;
    void commitEdit();
    void onModelChanged();

    QPointer<StateMatrixModel> m_model;
    ColourScale m_scale;
    QString m_title;
    QString m_subtitle;
    QString m_placeholder;
    QString m_weightTitle = QStringLiteral("weight ω");
    QSizeF m_maxCell{48, 30};
    bool m_editable = false;
    bool m_showValues = true;
    QPoint m_hover{-1, -1};
    QLineEdit* m_editor = nullptr;
    int m_editingRow = -1;
};

} // namespace cx::ui
