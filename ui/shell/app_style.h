#pragma once

class QApplication;

namespace cx::ui {

/// The application look shared by the app, its workspaces and the UI tests: Fusion style, a
/// light neutral palette with one accent colour, and the style sheet for the named widgets
/// (panel titles, hints, inline errors, primary buttons, tables).
void applyApplicationStyle(QApplication& application);

} // namespace cx::ui
