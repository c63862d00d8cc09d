#include "ui/topics/topic_words_model.h"

#include "core/topics/topic_coherence.h"
#include "ui/charts/chart_style.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPen>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

QString formatWeight(double weight) {
    if (!std::isfinite(weight)) {
        return QStringLiteral("–");
    }
    const double magnitude = std::abs(weight);
    QString text;
    if (magnitude == 0) {
        text = QStringLiteral("0");
    } else if (magnitude >= 0.001 && magnitude < 10000) {
        text = QString::number(magnitude, 'g', 3);
    } else {
        text = QString::number(magnitude, 'e', 1);
    }
    return weight < 0 ? QStringLiteral("\u2212") + text : text;
}

void TopicWordsModel::setSolution(const TopicSolution& solution) {
    beginResetModel();
    m_solution = solution;
    m_bandLow.clear();
    m_bandHigh.clear();
    m_stability.clear();
    m_identities.clear();
    m_identityColours.clear();
    m_componentNames.clear(); // no identity: nothing to follow along γ
    updateAdmissibility();
    rebuildColumns();
    endResetModel();
}

void TopicWordsModel::setIdentities(const std::vector<int>& ids,
                                    const std::vector<QColor>& colours) {
    const size_t k =
        m_solution.isValid() ? static_cast<size_t>(m_solution.result->numComponents()) : 0;
    const bool valid = ids.size() == k && colours.size() == k;
    m_identities = valid ? ids : std::vector<int>();
    m_identityColours = valid ? colours : std::vector<QColor>();
    if (columnCount() > 0) {
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
}

int TopicWordsModel::identityOf(int component) const {
    return component >= 0 && static_cast<size_t>(component) < m_identities.size()
               ? m_identities[static_cast<size_t>(component)]
               : -1;
}

void TopicWordsModel::setWeightBands(const std::vector<double>& low,
                                     const std::vector<double>& high,
                                     const std::vector<double>& stability) {
    beginResetModel();
    m_bandLow = low;
    m_bandHigh = high;
    m_stability = stability;
    updateAdmissibility();
    endResetModel();
}

void TopicWordsModel::updateAdmissibility() {
    m_admissibility = {};
    if (!m_solution.isValid()) {
        return;
    }
    const cx::TopicModelResult& result = *m_solution.result;
    const auto k = static_cast<size_t>(result.numComponents());
    m_admissibility = m_bandLow.size() == k && m_bandHigh.size() == k
                          ? cx::checkComponents(result, m_bandLow, m_bandHigh)
                          : cx::checkComponents(result);
}

QString TopicWordsModel::inadmissibleNote(int component) const {
    if (component < 0 || static_cast<size_t>(component) >= m_admissibility.verdicts.size() ||
        m_admissibility.admissible(component)) {
        return {};
    }
    const cx::TopicModelResult& result = *m_solution.result;
    const auto slot = static_cast<size_t>(component);
    const double weight = result.signedWeights[component];
    const cx::Admissibility verdict = m_admissibility.verdicts[slot];
    const bool banded = slot < m_bandLow.size() && slot < m_bandHigh.size() &&
                        std::isfinite(m_bandLow[slot]) && std::isfinite(m_bandHigh[slot]);
    const bool pointOutside = !cx::isAdmissible(cx::weightAdmissibility(weight, result.gamma));
    QString reason;
    if (pointOutside) {
        reason = verdict == cx::Admissibility::AboveOne ? tr("ω = %1 > 1").arg(formatWeight(weight))
                 : verdict == cx::Admissibility::BelowMinusGamma
                     ? tr("ω = %1 < −γ = %2").arg(formatWeight(weight), formatWeight(-result.gamma))
                     : tr("ω is not finite");
    } else {
        // The estimate sits inside [−γ, 1] but its whole bootstrap band does not.
        reason = verdict == cx::Admissibility::AboveOne
                     ? tr("its whole bootstrap band lies above 1")
                     : tr("its whole bootstrap band lies below −γ");
    }
    if (banded && pointOutside) {
        const double low = std::min(m_bandLow[slot], m_bandHigh[slot]);
        const double high = std::max(m_bandLow[slot], m_bandHigh[slot]);
        const bool reaches = low <= 1.0 && high >= -result.gamma;
        reason += reaches
                      ? tr(" (its bootstrap band %1 – %2 reaches into [−γ, 1]: the excess may be "
                           "sampling error, but the component shown is none of the model's "
                           "topics)")
                      : tr(", and so is its whole bootstrap band %1 – %2");
        reason = reason.arg(formatWeight(m_bandLow[slot]), formatWeight(m_bandHigh[slot]));
    }
    return tr("⚠ inadmissible: %1. A topic's weight is ω = w_f − γ·w_b ∈ [−γ, 1] (a foreground "
              "topic cannot weigh more than 1, a background topic not less than −γ), so this "
              "component is no topic of the model — typically a blend of several topics. It is "
              "still part of the decomposition and of the AUC's mixture.")
        .arg(reason);
}

QString TopicWordsModel::bootstrapNote(int component) const {
    const auto slot = static_cast<size_t>(component);
    if (component < 0 || !m_solution.isValid()) {
        return {};
    }
    QStringList parts;
    if (slot < m_bandLow.size() && slot < m_bandHigh.size() && std::isfinite(m_bandLow[slot]) &&
        std::isfinite(m_bandHigh[slot])) {
        parts << tr("bootstrap band of ω %1 – %2")
                     .arg(formatWeight(m_bandLow[slot]), formatWeight(m_bandHigh[slot]));
    }
    if (slot < m_stability.size() && std::isfinite(m_stability[slot])) {
        QString stability = tr("reappears in %1 % of the resamples")
                                .arg(QString::number(m_stability[slot] * 100, 'f', 0));
        if (m_stability[slot] < cx::kMinStability) {
            stability = QStringLiteral("⚠ ") + stability + tr(" (unstable)");
        }
        parts << stability;
    }
    return parts.join(QStringLiteral(" · "));
}

void TopicWordsModel::setShowAll(bool showAll) {
    if (showAll == m_showAll) {
        return;
    }
    beginResetModel();
    m_showAll = showAll;
    rebuildColumns();
    endResetModel();
}

void TopicWordsModel::setTopWordCount(int count) {
    count = std::max(1, count);
    if (count == m_topWordCount) {
        return;
    }
    beginResetModel();
    m_topWordCount = count;
    rebuildColumns();
    endResetModel();
}

void TopicWordsModel::rebuildColumns() {
    m_columns.clear();
    m_rows = 0;
    if (!m_solution.isValid()) {
        return;
    }
    const cx::TopicModelResult& result = *m_solution.result;
    for (int t = 0; t < result.numComponents(); ++t) {
        if (m_showAll || result.foregroundSpecific[static_cast<size_t>(t)]) {
            m_columns.push_back(t);
        }
    }
    int available = 0;
    for (int t : m_columns) {
        available = std::max(available,
                             static_cast<int>(m_solution.topWords[static_cast<size_t>(t)].size()));
    }
    m_rows = m_columns.empty() ? 0 : std::min(m_topWordCount, available);
}

int TopicWordsModel::componentOf(int column) const {
    return column >= 0 && column < static_cast<int>(m_columns.size())
               ? m_columns[static_cast<size_t>(column)]
               : -1;
}

QString TopicWordsModel::componentName(int column) const {
    return nameOfComponent(componentOf(column));
}

QString TopicWordsModel::defaultName(int component) const {
    if (component < 0 || !m_solution.isValid() || component >= m_solution.result->numComponents()) {
        return {};
    }
    const bool specific = m_solution.result->foregroundSpecific[static_cast<size_t>(component)];
    const int identity = identityOf(component);
    if (identity >= 0) {
        return specific ? tr("Topic T%1").arg(identity + 1) : tr("Component T%1").arg(identity + 1);
    }
    // Components are sorted with the foreground-specific ones first, so topic numbers are 1..F.
    return specific ? tr("Topic %1").arg(component + 1) : tr("Component %1").arg(component + 1);
}

QString TopicWordsModel::nameOfComponent(int component) const {
    const int identity = identityOf(component);
    if (identity >= 0) {
        const auto named = m_identityNames.find(identity);
        if (named != m_identityNames.end()) {
            return named->second;
        }
    } else {
        const auto named = m_componentNames.find(component);
        if (named != m_componentNames.end()) {
            return named->second;
        }
    }
    return defaultName(component);
}

bool TopicWordsModel::setTopicName(int component, const QString& name) {
    if (component < 0 || !m_solution.isValid() || component >= m_solution.result->numComponents()) {
        return false;
    }
    const QString trimmed = name.simplified().left(200);
    const int identity = identityOf(component);
    std::map<int, QString>& names = identity >= 0 ? m_identityNames : m_componentNames;
    const int key = identity >= 0 ? identity : component;
    if (trimmed.isEmpty() || trimmed == defaultName(component)) {
        names.erase(key);
    } else {
        names[key] = trimmed;
    }
    if (columnCount() > 0) {
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
    emit namesChanged();
    return true;
}

void TopicWordsModel::setIdentityNames(const std::map<int, QString>& names) {
    m_identityNames = names;
    if (columnCount() > 0) {
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
    emit namesChanged();
}

double TopicWordsModel::npmi(int component) const {
    return component >= 0 && static_cast<size_t>(component) < m_solution.npmi.size()
               ? m_solution.npmi[static_cast<size_t>(component)]
               : std::numeric_limits<double>::quiet_NaN();
}

QString TopicWordsModel::word(int component, int rank) const {
    const auto& words = m_solution.topWords[static_cast<size_t>(component)];
    if (rank >= static_cast<int>(words.size())) {
        return {};
    }
    const auto id = static_cast<size_t>(words[static_cast<size_t>(rank)]);
    const auto& vocabulary = m_solution.corpus->vocabulary;
    return id < vocabulary.size() ? QString::fromStdString(vocabulary[id]) : QString();
}

double TopicWordsModel::probability(int component, int rank) const {
    const auto& words = m_solution.topWords[static_cast<size_t>(component)];
    if (rank >= static_cast<int>(words.size())) {
        return 0;
    }
    return m_solution.result->topics(words[static_cast<size_t>(rank)], component);
}

int TopicWordsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_rows;
}

int TopicWordsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant TopicWordsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_rows) {
        return {};
    }
    const int component = componentOf(index.column());
    if (component < 0) {
        return {};
    }
    const cx::TopicModelResult& result = *m_solution.result;
    const bool specific = result.foregroundSpecific[static_cast<size_t>(component)];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return word(component, index.row());
    case ValueRole:
        return probability(component, index.row());
    case RelativeValueRole: {
        const double top = probability(component, 0);
        return top > 0 ? probability(component, index.row()) / top : 0.0;
    }
    case SignedWeightRole:
        return result.signedWeights[component];
    case ForegroundSpecificRole:
        return specific;
    case ComponentRole:
        return component;
    case AdmissibleRole:
        return m_admissibility.admissible(component);
    case Qt::ToolTipRole: {
        QString tip = tr("<b>%1</b><br>p = %2 in %3<br>rank %4")
                          .arg(word(component, index.row()).toHtmlEscaped())
                          .arg(probability(component, index.row()), 0, 'g', 4)
                          .arg(componentName(index.column()))
                          .arg(index.row() + 1);
        const QString bootstrap = bootstrapNote(component);
        if (!bootstrap.isEmpty()) {
            tip += QStringLiteral("<br>") + bootstrap.toHtmlEscaped();
        }
        const QString note = inadmissibleNote(component);
        if (!note.isEmpty()) {
            tip += QStringLiteral("<br><span style='color:#b3261e'>%1</span>")
                       .arg(note.toHtmlEscaped());
        }
        return tip;
    }
    default:
        return {};
    }
}

