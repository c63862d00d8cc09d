#pragma once

#include <QMetaType>

namespace cx::ui {

/// How a workspace's long task (a load, a moment pass, a fit) ended.
enum class TaskOutcome {
    Finished,  ///< its results are shown
    Cancelled, ///< by the user or by a newer task; what was shown stays
    Failed,    ///< with an error (reported through errorOccurred); what was shown stays
};

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::TaskOutcome)
