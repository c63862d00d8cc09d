#pragma once

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;
class QTimer;

namespace cx::ui {

/// "Computing moments… 42 %  [Cancel]" for long background work (loads, moment passes). Shared
/// by every workspace; the shell puts one in the status bar. Hidden when idle; appears only
/// after a short delay so sub-second tasks do not flash.
class TaskProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit TaskProgressWidget(QWidget* parent = nullptr);

    void start(const QString& description, bool cancellable = true);
    /// fraction in [0, 1]; a negative fraction shows a busy (indeterminate) bar.
    void setProgress(double fraction, const QString& phase);
    void finish();
    bool isRunning() const { return m_running; }

signals:
    void cancelRequested();

private:
    void updateText();

    QLabel* m_label = nullptr;
    QProgressBar* m_bar = nullptr;
    QToolButton* m_cancel = nullptr;
    QTimer* m_showDelay = nullptr;
    QString m_description;
    QString m_phase;
    bool m_running = false;
    QElapsedTimer m_elapsed;
};

} // namespace cx::ui