QVariant TopicWordsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole) {
            return section + 1;
        }
        if (role == Qt::TextAlignmentRole) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const int component = componentOf(section);
    if (component < 0) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const cx::TopicModelResult& result = *m_solution.result;
    const bool specific = result.foregroundSpecific[static_cast<size_t>(component)];
    const double weight = result.signedWeights[component];
    const bool admissible = m_admissibility.admissible(component);
    switch (role) {
    case Qt::DisplayRole: {
        QString text = (admissible ? QString() : QStringLiteral("⚠ ")) + componentName(section) +
                       QStringLiteral("\nω = ") + formatWeight(weight);
        if (std::isfinite(npmi(component))) {
            text += QStringLiteral(" · NPMI ") + QString::number(npmi(component), 'f', 2);
        }
        return text;
    }
    case Qt::EditRole:
        return componentName(section);
    case AdmissibleRole:
        return admissible;
    case Qt::DecorationRole: {
        // The identity's colour, as its line in the weights-vs-γ chart.
        if (identityOf(component) < 0) {
            return {};
        }
        QPixmap swatch(12, 12);
        const QColor colour = m_identityColours[static_cast<size_t>(component)];
        const Qt::PenStyle pattern = categoricalLineStyle(identityOf(component)).second;
        if (pattern == Qt::SolidLine) {
            swatch.fill(colour);
        } else { // past the palette: the line's pattern too, as in the chart's legend
            swatch.fill(Qt::transparent);
            QPainter painter(&swatch);
            painter.setPen(QPen(colour, 4, pattern, Qt::FlatCap));
            painter.drawLine(QPointF(0, 6), QPointF(12, 6));
        }
        return QIcon(swatch);
    }
    case Qt::ToolTipRole:
        // The user's name is concatenated, not .arg()-substituted: it may hold "%1".
        return QStringLiteral("<b>") + componentName(section).toHtmlEscaped() +
               (componentName(section) != defaultName(component)
                    ? QStringLiteral(" (") + defaultName(component) + QStringLiteral(")")
                    : QString()) +
               tr("</b> — %1<br>weight ω = %2<br>λ̂ = %3<br>clipped mass %4 %<br>%5")
                   .arg(specific ? tr("foreground-specific")
                                 : tr("shared with or specific to the "
                                      "background (λ̂ < 0)"))
                   .arg(formatWeight(weight))
                   .arg(result.lambdas[component], 0, 'g', 4)
                   .arg(result.clippedMass[component] * 100, 0, 'f', 1)
                   .arg(tr("γ = %1, K = %2")
                            .arg(m_solution.gamma, 0, 'g', 4)
                            .arg(result.numComponents())) +
               (std::isfinite(npmi(component))
                    ? tr("<br>coherence NPMI %1 (top %2 words, document co-occurrence in the "
                         "corpus; −1 … 1, higher is more coherent)")
                          .arg(npmi(component), 0, 'f', 3)
                          .arg(cx::kCoherenceWords)
                    : QString()) +
               tr("<br><i>Double-click to rename; click to see its documents</i>") +
               (bootstrapNote(component).isEmpty()
                    ? QString()
                    : QStringLiteral("<br>") + bootstrapNote(component).toHtmlEscaped()) +
               (admissible ? QString()
                           : QStringLiteral("<br><span style='color:#b3261e'>%1</span>")
                                 .arg(inadmissibleNote(component).toHtmlEscaped()));
    case Qt::ForegroundRole:
        // Inadmissible components read in warning red; components shared with or specific to
        // the background in the warm colour of their cells.
        if (!admissible) {
            return QVariant(QBrush(QColor(0xb3, 0x26, 0x1e)));
        }
        return specific ? QVariant() : QVariant(QBrush(QColor(0x8a, 0x2c, 0x1e)));
    case ForegroundSpecificRole:
        return specific;
    case SignedWeightRole:
        return weight;
    case ComponentRole:
        return component;
    default:
        return QAbstractTableModel::headerData(section, orientation, role);
    }
}

