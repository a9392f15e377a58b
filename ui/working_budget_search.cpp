#include "working_budget_search.h"

#include "heuristic_schedule.h"

namespace poet::ui {

WorkingBudgetSearch::WorkingBudgetSearch(QObject* parent) : QObject(parent) {}

WorkingBudgetSearch::~WorkingBudgetSearch() {
    cancel();
    wait();
}

void WorkingBudgetSearch::wait() {
    if (!thread_) return;
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
}

bool WorkingBudgetSearch::start(const Problem& problem) {
    if (isRunning() && !stop_) return false;
    wait();  // a cancelled one ends soon: its quick schedules look at stop_ between candidates
    stop_ = false;
    found_ = 0;
    thread_ = QThread::create([this, problem] {
        found_ = smallestQuickBudget(problem, problem.ram_budget_bytes, &stop_).value_or(0);
    });
    // Queued to this object's thread: the answer arrives with the GUI's events.
    connect(thread_, &QThread::finished, this, [this] {
        if (!stop_) emit finished(found_);
    });
    thread_->start();
    return true;
}

void WorkingBudgetSearch::cancel() { stop_ = true; }

}  // namespace poet::ui
