#pragma once

// Chromatin state naming and identity: what a state is called (from its marks), which colour
// it has, and which display row ("slot") it keeps across successive models. Qt-free, so the
// GUI (ui/views/state_catalog.h, a thin Qt adapter) and the CLI share one rule.

#include "core/common/identity_style.h"

#include <Eigen/Dense>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cx {

struct HmmPath;

/// A chromatin state recognised from its marks: a name in the nomenclature of Ernst et al.,
/// Nature 473:43 (2011) and a colour in the ChromHMM/Roadmap convention (promoters red,
/// enhancers orange/yellow, transcription green, Polycomb grey, insulator blue, quiescent
/// near-white).
struct StateClass {
    std::string name; ///< empty when no rule applies
    Rgb colour;
};

/// Guesses a state's name from its per-mark presence probabilities p(mark). Marks are found by
/// name (ASCII case-insensitive); a rule whose marks the data lacks does not apply. With
/// ac = max(p(H3K27ac), p(H3K9ac)), control = max(p(WCE), p(Input), p(Control)) and "other
/// active" = the largest p among the non-control marks other than CTCF, the first rule that
/// holds wins:
///   control ≥ 0.4                                   → Repetitive/CNV (signal even in the input)
///   CTCF ≥ 0.5 and CTCF ≥ other active + 0.3       → Insulator
///   H3K4me3 ≥ 0.5: H3K27me3 ≥ 0.4 and ac < 0.3     → Poised promoter
///                  ac ≥ 0.4                        → Active promoter
///                  otherwise                       → Weak promoter
///   H3K4me3 ≥ 0.25, H3K4me3 > H3K4me1 and (H3K4me2 ≥ 0.5 or ac ≥ 0.4) → Weak promoter
///   H3K4me1 ≥ 0.4: H3K36me3 ≥ 0.35 or H4K20me1 ≥ 0.5 → Txn transition
///                  ac ≥ 0.3                        → Strong enhancer
///                  otherwise                       → Weak enhancer
///   H3K36me3 ≥ 0.4 (or H3K79me2 ≥ 0.4)             → Txn elongation
///   H3K27me3 ≥ 0.3                                  → Polycomb repressed
///   H3K9me3 ≥ 0.3                                   → Heterochromatin
///   H3K36me3 ≥ 0.15 or H4K20me1 ≥ 0.3              → Weak txn
///   every non-control mark < 0.1                    → Quiescent
///   every non-control mark < 0.25                   → Low signal
/// otherwise no name (the caller shows "State k"). Thresholds are on probabilities, so they do
/// not depend on the data set's size; they are a reading aid, not a classifier.
StateClass classifyChromatinState(const Eigen::Ref<const Eigen::RowVectorXd>& profile,
                                  const std::vector<std::string>& marks);

/// The colour of the `index`-th state no rule names (stateColor's palette).
Rgb unnamedStateColour(int index);

/// Tells apart states that would share a name, by what differs between them, never by a
/// counter: `names[i]` is state i's name (e.g. its class), `profiles` (states × marks) their
/// per-mark presence probabilities. A name held by one state stays as it is. Each state of a
/// name held by several gets the mark that sets it apart from the others of that name — the
/// mark whose probability differs most from their mean — as "(high H3K4me1)" or
/// "(low H3K4me1)". States still alike after that get the probabilities of the marks that
/// differ most among them, "(H3K4me1 0.62)", then "(H3K4me1 0.62, CTCF 0.10)" …; states with
/// identical profiles (to two decimals) a prime ("′"). The result depends only on the states
/// given, so the same states get the same names however often they are named.
std::vector<std::string> qualifyRepeatedNames(const std::vector<std::string>& names,
                                              const Eigen::MatrixXd& profiles,
                                              const std::vector<std::string>& marks);

/// An automatic label: the name (qualifyRepeatedNames: "Active promoter (high H3K4me1)" when
/// several states read as active promoters), the kind's colour, which of its kind the state is
/// (1 = the first) and the style views draw it in (distinctStyles of the kinds' colours: the
/// kind's colour, a shade of it for a later state of that kind or a kind whose colour is
/// taken, a line pattern only when shades run out).
struct StateLabel {
    std::string name;
    Rgb colour;
    int repeat = 1;
    IdentityStyle style;
};

/// Display slots of the states of successive contrastive HMM results: keeps the row order
/// stable across γ (and K) by matching every new result's emission profiles to the previous
/// one's (matchStates, minimum total L1 distance), and keeps names, including names the user
/// typed, attached to the slot. A user name is dropped when its state's profile drifts too far
/// from the profile it had when it was named (mean |Δp| > kRenameDriftLimit).
///
/// **Path identities.** Once a γ path is set (setPath, the weights-vs-γ sweep's HmmPath),
/// names and colours belong to the path's state identities, not to the rows: every identity
/// gets one automatic label for the whole path — classifyChromatinState of its emission profile
/// at the first γ where it exists, names that several identities of the path would share told
/// apart by qualifyRepeatedNames (the path's identities can all meet in one window: the γ = 0
/// panel, the current γ's panel and the weights chart), one distinct style per identity — and a
/// name the user types attaches to the identity. An update that passes the
/// identities of its components (update's `identities`) shows each row under its identity's
/// label, so one state keeps one name and colour wherever it is shown, whichever way γ was
/// dragged. Rows keep their order as before (matching).
class StateCatalog {
public:
    static constexpr double kRenameDriftLimit = 0.25;

