#include "ui/chromatin/state_catalog.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_path.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cx::ui {

namespace {

bool isControlMark(const std::string& mark) {
    const QString name = QString::fromStdString(mark).toLower();
    return name == QLatin1String("wce") || name == QLatin1String("input") ||
           name == QLatin1String("control") || name.startsWith(QLatin1String("input"));
}

/// A fallback colour (core's BED palette) for states no rule names.
QColor paletteColour(int index) {
    const QStringList rgb = QString::fromStdString(cx::stateColor(index)).split(QLatin1Char(','));
    return rgb.size() == 3 ? QColor(rgb[0].toInt(), rgb[1].toInt(), rgb[2].toInt())
                           : QColor(127, 127, 127);
}

/// The colour of the `repeat`-th state of one kind (1 = the kind's own colour): alternately
/// darker and lighter, further from the base colour as the count grows.
QColor repeatShade(const QColor& base, int repeat) {
    if (repeat <= 1) {
        return base;
    }
    const int step = repeat / 2; // 2, 3 → 1; 4, 5 → 2; …
    return repeat % 2 == 0 ? base.darker(100 + 35 * step) : base.lighter(100 + 25 * step);
}

} // namespace

StateClass classifyChromatinState(const Eigen::Ref<const Eigen::RowVectorXd>& profile,
                                  const std::vector<std::string>& marks) {
    // p(name): the mark's presence probability, or -1 when the data has no such mark (so a
    // rule needing it never fires).
    const auto p = [&](const char* name) {
        for (size_t j = 0; j < marks.size() && static_cast<Eigen::Index>(j) < profile.size(); ++j) {
            if (QString::fromStdString(marks[j]).compare(QLatin1String(name),
                                                         Qt::CaseInsensitive) == 0) {
                return profile[static_cast<Eigen::Index>(j)];
            }
        }
        return -1.0;
    };
    double control = -1;
    double strongest = 0;   // largest non-control mark
    double otherActive = 0; // largest non-control mark other than CTCF
    for (size_t j = 0; j < marks.size() && static_cast<Eigen::Index>(j) < profile.size(); ++j) {
        const double value = profile[static_cast<Eigen::Index>(j)];
        if (isControlMark(marks[j])) {
            control = std::max(control, value);
            continue;
        }
        strongest = std::max(strongest, value);
        if (QString::fromStdString(marks[j]).compare(QLatin1String("CTCF"), Qt::CaseInsensitive) !=
            0) {
            otherActive = std::max(otherActive, value);
        }
    }
    const double me3 = p("H3K4me3");
    const double me2 = p("H3K4me2");
    const double me1 = p("H3K4me1");
    const double ac = std::max(p("H3K27ac"), p("H3K9ac"));
    const double k36 = p("H3K36me3");
    const double k79 = p("H3K79me2");
    const double k27 = p("H3K27me3");
    const double k9 = p("H3K9me3");
    const double k20 = p("H4K20me1");
    const double ctcf = p("CTCF");

    const auto make = [](const char* name, QColor colour) {
        return StateClass{QString::fromUtf8(name), colour};
    };
    if (control >= 0.4) {
        return make("Repetitive/CNV", QColor(0x9e, 0x7b, 0x5a));
    }
    if (ctcf >= 0.5 && ctcf >= otherActive + 0.3) {
        return make("Insulator", QColor(0x1f, 0x8f, 0xd8));
    }
    if (me3 >= 0.5) {
        if (k27 >= 0.4 && ac < 0.3) {
            return make("Poised promoter", QColor(0x9c, 0x2b, 0xc4));
        }
        if (ac >= 0.4) {
            return make("Active promoter", QColor(0xe0, 0x1b, 0x1b));
        }
        return make("Weak promoter", QColor(0xf2, 0x6d, 0x6d));
    }
    if (me3 >= 0.25 && me3 > me1 && (me2 >= 0.5 || ac >= 0.4)) {
        return make("Weak promoter", QColor(0xf2, 0x6d, 0x6d));
    }
    if (me1 >= 0.4) {
        if (k36 >= 0.35 || k20 >= 0.5) {
            return make("Txn transition", QColor(0x6d, 0xb3, 0x1f));
        }
        if (ac >= 0.3) {
            return make("Strong enhancer", QColor(0xf5, 0x9b, 0x00));
        }
        return make("Weak enhancer", QColor(0xf0, 0xd0, 0x20));
    }
    if (k36 >= 0.4 || k79 >= 0.4) {
        return make("Txn elongation", QColor(0x1e, 0x8c, 0x3a));
    }
    if (k27 >= 0.3) {
        return make("Polycomb repressed", QColor(0x80, 0x80, 0x80));
    }
    if (k9 >= 0.3) {
        return make("Heterochromatin", QColor(0x8a, 0x91, 0xd0));
    }
    if (k36 >= 0.15 || k20 >= 0.3) {
        return make("Weak txn", QColor(0x9c, 0xd0, 0x8c));
    }
    if (strongest < 0.1) {
        return make("Quiescent", QColor(0xdc, 0xdf, 0xe3));
    }
    if (strongest < 0.25) {
        return make("Low signal", QColor(0xc2, 0xc6, 0xcc));
    }
    return {};
}

