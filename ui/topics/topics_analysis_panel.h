#pragma once

#include "ui/topics/topic_types.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace cx::ui {

class GammaControl;

/// Model controls above the results: the contrast weight γ (a GammaControl: slider 0–10 in 0.01
/// steps plus an exact spin box that accepts up to 1000), K, seed, restarts, iterations.
/// Every change is emitted at once: the controller coalesces requests, so dragging updates
/// the results live without a debounce.
class TopicsAnalysisPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopicsAnalysisPanel(QWidget* parent = nullptr);

    double gamma() const;
    void setGamma(double gamma);
    ModelParameters parameters() const;
    void setParameters(const ModelParameters& parameters);
    /// Shown beside K: e.g. "basis r = 40" (empty hides it).
    void setEngineInfo(const QString& text, const QString& toolTip = {});

    QSlider* gammaSlider() const;
    QDoubleSpinBox* gammaSpin() const;
    QSpinBox* componentsSpin() const { return m_components; }

    static constexpr int kSliderSteps = 1000; ///< 0.01 per step over [0, 10]
    static constexpr double kSliderMaximum = 10.0;
    static constexpr int kMaxComponents = 50;

signals:
    void gammaChanged(double gamma);
    void parametersChanged(const cx::ui::ModelParameters& parameters);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateEngineInfoText();

    GammaControl* m_gamma = nullptr;
    QSpinBox* m_components = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_restarts = nullptr;
    QSpinBox* m_iterations = nullptr;
    QComboBox* m_decomposition = nullptr;
    QLabel* m_engineInfo = nullptr;
    QString m_engineInfoText;
    bool m_syncing = false;
};

} // namespace cx::ui
