#pragma once
// Undo/redo of budget changes. One command per change; a continuous drag (one
// BudgetControl session) merges into one step.
#include <QUndoCommand>
#include <cstdint>
#include <functional>

namespace poet::ui {

struct Budgets {
    std::int64_t ram_budget_bytes = 0;
    double runtime_budget_factor = 1.0;
    bool operator==(const Budgets&) const = default;
};

class BudgetCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const Budgets&)>;
    // `session` > 0 merges with the previous command of the same session.
    BudgetCommand(Budgets before, Budgets after, int session, Apply apply);

    void undo() override;
    void redo() override;
    int id() const override { return 0x504f4554; }  // "POET"
    bool mergeWith(const QUndoCommand* other) override;

    const Budgets& before() const { return before_; }
    const Budgets& after() const { return after_; }

private:
    void updateText();
    Budgets before_, after_;
    int session_;
    Apply apply_;
};

}  // namespace poet::ui