void StateCatalog::reset() {
    m_slots.clear();
    m_profiles.resize(0, 0);
    m_weights.resize(0);
    m_slotOfComponent.clear();
    m_resort = false;
    m_path.reset();
    m_identityAuto.clear();
    m_identityColour.clear();
    m_identityUser.clear();
    m_carryNames = true;
}

void StateCatalog::setPath(std::shared_ptr<const cx::HmmPath> path,
                           const std::vector<std::string>& marks) {
    if (path == m_path) {
        return;
    }
    m_path = std::move(path);
    m_identityAuto.clear();
    m_identityColour.clear();
    m_identityUser.clear();
    m_carryNames = true; // the rows' user names move to the new path's identities
    if (!m_path) {
        return;
    }
    // Each identity is named once, from its profile where it first appears along the path.
    const int count = m_path->numIdentities;
    m_identityAuto.assign(static_cast<size_t>(count), QString());
    m_identityColour.assign(static_cast<size_t>(count), QColor(127, 127, 127));
    std::vector<bool> named(static_cast<size_t>(count), false);
    QMap<QString, int> seen;
    int unnamed = 0;
    // Identities are numbered in order of first appearance (points in γ order, components in
    // row order), so visiting the path in that order names them in id order.
    for (size_t i = 0; i < m_path->solutions.size(); ++i) {
        const Eigen::MatrixXd& profiles = m_path->solutions[i].markProbabilities;
        for (Eigen::Index t = 0; t < profiles.rows(); ++t) {
            const int id = m_path->ids[i][static_cast<size_t>(t)];
            if (id < 0 || id >= count || named[static_cast<size_t>(id)]) {
                continue;
            }
            named[static_cast<size_t>(id)] = true;
            StateClass guess = classifyChromatinState(profiles.row(t), marks);
            if (guess.name.isEmpty()) {
                guess.name = QStringLiteral("State %1").arg(id + 1);
                guess.colour = paletteColour(unnamed++);
            }
            const int repeat = ++seen[guess.name];
            m_identityAuto[static_cast<size_t>(id)] =
                repeat > 1 ? QStringLiteral("%1 %2").arg(guess.name).arg(repeat) : guess.name;
            m_identityColour[static_cast<size_t>(id)] = repeatShade(guess.colour, repeat);
        }
    }
}

int StateCatalog::identityOfSlot(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].identity : -1;
}

QString StateCatalog::identityAutoName(int id) const {
    return id >= 0 && id < numIdentities() ? m_identityAuto[static_cast<size_t>(id)] : QString();
}

QString StateCatalog::identityName(int id) const {
    const auto user = m_identityUser.find(id);
    return user != m_identityUser.end() ? user->second : identityAutoName(id);
}

QColor StateCatalog::identityColour(int id) const {
    return id >= 0 && id < numIdentities() ? m_identityColour[static_cast<size_t>(id)]
                                           : QColor(127, 127, 127);
}

bool StateCatalog::isIdentityRenamed(int id) const {
    return m_identityUser.count(id) > 0;
}

void StateCatalog::restore(const Eigen::MatrixXd& profiles, const QStringList& userNames) {
    std::shared_ptr<const cx::HmmPath> path = m_path;
    std::vector<QString> identityAuto = m_identityAuto;
    std::vector<QColor> identityColour = m_identityColour;
    reset();
    // The path (if any) stays; the saved user names reach its identities at the next update.
    m_path = std::move(path);
    m_identityAuto = std::move(identityAuto);
    m_identityColour = std::move(identityColour);
    m_profiles = profiles;
    m_weights = Eigen::VectorXd::Zero(profiles.rows());
    for (int s = 0; s < profiles.rows(); ++s) {
        Slot slot{s, {}, {}, {}, {}};
        if (s < userNames.size() && !userNames[s].isEmpty()) {
            slot.userName = userNames[s];
            slot.namedProfile = profiles.row(s);
        }
        m_slots.push_back(slot);
        m_slotOfComponent.push_back(s);
    }
}

