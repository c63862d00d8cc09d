#pragma once

// Provenance of a shown result: the inputs it was computed from, compared with
// the inputs loaded now, and the marker a workspace shows over results that no longer match.

#include <QLabel>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace cx::ui {

/// The inputs a result was computed from: named entries ("TSS file", "K", "seed"), each with a
/// fingerprint that is compared and the text a user reads. A workspace builds one with the same
/// function for the result (from the request it ran) and for what is loaded now (from its
/// controls), so the two compare entry by entry.
class Provenance {
public:
    struct Input {
        QString name;        ///< what the user calls it: "TSS file", "K"
        QString fingerprint; ///< compared: a value, or paths with size and modification time
        QString shown;       ///< what the marker prints: a value or file names
        QString paths;       ///< files: the absolute paths (shown when the names are the same)
    };

    /// A parameter: fingerprint and shown text are the value.
    Provenance& add(const QString& name, const QString& value);
    Provenance& add(const QString& name, qint64 value);
    /// Files or folders: the fingerprint holds each absolute path with its size and modification
    /// time (a file rewritten in place counts as changed); shown are the file names, or "none".
    Provenance& addFiles(const QString& name, const QStringList& paths);

    const QVector<Input>& inputs() const { return m_inputs; }
    bool isEmpty() const { return m_inputs.isEmpty(); }
    /// Names of the inputs whose fingerprint differs in `current`, in this object's order (an
    /// input present on one side only counts as changed).
    QStringList changedNames(const Provenance& current) const;
    /// The same changes as the user reads them: "TSS file (a.txt.gz → b.bed)".
    QStringList changes(const Provenance& current) const;

private:
    const Input* find(const QString& name) const;

    QVector<Input> m_inputs;
};

/// The marker over a workspace's results: hidden while the shown result's provenance equals the
/// current inputs, else a banner naming every input that changed and what to do ("⚠ Results
/// below: not from the inputs loaded now. Changed: TSS file (a → b), K (6 → 8). Learn again to
/// update."). The workspace sets the result's provenance when a result is shown (or clears it),
/// and calls refresh() — or lets watch() call it — whenever an input may have changed; it then
/// recomputes, clears, or leaves the marker up (staleChanged tells it what changed).
class StaleMarker : public QLabel {
    Q_OBJECT
public:
    /// `subject`: which results ("Results below", "Comparison and Disagreements"); `action`: what
    /// brings them up to date ("Learn again to update."); `currentInputs`: the inputs loaded now.
    StaleMarker(const QString& subject, const QString& action,
                std::function<Provenance()> currentInputs, QWidget* parent = nullptr);

    /// A result computed from `inputs` is now shown; refreshes.
    void setResult(const Provenance& inputs);
    /// No result is shown: the marker hides until the next setResult.
    void clearResult();
    const Provenance& result() const { return m_result; }
    bool hasResult() const { return m_hasResult; }

    /// Compares the result's provenance with the current inputs and shows or hides the banner.
    void refresh();
    /// Calls refresh() whenever `input` (spin box, combo box, check box, line edit) changes.
    void watch(QWidget* input);

    bool isStale() const { return !m_changed.isEmpty(); }
    /// Inputs changed since the shown result was computed (empty: up to date or nothing shown).
    QStringList changedNames() const { return m_changed; }

signals:
    /// The inputs changed since the shown result are now `changedNames` (empty: up to date).
    void staleChanged(const QStringList& changedNames);

private:
    QString m_subject;
    QString m_action;
    std::function<Provenance()> m_currentInputs;
    Provenance m_result;
    bool m_hasResult = false;
    QStringList m_changed;
};

/// `results` with `marker` above it, in a new widget to pass to layOutWorkspace.
QWidget* withStaleMarker(StaleMarker* marker, QWidget* results);

} // namespace cx::ui
