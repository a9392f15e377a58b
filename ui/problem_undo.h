#pragma once
// Undo/redo of a change of problem: model, platform, batch or a switch, with
// the budgets it came with (a new network opens at its own plain-pass peak).
// Budgets alone are BudgetCommand's (budget_undo.h); both go on one stack, so
// undoing past a model change goes back to that model's own budget steps.
#include <QString>
#include <QUndoCommand>
#include <functional>

#include "budget_undo.h"

namespace poet::ui {

struct ProblemSetup {
    QString model, platform;
    int batch = 0;  // the batch box: 0 for the profile's own
    bool paging = true, remat = true;
    Budgets budgets;
    bool operator==(const ProblemSetup&) const = default;
    // The same network and switches: only the budgets may differ.
    bool sameProblem(const ProblemSetup& o) const {
        return model == o.model && platform == o.platform && batch == o.batch && paging == o.paging &&
               remat == o.remat;
    }
};

class ProblemCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const ProblemSetup&)>;
    // Named for what changed: "paging off", "model vgg16_cifar", ...
    ProblemCommand(ProblemSetup before, ProblemSetup after, Apply apply);

    void undo() override;
    void redo() override;

private:
    ProblemSetup before_, after_;
    Apply apply_;
};

}  // namespace poet::ui