void StateCatalog::sortByWeight() {
    m_resort = true;
}

void StateCatalog::update(const Eigen::MatrixXd& profiles, const Eigen::VectorXd& weights,
                          const std::vector<std::string>& marks,
                          const std::vector<int>& identities) {
    const auto k = static_cast<int>(profiles.rows());
    std::vector<Slot> previous = std::move(m_slots);
    m_slots.clear();
    // Weight order of the new components (the core returns them sorted already; sort anyway).
    std::vector<int> byWeight(static_cast<size_t>(k));
    std::iota(byWeight.begin(), byWeight.end(), 0);
    std::stable_sort(byWeight.begin(), byWeight.end(),
                     [&](int a, int b) { return weights[a] > weights[b]; });

    const bool comparable = !previous.empty() && m_profiles.cols() == profiles.cols() && k > 0;
    if (!comparable) {
        for (int component : byWeight) {
            m_slots.push_back(Slot{component, {}, {}, {}, {}});
        }
    } else if (m_resort) {
        // Same states, new order: carry each slot's user name by matching, then sort.
        const auto previousCount = static_cast<int>(previous.size());
        std::vector<int> match;
        if (previousCount <= k) {
            match = cx::matchStates(m_profiles, profiles); // previous slot → component
        }
        for (int component : byWeight) {
            Slot slot{component, {}, {}, {}, {}};
            for (int i = 0; i < static_cast<int>(match.size()); ++i) {
                if (match[static_cast<size_t>(i)] == component) {
                    slot.userName = previous[static_cast<size_t>(i)].userName;
                    slot.namedProfile = previous[static_cast<size_t>(i)].namedProfile;
                }
            }
            m_slots.push_back(slot);
        }
    } else if (static_cast<int>(previous.size()) <= k) {
        // Every previous slot keeps its row; new components are appended in weight order.
        const std::vector<int> match = cx::matchStates(m_profiles, profiles);
        std::vector<bool> used(static_cast<size_t>(k), false);
        for (size_t i = 0; i < previous.size(); ++i) {
            Slot slot = previous[i];
            slot.component = match[i];
            used[static_cast<size_t>(match[i])] = true;
            m_slots.push_back(slot);
        }
        for (int component : byWeight) {
            if (!used[static_cast<size_t>(component)]) {
                m_slots.push_back(Slot{component, {}, {}, {}, {}});
            }
        }
    } else {
        // Fewer components than slots (K lowered): the matched slots keep their relative order.
        const std::vector<int> match = cx::matchStates(profiles, m_profiles); // comp → slot
        std::vector<int> components(static_cast<size_t>(k));
        std::iota(components.begin(), components.end(), 0);
        std::sort(components.begin(), components.end(), [&](int a, int b) {
            return match[static_cast<size_t>(a)] < match[static_cast<size_t>(b)];
        });
        for (int component : components) {
            Slot slot = previous[static_cast<size_t>(match[static_cast<size_t>(component)])];
            slot.component = component;
            m_slots.push_back(slot);
        }
    }
    m_resort = false;

    m_profiles.resize(k, profiles.cols());
    m_weights.resize(k);
    m_slotOfComponent.assign(static_cast<size_t>(k), 0);
    for (int s = 0; s < k; ++s) {
        const int component = m_slots[static_cast<size_t>(s)].component;
        m_profiles.row(s) = profiles.row(component);
        m_weights[s] = weights[component];
        m_slotOfComponent[static_cast<size_t>(component)] = s;
        Slot& slot = m_slots[static_cast<size_t>(s)];
        const bool withIdentity = m_path && identities.size() == static_cast<size_t>(k);
        slot.identity = withIdentity ? identities[static_cast<size_t>(component)] : -1;
        if (slot.identity >= numIdentities()) {
            slot.identity = -1; // not one of the path's identities
        }
        if (withIdentity) {
            continue; // names follow identities (below), not rows: no drift rule
        }
        if (!slot.userName.isEmpty() && slot.namedProfile.size() == profiles.cols() &&
            (slot.namedProfile - m_profiles.row(s)).cwiseAbs().mean() > kRenameDriftLimit) {
            m_dropped << slot.userName;
            slot.userName.clear();
        }
    }
    if (m_path && identities.size() == static_cast<size_t>(k)) {
        // The rows' user names (typed before the path existed, restored from a session, or of
        // the previous path) move to the identities now in those rows; later a name stays with
        // its identity, whichever row the identity is in.
        if (m_carryNames) {
            for (const Slot& slot : m_slots) {
                if (slot.identity >= 0 && !slot.userName.isEmpty() &&
                    m_identityUser.count(slot.identity) == 0) {
                    m_identityUser[slot.identity] = slot.userName;
                }
            }
            m_carryNames = false;
        }
        for (Slot& slot : m_slots) {
            if (slot.identity >= 0) {
                const auto user = m_identityUser.find(slot.identity);
                slot.userName = user != m_identityUser.end() ? user->second : QString();
                slot.namedProfile = m_profiles.row(static_cast<Eigen::Index>(&slot - m_slots.data()));
            }
        }
    }
    relabel(marks);
}

