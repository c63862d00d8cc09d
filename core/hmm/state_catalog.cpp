#include "core/hmm/state_catalog.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_path.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

namespace cx {

namespace {

std::string lower(const std::string& text) {
    std::string out = text;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isControlMark(const std::string& mark) {
    const std::string name = lower(mark);
    return name == "wce" || name == "input" || name == "control" || name.rfind("input", 0) == 0;
}

std::string trimmed(const std::string& text) {
    const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
    const auto first = std::find_if_not(text.begin(), text.end(), blank);
    const auto last = std::find_if_not(text.rbegin(), text.rend(), blank).base();
    return first < last ? std::string(first, last) : std::string();
}

constexpr Rgb rgb(int value) {
    return Rgb{static_cast<std::uint8_t>((value >> 16) & 0xff),
               static_cast<std::uint8_t>((value >> 8) & 0xff),
               static_cast<std::uint8_t>(value & 0xff)};
}

struct RgbLess {
    bool operator()(const Rgb& a, const Rgb& b) const {
        return std::tie(a.red, a.green, a.blue) < std::tie(b.red, b.green, b.blue);
    }
};

} // namespace

StateClass classifyChromatinState(const Eigen::Ref<const Eigen::RowVectorXd>& profile,
                                  const std::vector<std::string>& marks) {
    // p(name): the mark's presence probability, or -1 when the data has no such mark (so a
    // rule needing it never fires).
    const auto p = [&](const char* name) {
        const std::string wanted = lower(name);
        for (size_t j = 0; j < marks.size() && static_cast<Eigen::Index>(j) < profile.size(); ++j) {
            if (lower(marks[j]) == wanted) {
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
        if (lower(marks[j]) != "ctcf") {
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

    if (control >= 0.4) {
        return {"Repetitive/CNV", rgb(0x9e7b5a)};
    }
    if (ctcf >= 0.5 && ctcf >= otherActive + 0.3) {
        return {"Insulator", rgb(0x1f8fd8)};
    }
    if (me3 >= 0.5) {
        if (k27 >= 0.4 && ac < 0.3) {
            return {"Poised promoter", rgb(0x9c2bc4)};
        }
        if (ac >= 0.4) {
            return {"Active promoter", rgb(0xe01b1b)};
        }
        return {"Weak promoter", rgb(0xf26d6d)};
    }
    if (me3 >= 0.25 && me3 > me1 && (me2 >= 0.5 || ac >= 0.4)) {
        return {"Weak promoter", rgb(0xf26d6d)};
    }
    if (me1 >= 0.4) {
        if (k36 >= 0.35 || k20 >= 0.5) {
            return {"Txn transition", rgb(0x6db31f)};
        }
        if (ac >= 0.3) {
            return {"Strong enhancer", rgb(0xf59b00)};
        }
        return {"Weak enhancer", rgb(0xf0d020)};
    }
    if (k36 >= 0.4 || k79 >= 0.4) {
        return {"Txn elongation", rgb(0x1e8c3a)};
    }
    if (k27 >= 0.3) {
        return {"Polycomb repressed", rgb(0x808080)};
    }
    if (k9 >= 0.3) {
        return {"Heterochromatin", rgb(0x8a91d0)};
    }
    if (k36 >= 0.15 || k20 >= 0.3) {
        return {"Weak txn", rgb(0x9cd08c)};
    }
    if (strongest < 0.1) {
        return {"Quiescent", rgb(0xdcdfe3)};
    }
    if (strongest < 0.25) {
        return {"Low signal", rgb(0xc2c6cc)};
    }
    return {};
}

Rgb unnamedStateColour(int index) {
    std::istringstream in(stateColor(index));
    int red = 0;
    int green = 0;
    int blue = 0;
    char comma1 = 0;
    char comma2 = 0;
    if (in >> red >> comma1 >> green >> comma2 >> blue && comma1 == ',' && comma2 == ',') {
        return Rgb{static_cast<std::uint8_t>(red), static_cast<std::uint8_t>(green),
                   static_cast<std::uint8_t>(blue)};
    }
    return Rgb{};
}

namespace {

std::string formatProbability(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

/// Marks ordered by how much the states `members` differ on them (largest range first; ties by
/// mark order).
std::vector<Eigen::Index> marksBySpread(const Eigen::MatrixXd& profiles,
                                        const std::vector<size_t>& members) {
    std::vector<Eigen::Index> order(static_cast<size_t>(profiles.cols()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::vector<double> spread(order.size(), 0.0);
    for (Eigen::Index j = 0; j < profiles.cols(); ++j) {
        double low = 1e300;
        double high = -1e300;
        for (size_t i : members) {
            low = std::min(low, profiles(static_cast<Eigen::Index>(i), j));
            high = std::max(high, profiles(static_cast<Eigen::Index>(i), j));
        }
        spread[static_cast<size_t>(j)] = high - low;
    }
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return spread[static_cast<size_t>(a)] > spread[static_cast<size_t>(b)];
    });
    return order;
}

/// `name` with `qualifier` in parentheses, inside the name's own closing parenthesis if it has
/// one ("Low signal (γ = 0 only)" → "Low signal (γ = 0 only, high CTCF)").
std::string withQualifier(const std::string& name, const std::string& qualifier) {
    if (!name.empty() && name.back() == ')') {
        return name.substr(0, name.size() - 1) + ", " + qualifier + ")";
    }
    return name + " (" + qualifier + ")";
}

/// Groups of indices of `names` that hold the same name (only groups of two or more).
std::vector<std::vector<size_t>> repeatedGroups(const std::vector<std::string>& names) {
    std::map<std::string, std::vector<size_t>> byName;
    for (size_t i = 0; i < names.size(); ++i) {
        byName[names[i]].push_back(i);
    }
    std::vector<std::vector<size_t>> out;
    for (auto& [name, members] : byName) {
        if (members.size() > 1) {
            out.push_back(std::move(members));
        }
    }
    return out;
}

} // namespace

std::vector<std::string> qualifyRepeatedNames(const std::vector<std::string>& names,
                                              const Eigen::MatrixXd& profiles,
                                              const std::vector<std::string>& marks) {
    std::vector<std::string> out = names;
    if (profiles.rows() != static_cast<Eigen::Index>(names.size()) || profiles.cols() == 0) {
        return out; // nothing to tell them apart by
    }
    const auto markName = [&](Eigen::Index j) {
        return static_cast<size_t>(j) < marks.size() ? marks[static_cast<size_t>(j)]
                                                     : "mark " + std::to_string(j + 1);
    };
    // 1. The mark that sets each state apart from the others of its name.
    for (const std::vector<size_t>& group : repeatedGroups(names)) {
        for (size_t i : group) {
            Eigen::RowVectorXd others = Eigen::RowVectorXd::Zero(profiles.cols());
            for (size_t k : group) {
                if (k != i) {
                    others += profiles.row(static_cast<Eigen::Index>(k));
                }
            }
            others /= static_cast<double>(group.size() - 1);
            const Eigen::RowVectorXd difference =
                profiles.row(static_cast<Eigen::Index>(i)) - others;
            Eigen::Index best = 0;
            for (Eigen::Index j = 1; j < difference.size(); ++j) {
                if (std::abs(difference[j]) > std::abs(difference[best])) {
                    best = j;
                }
            }
            out[i] = withQualifier(names[i],
                                   (difference[best] >= 0 ? "high " : "low ") + markName(best));
        }
    }
    // 2. States still alike: the probabilities of the marks that differ most among them.
    for (const std::vector<size_t>& group : repeatedGroups(out)) {
        const std::vector<Eigen::Index> order = marksBySpread(profiles, group);
        std::vector<std::string> qualifier(group.size());
        for (size_t used = 0; used < order.size(); ++used) {
            const Eigen::Index j = order[used];
            std::set<std::string> distinct;
            for (size_t g = 0; g < group.size(); ++g) {
                qualifier[g] += (used > 0 ? ", " : "") + markName(j) + " " +
                                formatProbability(profiles(static_cast<Eigen::Index>(group[g]), j));
                distinct.insert(qualifier[g]);
            }
            if (distinct.size() == group.size()) {
                break;
            }
        }
        for (size_t g = 0; g < group.size(); ++g) {
            out[group[g]] = withQualifier(names[group[g]], qualifier[g]);
        }
    }
    // 3. Identical profiles: primes.
    for (const std::vector<size_t>& group : repeatedGroups(out)) {
        std::string prime;
        for (size_t i : group) {
            out[i] += prime;
            prime += "′";
        }
    }
    return out;
}

void StateCatalog::reset() {
    m_slots.clear();
    m_profiles.resize(0, 0);
    m_weights.resize(0);
    m_slotOfComponent.clear();
    m_resort = false;
    m_path.reset();
    m_identityLabels.clear();
    m_identityUser.clear();
    m_carryNames = true;
}

void StateCatalog::setPath(std::shared_ptr<const HmmPath> path,
                           const std::vector<std::string>& marks) {
    if (path == m_path) {
        return;
    }
    m_path = std::move(path);
    m_identityLabels.clear();
    m_identityUser.clear();
    m_carryNames = true; // the rows' user names move to the new path's identities
    if (!m_path) {
        return;
    }
    // Each identity is named once, from its profile where it first appears along the path.
    const int count = m_path->numIdentities;
    m_identityLabels.assign(static_cast<size_t>(count), StateLabel{});
    std::vector<bool> named(static_cast<size_t>(count), false);
    std::vector<std::string> names(static_cast<size_t>(count));
    Eigen::MatrixXd firstProfiles =
        Eigen::MatrixXd::Zero(count, static_cast<Eigen::Index>(marks.size()));
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
            if (profiles.cols() == firstProfiles.cols()) {
                firstProfiles.row(id) = profiles.row(t);
            }
            StateClass guess = classifyChromatinState(profiles.row(t), marks);
            if (guess.name.empty()) {
                // Not "State <id>": identity numbers grow with every region change, and a name
                // must not. The qualifier below says which marks set
                // several unclassified states apart.
                guess.name = "Unclassified";
                guess.colour = unnamedStateColour(unnamed++);
            }
            names[static_cast<size_t>(id)] = guess.name;
            m_identityLabels[static_cast<size_t>(id)].colour = guess.colour;
        }
    }
    names = qualifyRepeatedNames(names, firstProfiles, marks);
    std::vector<Rgb> kinds;
    std::map<Rgb, int, RgbLess> seen;
    for (int id = 0; id < count; ++id) {
        StateLabel& label = m_identityLabels[static_cast<size_t>(id)];
        label.name = names[static_cast<size_t>(id)];
        label.repeat = ++seen[label.colour];
        kinds.push_back(label.colour);
    }
    const std::vector<IdentityStyle> styles = distinctStyles(kinds);
    for (int id = 0; id < count; ++id) {
        m_identityLabels[static_cast<size_t>(id)].style = styles[static_cast<size_t>(id)];
    }
}

int StateCatalog::identityOfSlot(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].identity : -1;
}

StateLabel StateCatalog::identityLabel(int id) const {
    return id >= 0 && id < numIdentities() ? m_identityLabels[static_cast<size_t>(id)]
                                           : StateLabel{};
}

std::string StateCatalog::identityName(int id) const {
    const auto user = m_identityUser.find(id);
    return user != m_identityUser.end() ? user->second : identityLabel(id).name;
}

bool StateCatalog::isIdentityRenamed(int id) const {
    return m_identityUser.count(id) > 0;
}

void StateCatalog::restore(const Eigen::MatrixXd& profiles,
                           const std::vector<std::string>& userNames) {
    std::shared_ptr<const HmmPath> path = m_path;
    std::vector<StateLabel> identityLabels = m_identityLabels;
    reset();
    // The path (if any) stays; the saved user names reach its identities at the next update.
    m_path = std::move(path);
    m_identityLabels = std::move(identityLabels);
    m_profiles = profiles;
    m_weights = Eigen::VectorXd::Zero(profiles.rows());
    for (int s = 0; s < profiles.rows(); ++s) {
        Slot slot = slotFor(s);
        if (static_cast<size_t>(s) < userNames.size() &&
            !userNames[static_cast<size_t>(s)].empty()) {
            slot.userName = userNames[static_cast<size_t>(s)];
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
            m_slots.push_back(slotFor(component));
        }
    } else if (m_resort) {
        // Same states, new order: carry each slot's user name by matching, then sort.
        const auto previousCount = static_cast<int>(previous.size());
        std::vector<int> match;
        if (previousCount <= k) {
            match = matchStates(m_profiles, profiles); // previous slot → component
        }
        for (int component : byWeight) {
            Slot slot = slotFor(component);
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
        const std::vector<int> match = matchStates(m_profiles, profiles);
        std::vector<bool> used(static_cast<size_t>(k), false);
        for (size_t i = 0; i < previous.size(); ++i) {
            Slot slot = previous[i];
            slot.component = match[i];
            used[static_cast<size_t>(match[i])] = true;
            m_slots.push_back(slot);
        }
        for (int component : byWeight) {
            if (!used[static_cast<size_t>(component)]) {
                m_slots.push_back(slotFor(component));
            }
        }
    } else {
        // Fewer components than slots (K lowered): the matched slots keep their relative order.
        const std::vector<int> match = matchStates(profiles, m_profiles); // comp → slot
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
        if (!slot.userName.empty() && slot.namedProfile.size() == profiles.cols() &&
            (slot.namedProfile - m_profiles.row(s)).cwiseAbs().mean() > kRenameDriftLimit) {
            m_dropped.push_back(slot.userName);
            slot.userName.clear();
        }
    }
    if (m_path && identities.size() == static_cast<size_t>(k)) {
        // The rows' user names (typed before the path existed, restored from a session, or of
        // the previous path) move to the identities now in those rows; later a name stays with
        // its identity, whichever row the identity is in.
        if (m_carryNames) {
            for (const Slot& slot : m_slots) {
                if (slot.identity >= 0 && !slot.userName.empty() &&
                    m_identityUser.count(slot.identity) == 0) {
                    m_identityUser[slot.identity] = slot.userName;
                }
            }
            m_carryNames = false;
        }
        for (Slot& slot : m_slots) {
            if (slot.identity >= 0) {
                const auto user = m_identityUser.find(slot.identity);
                slot.userName = user != m_identityUser.end() ? user->second : std::string();
                slot.namedProfile =
                    m_profiles.row(static_cast<Eigen::Index>(&slot - m_slots.data()));
            }
        }
    }
    relabel(marks);
}

void StateCatalog::relabel(const std::vector<std::string>& marks) {
    // Rows showing a path identity take its label. The others (no path yet, or a component the
    // path does not have, between grid points) are named from their marks here, told apart from
    // one another by qualifyRepeatedNames and from the identities by "(off the γ path)", and
    // styled apart from every identity.
    std::vector<int> free;
    for (int s = 0; s < numSlots(); ++s) {
        Slot& slot = m_slots[static_cast<size_t>(s)];
        if (slot.identity >= 0) {
            slot.label = identityLabel(slot.identity);
        } else {
            free.push_back(s);
        }
    }
    if (free.empty()) {
        return;
    }
    const bool withIdentities = static_cast<int>(free.size()) < numSlots();
    std::vector<std::string> names;
    std::vector<Rgb> kinds;
    Eigen::MatrixXd profiles(static_cast<Eigen::Index>(free.size()), m_profiles.cols());
    int unnamed = 0;
    for (size_t i = 0; i < free.size(); ++i) {
        const int s = free[i];
        profiles.row(static_cast<Eigen::Index>(i)) = m_profiles.row(s);
        StateClass guess = classifyChromatinState(m_profiles.row(s), marks);
        if (guess.name.empty()) {
            guess.name = "State " + std::to_string(s + 1);
            guess.colour = unnamedStateColour(unnamed++);
        }
        names.push_back(withIdentities ? guess.name + " (off the γ path)" : guess.name);
        kinds.push_back(guess.colour);
    }
    names = qualifyRepeatedNames(names, profiles, marks);
    std::vector<IdentityStyle> taken;
    if (withIdentities) {
        for (const StateLabel& label : m_identityLabels) {
            taken.push_back(label.style);
        }
    }
    const std::vector<IdentityStyle> styles = distinctStyles(kinds, taken);
    std::map<Rgb, int, RgbLess> seen;
    for (size_t i = 0; i < free.size(); ++i) {
        m_slots[static_cast<size_t>(free[i])].label =
            StateLabel{names[i], kinds[i], ++seen[kinds[i]], styles[i]};
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

std::string StateCatalog::name(int slot) const {
    if (slot < 0 || slot >= numSlots()) {
        return {};
    }
    const Slot& s = m_slots[static_cast<size_t>(slot)];
    return s.userName.empty() ? s.label.name : s.userName;
}

StateLabel StateCatalog::autoLabel(int slot) const {
    return slot >= 0 && slot < numSlots() ? m_slots[static_cast<size_t>(slot)].label : StateLabel{};
}

bool StateCatalog::isRenamed(int slot) const {
    return slot >= 0 && slot < numSlots() && !m_slots[static_cast<size_t>(slot)].userName.empty();
}

double StateCatalog::weight(int slot) const {
    return slot >= 0 && slot < m_weights.size() ? m_weights[slot] : 0.0;
}

std::vector<std::string> StateCatalog::names() const {
    std::vector<std::string> out;
    for (int s = 0; s < numSlots(); ++s) {
        out.push_back(name(s));
    }
    return out;
}

void StateCatalog::rename(int slot, const std::string& name) {
    if (slot < 0 || slot >= numSlots()) {
        return;
    }
    Slot& s = m_slots[static_cast<size_t>(slot)];
    const std::string clean = trimmed(name);
    s.userName = clean == s.label.name ? std::string() : clean;
    s.namedProfile = m_profiles.row(slot);
    if (s.identity >= 0) {
        // The name belongs to the state (path identity), wherever it is shown.
        if (s.userName.empty()) {
            m_identityUser.erase(s.identity);
        } else {
            m_identityUser[s.identity] = s.userName;
        }
    }
}

std::vector<std::string> StateCatalog::takeDroppedNames() {
    std::vector<std::string> out;
    out.swap(m_dropped);
    return out;
}

StateNaming nameStates(const Eigen::MatrixXd& profiles, const Eigen::VectorXd& weights,
                       const std::vector<std::string>& marks) {
    StateCatalog catalog;
    catalog.update(profiles, weights, marks);
    StateNaming out;
    out.weights = weights;
    for (int state = 0; state < static_cast<int>(profiles.rows()); ++state) {
        const int slot = catalog.slotOfComponent(state);
        out.names.push_back(catalog.name(slot));
        out.colours.push_back(catalog.autoLabel(slot).style.colour);
    }
    return out;
}

std::string rgbText(const Rgb& colour) {
    return std::to_string(colour.red) + ',' + std::to_string(colour.green) + ',' +
           std::to_string(colour.blue);
}

} // namespace cx
