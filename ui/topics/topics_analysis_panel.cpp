#include "ui/topics/topics_analysis_panel.h"

#include "ui/widgets/form_widgets.h"
#include "ui/widgets/gamma_control.h"

#include <QComboBox>
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

TopicsAnalysisPanel::TopicsAnalysisPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("analysisPanel"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(14, 10, 14, 8);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(8);

    m_gamma = new GammaControl(kSliderMaximum, 1000.0, this);
    grid->addWidget(m_gamma, 0, 0, 1, 5);

    auto* row = new QHBoxLayout;
    row->setSpacing(8);
    // K above ~50 makes the projected third moments (r³/6 entries, r ≈ 4K) and their pass over
    // the data too large for interactive use.
    m_components = numberSpin(1, kMaxComponents, 10, 64, this);
    m_components->setToolTip(tr("K: number of components of the contrastive decomposition "
                                "(1–%1). Raising K past a multiple of 5 recomputes the moment "
                                "projection.")
                                 .arg(kMaxComponents));
    m_seed = numberSpin(0, 2147483647, 1, 72, this);
    m_seed->setToolTip(tr("Seed of the random starts of the power method, of the pencil's "
                          "directions and of Jennrich's slices"));
    m_restarts = numberSpin(1, 100, 5, 56, this);
    m_restarts->setToolTip(tr("Power method: trials per component (the median-|λ| trial is "
                              "kept). Pencil: extra directions jointly diagonalised with the "
                              "first. Jennrich: random slice pairs tried"));
    m_iterations = numberSpin(1, 10000, 100, 64, this);
    m_iterations->setToolTip(
        tr("Power method: iterations per trial (the pencil and Jennrich do not iterate)"));
    m_decomposition = new QComboBox(this);
    m_decomposition->addItem(tr("Power method"), static_cast<int>(cx::Decomposition::Power));
    m_decomposition->addItem(tr("Jennrich"), static_cast<int>(cx::Decomposition::Jennrich));
    m_decomposition->addItem(tr("Pencil"), static_cast<int>(cx::Decomposition::Pencil));
    m_decomposition->setToolTip(
        tr("<p>How the whitened third moment is decomposed.</p><p><b>Power method</b> (Zou et al. "
           "2013, "
           "Alg. 2): restarts, median trial, deflation; continues each γ from its neighbour.</p>"
           "<p><b>Jennrich</b> (Blum 2015): one simultaneous diagonalisation of random slices "
           "(Restarts = slice pairs tried); exact on exact moments, less accurate under sampling "
           "noise.</p><p><b>Pencil</b>: eigenvectors of M3(η)·M2⁻¹ for one direction η fixed by "
           "the seed; a topic's eigenvalue is its mean of η whatever γ, so the components move "
           "continuously along γ with no random starts (smoother AUC curves at large K, and fast "
           "at K = 50; README \"Pencil\").</p>"));
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
    // The decomposition on a line of its own: the window must fit 1024 px.
    auto* methodRow = new QHBoxLayout;
    methodRow->setSpacing(8);
    methodRow->addWidget(fieldLabel(tr("&Decomposition"), m_decomposition, this));
    methodRow->addWidget(m_decomposition);
    methodRow->addStretch(1);
    grid->addLayout(methodRow, 2, 0, 1, 5);

    connect(m_gamma, &GammaControl::gammaChanged, this, &TopicsAnalysisPanel::gammaChanged);
    connect(m_decomposition, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            emit parametersChanged(parameters());
        }
    });
    for (QSpinBox* box : {m_components, m_seed, m_restarts, m_iterations}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_syncing) {
                emit parametersChanged(parameters());
            }
        });
    }
}

double TopicsAnalysisPanel::gamma() const {
    return m_gamma->gamma();
}

void TopicsAnalysisPanel::setGamma(double gamma) {
    m_gamma->setGamma(gamma);
}

QSlider* TopicsAnalysisPanel::gammaSlider() const {
    return m_gamma->slider();
}

QDoubleSpinBox* TopicsAnalysisPanel::gammaSpin() const {
    return m_gamma->spin();
}

ModelParameters TopicsAnalysisPanel::parameters() const {
    ModelParameters p;
    p.numComponents = m_components->value();
    p.seed = static_cast<std::uint64_t>(m_seed->value());
    p.restarts = m_restarts->value();
    p.iterations = m_iterations->value();
    p.decomposition = static_cast<cx::Decomposition>(m_decomposition->currentData().toInt());
    return p;
}

void TopicsAnalysisPanel::setParameters(const ModelParameters& parameters) {
    m_syncing = true;
    m_components->setValue(parameters.numComponents);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(parameters.seed, 2147483647)));
    m_restarts->setValue(parameters.restarts);
    m_iterations->setValue(parameters.iterations);
    m_decomposition->setCurrentIndex(
        std::max(0, m_decomposition->findData(static_cast<int>(parameters.decomposition))));
    m_syncing = false;
}

void TopicsAnalysisPanel::setEngineInfo(const QString& text, const QString& toolTip) {
    m_engineInfoText = text;
    m_engineInfo->setToolTip(toolTip);
    updateEngineInfoText();
}

void TopicsAnalysisPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateEngineInfoText();
}

void TopicsAnalysisPanel::updateEngineInfoText() {
    // Elide rather than clip when the window is narrow (the tooltip has the full text).
    m_engineInfo->setText(m_engineInfo->fontMetrics().elidedText(
        m_engineInfoText, Qt::ElideRight, std::max(0, m_engineInfo->width() - 2)));
}

} // namespace cx::ui
