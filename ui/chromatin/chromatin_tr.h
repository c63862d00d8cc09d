#pragma once

#include <QCoreApplication>
#include <QString>

namespace cx::ui::chromatin_text {

/// Translated text of the Chromatin workspace's code outside its QObjects (one context for the
/// workspace, "ChromatinWorkspace"). Files use it as `using chromatin_text::tr;`.
inline QString tr(const char* text) {
    return QCoreApplication::translate("ChromatinWorkspace", text);
}

} // namespace cx::ui::chromatin_text
