#include "ui/chromatin/chromatin_analysis_panel.h"

#include "ui/widgets/form_widgets.h"
#include "ui/widgets/gamma_control.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>

namespace cx::ui {

ChromatinAnalysisPanel::ChromatinAnalysisPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("analysisPanel"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(14, 6, 14, 4);
    grid->setVerticalSpacing(4);
    m_gamma = new GammaControl(kSliderMaximum, kSpinMaximum, this);
    m_gamma->setToolTip(tr("Contrast weight: the model decomposes M_fg − γ·M_bg. States whose "
                           "weight turns negative are as common in the background as in the "
                           "foreground."));
    grid->addWidget(m_gamma, 0, 0);

    auto* row = new QHBoxLayout;
    row->setSpacing(8);
    m_components = numberSpin(2, 11, 7, 56, this);
    m_components->setToolTip(tr("K: number of states (components of the decomposition, "
                                "foreground-specific or not); at most the rank of the moments"));
    m_seed = numberSpin(0, 2147483647, 1, 72, this);
    m_seed->setToolTip(tr("Seed of the random starts of the power method"));
    m_encoding = new QComboBox(this);
    m_encoding->addItem(tr("marks"), static_cast<int>(cx::ObservationEncoding::MarkVector));
    m_encoding->addItem(tr("combinations"),
                        static_cast<int>(cx::ObservationEncoding::MarkCombination));
    m_encoding->setToolTip(tr("Observation encoding: independent marks per state (ChromHMM's "
                              "model, K ≤ marks + 1) or one category per mark combination "
                              "(recomputes the moments)"));
    m_decoding = new QComboBox(this);
    m_decoding->addItem(tr("posterior"), static_cast<int>(cx::DecodingMethod::Posterior));
    m_decoding->addItem(tr("Viterbi"), static_cast<int>(cx::DecodingMethod::Viterbi));
    m_decoding->setToolTip(tr("Segmentation: most probable state per bin (posterior) or most "
                              "probable path (Viterbi)"));
    m_decomposition = new QComboBox(this);
    m_decomposition->addItem(tr("deflation"), static_cast<int>(cx::AsymmetricInit::Deflation));
    m_decomposition->addItem(tr("Jennrich"),
                             static_cast<int>(cx::AsymmetricInit::SimultaneousDiagonalization));
    m_decomposition->setToolTip(
        tr("<p>How the states are extracted from the third moment.</p><p><b>deflation</b> "
           "(paper 001, Alg. 3): power iterations from random starts, one state at a time.</p>"
           "<p><b>Jennrich</b> (paper 003): all states at once by simultaneous "
           "diagonalisation; exact on exact moments, less stable on real (misspecified) ones.</p>"));
    row->addWidget(fieldLabel(tr("States &K"), m_components, this));
    row->addWidget(m_components);
    row->addSpacing(10);
    row->addWidget(fieldLabel(tr("&Seed"), m_seed, this));
    row->addWidget(m_seed);
    row->addSpacing(10);
    row->addWidget(fieldLabel(tr("&Encoding"), m_encoding, this));
    row->addWidget(m_encoding);
    row->addStretch(1);
    grid->addLayout(row, 1, 0);
    // Second row: how the model is extracted and decoded, then the model's summary line.
    auto* methodRow = new QHBoxLayout;
    methodRow->setSpacing(8);
    methodRow->addWidget(fieldLabel(tr("&Tensor"), m_decomposition, this));
    methodRow->addWidget(m_decomposition);
    methodRow->addSpacing(10);
    methodRow->addWidget(fieldLabel(tr("&Decoding"), m_decoding, this));
    methodRow->addWidget(m_decoding);
    methodRow->addSpacing(10);
    m_info = new QLabel(this);
    m_info->setObjectName(QStringLiteral("hint"));
    m_info->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    methodRow->addWidget(m_info, 1);
    grid->addLayout(methodRow, 2, 0);

    connect(m_gamma, &GammaControl::gammaChanged, this, &ChromatinAnalysisPanel::gammaChanged);
    for (QSpinBox* box : {m_components, m_seed}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_syncing) {
                emit parametersChanged(parameters());
            }
        });
    }
    for (QComboBox* combo : {m_encoding, m_decomposition}) {
        connect(combo, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_syncing) {
                emit parametersChanged(parameters());
            }
        });
    }
    connect(m_decoding, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            emit decodingChanged(decodingMethod());
        }
    });
}

double ChromatinAnalysisPanel::gamma() const {
    return m_gamma->gamma();
}

void ChromatinAnalysisPanel::setGamma(double gamma) {
    m_gamma->setGamma(gamma);
}

ChromatinModelParameters ChromatinAnalysisPanel::parameters() const {
    ChromatinModelParameters p;
    p.numComponents = m_components->value();
    p.seed = static_cast<std::uint64_t>(m_seed->value());
    p.encoding = static_cast<cx::ObservationEncoding>(m_encoding->currentData().toInt());
    p.decomposition = static_cast<cx::AsymmetricInit>(m_decomposition->currentData().toInt());
    return p;
}

void ChromatinAnalysisPanel::setParameters(const ChromatinModelParameters& parameters) {
    m_syncing = true;
    if (parameters.numComponents > m_components->maximum()) {
        m_components->setMaximum(parameters.numComponents);
    }
    m_components->setValue(parameters.numComponents);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(parameters.seed, 2147483647)));
    m_encoding->setCurrentIndex(
        std::max(0, m_encoding->findData(static_cast<int>(parameters.encoding))));
    m_decomposition->setCurrentIndex(
        std::max(0, m_decomposition->findData(static_cast<int>(parameters.decomposition))));
    m_syncing = false;
}

cx::DecodingMethod ChromatinAnalysisPanel::decodingMethod() const {
    return static_cast<cx::DecodingMethod>(m_decoding->currentData().toInt());
}

void ChromatinAnalysisPanel::setDecodingMethod(cx::DecodingMethod method) {
    m_syncing = true;
    m_decoding->setCurrentIndex(std::max(0, m_decoding->findData(static_cast<int>(method))));
    m_syncing = false;
}

void ChromatinAnalysisPanel::setMaximumComponents(int maximum) {
    // Never silently change K: a K above the new rank stays and is reported by the solve.
    m_syncing = true;
    m_components->setMaximum(std::max({2, maximum, m_components->value()}));
    m_syncing = false;
    m_components->setToolTip(tr("K: number of states (components of the decomposition, "
                                "foreground-specific or not); 2–%1 for these moments")
                                 .arg(maximum));
}

void ChromatinAnalysisPanel::setInfo(const QString& text, const QString& toolTip) {
    m_info->setText(text);
    m_info->setToolTip(toolTip.isEmpty() ? text : toolTip);
}

} // namespace cx::ui
