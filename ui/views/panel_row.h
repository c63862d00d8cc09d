#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QScrollArea;
class QSplitter;
class QStackedLayout;
class QTabWidget;

namespace cx::ui {

/// Panels (plots, heatmaps) side by side in a splitter while the row is wide enough for each
/// at its comfortable width, else one tab each at the row's full width — so that a narrow
/// window (1024 px) shows one panel at a usable size instead of three squeezed ones. The
/// row's minimum width is that of its widest panel, not the sum.
class PanelRow : public QWidget {
    Q_OBJECT
public:
    explicit PanelRow(QWidget* parent = nullptr);

    /// Adds `panel` (the row takes ownership), titled `title` when tabbed; side by side it
    /// gets `stretch` of the extra width and switches to tabs below `comfortableWidth`.
    void addPanel(QWidget* panel, const QString& title, int comfortableWidth, int stretch = 1);
    /// The side-by-side arrangement (empty while tabbed; its state survives the switches).
    QSplitter* splitter() const { return m_splitter; }
    QTabWidget* tabs() const { return m_tabs; }
    bool isTabbed() const { return m_tabbed; }
    /// The width below which the panels are tabbed.
    int sideBySideWidth() const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(bool tabbed);

    struct Panel {
        QWidget* widget = nullptr;
        QString title;
        int comfortableWidth = 0;
        int stretch = 1;
    };
    QList<Panel> m_panels;
    QSplitter* m_splitter = nullptr;
    QTabWidget* m_tabs = nullptr;
    QStackedLayout* m_stack = nullptr;
    QByteArray m_splitterState;
    bool m_tabbed = false;
};

/// `content` in a frameless scroll area that scrolls vertically only: the content is as wide
/// as the area and as high as the area when there is room, else at its minimum height with a
/// scroll bar (results whose plots keep a usable size in a short window).
QScrollArea* verticalScrollArea(QWidget* content, QWidget* parent = nullptr);

} // namespace cx::ui
