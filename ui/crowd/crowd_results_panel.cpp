#include "ui/crowd/crowd_results_panel.h"

#include "ui/charts/iteration_chart_view.h"
#include "ui/crowd/crowd_presenter.h"
#include "ui/views/colour_scale.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/state_matrix_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cx::ui {

namespace {

constexpr int kMaxHeatmapWorkers = 40;
const QColor kLikelihoodColour(0x1f, 0x5f, 0xa8);
const QColor kSetColour(0x2a, 0x9d, 0x5c);
const QColor kCmiColour(0xd9, 0x48, 0x1c);
const QColor kInformativeColour(0x1f, 0x5f, 0xa8);
const QColor kOtherColour(0xc8, 0xcd, 0xd2);

double rounded(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

QString percent(double fraction) {
    return std::isfinite(fraction) ? QString::number(100 * fraction, 'f', 2) : QStringLiteral("—");
}

QWidget* scrolled(QWidget* content) {
    auto* area = new QScrollArea;
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

QTableWidgetItem* numberItem(double value, int decimals) {
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, std::isfinite(value) ? QVariant(rounded(value, decimals))
                                                        : QVariant(QStringLiteral("—")));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

/// The workers table sorts by the exact value behind each (rounded) cell; equal values keep
/// the workers' order in the data, so the rows do not depend on what was shown before.
constexpr int kExactValueRole = Qt::UserRole + 1;

class WorkerSortProxy final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        const QPartialOrdering order =
            QVariant::compare(left.data(kExactValueRole), right.data(kExactValueRole));
        if (order == QPartialOrdering::Less || order == QPartialOrdering::Greater) {
            return order == QPartialOrdering::Less;
        }
        // A descending sort asks lessThan(right, left): keep the data's order either way.
        return sortOrder() == Qt::DescendingOrder ? left.row() > right.row()
                                                  : left.row() < right.row();
    }
};

} // namespace

