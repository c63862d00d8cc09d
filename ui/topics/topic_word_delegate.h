#pragma once

#include <QStyledItemDelegate>

namespace cx::ui {

/// Paints a top-word cell as the word with a faint bar behind it whose length is the word's
/// probability relative to the topic's top word, and the probability right-aligned when the
/// cell is wide enough. Components that are not foreground-specific get a warm tint.
class TopicWordDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace cx::ui
