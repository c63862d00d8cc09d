#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace cx::ui {

/// Shows user-facing problems (a reader's "FILE:LINE: problem", a bad parameter) in one
/// consistent way for every workspace. Dialogs are window-modal and non-blocking (open(), not
/// exec()), so background work keeps running and no nested event loop can re-enter the caller.
/// The same message is not stacked twice while its dialog is still open.
class ErrorReporter {
public:
    using Handler = std::function<void(const QString& title, const QString& message)>;

    /// Replaces the dialogs, e.g. with stderr output in --screenshot mode or a recorder in
    /// tests. An empty handler restores dialogs.
    static void setHandler(Handler handler);
    /// `title` is the headline of the dialog's body ("Could not open the tracks"), `message`
    /// the detail under it; the window title is the application's name.
    static void report(QWidget* parent, const QString& title, const QString& message);
};

} // namespace cx::ui
