#include "ui/framework/workspace_support.h"

#include "ui/widgets/form_widgets.h"

#include <QFrame>
#include <QSplitter>
#include <QVBoxLayout>

namespace cx::ui {

QSplitter* layOutWorkspace(Workspace* workspace, QWidget* dataPanel, int dataPanelMinimumWidth,
                           QWidget* controls, QWidget* results, const QList<int>& sizes) {
    auto* centre = new QWidget(workspace);
    centre->setObjectName(QStringLiteral("resultsArea"));
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(controls);
    centreLayout->addWidget(horizontalRule(centre));
    centreLayout->addWidget(results, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, workspace);
    splitter->addWidget(dataPanel);
    splitter->addWidget(centre);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    dataPanel->setMinimumWidth(dataPanelMinimumWidth);
    splitter->setSizes(sizes);
    auto* layout = new QVBoxLayout(workspace);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    return splitter;
}

} // namespace cx::ui
