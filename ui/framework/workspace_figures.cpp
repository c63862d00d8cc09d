// Workspace's default figure and table lists: what the workspace shows, found among its
// children, so a new workspace exports its figures without code of its own.
#include "ui/framework/workspace.h"

#include "ui/widgets/export_helpers.h"
#include "ui/widgets/exportable_figure.h"

#include <QAbstractItemView>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace cx::ui {

namespace {

/// A file-name-safe base name: objectName, else the title, else `fallback`; unique in `taken`.
/// Words of a camelCase objectName are joined by hyphens ("emissionHeatmap" → "emission-heatmap").
QString uniqueName(QString name, const QString& fallback, QSet<QString>& taken) {
    name.replace(QRegularExpression(QStringLiteral("([a-z0-9])([A-Z][a-z])")),
                 QStringLiteral("\\1-\\2"));
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

} // namespace

QList<WorkspaceFigure> Workspace::figures() const {
    // Every child view that exports itself, grouped by kind (in the kinds' order), each kind in
    // widget-tree order.
    QList<const ExportableFigure*> views;
    for (const QWidget* child : findChildren<QWidget*>()) {
        if (const auto* view = dynamic_cast<const ExportableFigure*>(child)) {
            views << view;
        }
    }
    std::stable_sort(views.begin(), views.end(),
                     [](const ExportableFigure* a, const ExportableFigure* b) {
                         return a->figureKindOrder() < b->figureKindOrder();
                     });
    QList<WorkspaceFigure> out;
    QSet<QString> taken;
    for (const ExportableFigure* view : views) {
        const QString kind = view->figureKind();
        const QString title = view->figureTitle();
        const QString objectName = dynamic_cast<const QObject*>(view)->objectName();
        WorkspaceFigure figure;
        figure.name = uniqueName(objectName.isEmpty() ? title : objectName, kind, taken);
        figure.title = title.isEmpty() ? kind : title;
        figure.size = view->figureSize(); // its print layout, not its size on screen
        figure.paint = [view](QPainter& painter, const QRectF& target) {
            view->paintFigure(painter, target);
        };
        figure.data = [view] { return view->figureData(); };
        out << figure;
    }
    return out;
}

QList<WorkspaceTable> Workspace::tables() const {
    // Result tables only: a table view without an objectName (a picker's value list, a
    // settings list) is no result and is not written; the others are named for what they hold.
    QList<WorkspaceTable> out;
    QSet<QString> taken;
    QSet<const QAbstractItemModel*> seen; // a model shown by several views is written once
    for (const QAbstractItemView* view : findChildren<QAbstractItemView*>()) {
        const QAbstractItemModel* model = view->model();
        // Tables only (not lists or combo-box pop-ups): more than one column, and some rows.
        if (!model || model->columnCount() < 2 || model->rowCount() == 0 ||
            view->inherits("QListView") || seen.contains(model) || view->objectName().isEmpty()) {
            continue;
        }
        seen.insert(model);
        // A view may name its file explicitly (property "exportName"), else its objectName.
        QString name = view->property("exportName").toString();
        if (name.isEmpty()) {
            name = view->objectName();
        }
        name.remove(QRegularExpression(QStringLiteral("(View|Table)$")));
        out << WorkspaceTable{uniqueName(name, QStringLiteral("results"), taken),
                              [model] { return delimitedText(*model, QLatin1Char('\t')); }};
    }
    return out;
}

} // namespace cx::ui
