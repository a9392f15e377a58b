#include "budget_undo.h"

#include <QObject>

#include "units.h"

namespace poet::ui {

BudgetCommand::BudgetCommand(Budgets before, Budgets after, int session, Apply apply)
    : before_(before), after_(after), session_(session), apply_(std::move(apply)) {
    updateText();
}

void BudgetCommand::updateText() {
    QStringList parts;
    // From and to, the RAM in exact bytes: two steps both read "RAM budget
    // 4.46 kB" where three digits hid what each undid.
    if (before_.ram_budget_bytes != after_.ram_budget_bytes)
        parts << QObject::tr("RAM budget %1 \u2192 %2")
                     .arg(QString::fromStdString(formatBytesExact(before_.ram_budget_bytes)),
                          QString::fromStdString(formatBytesExact(after_.ram_budget_bytes)));
    if (before_.runtime_budget_factor != after_.runtime_budget_factor)
        parts << QObject::tr("runtime budget %1 \u2192 %2")
                     .arg(QString::fromStdString(formatFactor(before_.runtime_budget_factor)),
                          QString::fromStdString(formatFactor(after_.runtime_budget_factor)));
    setText(parts.isEmpty() ? QObject::tr("budgets") : parts.join(QStringLiteral(", ")));
}

void BudgetCommand::undo() {
    if (apply_) apply_(before_);
}

void BudgetCommand::redo() {
    if (apply_) apply_(after_);
}

bool BudgetCommand::mergeWith(const QUndoCommand* other) {
    if (other->id() != id()) return false;
    const auto* o = static_cast<const BudgetCommand*>(other);
    if (session_ <= 0 || o->session_ != session_) return false;
    after_ = o->after_;
    updateText();
    if (after_ == before_) setObsolete(true);
    return true;
}

}  // namespace poet::ui
