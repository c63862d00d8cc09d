#pragma once

#include "core/common/cancel.h"
#include "core/crowd/crowd_methods.h"

#include <Eigen/Dense>

#include <QMetaType>
#include <QString>

#include <memory>

namespace cx::ui {

/// Value types the Crowd controller and its worker exchange (queued signals carry them).

using CrowdData = std::shared_ptr<const cx::CrowdLabels>;

/// The Crowd controller's long tasks (one at a time; a new one cancels the running one).
enum class CrowdTaskKind { Load, Run, Compare };

/// One method's run on the loaded labels.
struct CrowdRun {
    cx::CrowdMethod method = cx::CrowdMethod::StagewiseRefine;
    std::shared_ptr<const cx::CrowdResult> result;
    /// I(x_i; x_j | class) under the fitted posterior, workers × workers (zero diagonal).
    Eigen::MatrixXd cmi;
};

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::CrowdData)
Q_DECLARE_METATYPE(cx::ui::CrowdRun)
Q_DECLARE_METATYPE(cx::ui::CrowdTaskKind)
