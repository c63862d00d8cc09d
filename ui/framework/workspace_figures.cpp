// Workspace's default figure and table lists: what the workspace shows, found among its
// children, so a new workspace exports its figures without code of its own.
#include "ui/framework/workspace.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/chromatin/state_matrix_model.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/dialogs/export_helpers.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"

#include <QAbstractItemView>
#include <QRegularExpression>
#include <QSet>

#include <type_traits>

namespace cx::ui {

namespace {

/// A file-name-safe base name: objectName, else the title, else `fallback`; unique in `taken`.
QString uniqueName(QString name, const QString& fallback, QSet<QString>& taken) {
    name = name.trimmed().toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (name.isEmpty()) {
        name = fallback;
    }
    QString unique = name;
    for (int i = 2; taken.contains(unique); ++i) {
        unique = name + QLatin1Char('-') + QString::number(i);
    }
    taken.insert(unique);
    return unique;
}

template <typename View>
void addFigures(const Workspace& workspace, const QString& kind, QList<WorkspaceFigure>& out,
                QSet<QString>& taken) {
    for (const View* view : workspace.findChildren<View*>()) {
        QString title;
        if constexpr (std::is_same_v<View, HeatmapView>) {
            title = view->title();
        }
        WorkspaceFigure figure;
        figure.name = uniqueName(view->objectName().isEmpty() ? title : view->objectName(), kind,
                                 taken);
        figure.title = title.isEmpty() ? kind : title;
        figure.size = view->figureSize(); // its print layout, not its size on screen
        figure.paint = [view](QPainter& painter, const QRectF& target) {
            view->paintFigure(painter, target);
        };
        out << figure;
    }
}

} // namespace

QList<WorkspaceFigure> Workspace::figures() const {
    QList<WorkspaceFigure> out;
    QSet<QString> taken;
    addFigures<HeatmapView>(*this, QStringLiteral("heatmap"), out, taken);
    addFigures<AucChartView>(*this, QStringLiteral("auc-chart"), out, taken);
    addFigures<StateWeightsChartView>(*this, QStringLiteral("weights-chart"), out, taken);
    addFigures<SegmentationTrackView>(*this, QStringLiteral("segmentation"), out, taken);
    return out;
}

QList<WorkspaceTable> Workspace::tables() const {
    QList<WorkspaceTable> out;
    QSet<QString> taken;
    QSet<const QAbstractItemModel*> seen; // a model shown by several views is written once
    for (const QAbstractItemView* view : findChildren<QAbstractItemView*>()) {
        const QAbstractItemModel* model = view->model();
        // Tables only (not lists or combo-box pop-ups): more than one column.
        if (!model || model->columnCount() < 2 || view->inherits("QListView") ||
            seen.contains(model)) {
            continue;
        }
        seen.insert(model);
        QString name = view->objectName();
        name.remove(QRegularExpression(QStringLiteral("(View|Table)$")));
        out << WorkspaceTable{uniqueName(name, QStringLiteral("table"), taken),
                              [model] { return delimitedText(*model, QLatin1Char('\t')); }};
    }
    return out;
}

} // namespace cx::ui