void StateCatalog::relabel(const std::vector<std::string>& marks) {
    // Names in use: with path identities, every identity's name (fixed along the path, even
    // where the identity is not shown), so a component the path does not have (between grid
    // points, rarely) never takes an identity's name.
    QSet<QString> taken;
    const bool withIdentities = std::any_of(m_slots.begin(), m_slots.end(),
                                            [](const Slot& slot) { return slot.identity >= 0; });
    if (withIdentities) {
        for (const QString& name : m_identityAuto) {
            taken.insert(name);
        }
    }
    int unnamed = 0;
    for (int s = 0; s < numSlots(); ++s) {
        Slot& slot = m_slots[static_cast<size_t>(s)];
        if (slot.identity >= 0) {
            slot.autoName = identityAutoName(slot.identity);
            slot.colour = identityColour(slot.identity);
            continue;
        }
        StateClass guess = classifyChromatinState(m_profiles.row(s), marks);
        if (guess.name.isEmpty()) {
            guess.name = QStringLiteral("State %1").arg(s + 1);
            guess.colour = paletteColour(unnamed++);
        }
        // Two states of one kind: tell them apart by number and shade.
        int repeat = 1;
        QString name = guess.name;
        while (taken.contains(name)) {
            name = QStringLiteral("%1 %2").arg(guess.name).arg(++repeat);
        }
        taken.insert(name);
        slot.autoName = name;
        slot.colour = repeatShade(guess.colour, repeat);
    }
}

int StateCatalog::componentOfSlot(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].component : -1;
}

int StateCatalog::slotOfComponent(int component) const {
    return component >= 0 && component < static_cast<int>(m_slotOfComponent.size())
               ? m_slotOfComponent[static_cast<size_t>(component)]
               : -1;
}

QString StateCatalog::name(int slot) const {
    if (slot < 0 || slot >= numSlots()) {
        return {};
    }
    const Slot& s = m_slots[static_cast<size_t>(slot)];
    return s.userName.isEmpty() ? s.autoName : s.userName;
}

QString StateCatalog::autoName(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].autoName : QString();
}

bool StateCatalog::isRenamed(int slot) const {
    return slot >= 0 && slot < numSlots() && !m_slots[static_cast<size_t>(slot)].userName.isEmpty();
}

QColor StateCatalog::colour(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].colour
                                          : QColor(127, 127, 127);
}

double StateCatalog::weight(int slot) const {
    return slot >= 0 && slot < m_weights.size() ? m_weights[slot] : 0.0;
}

QStringList StateCatalog::names() const {
    QStringList out;
    for (int s = 0; s < numSlots(); ++s) {
        out << name(s);
    }
    return out;
}

void StateCatalog::rename(int slot, const QString& name) {
    if (slot < 0 || slot >= numSlots()) {
        return;
    }
    Slot& s = m_slots[static_cast<size_t>(slot)];
    const QString trimmed = name.trimmed();
    s.userName = trimmed == s.autoName ? QString() : trimmed;
    s.namedProfile = m_profiles.row(slot);
    if (s.identity >= 0) {
        // The name belongs to the state (path identity), wherever it is shown.
        if (s.userName.isEmpty()) {
            m_identityUser.erase(s.identity);
        } else {
            m_identityUser[s.identity] = s.userName;
        }
    }
}

QStringList StateCatalog::takeDroppedNames() {
    QStringList out;
    out.swap(m_dropped);
    return out;
}

} // namespace cx::ui
