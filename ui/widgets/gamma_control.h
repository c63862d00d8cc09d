#pragma once

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace cx::ui {

/// The contrast weight control every workspace shows: "γ  0 ━━━●━━━ max  [exact]". A slider
/// over [0, sliderMaximum] in 0.01 steps and an exact spin box that accepts up to spinMaximum
/// (the slider clamps). Every change is emitted at once (gammaChanged): controllers coalesce
/// requests, so dragging updates the results live without a debounce. setGamma() does not emit.
class GammaControl : public QWidget {
    Q_OBJECT
public:
    explicit GammaControl(double sliderMaximum, double spinMaximum, QWidget* parent = nullptr);

    double gamma() const;
    void setGamma(double gamma);
    double sliderMaximum() const { return m_sliderMaximum; }

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spin() const { return m_spin; }

signals:
    void gammaChanged(double gamma);

private:
    void onSliderMoved(int value);
    void onSpinChanged(double value);
    int sliderPosition(double gamma) const;

    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_spin = nullptr;
    double m_sliderMaximum = 10;
    bool m_syncing = false;
};

} // namespace cx::ui
