#include "problem_undo.h"

#include <QObject>
#include <QStringList>

namespace poet::ui {

ProblemCommand::ProblemCommand(ProblemSetup before, ProblemSetup after, Apply apply)
    : before_(std::move(before)), after_(std::move(after)), apply_(std::move(apply)) {
    QStringList parts;
    const auto onOff = [](bool on) { return on ? QObject::tr("on") : QObject::tr("off"); };
    if (before_.model != after_.model) parts << QObject::tr("model %1").arg(after_.model);
    if (before_.platform != after_.platform) parts << QObject::tr("platform %1").arg(after_.platform);
    if (before_.batch != after_.batch)
        parts << (after_.batch > 0 ? QObject::tr("batch %1").arg(after_.batch) : QObject::tr("batch default"));
    if (before_.paging != after_.paging) parts << QObject::tr("paging %1").arg(onOff(after_.paging));
    if (before_.remat != after_.remat) parts << QObject::tr("rematerialization %1").arg(onOff(after_.remat));
    setText(parts.isEmpty() ? QObject::tr("problem") : parts.join(QStringLiteral(", ")));
}

void ProblemCommand::undo() {
    if (apply_) apply_(before_);
}

void ProblemCommand::redo() {
    if (apply_) apply_(after_);
}

}  // namespace poet::ui
