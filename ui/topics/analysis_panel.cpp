#include "ui/topics/analysis_panel.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

QLabel* fieldLabel(const QString& text, QWidget* buddy, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setBuddy(buddy);
    label->setObjectName(QStringLiteral("fieldLabel"));
    return label;
}

QSpinBox* spin(int minimum, int maximum, int value, int width, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    box->setMinimumWidth(width);
    box->setAlignment(Qt::AlignRight);
    return box;
}

} // namespace

AnalysisPanel::AnalysisPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("analysisPanel"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(14, 10, 14, 8);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(8);

    auto* gammaLabel = new QLabel(QStringLiteral("γ"), this);
    gammaLabel->setObjectName(QStringLiteral("gammaLabel"));
    gammaLabel->setToolTip(tr("Contrast weight: the model decomposes M_fg − γ·M_bg"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, kSliderSteps);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(50);
    m_slider->setTracking(true);
    m_slider->setToolTip(tr("Drag to change γ; results update live (←/→ ±0.01, PgUp/PgDn ±0.5)"));
    m_spin = new QDoubleSpinBox(this);
    m_spin->setRange(0.0, 1000.0);
    m_spin->setDecimals(2);
    m_spin->setSingleStep(0.05);
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setMinimumWidth(86);
    m_spin->setAlignment(Qt::AlignRight);
    m_spin->setToolTip(tr("Exact γ (0–1000; the slider covers 0–10)"));
    auto* low = new QLabel(QStringLiteral("0"), this);
    auto* high = new QLabel(QStringLiteral("10"), this);
    low->setObjectName(QStringLiteral("hint"));
    high->setObjectName(QStringLiteral("hint"));
    grid->addWidget(gammaLabel, 0, 0);
    grid->addWidget(low, 0, 1);
    grid->addWidget(m_slider, 0, 2);
    grid->addWidget(high, 0, 3);
    grid->addWidget(m_spin, 0, 4);

    auto* row = new QHBoxLayout;
    row->setSpacing(8);
    // K above ~50 makes the projected third moments (r³/6 entries, r ≈ 4K) and their pass over
    // the data too large for interactive use.
    m_components = spin(1, kMaxComponents, 10, 64, this);
    m_components->setToolTip(tr("K: number of components of the contrastive decomposition "
                                "(1–%1). Raising K past a multiple of 5 recomputes the moment "
                                "projection.")
                                 .arg(kMaxComponents));
    m_seed = spin(0, 2147483647, 1, 72, this);
    m_seed->setToolTip(tr("Seed of the random starts of the power method"));
    m_restarts = spin(1, 100, 5, 56, this);
    m_restarts->setToolTip(tr("Trials per component (the median-|λ| trial is kept)"));
    m_iterations = spin(1, 10000, 30, 64, this);
    m_iterations->setToolTip(tr("Power iterations per trial"));
    row->addWidget(fieldLabel(tr("Components &K"), m_components, this));
    row->addWidget(m_components);
    row->addSpacing(10);
    row->addWidget(fieldLabel(tr("&Seed"), m_seed, this));
    row->addWidget(m_seed);
    row->addSpacing(10);
    row->addWidget(fieldLabel(tr("&Restarts"), m_restarts, this));
    row->addWidget(m_restarts);
    row->addSpacing(10);
    row->addWidget(fieldLabel(tr("&Iterations"), m_iterations, this));
    row->addWidget(m_iterations);
    row->addSpacing(10);
    m_engineInfo = new QLabel(this);
    m_engineInfo->setObjectName(QStringLiteral("hint"));
    // Informational only: never let it widen the window (it is clipped instead).
    m_engineInfo->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_engineInfo, 1);
    grid->addLayout(row, 1, 0, 1, 5);
    grid->setColumnStretch(2, 1);

    connect(m_slider, &QSlider::valueChanged, this, &AnalysisPanel::onSliderMoved);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &AnalysisPanel::onSpinChanged);
    for (QSpinBox* box : {m_components, m_seed, m_restarts, m_iterations}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_syncing) {
                emit parametersChanged(parameters());
            }
        });
    }
}

double AnalysisPanel::gamma() const {
    return m_spin->value();
}

void AnalysisPanel::setGamma(double gamma) {
    m_syncing = true;
    m_spin->setValue(gamma);
    m_slider->setValue(static_cast<int>(std::lround(std::min(gamma, kSliderMaximum) * 100)));
    m_syncing = false;
}

void AnalysisPanel::onSliderMoved(int value) {
    if (m_syncing) {
        return;
    }
    const double gamma = value / 100.0;
    m_syncing = true;
    m_spin->setValue(gamma);
    m_syncing = false;
    emit gammaChanged(gamma);
}

void AnalysisPanel::onSpinChanged(double value) {
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    m_slider->setValue(static_cast<int>(std::lround(std::min(value, kSliderMaximum) * 100)));
    m_syncing = false;
    emit gammaChanged(value);
}

ModelParameters AnalysisPanel::parameters() const {
    ModelParameters p;
    p.numComponents = m_components->value();
    p.seed = static_cast<std::uint64_t>(m_seed->value());
    p.restarts = m_restarts->value();
    p.iterations = m_iterations->value();
    return p;
}

void AnalysisPanel::setParameters(const ModelParameters& parameters) {
    m_syncing = true;
    m_components->setValue(parameters.numComponents);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(parameters.seed, 2147483647)));
    m_restarts->setValue(parameters.restarts);
    m_iterations->setValue(parameters.iterations);
    m_syncing = false;
}

void AnalysisPanel::setEngineInfo(const QString& text, const QString& toolTip) {
    m_engineInfoText = text;
    m_engineInfo->setToolTip(toolTip);
    updateEngineInfoText();
}

void AnalysisPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateEngineInfoText();
}

void AnalysisPanel::updateEngineInfoText() {
    // Elide rather than clip when the window is narrow (the tooltip has the full text).
    m_engineInfo->setText(m_engineInfo->fontMetrics().elidedText(
        m_engineInfoText, Qt::ElideRight, std::max(0, m_engineInfo->width() - 2)));
}

} // namespace cx::ui
