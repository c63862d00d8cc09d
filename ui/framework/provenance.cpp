#include "ui/framework/provenance.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cx::ui {

Provenance& Provenance::add(const QString& name, const QString& value) {
    m_inputs.append({name, value, value, QString()});
    return *this;
}

Provenance& Provenance::add(const QString& name, qint64 value) {
    return add(name, QString::number(value));
}

Provenance& Provenance::addFiles(const QString& name, const QStringList& paths) {
    QStringList fingerprints;
    QStringList names;
    QStringList absolute;
    for (const QString& path : paths) {
        if (path.isEmpty()) {
            continue;
        }
        const QFileInfo info(path);
        fingerprints << QStringLiteral("%1|%2|%3")
                            .arg(info.absoluteFilePath())
                            .arg(info.isDir() ? -1 : info.size())
                            .arg(info.lastModified().toMSecsSinceEpoch());
        names << info.fileName();
        absolute << info.absoluteFilePath();
    }
    m_inputs.append({name, fingerprints.join(QLatin1Char('\n')),
                     names.isEmpty() ? QObject::tr("none") : names.join(QStringLiteral(", ")),
                     absolute.join(QStringLiteral(", "))});
    return *this;
}

const Provenance::Input* Provenance::find(const QString& name) const {
    for (const Input& input : m_inputs) {
        if (input.name == name) {
            return &input;
        }
    }
    return nullptr;
}

QStringList Provenance::changedNames(const Provenance& current) const {
    QStringList out;
    for (const Input& input : m_inputs) {
        const Input* now = current.find(input.name);
        if (!now || now->fingerprint != input.fingerprint) {
            out << input.name;
        }
    }
    for (const Input& input : current.m_inputs) {
        if (!find(input.name)) {
            out << input.name;
        }
    }
    return out;
}

QStringList Provenance::changes(const Provenance& current) const {
    QStringList out;
    for (const QString& name : changedNames(current)) {
        const Input* was = find(name);
        const Input* now = current.find(name);
        QString before = was ? was->shown : QObject::tr("none");
        QString after = now ? now->shown : QObject::tr("none");
        if (before == after && was && now && was->paths != now->paths) {
            before = was->paths; // same names in other folders: say which folders
            after = now->paths;
        }
        // Same file, other content: rewritten in place.
        out << (before == after ? QObject::tr("%1 (%2, changed on disk)").arg(name, after)
                                : QStringLiteral("%1 (%2 → %3)").arg(name, before, after));
    }
    return out;
}

StaleMarker::StaleMarker(const QString& subject, const QString& action,
                         std::function<Provenance()> currentInputs, QWidget* parent)
    : QLabel(parent), m_subject(subject), m_action(action),
      m_currentInputs(std::move(currentInputs)) {
    setObjectName(QStringLiteral("staleMarker"));
    setAccessibleName(tr("Stale result marker"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; "
                                 "border: 1px solid #e0c060; padding: 4px; }"));
    hide();
}

void StaleMarker::setResult(const Provenance& inputs) {
    m_result = inputs;
    m_hasResult = true;
    refresh();
}

void StaleMarker::clearResult() {
    m_result = Provenance();
    m_hasResult = false;
    refresh();
}

void StaleMarker::refresh() {
    const QStringList before = m_changed;
    QStringList changes;
    if (m_hasResult && m_currentInputs) {
        const Provenance current = m_currentInputs();
        m_changed = m_result.changedNames(current);
        changes = m_result.changes(current);
    } else {
        m_changed.clear();
    }
    if (m_changed.isEmpty()) {
        setText(QString());
        setToolTip(QString());
        hide();
    } else {
        setText(tr("⚠ %1: not from the inputs loaded now. Changed: %2. %3")
                    .arg(m_subject, changes.join(QStringLiteral(", ")), m_action));
        setToolTip(tr("These results were computed before the inputs named here changed; "
                      "their numbers do not describe what is loaded."));
        show();
    }
    if (before != m_changed) {
        emit staleChanged(m_changed);
    }
}

void StaleMarker::watch(QWidget* input) {
    if (auto* spin = qobject_cast<QSpinBox*>(input)) {
        connect(spin, &QSpinBox::valueChanged, this, &StaleMarker::refresh);
    } else if (auto* real = qobject_cast<QDoubleSpinBox*>(input)) {
        connect(real, &QDoubleSpinBox::valueChanged, this, &StaleMarker::refresh);
    } else if (auto* combo = qobject_cast<QComboBox*>(input)) {
        connect(combo, &QComboBox::currentIndexChanged, this, &StaleMarker::refresh);
    } else if (auto* button = qobject_cast<QAbstractButton*>(input)) {
        connect(button, &QAbstractButton::toggled, this, &StaleMarker::refresh);
    } else if (auto* edit = qobject_cast<QLineEdit*>(input)) {
        connect(edit, &QLineEdit::textChanged, this, &StaleMarker::refresh);
    }
}

QWidget* withStaleMarker(StaleMarker* marker, QWidget* results) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(marker);
    layout->addWidget(results, 1);
    return box;
}

} // namespace cx::ui
