#include "ui/topics/selection_picker.h"

#include "ui/topics/label_values_model.h"

#include "core/common/error.h"
#include "core/io/selection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace cx::ui {

namespace {

/// Sorts by count (descending) in the count column and by name in the value column.
class ValueSortProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        if (left.column() == LabelValuesModel::CountColumn) {
            return left.data(LabelValuesModel::CountRole).toLongLong() <
                   right.data(LabelValuesModel::CountRole).toLongLong();
        }
        return QString::localeAwareCompare(left.data().toString(), right.data().toString()) < 0;
    }
};

} // namespace

namespace {
/// Values listed per field (most frequent first). An identifier-like column can have a value
/// per document; listing a million rows would only slow the GUI down. Rarer values can still be
/// typed in the rule.
constexpr size_t kMaxListedValues = 5000;
} // namespace

QString ruleFromPicks(const QString& field, const QStringList& values, bool exclude) {
    if (field.isEmpty() || values.isEmpty()) {
        return {};
    }
    return (exclude ? QStringLiteral("!") : QString()) + field + QLatin1Char('=') +
           values.join(QLatin1Char(','));
}

SelectionPicker::SelectionPicker(Role role, QWidget* parent) : QWidget(parent), m_role(role) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    if (m_role == Role::Background) {
        m_mode = new QComboBox(this);
        m_mode->addItem(tr("Documents matching a rule"), static_cast<int>(BackgroundMode::Rule));
        m_mode->addItem(tr("All documents not in the foreground"),
                        static_cast<int>(BackgroundMode::NotForeground));
        m_mode->addItem(tr("All documents"), static_cast<int>(BackgroundMode::All));
        m_mode->setToolTip(tr("Which documents form the background: those matching the rule "
                              "below, every document outside the foreground, or every document"));
        layout->addWidget(m_mode);
        connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            emit selectionChanged();
        });
    }

    m_pickerArea = new QWidget(this);
    auto* pickerLayout = new QVBoxLayout(m_pickerArea);
    pickerLayout->setContentsMargins(0, 0, 0, 0);
    pickerLayout->setSpacing(6);
    auto* fieldRow = new QHBoxLayout;
    auto* fieldLabel = new QLabel(tr("Label field"), m_pickerArea);
    m_field = new QComboBox(m_pickerArea);
    m_field->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_field->setMinimumContentsLength(10);
    m_field->setToolTip(tr("The label field whose values are listed below (e.g. topics, places; "
                           "a TSV/CSV column or a UCI labels sidecar)"));
    fieldLabel->setBuddy(m_field);
    fieldRow->addWidget(fieldLabel);
    fieldRow->addWidget(m_field, 1);
    pickerLayout->addLayout(fieldRow);

    m_search = new QLineEdit(m_pickerArea);
    m_search->setPlaceholderText(tr("Filter values…"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Show only the values containing this text (case-insensitive)"));
    pickerLayout->addWidget(m_search);

    m_model = new LabelValuesModel(this);
    m_proxy = new ValueSortProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(LabelValuesModel::ValueColumn);
    m_values = new QTreeView(m_pickerArea);
    m_values->setModel(m_proxy);
    m_values->setRootIsDecorated(false);
    m_values->setUniformRowHeights(true);
    m_values->setAlternatingRowColors(true);
    m_values->setSortingEnabled(true);
    m_values->sortByColumn(LabelValuesModel::CountColumn, Qt::DescendingOrder);
    m_values->setSelectionMode(QAbstractItemView::SingleSelection);
    m_values->header()->setStretchLastSection(false);
    m_values->header()->setSectionResizeMode(LabelValuesModel::ValueColumn, QHeaderView::Stretch);
    m_values->header()->setSectionResizeMode(LabelValuesModel::CountColumn,
                                             QHeaderView::ResizeToContents);
    m_values->setMinimumHeight(110);
    pickerLayout->addWidget(m_values, 1);

    m_exclude = new QCheckBox(tr("Exclude the checked values (NOT)"), m_pickerArea);
    m_exclude->setToolTip(tr("Select the documents that have none of the checked values "
                             "(writes !FIELD=… into the rule)"));
    pickerLayout->addWidget(m_exclude);
    layout->addWidget(m_pickerArea, 1);

    auto* ruleRow = new QHBoxLayout;
    auto* ruleLabel = new QLabel(tr("Rule"), this);
    m_rule = new QLineEdit(this);
    m_rule->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_rule->setPlaceholderText(tr("e.g. places=usa;!topics=earn  (* = all)"));
    m_rule->setToolTip(tr("<p>FIELD=V1,V2 selects documents with any of the values; a leading ! "
                          "negates; ; joins clauses with AND; * is every document.</p>"
                          "<p>Example: <code>places=usa;!topics=earn</code></p>"));
    m_rule->setClearButtonEnabled(true);
    ruleLabel->setBuddy(m_rule);
    ruleRow->addWidget(ruleLabel);
    ruleRow->addWidget(m_rule, 1);
    layout->addLayout(ruleRow);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("inlineError"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    layout->addWidget(m_problem);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("hint"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    connect(m_field, &QComboBox::currentIndexChanged, this, &SelectionPicker::onFieldChanged);
    connect(m_search, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_model, &LabelValuesModel::checkedChanged, this, &SelectionPicker::onPickerChanged);
    connect(m_exclude, &QCheckBox::toggled, this, &SelectionPicker::onPickerChanged);
    connect(m_rule, &QLineEdit::textEdited, this, &SelectionPicker::onRuleEdited);
    connect(m_rule, &QLineEdit::returnPressed, this, &SelectionPicker::applyRequested);
    // Clicking anywhere on a row toggles it (not just the small check box).
    connect(m_values, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == LabelValuesModel::ValueColumn) {
            return; // the check box handles its own column
        }
        const QModelIndex valueIndex = m_proxy->index(index.row(), LabelValuesModel::ValueColumn);
        const bool checked = valueIndex.data(Qt::CheckStateRole).toInt() == Qt::Checked;
        m_proxy->setData(valueIndex, checked ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole);
    });
    updateEnabled();
}

SelectionPicker::~SelectionPicker() = default;

void SelectionPicker::setCorpus(std::shared_ptr<const cx::Corpus> corpus) {
    m_corpus = std::move(corpus);
    m_syncing = true;
    m_field->clear();
    if (m_corpus) {
        for (const cx::LabelField& field : m_corpus->labels) {
            const qsizetype used =
                std::count_if(field.valueDocumentCounts.begin(), field.valueDocumentCounts.end(),
                              [](std::int64_t n) { return n > 0; });
            m_field->addItem(tr("%1 (%2 values)")
                                 .arg(QString::fromStdString(field.name))
                                 .arg(field.valueDocumentCounts.empty()
                                          ? static_cast<qsizetype>(field.values.size())
                                          : used),
                             QString::fromStdString(field.name));
        }
    }
    // Start on the first field that is useful for picking: at least two values, and not an
    // identifier-like column (a value for nearly every document).
    if (m_corpus) {
        const auto documents = static_cast<size_t>(m_corpus->numDocuments());
        for (size_t i = 0; i < m_corpus->labels.size(); ++i) {
            const size_t values = m_corpus->labels[i].values.size();
            if (values >= 2 && values <= kMaxListedValues && values * 5 <= documents) {
                m_field->setCurrentIndex(static_cast<int>(i));
                break;
            }
        }
    }
    m_syncing = false;
    m_rule->clear();
    m_search->clear();
    onFieldChanged();
    showProblem({});
    m_summary->clear();
    updateEnabled();
}

QString SelectionPicker::currentField() const {
    return m_field->currentData().toString();
}

void SelectionPicker::onFieldChanged() {
    if (m_syncing) {
        return;
    }
    const QString field = currentField();
    std::vector<std::pair<std::string, std::int64_t>> values;
    if (m_corpus) {
        const int index = m_corpus->labelFieldIndex(field.toStdString());
        if (index >= 0) {
            // O(values · log values) on the label's value table, not a pass over documents.
            values = cx::topValues(m_corpus->labels[static_cast<size_t>(index)], kMaxListedValues);
        }
    }
    m_syncing = true;
    m_model->setValues(std::move(values));
    m_syncing = false;
    m_values->sortByColumn(LabelValuesModel::CountColumn, Qt::DescendingOrder);
    // If the current rule is about this field, show its values checked.
    syncPickerFromRule();
}

void SelectionPicker::onPickerChanged() {
    if (m_syncing) {
        return;
    }
    const QString text =
        ruleFromPicks(currentField(), m_model->checkedValues(), m_exclude->isChecked());
    m_rule->setText(text);
    showProblem({});
    m_valid = true;
    emit selectionChanged();
}

void SelectionPicker::onRuleEdited(const QString& text) {
    QString problem;
    try {
        const cx::SelectionRule parsed = cx::SelectionRule::parse(text.toStdString());
        if (m_corpus) {
            for (const cx::RuleClause& clause : parsed.clauses) {
                if (m_corpus->labelFieldIndex(clause.field) < 0) {
                    QStringList fields;
                    for (const cx::LabelField& f : m_corpus->labels) {
                        fields << QString::fromStdString(f.name);
                    }
                    problem = fields.isEmpty() ? tr("this corpus has no label fields")
                                               : tr("no field '%1' (fields: %2)")
                                                     .arg(QString::fromStdString(clause.field),
                                                          fields.join(QStringLiteral(", ")));
                    break;
                }
            }
        }
    } catch (const std::exception& error) {
        problem = QString::fromStdString(error.what());
    }
    showProblem(problem);
    m_valid = problem.isEmpty();
    if (m_valid) {
        syncPickerFromRule();
        emit selectionChanged();
    }
}

void SelectionPicker::syncPickerFromRule() {
    // Reflect a one-clause rule in the field/value/NOT controls without rewriting the text.
    m_syncing = true;
    QStringList values;
    bool exclude = false;
    try {
        const cx::SelectionRule parsed = cx::SelectionRule::parse(rule().toStdString());
        if (parsed.clauses.size() == 1) {
            const cx::RuleClause& clause = parsed.clauses.front();
            const int fieldIndex = m_field->findData(QString::fromStdString(clause.field));
            if (fieldIndex >= 0 && fieldIndex != m_field->currentIndex()) {
                m_field->setCurrentIndex(fieldIndex);
                std::vector<std::pair<std::string, std::int64_t>> fieldValues;
                const int index = m_corpus ? m_corpus->labelFieldIndex(clause.field) : -1;
                if (index >= 0) {
                    fieldValues = cx::topValues(m_corpus->labels[static_cast<size_t>(index)],
                                                kMaxListedValues);
                }
                m_model->setValues(std::move(fieldValues));
            }
            if (fieldIndex >= 0) {
                for (const std::string& value : clause.values) {
                    values << QString::fromStdString(value);
                }
                exclude = clause.negated;
            }
        }
    } catch (const std::exception&) {
        // Invalid rules are reported by onRuleEdited; leave the picker empty.
    }
    m_model->setCheckedValues(values); // m_syncing: no rule rewrite
    m_exclude->setChecked(exclude);
    m_syncing = false;
}

QString SelectionPicker::rule() const {
    return m_rule->text().trimmed();
}

void SelectionPicker::setRule(const QString& rule) {
    m_rule->setText(rule);
    onRuleEdited(rule); // validates and syncs; emits selectionChanged when valid
}

BackgroundMode SelectionPicker::backgroundMode() const {
    return m_mode ? static_cast<BackgroundMode>(m_mode->currentData().toInt())
                  : BackgroundMode::Rule;
}

void SelectionPicker::setBackgroundMode(BackgroundMode mode) {
    if (m_mode) {
        m_mode->setCurrentIndex(std::max(0, m_mode->findData(static_cast<int>(mode))));
    }
}

void SelectionPicker::setSummary(const QString& text, bool warning) {
    m_summary->setText(text);
    m_summary->setProperty("warning", warning);
    m_summary->style()->unpolish(m_summary);
    m_summary->style()->polish(m_summary);
}

void SelectionPicker::showProblem(const QString& problem) {
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void SelectionPicker::updateEnabled() {
    const bool ruleMode = backgroundMode() == BackgroundMode::Rule;
    const bool hasFields = m_corpus && !m_corpus->labels.empty();
    m_pickerArea->setEnabled(ruleMode && hasFields);
    m_pickerArea->setVisible(ruleMode);
    m_rule->setEnabled(ruleMode && m_corpus != nullptr);
    if (!ruleMode) {
        showProblem({});
    }
}

} // namespace cx::ui
