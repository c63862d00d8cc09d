#include "ui/shell/workspace_registry.h"

#include "ui/chromatin/chromatin_workspace.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/topics/topics_workspace.h"
#include "ui/tree/tree_workspace.h"

namespace cx::ui {

QList<Workspace*> createWorkspaces(QWidget* parent) {
    return {new TopicsWorkspace(parent), new ChromatinWorkspace(parent), new CrowdWorkspace(parent),
            new TreeWorkspace(parent)};
}

} // namespace cx::ui
