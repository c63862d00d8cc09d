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

/// The Crowd workspace has no slider-driven solves: every fit is a long task (a parameter
/// change cancels the running fit and starts a new one). This is the scheduler's request type
/// the controller base requires; no request of it is ever made.
struct CrowdSolveRequest {
    quint64 generation = 0;
    quint64 epoch = 0;
    cx::CancelToken cancel;
};

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
