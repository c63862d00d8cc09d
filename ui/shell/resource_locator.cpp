#include "ui/shell/resource_locator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#ifndef CX_SOURCE_RESOURCE_DIR
#define CX_SOURCE_RESOURCE_DIR ""
#endif

namespace cx::ui {

QString resourceDirectory() {
    QStringList candidates;
    const QString fromEnvironment = qEnvironmentVariable("CX_RESOURCE_DIR");
    if (!fromEnvironment.isEmpty()) {
        candidates << fromEnvironment;
    }
    if (QCoreApplication::instance()) {
        candidates << QDir(QCoreApplication::applicationDirPath())
                          .absoluteFilePath(QStringLiteral("../share/contrast-explorer"));
    }
    candidates << QStringLiteral(CX_SOURCE_RESOURCE_DIR);
    for (const QString& candidate : candidates) {
        if (!candidate.isEmpty() && QFileInfo(candidate).isDir()) {
            return QDir(candidate).canonicalPath();
        }
    }
    return {};
}

QString demoSessionPath() {
    const QString root = resourceDirectory();
    if (root.isEmpty()) {
        return {};
    }
    const QString path = QDir(root).absoluteFilePath(QStringLiteral("demo/demo.cxproj"));
    return QFileInfo::exists(path) ? path : QString();
}

} // namespace cx::ui
