#include "ui/widgets/form_widgets.h"

#include <QFrame>
#include <QLabel>
#include <QSpinBox>

namespace cx::ui {

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setObjectName(QStringLiteral("sectionTitle"));
    return label;
}

QLabel* fieldLabel(const QString& text, QWidget* buddy, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setBuddy(buddy);
    label->setObjectName(QStringLiteral("fieldLabel"));
    return label;
}

QSpinBox* numberSpin(int minimum, int maximum, int value, int minimumWidth, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    box->setMinimumWidth(minimumWidth);
    box->setAlignment(Qt::AlignRight);
    return box;
}

QFrame* horizontalRule(QWidget* parent) {
    auto* line = new QFrame(parent);
    line->setObjectName(QStringLiteral("divider"));
    line->setFrameShape(QFrame::HLine);
    line->setFixedHeight(1);
    return line;
}

QLabel* hintLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setObjectName(QStringLiteral("hint"));
    label->setWordWrap(true);
    return label;
}

} // namespace cx::ui
