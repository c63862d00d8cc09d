#pragma once

#include "ui/topics/topic_types.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTabWidget;

namespace cx::ui {

class SelectionPicker;

/// Left side of the Topics workspace: the corpus (name, load report, Open…), the foreground and
/// background pickers, the resulting document counts and the Compute button that applies the
/// choice (the expensive once-per-choice moment passes).
class TopicsDataPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopicsDataPanel(QWidget* parent = nullptr);

    void setCorpus(const CorpusHandle& corpus);
    /// The choice currently in the pickers (valid or not).
    SelectionSpec pendingSelection() const;
    bool isPendingValid() const;
    /// Puts a choice in the pickers (e.g. a demo session, or a revert after cancel).
    void setSelection(const SelectionSpec& selection);
    /// The choice the shown results were computed for (enables/disables Compute).
    void setAppliedSelection(const SelectionSpec& selection, bool applied);
    void setPreview(const SelectionPreview& preview);
    /// While a corpus loads, Compute is disabled (it would apply to the corpus being replaced).
    void setBusy(bool busy, bool loading);

    SelectionPicker* foregroundPicker() const { return m_foreground; }
    SelectionPicker* backgroundPicker() const { return m_background; }

signals:
    void openRequested();
    /// The pickers changed (valid state): the workspace asks for a preview of the counts.
    void selectionEdited();
    void applyRequested();

private:
    void updateApplyState();

    QLabel* m_corpusName = nullptr;
    QLabel* m_corpusDetails = nullptr;
    QPushButton* m_open = nullptr;
    QTabWidget* m_tabs = nullptr;
    SelectionPicker* m_foreground = nullptr;
    SelectionPicker* m_background = nullptr;
    QLabel* m_counts = nullptr;
    QPushButton* m_apply = nullptr;
    QLabel* m_applyState = nullptr;
    SelectionSpec m_applied;
    bool m_hasApplied = false;
    bool m_busy = false;
    bool m_loading = false;
    bool m_hasCorpus = false;
};

} // namespace cx::ui
