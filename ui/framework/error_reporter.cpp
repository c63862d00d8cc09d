#include "ui/framework/error_reporter.h"

#include <QApplication>
#include <QCoreApplication>
#include <QMessageBox>
#include <QPointer>
#include <QWidget>

namespace cx::ui {

namespace {

ErrorReporter::Handler& handlerSlot() {
    static ErrorReporter::Handler handler;
    return handler;
}

} // namespace

void ErrorReporter::setHandler(Handler handler) {
    handlerSlot() = std::move(handler);
}

void ErrorReporter::report(QWidget* parent, const QString& title, const QString& message) {
    if (handlerSlot()) {
        handlerSlot()(title, message);
        return;
    }
    QWidget* owner = parent ? parent->window() : QApplication::activeWindow();
    if (owner) {
        for (QMessageBox* open :
             owner->findChildren<QMessageBox*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (open->isVisible() && open->informativeText() == message) {
                open->raise();
                return;
            }
        }
    }
    // The window title is short (the application's name): a window manager cuts a long one
    // in the middle ("Could not... he tracks"). What went wrong is the body's headline.
    const QString windowTitle = QCoreApplication::applicationName().isEmpty()
                                    ? QObject::tr("Problem")
                                    : QCoreApplication::applicationName();
    auto* box = new QMessageBox(QMessageBox::Warning, windowTitle, title, QMessageBox::Ok, owner);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(message);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

} // namespace cx::ui