CrowdResultsPanel::CrowdResultsPanel(QWidget* parent) : QTabWidget(parent) {
    // Convergence: two charts, one above the other.
    auto* convergence = new QWidget;
    auto* convergenceLayout = new QVBoxLayout(convergence);
    m_likelihoodChart = new IterationChartView;
    m_informativeChart = new IterationChartView;
    m_likelihoodChart->setObjectName(QStringLiteral("convergence-likelihood"));
    m_informativeChart->setObjectName(QStringLiteral("convergence-informative-set"));
    m_likelihoodChart->setPlaceholder(tr("Open crowd labels to fit a model"));
    convergenceLayout->addWidget(m_likelihoodChart, 1);
    convergenceLayout->addWidget(m_informativeChart, 1);
    addTab(convergence, tr("Convergence"));

    m_cmiModel = new StateMatrixModel(this);
    m_cmiView = new HeatmapView;
    m_cmiView->setObjectName(QStringLiteral("cmi"));
    m_cmiView->setModel(m_cmiModel);
    m_cmiView->setPlaceholder(tr("No model yet"));
    m_cmiView->setShowValues(false);
    m_cmiView->setMaximumCellSize(QSizeF(22, 22));
    addTab(scrolled(m_cmiView), tr("CMI"));

    auto* workers = new QWidget;
    auto* workersLayout = new QVBoxLayout(workers);
    m_workerSearch = new QLineEdit;
    m_workerSearch->setPlaceholderText(tr("Search workers…"));
    m_workerSearch->setClearButtonEnabled(true);
    m_workerSearch->setToolTip(tr("Show only the workers whose name contains this text"));
    m_workerModel = new QStandardItemModel(this);
    m_workerProxy = new WorkerSortProxy(this);
    m_workerProxy->setSortRole(kExactValueRole);
    m_workerProxy->setSourceModel(m_workerModel);
    m_workerProxy->setFilterKeyColumn(0);
    m_workerProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_workerTable = new QTableView;
    m_workerTable->setObjectName(QStringLiteral("workersTable"));
    m_workerTable->setModel(m_workerProxy);
    m_workerTable->setSortingEnabled(true);
    m_workerTable->verticalHeader()->hide();
    m_workerTable->horizontalHeader()->setStretchLastSection(true);
    connect(m_workerSearch, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_workerProxy->setFilterFixedString(text);
        emit workerViewChanged();
    });
    connect(m_workerTable->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) {
                if (m_workerModel->columnCount() == 0) {
                    return; // cleared: keep the chosen sort for the next run
                }
                m_sortColumn = column;
                m_sortDescending = order == Qt::DescendingOrder;
                emit workerViewChanged();
            });
    workersLayout->addWidget(m_workerSearch);
    workersLayout->addWidget(m_workerTable, 1);
    addTab(workers, tr("Workers"));

    m_confusionModel = new StateMatrixModel(this);
    m_confusionView = new HeatmapView;
    m_confusionView->setObjectName(QStringLiteral("confusion-vs-gold"));
    m_confusionView->setModel(m_confusionModel);
    m_confusionView->setPlaceholder(tr("Open a gold file to compare with the truth"));
    m_confusionView->setScale(ColourScale::probability(tr("fraction of the gold class")));
    m_confusionView->setMaximumCellSize(QSizeF(90, 44));
    addTab(scrolled(m_confusionView), tr("Confusion vs gold"));

    auto* comparison = new QWidget;
    auto* comparisonLayout = new QVBoxLayout(comparison);
    m_comparison = new QTableWidget(0, 7);
    m_comparison->setObjectName(QStringLiteral("comparisonTable"));
    m_comparison->setHorizontalHeaderLabels({tr("Method"), tr("Error rate (%)"), tr("Accuracy"),
                                             tr("Informative set"), tr("Iterations"),
                                             tr("Time (ms)"), tr("Notes")});
    m_comparison->verticalHeader()->hide();
    m_comparison->horizontalHeader()->setStretchLastSection(true);
    m_comparison->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_comparisonNote =
        hintLabel(tr("Compare methods runs every method in the background."), comparison);
    comparisonLayout->addWidget(m_comparison, 1);
    comparisonLayout->addWidget(m_comparisonNote);
    addTab(comparison, tr("Comparison"));

    m_disagreements = new QTableWidget(0, 0);
    m_disagreements->setObjectName(QStringLiteral("disagreementsTable"));
    m_disagreements->verticalHeader()->hide();
    m_disagreements->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_disagreements->setSortingEnabled(true);
    addTab(m_disagreements, tr("Disagreements"));
}

CrowdResultsPanel::~CrowdResultsPanel() = default;

void CrowdResultsPanel::clear() {
    m_likelihoodChart->setPlaceholder(tr("Open crowd labels to fit a model"));
    m_likelihoodChart->setLines({}, {}, {});
    m_informativeChart->setLines({}, {}, {});
    m_cmiModel->clear();
    m_confusionModel->clear();
    m_workerModel->clear();
    clearComparison();
}

void CrowdResultsPanel::clearComparison() {
    m_comparison->setRowCount(0);
    m_disagreements->clear();
    m_disagreements->setRowCount(0);
    m_disagreements->setColumnCount(0);
    setTabText(indexOf(m_disagreements), tr("Disagreements")); // no count of earlier data
    m_comparisonNote->setText(tr("Compare methods runs every method in the background."));
    m_compared.clear();
}

void CrowdResultsPanel::showRun(const cx::CrowdLabels& data, const CrowdRun& run) {
    showTrace(*run.result);
    showCmi(data, run);
    showWorkers(data, *run.result);
    showConfusion(data, *run.result);
}

