#pragma once
// The search for a RAM budget that works, behind the status line's "Find a
// RAM budget that works" link: where a solve ends without a schedule and
// without a budget to offer (its time limit came before its own search
// found one: resnet50 on m4 at 10% and 1.3x without paging, with 1 s), the
// same search (smallestQuickBudget, as `poet info` runs it) without a time
// limit, on a thread of its own so the window keeps answering.
#include <QObject>
#include <QThread>
#include <atomic>
#include <cstdint>

#include "problem.h"

namespace poet::ui {

class WorkingBudgetSearch : public QObject {
    Q_OBJECT
public:
    explicit WorkingBudgetSearch(QObject* parent = nullptr);
    ~WorkingBudgetSearch() override;  // cancels and waits

    // Searches from `problem`'s RAM budget up at its runtime budget, unless
    // a search runs (one cancelled is waited for); returns whether it started.
    bool start(const Problem& problem);
    // Ends the search soon; it emits nothing more.
    void cancel();
    bool isRunning() const { return thread_ && thread_->isRunning(); }

signals:
    // The smallest budget found with a quick schedule, or 0 where none up to
    // the plain-pass peak has one (the runtime budget is too short).
    void finished(qint64 ram_budget_bytes);

private:
    void wait();

    QThread* thread_ = nullptr;
    std::atomic<bool> stop_{false};
    std::atomic<std::int64_t> found_{0};
};

}  // namespace poet::ui
