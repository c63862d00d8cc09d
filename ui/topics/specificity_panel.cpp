#include "ui/topics/specificity_panel.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/topics/selection_picker.h"

#include "core/io/selection.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace cx::ui {

SpecificityPanel::SpecificityPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 8, 14, 10);
    layout->setSpacing(6);

    auto* header = new QHBoxLayout;
    header->setSpacing(8);
    auto* title = new QLabel(tr("Specificity AUC vs γ"), this);
    title->setObjectName(QStringLiteral("panelTitle"));
    title->setToolTip(tr("<p>For each γ on the grid: decompose, score every foreground document by "
                         "its per-token likelihood under the foreground-specific topics, and "
                         "compute the AUC for separating the positive documents from the other "
                         "foreground documents. Shown relative to γ = 0.</p>"));
    header->addWidget(title);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("hint"));
    header->addWidget(m_status, 1);
    auto* positiveLabel = new QLabel(tr("Positive"), this);
    positiveLabel->setObjectName(QStringLiteral("fieldLabel"));
    m_positive = new QLineEdit(this);
    m_positive->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_positive->setPlaceholderText(tr("rule, e.g. !topics=earn"));
    m_positive->setToolTip(tr("Foreground documents matching this rule are the positives "
                              "(the foreground-only group) of the specificity test"));
    m_positive->setMinimumWidth(140);
    m_positive->setClearButtonEnabled(true);
    positiveLabel->setBuddy(m_positive);
    m_pick = new QPushButton(tr("Pick…"), this);
    m_pick->setToolTip(tr("Choose the positive documents from the label values"));
    auto* gridLabel = new QLabel(tr("γ grid"), this);
    gridLabel->setObjectName(QStringLiteral("fieldLabel"));
    m_grid = new QLineEdit(QStringLiteral("0:10:0.25"), this);
    m_grid->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_grid->setToolTip(tr("start:stop:step, or a list such as 0,0.5,1,2,4"));
    m_grid->setMinimumWidth(110);
    m_grid->setMaximumWidth(150);
    gridLabel->setBuddy(m_grid);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the chart as PNG, SVG or PDF (Ctrl+E)"));
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->addWidget(exportButton);
    layout->addLayout(header);
    auto* inputs = new QHBoxLayout;
    inputs->setSpacing(8);
    inputs->addWidget(positiveLabel);
    inputs->addWidget(m_positive, 1);
    inputs->addWidget(m_pick);
    inputs->addSpacing(10);
    inputs->addWidget(gridLabel);
    inputs->addWidget(m_grid);
    layout->addLayout(inputs);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("inlineError"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    layout->addWidget(m_problem);

    m_chart = new AucChartView(this);
    layout->addWidget(m_chart, 1);

    connect(m_positive, &QLineEdit::textChanged, this, &SpecificityPanel::validate);
    connect(m_grid, &QLineEdit::textChanged, this, &SpecificityPanel::validate);
    connect(m_pick, &QPushButton::clicked, this, &SpecificityPanel::pickPositive);
    connect(exportButton, &QToolButton::clicked, this, &SpecificityPanel::exportRequested);
    validate();
}

void SpecificityPanel::setCorpus(std::shared_ptr<const cx::Corpus> corpus) {
    m_corpus = std::move(corpus);
    m_pick->setEnabled(m_corpus && !m_corpus->labels.empty());
    validate();
}

SweepSpec SpecificityPanel::sweep() const {
    SweepSpec spec;
    if (m_valid) {
        spec.positiveRule = m_positive->text().trimmed();
        spec.gammas = m_gammas;
    }
    return spec;
}

void SpecificityPanel::setPositiveRule(const QString& rule) {
    m_positive->setText(rule);
    m_positive->setCursorPosition(0); // show the start of a long rule
}

void SpecificityPanel::setGammaGrid(const QString& text) {
    m_grid->setText(text);
}

QString SpecificityPanel::gammaGridText() const {
    return m_grid->text();
}

void SpecificityPanel::validate() {
    QStringList problems;
    QString gridError;
    m_gammas = parseGammaGrid(m_grid->text(), &gridError);
    if (!gridError.isEmpty()) {
        problems << tr("γ grid: %1").arg(gridError);
    }
    const QString rule = m_positive->text().trimmed();
    if (!rule.isEmpty()) {
        try {
            const cx::SelectionRule parsed = cx::SelectionRule::parse(rule.toStdString());
            if (m_corpus) {
                for (const cx::RuleClause& clause : parsed.clauses) {
                    if (m_corpus->labelFieldIndex(clause.field) < 0) {
                        problems << tr("positive rule: no field '%1'")
                                        .arg(QString::fromStdString(clause.field));
                    }
                }
            }
        } catch (const std::exception& error) {
            problems << QString::fromStdString(error.what());
        }
    }
    m_problem->setText(problems.join(QLatin1Char('\n')));
    m_problem->setVisible(!problems.isEmpty());
    m_valid = problems.isEmpty() && !rule.isEmpty();
    if (rule.isEmpty()) {
        m_chart->setIdleMessage(tr("Set the positive documents (e.g. the foreground-only ones) "
                                   "to chart the specificity AUC over γ"));
    }
    emit sweepChanged();
}

void SpecificityPanel::pickPositive() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Positive Documents"));
    dialog.resize(380, 480);
    auto* layout = new QVBoxLayout(&dialog);
    auto* hint = new QLabel(tr("Foreground documents matching this choice are the positives of "
                               "the specificity test; the other foreground documents are the "
                               "negatives."),
                            &dialog);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    auto* picker = new SelectionPicker(SelectionPicker::Role::Positive, &dialog);
    picker->setCorpus(m_corpus);
    picker->setRule(m_positive->text());
    layout->addWidget(picker, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() == QDialog::Accepted && picker->isValid()) {
        m_positive->setText(picker->rule());
    }
}

void SpecificityPanel::onSweepStarted(const QVector<double>& gammas) {
    m_running = !gammas.isEmpty();
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_elapsedMs = 0;
    m_chart->startSweep(gammas);
    updateStatus();
}

void SpecificityPanel::onSweepPoint(const SweepPoint& point) {
    m_chart->addPoint(point);
    updateStatus();
}

void SpecificityPanel::onSweepFinished() {
    m_running = false;
    m_elapsedMs = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedAtMs);
    m_chart->finishSweep();
    updateStatus();
}

void SpecificityPanel::onSweepFailed(const QString& message) {
    m_running = false;
    m_chart->failSweep(message);
    updateStatus();
}

void SpecificityPanel::updateStatus() {
    const int done = static_cast<int>(m_chart->points().size());
    if (m_running) {
        m_status->setText(tr("computing… %1 of %2 points").arg(done).arg(m_gammas.size()));
    } else if (done > 0) {
        m_status->setText(tr("%1 points · %2 s").arg(done).arg(m_elapsedMs / 1000.0, 0, 'f', 2));
    } else {
        m_status->clear();
    }
}

} // namespace cx::ui
