#include "ui/chromatin/chromatin_analysis_panel.h"

#include "ui/widgets/elided_label.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/gamma_control.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>
#include <QToolButton>

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
    m_starts = numberSpin(1, 100, cx::kDefaultStarts, 48, this);
    m_starts->setToolTip(tr("Seeded starts of the γ = 0 solve: the most likely is kept and "
                            "every γ starts from it (as contrast-cli hmm --starts)"));
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
    m_decomposition->setToolTip(tr(
        "<p>How the states are extracted from the third moment.</p><p><b>deflation</b> "
        "(Zou et al. 2013, Alg. 3): power iterations from random starts, one state at a time.</p>"
        "<p><b>Jennrich</b> (Blum 2015): all states at once by simultaneous "
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
    // Block bootstrap over genomic regions of the weights-vs-γ path.
    m_replicates = numberSpin(2, 1000, 20, 56, this);
    m_replicates->setToolTip(
        tr("Bootstrap over genomic regions: the foreground and background bins are cut into "
           "blocks (length chosen from the marks' autocorrelation, never across a region or "
           "chromosome) and this many block resamples solve the same γ path"));
    m_bootstrap = new QToolButton(this);
    m_bootstrap->setText(tr("Bootstrap"));
    m_bootstrap->setToolTip(
        tr("Bands on the state weights ω (95 % percentile interval) and a stability per state "
           "(how often it reappears, same sign, across resamples); states below 50 % are "
           "flagged ⚠ unstable. Runs in the background; seeded by Seed"));
    m_bootstrap->setEnabled(false);
    m_bootstrapProgress = new QProgressBar(this);
    m_bootstrapProgress->setMaximumWidth(90);
    m_bootstrapProgress->setToolTip(tr("Bootstrap resamples done"));
    m_bootstrapProgress->hide();
    m_cancelBootstrap = new QToolButton(this);
    m_cancelBootstrap->setText(tr("Cancel"));
    m_cancelBootstrap->setToolTip(tr("Stop the bootstrap (the chart keeps its previous bands)"));
    m_cancelBootstrap->hide();
    row->addWidget(fieldLabel(tr("Resa&mples"), m_replicates, this));
    row->addWidget(m_replicates);
    row->addWidget(m_bootstrap);
    row->addWidget(m_bootstrapProgress);
    row->addWidget(m_cancelBootstrap);
    grid->addLayout(row, 1, 0);
    // Second row: how the model is extracted and decoded, then the model's summary line.
    auto* methodRow = new QHBoxLayout;
    methodRow->setSpacing(8);
    methodRow->addWidget(fieldLabel(tr("&Tensor"), m_decomposition, this));
    methodRow->addWidget(m_decomposition);
    methodRow->addSpacing(6);
    methodRow->addWidget(fieldLabel(tr("St&arts"), m_starts, this));
    methodRow->addWidget(m_starts);
    methodRow->addSpacing(10);
    methodRow->addWidget(fieldLabel(tr("&Decoding"), m_decoding, this));
    methodRow->addWidget(m_decoding);
    methodRow->addSpacing(10);
    m_momentFit = new QCheckBox(tr("Moment refit"), this);
    m_momentFit->setToolTip(
        tr("<p>Marks encoding: re-select the K states among the extracted ones plus an unmarked "
           "(all-zero) state and take their weights from the first and second mark moments "
           "(least squares, Σω = 1 − γ), not from the eigenvalues, so the weights account for "
           "the data (contrast-cli hmm --moment-fit). Off: the K heaviest extracted components "
           "with eigenvalue weights.</p>"));
    methodRow->addWidget(m_momentFit);
    methodRow->addSpacing(10);
    m_refine = new QCheckBox(tr("Baum–Welch"), this);
    m_refine->setObjectName(QStringLiteral("refineEmCheck"));
    m_refine->setToolTip(
        tr("<p>Likelihood refinement of the <b>Foreground only (γ = 0)</b> model: Baum–Welch "
           "EM started from the spectral γ = 0 solution (with the moment selection, so the start "
           "accounts for every bin), run in the background until a round raises the "
           "log-likelihood by less than 10<sup>−5</sup> (relative; at most 1000 rounds) — the "
           "convergence rule of EM itself (contrast-cli hmm --gamma 0 --moment-fit 0 "
           "--refine-em 1000 --refine-tolerance 1e-5). The refined states keep the names of the "
           "spectral states they continue. γ &gt; 0 is a contrast of moments with no likelihood, "
           "so the <b>Contrastive</b> model and the γ path stay spectral.</p>"));
    m_refine->setChecked(m_refineRounds > 0);
    methodRow->addWidget(m_refine);
    methodRow->addSpacing(10);
    m_info = new ElidedLabel(this); // the whole line in its tooltip
    m_info->setObjectName(QStringLiteral("hint"));
    methodRow->addWidget(m_info, 1);
    grid->addLayout(methodRow, 2, 0);

    connectControls();
}

void ChromatinAnalysisPanel::connectControls() {
    connect(m_gamma, &GammaControl::gammaChanged, this, &ChromatinAnalysisPanel::gammaChanged);
    for (QSpinBox* box : {m_components, m_seed, m_starts}) {
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
    for (QCheckBox* box : {m_momentFit, m_refine}) {
        connect(box, &QCheckBox::toggled, this, [this] {
            if (!m_syncing) {
                emit parametersChanged(parameters());
            }
        });
    }
    // The refit needs per-mark moments.
    connect(m_encoding, &QComboBox::currentIndexChanged, this, [this] {
        m_momentFit->setEnabled(m_encoding->currentData().toInt() ==
                                static_cast<int>(cx::ObservationEncoding::MarkVector));
    });
    connect(m_bootstrap, &QToolButton::clicked, this,
            [this] { emit bootstrapRequested(m_replicates->value()); });
    connect(m_cancelBootstrap, &QToolButton::clicked, this,
            &ChromatinAnalysisPanel::bootstrapCancelRequested);
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
    p.starts = m_starts->value();
    p.encoding = static_cast<cx::ObservationEncoding>(m_encoding->currentData().toInt());
    p.decomposition = static_cast<cx::AsymmetricInit>(m_decomposition->currentData().toInt());
    p.momentFit = m_momentFit->isChecked() ? m_momentFitSweeps : -1;
    p.momentOrder = m_momentOrder;
    p.refineEm = m_refine->isChecked() ? std::max(1, m_refineRounds) : 0;
    p.refineTolerance = m_refineTolerance;
    return p;
}

void ChromatinAnalysisPanel::setParameters(const ChromatinModelParameters& parameters) {
    m_syncing = true;
    if (parameters.numComponents > m_components->maximum()) {
        m_components->setMaximum(parameters.numComponents);
    }
    m_components->setValue(parameters.numComponents);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(parameters.seed, 2147483647)));
    if (parameters.starts > m_starts->maximum()) {
        m_starts->setMaximum(parameters.starts);
    }
    m_starts->setValue(parameters.starts);
    m_encoding->setCurrentIndex(
        std::max(0, m_encoding->findData(static_cast<int>(parameters.encoding))));
    m_decomposition->setCurrentIndex(
        std::max(0, m_decomposition->findData(static_cast<int>(parameters.decomposition))));
    if (parameters.momentFit >= 0) {
        m_momentFitSweeps = parameters.momentFit;
    }
    m_momentFit->setChecked(parameters.momentFit >= 0);
    m_momentOrder = parameters.momentOrder;
    if (parameters.refineEm > 0) {
        m_refineRounds = parameters.refineEm;
        m_refineTolerance = parameters.refineTolerance;
    }
    m_refine->setChecked(parameters.refineEm > 0);
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

void ChromatinAnalysisPanel::setBootstrapAvailable(bool available) {
    m_bootstrapAvailable = available;
    m_bootstrap->setEnabled(available && !m_bootstrapRunning);
}

void ChromatinAnalysisPanel::onBootstrapStarted(int replicates) {
    m_bootstrapRunning = true;
    m_bootstrapProgress->setRange(0, replicates);
    m_bootstrapProgress->setValue(0);
    m_bootstrapProgress->show();
    m_cancelBootstrap->show();
    m_bootstrap->setEnabled(false);
}

void ChromatinAnalysisPanel::onBootstrapProgress(int done, int total) {
    m_bootstrapProgress->setRange(0, total);
    m_bootstrapProgress->setValue(done);
}

void ChromatinAnalysisPanel::onBootstrapEnded() {
    m_bootstrapRunning = false;
    m_bootstrapProgress->hide();
    m_cancelBootstrap->hide();
    m_bootstrap->setEnabled(m_bootstrapAvailable);
}

int ChromatinAnalysisPanel::bootstrapReplicates() const {
    return m_replicates->value();
}

void ChromatinAnalysisPanel::setBootstrapReplicates(int replicates) {
    m_replicates->setValue(replicates);
}

} // namespace cx::ui
