#pragma once

// Plumbing every workspace shares: the common layout and the controller →
// shell reports.

#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace.h"

#include <QList>

class QSplitter;

namespace cx::ui {

/// The workspaces' common layout, filling `workspace`: the data panel on the left; on the
/// right the model controls above a divider and the results (which take the height). Returns
/// the horizontal splitter between the two sides, set to `sizes` (the data panel never gets
/// narrower than `dataPanelMinimumWidth`).
QSplitter* layOutWorkspace(Workspace* workspace, QWidget* dataPanel, int dataPanelMinimumWidth,
                           QWidget* controls, QWidget* results, const QList<int>& sizes);

/// The controller → shell reports that need no workspace state: task progress is passed on as
/// is and errors go to ErrorReporter over `workspace`. `Controller` is any workspace controller
/// (same signals, different task kinds).
template <typename Controller>
void forwardControllerReports(Controller* controller, Workspace* workspace) {
    QObject::connect(controller, &Controller::taskProgress, workspace, &Workspace::taskProgress);
    QObject::connect(controller, &Controller::errorOccurred, workspace,
                     [workspace](const QString& title, const QString& message) {
                         ErrorReporter::report(workspace, title, message);
                     });
}

} // namespace cx::ui
