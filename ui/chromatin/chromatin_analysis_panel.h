#pragma once

#include "ui/chromatin/chromatin_types.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QToolButton;

namespace cx::ui {

class GammaControl;

/// Model controls of the Chromatin workspace: γ (slider 0–2, where the contrast acts on chromatin
/// data, exact spin box up to 100), number of states K (2 … rank of the moments: marks + 1, or
/// the projection rank for combinations), seed, observation encoding (marks / combinations),
/// tensor decomposition, moment refit (marks) and decoding (posterior / Viterbi). Every change
/// is emitted at once; the controller coalesces.
class ChromatinAnalysisPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChromatinAnalysisPanel(QWidget* parent = nullptr);

    static constexpr double kSliderMaximum = 2.0;
    static constexpr double kSpinMaximum = 100.0;

    double gamma() const;
    void setGamma(double gamma);
    ChromatinModelParameters parameters() const;
    void setParameters(const ChromatinModelParameters& parameters);
    cx::DecodingMethod decodingMethod() const;
    void setDecodingMethod(cx::DecodingMethod method);
    /// Largest K the moments support (their rank).
    void setMaximumComponents(int maximum);
    /// Beside the controls: e.g. "moments 0.07 s · 5 of 7 states specific".
    void setInfo(const QString& text, const QString& toolTip = {});
    /// Whether a γ path exists to bootstrap (enables the Bootstrap button when none runs).
    void setBootstrapAvailable(bool available);
    /// Bootstrap progress: a bar and Cancel while it runs.
    void onBootstrapStarted(int replicates);
    void onBootstrapProgress(int done, int total);
    void onBootstrapEnded();
    int bootstrapReplicates() const;
    void setBootstrapReplicates(int replicates);

    GammaControl* gammaControl() const { return m_gamma; }
    QSpinBox* componentsSpin() const { return m_components; }
    QComboBox* encodingCombo() const { return m_encoding; }
    QComboBox* decodingCombo() const { return m_decoding; }
    QComboBox* decompositionCombo() const { return m_decomposition; }
    QCheckBox* momentFitCheck() const { return m_momentFit; }
    QCheckBox* refineCheck() const { return m_refine; }
    QSpinBox* replicatesSpin() const { return m_replicates; }
    QToolButton* bootstrapButton() const { return m_bootstrap; }
    QToolButton* cancelBootstrapButton() const { return m_cancelBootstrap; }
    QProgressBar* bootstrapProgress() const { return m_bootstrapProgress; }

signals:
    void gammaChanged(double gamma);
    void parametersChanged(const cx::ui::ChromatinModelParameters& parameters);
    void decodingChanged(cx::DecodingMethod method);
    void bootstrapRequested(int replicates);
    void bootstrapCancelRequested();

private:
    /// The controls' signals, as the panel's own (the constructor's second half).
    void connectControls();
    GammaControl* m_gamma = nullptr;
    QSpinBox* m_components = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_starts = nullptr;
    QComboBox* m_encoding = nullptr;
    QComboBox* m_decoding = nullptr;
    QComboBox* m_decomposition = nullptr;
    QCheckBox* m_momentFit = nullptr;
    /// Sweeps of the moment refit when "Moment refit" is on (a session's `moment_fit`, else 0).
    int m_momentFitSweeps = 0;
    /// Moment order of the refit (a session's `moment_order`, else 2).
    int m_momentOrder = 2;
    /// Baum–Welch refinement of the γ = 0 model: on/off, with the rounds cap and tolerance of
    /// the parameters it was last given (a session's `refine_em`, else the defaults).
    QCheckBox* m_refine = nullptr;
    int m_refineRounds = ChromatinModelParameters{}.refineEm;
    double m_refineTolerance = ChromatinModelParameters{}.refineTolerance;
    QLabel* m_info = nullptr;
    QSpinBox* m_replicates = nullptr;
    QToolButton* m_bootstrap = nullptr;
    QProgressBar* m_bootstrapProgress = nullptr;
    QToolButton* m_cancelBootstrap = nullptr;
    bool m_bootstrapAvailable = false;
    bool m_bootstrapRunning = false;
    bool m_syncing = false;
};

} // namespace cx::ui