void CrowdResultsPanel::showTrace(const cx::CrowdResult& result) {
    IterationChartView::Line likelihood{tr("log-likelihood"), kLikelihoodColour, {}, false, false};
    IterationChartView::Line setSize{tr("informative set |S|"), kSetColour, {}, false, false};
    IterationChartView::Line maxCmi{tr("max CMI"), kCmiColour, {}, true, true};
    // Stagewise rounds carry a CMI; the rounds after them are the refinement's full EM, over
    // every worker: |S| is drawn for the stagewise rounds only (it ends at the |S| the summary
    // states), the refinement's log-likelihood as a line of its own.
    IterationChartView::Line refine{
        tr("log-likelihood, refine (every worker)"), kLikelihoodColour, {}, false, true};
    size_t stages = 0; // rounds up to the last with a CMI
    for (size_t i = 0; i < result.trace.size(); ++i) {
        if (result.trace[i].maxCmi > 0) {
            stages = i + 1;
        }
    }
    const bool stagewise = stages > 0;
    const bool refined = stagewise && result.method == cx::CrowdMethod::StagewiseRefine;
    for (size_t i = 0; i < result.trace.size(); ++i) {
        const cx::StagewiseIteration& round = result.trace[i];
        const double x = static_cast<double>(i + 1);
        if (refined && i >= stages) {
            if (refine.points.isEmpty() && !likelihood.points.isEmpty()) {
                refine.points << likelihood.points.back(); // joined to the stagewise line
            }
            refine.points << QPointF(x, round.logLikelihood);
            continue;
        }
        likelihood.points << QPointF(x, round.logLikelihood);
        if (stagewise) {
            setSize.points << QPointF(x, round.informativeSetSize);
        }
        if (round.maxCmi > 0) {
            maxCmi.points << QPointF(x, round.maxCmi);
        }
    }
    if (refined) {
        likelihood.name = tr("log-likelihood, stagewise");
    }
    m_likelihoodChart->setPlaceholder(
        result.trace.empty() ? tr("%1 does not iterate: no convergence to show")
                                   .arg(QString::fromLatin1(cx::crowdMethodName(result.method)))
                             : QString());
    m_likelihoodChart->setLines(refine.points.isEmpty() ? QList{likelihood}
                                                        : QList{likelihood, refine},
                                tr("log-likelihood"), {});
    if (stagewise) {
        m_informativeChart->setLines({setSize, maxCmi}, tr("workers in S"), tr("max CMI (nats)"));
    } else {
        m_informativeChart->setLines({}, {}, {});
        m_informativeChart->setPlaceholder(
            tr("%1 uses every worker (no informative set)")
                .arg(QString::fromLatin1(cx::crowdMethodName(result.method))));
    }
}

void CrowdResultsPanel::showCmi(const cx::CrowdLabels& data, const CrowdRun& run) {
    const cx::CrowdResult& result = *run.result;
    // Informative workers first (in the order they entered S), then the others by accuracy.
    const std::vector<int> order = cx::crowdCmiWorkerOrder(data, result);
    const int shown = std::min<int>(kMaxHeatmapWorkers, static_cast<int>(order.size()));
    StateMatrixModel::Content content;
    content.values.resize(shown, shown);
    double largest = 0;
    for (int r = 0; r < shown; ++r) {
        const int i = order[static_cast<size_t>(r)];
        const bool informative =
            result.workers[static_cast<size_t>(i)].informative && !result.informativeOrder.empty();
        const QString worker = QString::fromStdString(data.workerNames[static_cast<size_t>(i)]);
        content.rowLabels << worker;
        content.columnLabels << worker; // the same workers, in the same order
        content.rowColours << (informative ? kInformativeColour : kOtherColour);
        content.rowNotes << (informative ? tr("in the informative set") : QString());
        for (int c = 0; c < shown; ++c) {
            const double value = run.cmi(i, order[static_cast<size_t>(c)]);
            content.values(r, c) = value;
            largest = std::max(largest, value);
        }
    }
    content.decimals = 3;
    content.valueName = tr("I(x_i; x_j | class)");
    content.rowHeader = tr("worker");
    m_cmiModel->setContent(content);
    ColourScale scale;
    scale.minimum = 0;
    scale.maximum = largest > 0 ? largest : 1;
    scale.title = tr("conditional mutual information (nats)");
    m_cmiView->setScale(scale);
    m_cmiView->setTitle(tr("CMI between workers given the class"),
                        shown < data.numWorkers
                            ? tr("%1 of %2 workers; informative first, then by accuracy")
                                  .arg(shown)
                                  .arg(data.numWorkers)
                            : tr("informative workers first, then by accuracy"));
}

