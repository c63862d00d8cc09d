#pragma once

#include "ui/topics/topic_types.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace cx::ui {

class LabelValuesModel;

/// Picks a document set from a corpus' labels: a label field, a searchable checkable list of
/// its values with document counts and an "exclude" (NOT) toggle; the equivalent rule text is
/// shown and editable for power users (validated as typed, problems shown inline). Picking
/// values writes a one-clause rule; typing a rule with one clause updates the picker, a rule
/// with several clauses ("a=x;!b=y") is kept as typed.
///
/// The background picker additionally offers "all documents not in the foreground" and
/// "all documents".
class SelectionPicker : public QWidget {
    Q_OBJECT
public:
    enum class Role { Foreground, Background, Positive };

    explicit SelectionPicker(Role role, QWidget* parent = nullptr);
    ~SelectionPicker() override;

    void setCorpus(std::shared_ptr<const cx::Corpus> corpus);

    /// The current rule text (valid or not).
    QString rule() const;
    /// Sets the rule text and syncs the picker (no ruleChanged emitted).
    void setRule(const QString& rule);
    BackgroundMode backgroundMode() const;
    void setBackgroundMode(BackgroundMode mode);
    /// Whether rule() parses and names existing fields.
    bool isValid() const { return m_valid; }
    /// Shown under the list, e.g. "3,093 documents" or a warning.
    void setSummary(const QString& text, bool warning = false);

signals:
    /// The rule or the background mode changed to a valid state.
    void selectionChanged();
    /// Enter pressed in the rule editor.
    void applyRequested();

private:
    void onFieldChanged();
    void onPickerChanged();
    void onRuleEdited(const QString& text);
    void syncPickerFromRule();
    void updateEnabled();
    void showProblem(const QString& problem);
    QString currentField() const;

    Role m_role;
    std::shared_ptr<const cx::Corpus> m_corpus;
    QComboBox* m_mode = nullptr;
    QComboBox* m_field = nullptr;
    QLineEdit* m_search = nullptr;
    QTreeView* m_values = nullptr;
    LabelValuesModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QCheckBox* m_exclude = nullptr;
    QLineEdit* m_rule = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_summary = nullptr;
    QWidget* m_pickerArea = nullptr;
    bool m_valid = true;
    bool m_syncing = false;
};

/// "field=v1,v2" or "!field=v1,v2" (empty when no values).
QString ruleFromPicks(const QString& field, const QStringList& values, bool exclude);

} // namespace cx::ui
