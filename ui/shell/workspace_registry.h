#pragma once

#include <QList>

class QWidget;

namespace cx::ui {

class Workspace;

/// Every workspace the shell hosts, new, in tab order (Topics, Chromatin, Crowd, Tree): the one
/// place a workspace is registered. The menus, --tab (by title), drops, recent files and
/// sessions find them through the Workspace interface.
QList<Workspace*> createWorkspaces(QWidget* parent);

} // namespace cx::ui
