#include "ui/widgets/gamma_control.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace cx::ui {

GammaControl::GammaControl(double sliderMaximum, double spinMaximum, QWidget* parent)
    : QWidget(parent), m_sliderMaximum(sliderMaximum) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    auto* gammaLabel = new QLabel(QStringLiteral("γ"), this);
    gammaLabel->setObjectName(QStringLiteral("gammaLabel"));
    gammaLabel->setToolTip(tr("Contrast weight: the model decomposes M_fg − γ·M_bg"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, static_cast<int>(std::lround(sliderMaximum * 100)));
    m_slider->setSingleStep(1);
    m_slider->setPageStep(std::max(5, static_cast<int>(std::lround(sliderMaximum * 5))));
    m_slider->setTracking(true);
    m_slider->setToolTip(tr("Drag to change γ; results update live (←/→ ±0.01, PgUp/PgDn ±%1)")
                             .arg(m_slider->pageStep() / 100.0));
    m_spin = new QDoubleSpinBox(this);
    m_spin->setRange(0.0, spinMaximum);
    m_spin->setDecimals(2);
    m_spin->setSingleStep(0.05);
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setMinimumWidth(86);
    m_spin->setAlignment(Qt::AlignRight);
    m_spin->setToolTip(
        tr("Exact γ (0–%1; the slider covers 0–%2)")
            .arg(QLocale().toString(spinMaximum), QLocale().toString(sliderMaximum)));
    auto* low = new QLabel(QStringLiteral("0"), this);
    auto* high = new QLabel(QLocale().toString(sliderMaximum), this);
    low->setObjectName(QStringLiteral("hint"));
    high->setObjectName(QStringLiteral("hint"));
    layout->addWidget(gammaLabel);
    layout->addWidget(low);
    layout->addWidget(m_slider, 1);
    layout->addWidget(high);
    layout->addWidget(m_spin);
    connect(m_slider, &QSlider::valueChanged, this, &GammaControl::onSliderMoved);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &GammaControl::onSpinChanged);
}

double GammaControl::gamma() const {
    return m_spin->value();
}

int GammaControl::sliderPosition(double gamma) const {
    return static_cast<int>(std::lround(std::min(gamma, m_sliderMaximum) * 100));
}

void GammaControl::setGamma(double gamma) {
    m_syncing = true;
    m_spin->setValue(gamma);
    m_slider->setValue(sliderPosition(gamma));
    m_syncing = false;
}

void GammaControl::onSliderMoved(int value) {
    if (m_syncing) {
        return;
    }
    const double gamma = value / 100.0;
    m_syncing = true;
    m_spin->setValue(gamma);
    m_syncing = false;
    emit gammaChanged(gamma);
}

void GammaControl::onSpinChanged(double value) {
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    m_slider->setValue(sliderPosition(value));
    m_syncing = false;
    emit gammaChanged(value);
}

} // namespace cx::ui