    /// Maps the components (rows of `profiles`, K × M; `weights` K) of a new result to slots.
    /// `identities` (optional, K): the path identity of each component (setPath's path; −1 for a
    /// component the path does not have); empty = no path identities for this result.
    void update(const Eigen::MatrixXd& profiles, const Eigen::VectorXd& weights,
                const std::vector<std::string>& marks, const std::vector<int>& identities = {});
    /// Labels of the identities of `path` (null: none). A new path keeps the user's names: they
    /// move to the identities of the rows that carry them at the next update.
    void setPath(std::shared_ptr<const HmmPath> path, const std::vector<std::string>& marks);
    const std::shared_ptr<const HmmPath>& path() const { return m_path; }
    /// Path identity shown in `slot` (−1: none, e.g. before the path exists).
    int identityOfSlot(int slot) const;
    /// The user's name of path identity `id`, else its automatic one; empty for an unknown id.
    std::string identityName(int id) const;
    /// The automatic label of identity `id` (an empty name and grey for an unknown id).
    StateLabel identityLabel(int id) const;
    bool isIdentityRenamed(int id) const;
    int numIdentities() const { return static_cast<int>(m_identityLabels.size()); }
    /// Forgets the slots (new data or marks); the next update starts in weight order.
    void reset();
    /// Starts from saved slots (a session): the rows of `profiles` (slots × marks, slot order)
    /// with their user names (empty: automatic). The next update matches its states to these
    /// rows, so the row order and the names come back as they were saved.
    void restore(const Eigen::MatrixXd& profiles, const std::vector<std::string>& userNames);
    /// Re-sorts the slots by the current weights (largest first) at the next update, keeping
    /// the names.
    void sortByWeight();

    int numSlots() const { return static_cast<int>(m_slots.size()); }
    int componentOfSlot(int slot) const;
    int slotOfComponent(int component) const;
    /// The user's name if any, else the automatic one (classifyChromatinState, or "State k";
    /// repeated names qualified by qualifyRepeatedNames; a component the path does not have
    /// "… (off the γ path)").
    std::string name(int slot) const;
    /// The automatic label of `slot` (an empty name and grey for an unknown slot).
    StateLabel autoLabel(int slot) const;
    bool isRenamed(int slot) const;
    double weight(int slot) const;
    /// Slot-order profiles of the last update (slots × marks).
    const Eigen::MatrixXd& profiles() const { return m_profiles; }
    std::vector<std::string> names() const;

    /// Sets the user's name of a slot (surrounding blanks removed); an empty name, or the
    /// automatic one, restores the automatic name.
    void rename(int slot, const std::string& name);
    /// Names the last updates dropped because their states changed (for a status message).
    std::vector<std::string> takeDroppedNames();

private:
    struct Slot {
        int component = 0;
        StateLabel label;
        std::string userName;
        Eigen::RowVectorXd namedProfile; ///< profile when the user named it
        int identity = -1;               ///< path identity shown here (−1: none)
    };
    static Slot slotFor(int component) {
        Slot slot;
        slot.component = component;
        return slot;
    }
    void relabel(const std::vector<std::string>& marks);

    std::shared_ptr<const HmmPath> m_path;
    std::vector<StateLabel> m_identityLabels;  ///< per path identity
    std::map<int, std::string> m_identityUser; ///< user names of path identities
    /// The next update with identities moves the rows' user names to their identities (after a
    /// new path, a session's restore or a reset).
    bool m_carryNames = true;

    std::vector<Slot> m_slots;
    Eigen::MatrixXd m_profiles;
    Eigen::VectorXd m_weights; ///< slot order
    std::vector<int> m_slotOfComponent;
    std::vector<std::string> m_dropped;
    bool m_resort = false;
};

/// Names and colours of one model's states as the views show them, in component order: a fresh
/// StateCatalog updated with the states' profiles (K × M per-mark probabilities) and weights; a
/// state's name is catalog.name, its colour its label's distinct style colour (the kind's colour,
/// or a shade of it for a later state of that kind) — what the Chromatin and Tree workspaces
/// draw it in. The CLI writes these beside the same model so both front ends agree.
struct StateNaming {
    std::vector<std::string> names;
    std::vector<Rgb> colours;
    Eigen::VectorXd weights; ///< the weights the states were named with (component order)
};
StateNaming nameStates(const Eigen::MatrixXd& profiles, const Eigen::VectorXd& weights,
                       const std::vector<std::string>& marks);

/// A colour as BED's itemRgb writes it: "R,G,B".
std::string rgbText(const Rgb& colour);

} // namespace cx
