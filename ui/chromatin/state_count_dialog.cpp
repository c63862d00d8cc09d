#include "ui/chromatin/state_count_dialog.h"

#include "ui/widgets/form_widgets.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <limits>

namespace cx::ui {

namespace {

QString number(double value, int digits = 4) {
    return std::isnan(value) ? QStringLiteral("—") : QString::number(value, 'g', digits);
}

} // namespace

QList<IterationChartView::Line> stateCountLines(const cx::StateCountResult& result) {
    IterationChartView::Line residual{
        QObject::tr("held-out moment residual"), QColor(31, 119, 180), {}, false, false};
    IterationChartView::Line floor{
        QObject::tr("best + sampling noise"), QColor(127, 127, 127), {}, false, true};
    IterationChartView::Line likelihood{
        QObject::tr("log-likelihood per bin"), QColor(214, 39, 40), {}, true, false};
    double best = std::numeric_limits<double>::infinity();
    for (const cx::StateCountFit& fit : result.fits) {
        if (fit.isFitted()) {
            residual.points << QPointF(fit.numStates, fit.heldOutResidual);
            likelihood.points << QPointF(fit.numStates, fit.logLikelihoodPerBin);
            best = std::min(best, fit.heldOutResidual);
        }
    }
    if (!residual.points.isEmpty()) {
        floor.points << QPointF(residual.points.front().x(), best + result.noiseLevel)
                     << QPointF(residual.points.back().x(), best + result.noiseLevel);
    }
    return {residual, floor, likelihood};
}

StateCountDialog::StateCountDialog(std::shared_ptr<const cx::ChromatinData> data,
                                   const cx::StateCountOptions& base, QWidget* parent)
    : QDialog(parent), m_data(std::move(data)), m_base(base) {
    setObjectName(QStringLiteral("stateCountDialog"));
    setWindowTitle(tr("How Many States"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hintLabel(
        tr("Fits the foreground-only (γ = 0) model for every K of the range on every other "
           "block of %1 bins and judges it on the others: the held-out moment residual, the "
           "log-likelihood and how well each state of the largest model is matched "
           "(ChromHMM CompareModels). Suggested: the smallest K whose residual is within "
           "the sampling noise of the best.")
            .arg(m_base.blockBins),
        this));
    const int maxStates = m_data ? m_data->numMarks() + 1 : 2;
    m_from = numberSpin(1, maxStates, std::min(m_base.minStates, maxStates), 56, this);
    m_to = numberSpin(1, maxStates, std::min(m_base.maxStates, maxStates), 56, this);
    m_fit = new QPushButton(tr("Fit"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(fieldLabel(tr("K from"), m_from, this));
    row->addWidget(m_from);
    row->addWidget(fieldLabel(tr("to"), m_to, this));
    row->addWidget(m_to);
    row->addWidget(m_fit);
    row->addStretch(1);
    layout->addLayout(row);
    m_chart = new IterationChartView(this);
    m_chart->setObjectName(QStringLiteral("stateCountChart"));
    m_chart->setXAxis(QStringLiteral("K"), true);
    m_chart->setFigureTitle(tr("How many states"));
    m_chart->setPlaceholder(tr("Press Fit"));
    m_chart->setMinimumSize(420, 240);
    layout->addWidget(m_chart, 1);
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels({tr("K"), tr("Log-likelihood"), tr("Held-out residual"),
                                        tr("Match min"), tr("Match mean")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    layout->addWidget(m_table);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_fit, &QPushButton::clicked, this, &StateCountDialog::start);
    connect(&m_watcher, &QFutureWatcher<cx::StateCountResult>::finished, this, [this] {
        m_fit->setText(tr("Fit"));
        try {
            m_result = m_watcher.result();
            showResult(*m_result);
        } catch (const cx::Cancelled&) {
            m_summary->setText(tr("Cancelled."));
        } catch (const std::exception& error) {
            m_result.reset();
            m_summary->setText(tr("Cannot fit the range: %1").arg(QString::fromUtf8(error.what())));
        }
        emit fitFinished();
    });
}

StateCountDialog::~StateCountDialog() {
    m_cancel.cancel();
    m_watcher.waitForFinished();
}

void StateCountDialog::setRange(int from, int to) {
    m_from->setValue(from);
    m_to->setValue(to);
}

void StateCountDialog::start() {
    if (m_watcher.isRunning()) {
        m_cancel.cancel();
        m_watcher.waitForFinished();
    }
    if (!m_data) {
        return;
    }
    cx::StateCountOptions options = m_base;
    options.minStates = std::min(m_from->value(), m_to->value());
    options.maxStates = std::max(m_from->value(), m_to->value());
    m_cancel = cx::CancelToken::create();
    m_result.reset();
    m_summary->setText(tr("Fitting K = %1 to %2…").arg(options.minStates).arg(options.maxStates));
    m_fit->setText(tr("Fit again"));
    m_watcher.setFuture(QtConcurrent::run([data = m_data, options, cancel = m_cancel] {
        return cx::chooseStateCount(*data, options, cancel);
    }));
}

void StateCountDialog::showResult(const cx::StateCountResult& result) {
    m_chart->setLines(stateCountLines(result), tr("held-out residual"),
                      tr("log-likelihood per bin"));
    m_table->setRowCount(static_cast<int>(result.fits.size()));
    for (int row = 0; row < static_cast<int>(result.fits.size()); ++row) {
        const cx::StateCountFit& fit = result.fits[static_cast<size_t>(row)];
        const bool matched = fit.largestMatch.size() > 0;
        const QStringList cells = {
            QString::number(fit.numStates) +
                (fit.numStates == result.suggestedStates ? tr(" (suggested)") : QString()),
            number(fit.logLikelihood, 8), number(fit.heldOutResidual),
            matched ? number(fit.largestMatch.minCoeff(), 3) : QString::fromStdString(fit.problem),
            matched ? number(fit.largestMatch.mean(), 3) : QString()};
        for (int column = 0; column < cells.size(); ++column) {
            m_table->setItem(row, column, new QTableWidgetItem(cells[column]));
        }
    }
    m_summary->setText(
        tr("Suggested K = %1 (noise %2; %3 training and %4 held-out bins; CompareModels against "
           "K = %5).")
            .arg(result.suggestedStates)
            .arg(number(result.noiseLevel, 3))
            .arg(result.trainingBins)
            .arg(result.heldOutBins)
            .arg(result.largestStates));
}

} // namespace cx::ui
