// The γ = 0 panel of the Chromatin workspace (chromatin_presenter.h): its rows from the
// foreground-only model or its Baum–Welch refinement, named and coloured by the identity rules
// of core/hmm/state_catalog.h and core/common/identity_style.h.
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_tr.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_path.h"

#include <QCoreApplication>

#include <algorithm>
#include <string>

namespace cx::ui {

namespace {

using chromatin_text::tr;

} // namespace

std::vector<int> referenceIdentities(const WeightSweep& sweep,
                                     const cx::ContrastiveHmmResult& reference) {
    if (!sweep.path || sweep.path->gammas.empty() || sweep.path->gammas.front() != 0.0) {
        return {};
    }
    const cx::ContrastiveHmmResult& first = sweep.path->solutions.front();
    if (first.markProbabilities.rows() != reference.markProbabilities.rows() ||
        first.markProbabilities.cols() != reference.markProbabilities.cols() ||
        first.markProbabilities != reference.markProbabilities) {
        return {};
    }
    return sweep.path->ids.front();
}

namespace {

cx::IdentityStyle solidStyle(const QColor& colour) {
    return cx::IdentityStyle{cx::Rgb{static_cast<std::uint8_t>(colour.red()),
                                     static_cast<std::uint8_t>(colour.green()),
                                     static_cast<std::uint8_t>(colour.blue())},
                             cx::LinePattern::Solid};
}

/// The states the contrastive panel shows, as taken styles (their colours).
std::vector<cx::IdentityStyle> catalogStyles(const StateCatalog& catalog) {
    std::vector<cx::IdentityStyle> out;
    for (int s = 0; s < catalog.numSlots(); ++s) {
        out.push_back(solidStyle(catalog.colour(s)));
    }
    return out;
}

} // namespace

StateMatrixModel::Content referenceContent(const cx::ContrastiveHmmResult& reference,
                                           const StateCatalog& catalog,
                                           const std::vector<std::string>& marks,
                                           const std::vector<int>& identities) {
    // The γ = 0 model does not depend on γ: its rows stay in its own order (largest weight
    // first) whatever γ the contrastive panel shows.
    const auto rows = static_cast<int>(reference.markProbabilities.rows());
    StateMatrixModel::Content left;
    left.values = reference.markProbabilities;
    left.columnLabels = markColumnLabels(marks);
    left.valueName = tr("P(mark present)");
    const bool withIdentities =
        identities.size() == static_cast<size_t>(rows) && catalog.path() != nullptr;
    // Without path identities (before the path exists): a γ = 0 state within the identity rule
    // of a contrastive row (matchStates) is that state, with its name and colour.
    std::vector<int> partner(static_cast<size_t>(rows), -1);
    const Eigen::MatrixXd& shown = catalog.profiles();
    if (!withIdentities && shown.cols() == reference.markProbabilities.cols() && rows > 0 &&
        shown.rows() > 0) {
        if (shown.rows() <= rows) {
            const std::vector<int> match = cx::matchStates(shown, reference.markProbabilities);
            for (int s = 0; s < static_cast<int>(match.size()); ++s) {
                partner[static_cast<size_t>(match[static_cast<size_t>(s)])] = s;
            }
        } else {
            const std::vector<int> match = cx::matchStates(reference.markProbabilities, shown);
            for (int r = 0; r < rows; ++r) {
                partner[static_cast<size_t>(r)] = match[static_cast<size_t>(r)];
            }
        }
        for (int r = 0; r < rows; ++r) {
            const int s = partner[static_cast<size_t>(r)];
            if (s >= 0 &&
                (reference.markProbabilities.row(r) - shown.row(s)).cwiseAbs().maxCoeff() >
                    cx::kStateIdentityMaxMarkChange) {
                partner[static_cast<size_t>(r)] = -1;
            }
        }
    }
    // Rows of no known state: named from their marks as states of the γ = 0 model only, told
    // apart by what differs and coloured apart from every state shown.
    std::vector<int> own;
    std::vector<std::string> ownNames;
    std::vector<cx::Rgb> ownKinds;
    QStringList labels;
    QVector<QColor> colours;
    QVector<int> shownSlot;
    for (int r = 0; r < rows; ++r) {
        const int identity = withIdentities ? identities[static_cast<size_t>(r)] : -1;
        int slot = -1;
        if (identity >= 0 && identity < catalog.numIdentities()) {
            for (int s = 0; s < catalog.numSlots(); ++s) {
                slot = catalog.identityOfSlot(s) == identity ? s : slot;
            }
            labels << catalog.identityName(identity);
            colours << catalog.identityColour(identity);
        } else if (partner[static_cast<size_t>(r)] >= 0) {
            slot = partner[static_cast<size_t>(r)];
            labels << catalog.name(slot);
            colours << catalog.colour(slot);
        } else {
            const cx::StateClass guess =
                cx::classifyChromatinState(reference.markProbabilities.row(r), marks);
            own.push_back(r);
            ownNames.push_back(
                (guess.name.empty() ? "State " + std::to_string(r + 1) : guess.name) +
                " (γ = 0 only)");
            ownKinds.push_back(guess.name.empty() ? cx::unnamedStateColour(r) : guess.colour);
            labels << QString();
            colours << QColor();
        }
        shownSlot << slot;
    }
    if (!own.empty()) {
        Eigen::MatrixXd ownProfiles(static_cast<Eigen::Index>(own.size()),
                                    reference.markProbabilities.cols());
        for (size_t i = 0; i < own.size(); ++i) {
            ownProfiles.row(static_cast<Eigen::Index>(i)) = reference.markProbabilities.row(own[i]);
        }
        const std::vector<std::string> names =
            cx::qualifyRepeatedNames(ownNames, ownProfiles, marks);
        std::vector<cx::IdentityStyle> taken = catalogStyles(catalog);
        for (const QColor& colour : colours) {
            if (colour.isValid()) {
                taken.push_back(solidStyle(colour));
            }
        }
        const std::vector<cx::IdentityStyle> styles = cx::distinctStyles(ownKinds, taken);
        for (size_t i = 0; i < own.size(); ++i) {
            labels[own[i]] = QString::fromStdString(names[i]);
            colours[own[i]] = toQColor(styles[i].colour);
        }
    }
    for (int r = 0; r < rows; ++r) {
        left.rowLabels << labels[r];
        left.rowColours << colours[r];
        left.rowWeights << reference.weights[r];
        left.rowDimmed << (reference.weights[r] <= 0);
        left.rowSlots << shownSlot[r];
        // The same validity test as the contrastive heatmap, so one state is flagged alike.
        const bool invalid =
            r < reference.componentInvalidMass.size() && !reference.isValidComponent(r);
        left.rowFlagged << invalid;
        QString note = shownSlot[r] >= 0
                           ? tr("γ = 0 state; the contrastive panel shows it as “%1”")
                                 .arg(catalog.name(shownSlot[r]))
                           : tr("γ = 0 state; not among the contrastive panel's states at this γ");
        if (invalid) {
            note += invalidStateNote();
        }
        left.rowNotes << note;
    }
    return left;
}

StateMatrixModel::Content refinedReferenceContent(const StateMatrixModel::Content& spectral,
                                                  const cx::RefinedHmm& refined,
                                                  const std::vector<std::string>& marks,
                                                  const QVector<QColor>& otherColours) {
    StateMatrixModel::Content out = spectral;
    const Eigen::MatrixXd& profiles = refined.markProbabilities;
    const auto rows = spectral.values.rows();
    if (profiles.rows() == 0 || profiles.rows() > rows ||
        profiles.cols() != spectral.values.cols()) {
        return out;
    }
    // partner[r] = refined state shown in display row r (−1: none).
    std::vector<int> partner(static_cast<size_t>(rows), -1);
    const std::vector<int> match = cx::matchStates(profiles, spectral.values);
    for (size_t state = 0; state < match.size(); ++state) {
        partner[static_cast<size_t>(match[state])] = static_cast<int>(state);
    }
    std::vector<int> moved;            // rows whose refined state is another state
    std::vector<std::string> newNames; // their class names, qualified below
    std::vector<cx::Rgb> newKinds;
    for (Eigen::Index r = 0; r < rows; ++r) {
        const int state = partner[static_cast<size_t>(r)];
        const auto i = static_cast<int>(r);
        if (state < 0) {
            out.rowWeights[i] = 0;
            out.rowDimmed[i] = true;
            out.rowFlagged[i] = false;
            out.rowNotes[i] = tr("not a state of the refined γ = 0 HMM");
            continue;
        }
        const Eigen::RowVectorXd row = profiles.row(state);
        const double change = (row - spectral.values.row(r)).cwiseAbs().maxCoeff();
        out.values.row(r) = row;
        out.rowWeights[i] = refined.occupancy[state];
        out.rowDimmed[i] = false;
        out.rowFlagged[i] = false; // an HMM state: emissions in [0, 1], occupancy a distribution
        const StateClass now = classifyChromatinState(row, marks);
        if (change > cx::kStateIdentityMaxMarkChange) {
            // Another state: named from its own marks as found by Baum–Welch only, never with
            // the spectral state's name or colour.
            moved.push_back(i);
            const cx::StateClass guess = cx::classifyChromatinState(row, marks);
            newNames.push_back(
                (guess.name.empty() ? "State " + std::to_string(i + 1) : guess.name) +
                " (Baum–Welch only)");
            newKinds.push_back(guess.name.empty() ? cx::unnamedStateColour(i) : guess.colour);
            out.rowSlots[i] = -1;
            out.rowNotes[i] = tr("Baum–Welch moved the spectral “%1” by %2 on a mark (more than "
                                 "%3): a state of the refined model only")
                                  .arg(spectral.rowLabels[i])
                                  .arg(change, 0, 'f', 2)
                                  .arg(cx::kStateIdentityMaxMarkChange);
            continue;
        }
        // The same state: it keeps its name and colour; the note says when its marks now read
        // as another class.
        const StateClass before = classifyChromatinState(spectral.values.row(r), marks);
        out.rowNotes[i] = !now.name.isEmpty() && now.name != before.name
                              ? tr("Baum–Welch refinement of the spectral “%1” (largest change "
                                   "of a mark %2); its marks now read as %3")
                                    .arg(spectral.rowLabels[i])
                                    .arg(change, 0, 'f', 2)
                                    .arg(now.name)
                              : tr("Baum–Welch refinement of the spectral γ = 0 state (largest "
                                   "change of a mark %1)")
                                    .arg(change, 0, 'f', 2);
    }
    if (!moved.empty()) {
        Eigen::MatrixXd movedProfiles(static_cast<Eigen::Index>(moved.size()), profiles.cols());
        std::vector<cx::IdentityStyle> taken;
        for (const QColor& colour : otherColours) {
            taken.push_back(solidStyle(colour));
        }
        for (Eigen::Index r = 0; r < rows; ++r) {
            if (std::find(moved.begin(), moved.end(), static_cast<int>(r)) == moved.end()) {
                taken.push_back(solidStyle(out.rowColours[static_cast<int>(r)]));
            }
        }
        for (size_t k = 0; k < moved.size(); ++k) {
            movedProfiles.row(static_cast<Eigen::Index>(k)) = out.values.row(moved[k]);
        }
        const std::vector<std::string> names =
            cx::qualifyRepeatedNames(newNames, movedProfiles, marks);
        const std::vector<cx::IdentityStyle> styles = cx::distinctStyles(newKinds, taken);
        for (size_t k = 0; k < moved.size(); ++k) {
            out.rowLabels[moved[k]] = QString::fromStdString(names[k]);
            out.rowColours[moved[k]] = toQColor(styles[k].colour);
        }
    }
    return out;
}

} // namespace cx::ui
