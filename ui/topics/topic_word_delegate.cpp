#include "ui/topics/topic_word_delegate.h"

#include "ui/topics/topic_words_model.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace cx::ui {

void TopicWordDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const bool specific = index.data(TopicWordsModel::ForegroundSpecificRole).toBool();
    const double relative =
        std::clamp(index.data(TopicWordsModel::RelativeValueRole).toDouble(), 0.0, 1.0);
    const double probability = index.data(TopicWordsModel::ValueRole).toDouble();
    const bool selected = opt.state & QStyle::State_Selected;
    // Inadmissible components (ω outside [−γ, 1]) are hatched, as invalid states' weight bars
    // are in the chromatin heatmaps.
    const QVariant admissibleData = index.data(TopicWordsModel::AdmissibleRole);
    const bool admissible = !admissibleData.isValid() || admissibleData.toBool();

    painter->save();
    // Background (selection/alternate rows) from the style, without text.
    opt.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const QRect cell = option.rect.adjusted(3, 3, -3, -3);
    if (!selected) {
        const QColor barColor =
            specific ? QColor(0x1f, 0x5f, 0xa8, 38) : QColor(0xc2, 0x41, 0x2d, 34);
        QRect bar = cell;
        bar.setWidth(std::max(2, static_cast<int>(cell.width() * relative)));
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(barColor);
        painter->drawRoundedRect(bar, 2, 2);
        if (!admissible) {
            painter->setBrush(QBrush(QColor(0xb3, 0x26, 0x1e, 90), Qt::BDiagPattern));
            painter->drawRect(cell);
        }
    }

    const QRect textRect = cell.adjusted(6, 0, -6, 0);
    const QString word = index.data(Qt::DisplayRole).toString();
    QColor textColor =
        selected ? opt.palette.color(QPalette::HighlightedText)
                 : (specific ? opt.palette.color(QPalette::Text) : QColor(0x8a, 0x2c, 0x1e));
    QFont font = option.font;
    painter->setFont(font);
    const QString value = QString::number(probability, 'f', 3);
    QFont small = font;
    small.setPointSizeF(font.pointSizeF() * 0.85);
    const QFontMetrics smallMetrics(small);
    const int valueWidth = smallMetrics.horizontalAdvance(value);
    const bool showValue =
        textRect.width() > valueWidth + option.fontMetrics.averageCharWidth() * 8;
    const QRect wordRect = showValue ? textRect.adjusted(0, 0, -(valueWidth + 6), 0) : textRect;
    painter->setPen(textColor);
    painter->drawText(wordRect, Qt::AlignLeft | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(word, Qt::ElideRight, wordRect.width()));
    if (showValue) {
        painter->setFont(small);
        QColor valueColor = textColor;
        valueColor.setAlpha(selected ? 220 : 130);
        painter->setPen(valueColor);
        painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, value);
    }
    painter->restore();
}

QSize TopicWordDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), option.fontMetrics.height() + 10));
    return size;
}

} // namespace cx::ui
