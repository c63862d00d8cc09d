#pragma once

// A one-line label that shortens its text with "…" when it is narrower than the text, instead of
// clipping it mid-letter; the whole text stays in its tooltip.

#include <QLabel>

namespace cx::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    /// The text as drawn at the current width ("solve 1.2 ms on the γ…").
    QString shownText() const;
    bool isElided() const { return shownText() != text(); }
    /// As narrow as the layout wants: the text shortens instead of pushing the row wider.
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace cx::ui
