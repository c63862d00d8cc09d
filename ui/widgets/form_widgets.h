#pragma once

#include <QString>

class QFrame;
class QLabel;
class QSpinBox;
class QWidget;

namespace cx::ui {

// Small widget factories shared by the workspaces' panels, so that every panel looks the same
// (object names select the application style sheet's rules, see app_style.cpp).

/// "CORPUS", "TRACKS": a small grey capitalised section heading.
QLabel* sectionTitle(const QString& text, QWidget* parent);
/// A form label with a buddy (its mnemonic focuses `buddy`).
QLabel* fieldLabel(const QString& text, QWidget* buddy, QWidget* parent);
/// A right-aligned spin box that emits only when editing finishes or arrows are used.
QSpinBox* numberSpin(int minimum, int maximum, int value, int minimumWidth, QWidget* parent);
/// A one-pixel horizontal divider.
QFrame* horizontalRule(QWidget* parent);
/// A grey explanatory label that wraps.
QLabel* hintLabel(const QString& text, QWidget* parent);

} // namespace cx::ui
