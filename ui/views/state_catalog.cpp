#include "ui/views/state_catalog.h"

namespace cx::ui {

StateClass classifyChromatinState(const Eigen::Ref<const Eigen::RowVectorXd>& profile,
                                  const std::vector<std::string>& marks) {
    const cx::StateClass guess = cx::classifyChromatinState(profile, marks);
    if (guess.name.empty()) {
        return {};
    }
    return {QString::fromStdString(guess.name), toQColor(guess.colour)};
}

void StateCatalog::restore(const Eigen::MatrixXd& profiles, const QStringList& userNames) {
    std::vector<std::string> names;
    for (const QString& name : userNames) {
        names.push_back(name.toStdString());
    }
    m_core.restore(profiles, names);
}

QStringList StateCatalog::names() const {
    QStringList out;
    for (const std::string& name : m_core.names()) {
        out << QString::fromStdString(name);
    }
    return out;
}

QStringList StateCatalog::takeDroppedNames() {
    QStringList out;
    for (const std::string& name : m_core.takeDroppedNames()) {
        out << QString::fromStdString(name);
    }
    return out;
}

} // namespace cx::ui