QString TopicWordsModel::topicKeysText() const {
    QString out;
    for (int column = 0; column < columnCount(); ++column) {
        const int component = componentOf(column);
        QStringList words;
        for (int rank = 0; rank < m_rows; ++rank) {
            const QString w = word(component, rank);
            if (!w.isEmpty()) {
                words << w;
            }
        }
        out += QStringLiteral("%1\t%2\t%3\n")
                   .arg(component)
                   .arg(QString::number(m_solution.result->signedWeights[component], 'g', 6))
                   .arg(words.join(QLatin1Char(' ')));
    }
    return out;
}

QString TopicWordsModel::longTable(QChar separator) const {
    const QString sep(separator);
    QString out = QStringList{QStringLiteral("component"),  QStringLiteral("foreground_specific"),
                              QStringLiteral("weight"),     QStringLiteral("rank"),
                              QStringLiteral("word"),       QStringLiteral("probability"),
                              QStringLiteral("admissible"), QStringLiteral("npmi"),
                              QStringLiteral("name")}
                      .join(sep) +
                  QLatin1Char('\n');
    for (int column = 0; column < columnCount(); ++column) {
        const int component = componentOf(column);
        const bool specific = m_solution.result->foregroundSpecific[static_cast<size_t>(component)];
        for (int rank = 0; rank < m_rows; ++rank) {
            QString w = word(component, rank);
            if (w.isEmpty()) {
                continue;
            }
            if (separator == QLatin1Char(',') &&
                (w.contains(QLatin1Char(',')) || w.contains(QLatin1Char('"')))) {
                w = QLatin1Char('"') + w.replace(QLatin1String("\""), QLatin1String("\"\"")) +
                    QLatin1Char('"');
            }
            QString name = nameOfComponent(component);
            name.replace(QLatin1Char('\t'), QLatin1Char(' '));
            if (separator == QLatin1Char(',') &&
                (name.contains(QLatin1Char(',')) || name.contains(QLatin1Char('"')))) {
                name = QLatin1Char('"') + name.replace(QLatin1String("\""), QLatin1String("\"\"")) +
                       QLatin1Char('"');
            }
            out +=
                QStringList{QStringLiteral("c%1").arg(component + 1),
                            specific ? QStringLiteral("1") : QStringLiteral("0"),
                            QString::number(m_solution.result->signedWeights[component], 'g', 10),
                            QString::number(rank + 1),
                            w,
                            QString::number(probability(component, rank), 'g', 10),
                            m_admissibility.admissible(component) ? QStringLiteral("1")
                                                                  : QStringLiteral("0"),
                            std::isfinite(npmi(component))
                                ? QString::number(npmi(component), 'g', 6)
                                : QStringLiteral("nan"),
                            name}
                    .join(sep) +
                QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace cx::ui