void CrowdResultsPanel::showWorkers(const cx::CrowdLabels& data, const cx::CrowdResult& result) {
    m_workerModel->clear();
    m_workerModel->setHorizontalHeaderLabels({tr("Worker"), tr("Labels"), tr("Informative"),
                                              tr("Accuracy"), tr("95 % low"), tr("95 % high")});
    for (int m = 0; m < data.numWorkers; ++m) {
        const cx::WorkerSummary& worker = result.workers[static_cast<size_t>(m)];
        QList<QStandardItem*> row;
        auto text = [](const QString& value) {
            auto* item = new QStandardItem(value);
            item->setData(value, kExactValueRole);
            return item;
        };
        row << text(QString::fromStdString(data.workerNames[static_cast<size_t>(m)]));
        // Shown to 3 digits, sorted by the exact value.
        auto number = [](double value, int digits = 0) {
            auto* item = new QStandardItem;
            item->setData(digits > 0 ? rounded(value, digits) : value, Qt::DisplayRole);
            item->setData(value, kExactValueRole);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        row << number(worker.numLabels);
        row << text(worker.informative ? tr("yes") : tr("no"));
        row << number(worker.accuracy, 3) << number(worker.accuracyLow, 3)
            << number(worker.accuracyHigh, 3);
        m_workerModel->appendRow(row);
    }
    m_workerTable->sortByColumn(m_sortColumn,
                                m_sortDescending ? Qt::DescendingOrder : Qt::AscendingOrder);
    m_workerTable->resizeColumnsToContents();
}

void CrowdResultsPanel::showConfusion(const cx::CrowdLabels& data, const cx::CrowdResult& result) {
    if (!data.hasGold()) {
        m_confusionModel->clear();
        return;
    }
    const cx::CrowdConfusion confusion = cx::crowdConfusion(data, result);
    StateMatrixModel::Content content;
    content.values = confusion.fractions;
    for (int c = 0; c < data.numClasses; ++c) {
        const QString name = QString::fromStdString(data.classNames[static_cast<size_t>(c)]);
        content.rowLabels << tr("gold %1").arg(name);
        content.columnLabels << tr("predicted %1").arg(name);
        content.rowColours << kOtherColour;
        content.rowNotes << tr("%1 items").arg(confusion.totals[c]);
    }
    content.valueName = tr("fraction of the gold class");
    content.rowHeader = tr("gold");
    m_confusionModel->setContent(content);
    m_confusionView->setTitle(
        tr("Predicted against gold"),
        tr("error rate %1 % on %2 gold items").arg(percent(result.errorRate)).arg(data.numGold()));
}

void CrowdResultsPanel::startComparison(const cx::CrowdLabels& data) {
    m_compared.clear();
    m_comparison->setRowCount(0);
    m_disagreements->clear();
    m_disagreements->setRowCount(0);
    setTabText(indexOf(m_disagreements), tr("Disagreements"));
    m_comparisonNote->setText(tr("Running every method on %1 items…").arg(data.numItems));
}

void CrowdResultsPanel::addComparisonRow(const cx::CrowdLabels& data, const CrowdRun& run) {
    const cx::CrowdResult& result = *run.result;
    m_compared[run.method] = run.result;
    const int row = m_comparison->rowCount();
    m_comparison->insertRow(row);
    m_comparison->setItem(
        row, 0, new QTableWidgetItem(QString::fromLatin1(cx::crowdMethodName(run.method))));
    m_comparison->setItem(row, 1, numberItem(100 * result.errorRate, 2));
    m_comparison->setItem(row, 2, numberItem(1 - result.errorRate, 4));
    m_comparison->setItem(
        row, 3,
        new QTableWidgetItem(
            QStringLiteral("%1 of %2").arg(result.informativeSetSize()).arg(data.numWorkers)));
    m_comparison->setItem(row, 4, numberItem(result.iterations, 0));
    m_comparison->setItem(row, 5, numberItem(result.elapsedMs, 1));
    QStringList notes;
    for (const std::string& note : result.notes) {
        notes << QString::fromStdString(note);
    }
    m_comparison->setItem(row, 6, new QTableWidgetItem(notes.join(QStringLiteral("; "))));
    m_comparison->resizeColumnsToContents();
}

void CrowdResultsPanel::finishComparison(const cx::CrowdLabels& data, bool complete) {
    double total = 0;
    for (const auto& [method, result] : m_compared) {
        total += result->elapsedMs;
    }
    m_comparisonNote->setText(
        (complete ? tr("%1 methods in %2 ms.") : tr("Stopped after %1 methods (%2 ms)."))
            .arg(m_compared.size())
            .arg(total, 0, 'f', 1) +
        (data.hasGold() ? QString() : tr(" No gold: error rates need a gold file.")));
    // Items where the methods' predictions differ, for review.
    m_disagreements->setSortingEnabled(false);
    m_disagreements->clear();
    QStringList headers{tr("Item"), tr("Gold")};
    for (const auto& [method, result] : m_compared) {
        headers << QString::fromLatin1(cx::crowdMethodName(method));
    }
    m_disagreements->setColumnCount(static_cast<int>(headers.size()));
    m_disagreements->setHorizontalHeaderLabels(headers);
    m_disagreements->setRowCount(0);
    if (m_compared.empty()) {
        return;
    }
    auto className = [&](int c) {
        return c == cx::CrowdLabels::kMissingLabel
                   ? QStringLiteral("—")
                   : QString::fromStdString(data.classNames[static_cast<size_t>(c)]);
    };
    std::vector<const cx::CrowdResult*> results;
    for (const auto& [method, result] : m_compared) {
        results.push_back(result.get());
    }
    for (int n : cx::crowdDisagreements(data.numItems, results)) {
        const int row = m_disagreements->rowCount();
        m_disagreements->insertRow(row);
        m_disagreements->setItem(
            row, 0,
            new QTableWidgetItem(QString::fromStdString(data.itemNames[static_cast<size_t>(n)])));
        m_disagreements->setItem(
            row, 1, new QTableWidgetItem(className(data.gold[static_cast<size_t>(n)])));
        int column = 2;
        for (const auto& [method, result] : m_compared) {
            m_disagreements->setItem(
                row, column++,
                new QTableWidgetItem(className(result->predicted[static_cast<size_t>(n)])));
        }
    }
    m_disagreements->setSortingEnabled(true);
    m_disagreements->resizeColumnsToContents();
    setTabText(indexOf(m_disagreements), tr("Disagreements (%1)").arg(m_disagreements->rowCount()));
}

void CrowdResultsPanel::setWorkerFilter(const QString& text) {
    m_workerSearch->setText(text);
}

void CrowdResultsPanel::setWorkerSort(int column, bool descending) {
    if (column < 0 || (column == m_sortColumn && descending == m_sortDescending)) {
        return;
    }
    m_sortColumn = column;
    m_sortDescending = descending;
    if (m_workerModel->columnCount() > column) {
        m_workerTable->sortByColumn(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    }
    emit workerViewChanged();
}

QString CrowdResultsPanel::workerFilter() const {
    return m_workerSearch->text();
}

} // namespace cx::ui
