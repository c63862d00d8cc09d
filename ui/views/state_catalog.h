#pragma once

// The Qt face of chromatin state naming and identity (core/hmm/state_catalog.h): the same rule
// and the same slots, with names as QString and colours as QColor. Colours are the labels'
// distinct styles (cx::distinctStyles), so no two states share one in any view.

#include "core/hmm/state_catalog.h"

#include <Eigen/Dense>

#include <QColor>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cx {
struct HmmPath;
} // namespace cx

namespace cx::ui {

/// cx::StateClass with Qt types.
struct StateClass {
    QString name; ///< empty when no rule applies
    QColor colour;
};

/// cx::classifyChromatinState (the naming rule) with Qt types.
StateClass classifyChromatinState(const Eigen::Ref<const Eigen::RowVectorXd>& profile,
                                  const std::vector<std::string>& marks);

/// A core colour as a QColor.
inline QColor toQColor(const cx::Rgb& colour) {
    return QColor(colour.red, colour.green, colour.blue);
}

/// A view's colour as BED's itemRgb text "R,G,B" (cx::rgbText of the same colour).
inline std::string rgbText(const QColor& colour) {
    return cx::rgbText({static_cast<std::uint8_t>(colour.red()),
                        static_cast<std::uint8_t>(colour.green()),
                        static_cast<std::uint8_t>(colour.blue())});
}

/// An automatic label's display colour: its distinct style's colour (its kind's colour, or a
/// shade of it when another state of the view has that colour).
inline QColor labelColour(const cx::StateLabel& label) {
    return toQColor(label.style.colour);
}

/// cx::StateCatalog (stable state rows, names and colours across γ, path identities, user
/// names) for the views: the same slots, names as QString, colours as shaded QColor.
class StateCatalog {
public:
    static constexpr double kRenameDriftLimit = cx::StateCatalog::kRenameDriftLimit;

    void update(const Eigen::MatrixXd& profiles, const Eigen::VectorXd& weights,
                const std::vector<std::string>& marks, const std::vector<int>& identities = {}) {
        m_core.update(profiles, weights, marks, identities);
    }
    void setPath(std::shared_ptr<const cx::HmmPath> path, const std::vector<std::string>& marks) {
        m_core.setPath(std::move(path), marks);
    }
    const std::shared_ptr<const cx::HmmPath>& path() const { return m_core.path(); }
    int identityOfSlot(int slot) const { return m_core.identityOfSlot(slot); }
    QString identityName(int id) const { return QString::fromStdString(m_core.identityName(id)); }
    QString identityAutoName(int id) const {
        return QString::fromStdString(m_core.identityLabel(id).name);
    }
    QColor identityColour(int id) const { return labelColour(m_core.identityLabel(id)); }
    /// Colour and line pattern of identity `id` (the pattern differs from solid only when the
    /// path has more identities of one colour family than shades).
    cx::IdentityStyle identityStyle(int id) const { return m_core.identityLabel(id).style; }
    bool isIdentityRenamed(int id) const { return m_core.isIdentityRenamed(id); }
    int numIdentities() const { return m_core.numIdentities(); }
    void reset() { m_core.reset(); }
    void restore(const Eigen::MatrixXd& profiles, const QStringList& userNames);
    void sortByWeight() { m_core.sortByWeight(); }

    int numSlots() const { return m_core.numSlots(); }
    int componentOfSlot(int slot) const { return m_core.componentOfSlot(slot); }
    int slotOfComponent(int component) const { return m_core.slotOfComponent(component); }
    QString name(int slot) const { return QString::fromStdString(m_core.name(slot)); }
    QString autoName(int slot) const { return QString::fromStdString(m_core.autoLabel(slot).name); }
    bool isRenamed(int slot) const { return m_core.isRenamed(slot); }
    QColor colour(int slot) const { return labelColour(m_core.autoLabel(slot)); }
    cx::IdentityStyle style(int slot) const { return m_core.autoLabel(slot).style; }
    double weight(int slot) const { return m_core.weight(slot); }
    const Eigen::MatrixXd& profiles() const { return m_core.profiles(); }
    QStringList names() const;

    /// Sets the user's name of a slot; an empty name restores the automatic one.
    void rename(int slot, const QString& name) {
        m_core.rename(slot, name.trimmed().toStdString());
    }
    QStringList takeDroppedNames();

    const cx::StateCatalog& core() const { return m_core; }

private:
    cx::StateCatalog m_core;
};

} // namespace cx::ui
