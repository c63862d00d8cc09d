#include "ui/framework/error_reporter.h"

#include <QApplication>
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
    auto* box = new QMessageBox(QMessageBox::Warning, title, title, QMessageBox::Ok, owner);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(message);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

} // namespace cx::ui
