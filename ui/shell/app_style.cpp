#include "ui/shell/app_style.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace cx::ui {

namespace {

const char* const kStyleSheet = R"(
QMainWindow, QDialog { background: #f3f5f8; }
#dataPanel { background: #f3f5f8; }
#resultsArea, #analysisPanel { background: #ffffff; }
QSplitter::handle { background: #dde2e8; }
QSplitter::handle:horizontal { width: 1px; }
QSplitter::handle:vertical { height: 1px; }
QLabel#sectionTitle { color: #5d6772; font-size: 8pt; font-weight: 600; }
QLabel#panelTitle { color: #1b2128; font-size: 10.5pt; font-weight: 600; }
QLabel#corpusName { color: #1b2128; font-size: 11pt; font-weight: 600; }
QLabel#hint { color: #69727c; }
QLabel#hint[warning="true"] { color: #b35c00; }
QLabel#inlineError { color: #b3261e; }
QLabel#statusLine { color: #4a535c; padding: 2px 0px; }
QLabel#placeholder { color: #7a838c; font-size: 10.5pt; }
QLabel#gammaLabel { color: #1f5fa8; font-size: 14pt; font-weight: 600; padding-right: 4px; }
QLabel#fieldLabel { color: #3a424a; }
QLabel#counts { color: #2a3138; padding: 4px 0px; }
QFrame#divider { background: #e3e7ec; border: none; }
QPushButton#primaryButton {
    background: #1f5fa8; color: white; border: 1px solid #1a5291; border-radius: 4px;
    padding: 5px 14px; font-weight: 600;
}
QPushButton#primaryButton:hover { background: #256bbd; }
QPushButton#primaryButton:pressed { background: #1a5291; }
QPushButton#primaryButton:disabled { background: #c8d2dd; border-color: #bfc9d4; color: #f5f7f9; }
QTableView#topicTable {
    border: 1px solid #e0e4e9; background: #ffffff; alternate-background-color: #fafbfc;
    selection-background-color: #cfe0f5; selection-color: #10243d;
}
QTableView#topicTable QHeaderView::section {
    background: #f6f7f9; border: none; border-bottom: 1px solid #dde1e6;
    border-right: 1px solid #eceef1; padding: 5px 8px; font-weight: 600;
}
QTableView#topicTable QHeaderView::section:vertical {
    color: #8a929a; font-weight: normal; padding: 0px 6px; border-bottom: 1px solid #f1f2f4;
}
QTabWidget::pane { border: none; }
QStatusBar { background: #eceff3; border-top: 1px solid #dde2e8; color: #3a424a; }
QStatusBar::item { border: none; }
QSlider::groove:horizontal { height: 4px; background: #d7dde4; border-radius: 2px; }
QSlider::sub-page:horizontal { background: #1f5fa8; border-radius: 2px; }
QSlider::handle:horizontal {
    background: #ffffff; border: 2px solid #1f5fa8; width: 14px; height: 14px;
    margin: -7px 0px; border-radius: 9px;
}
QSlider::handle:horizontal:hover { background: #e8f0fa; }
QSlider::handle:horizontal:focus { border-color: #15467f; }
)";

} // namespace

void applyApplicationStyle(QApplication& application) {
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) {
        application.setStyle(fusion);
    }
    QPalette palette = application.style()->standardPalette();
    palette.setColor(QPalette::Window, QColor(0xf3, 0xf5, 0xf8));
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf8, 0xfa));
    palette.setColor(QPalette::Text, QColor(0x1b, 0x21, 0x28));
    palette.setColor(QPalette::WindowText, QColor(0x1b, 0x21, 0x28));
    palette.setColor(QPalette::Button, QColor(0xf7, 0xf8, 0xfa));
    palette.setColor(QPalette::ButtonText, QColor(0x1b, 0x21, 0x28));
    palette.setColor(QPalette::Highlight, QColor(0x1f, 0x5f, 0xa8));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xf4));
    palette.setColor(QPalette::ToolTipText, QColor(0x1b, 0x21, 0x28));
    application.setPalette(palette);
    QFont font = application.font();
    if (font.pointSizeF() < 9.5) {
        font.setPointSizeF(9.5);
    }
    application.setFont(font);
    application.setStyleSheet(QString::fromLatin1(kStyleSheet));
}

} // namespace cx::ui
