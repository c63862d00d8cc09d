#pragma once

#include <QString>

namespace cx::ui {

/// The folder holding the application's data (demo/, icons/): $CX_RESOURCE_DIR if set, else
/// <exe dir>/../share/contrast-explorer, else the source tree's resources/ (development builds).
/// Empty when none exists.
QString resourceDirectory();

/// resources/demo/demo.cxproj (a Topics and a Chromatin analysis), or empty when it cannot be
/// found.
QString demoSessionPath();

} // namespace cx::ui
