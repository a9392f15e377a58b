#include "solve_bridge.h"

#include <QMetaObject>
#include <QPointer>
#include <exception>

namespace poet::ui {

void SolveBridge::registerMetaTypes() {
    qRegisterMetaType<poet::SolveResult>("poet::SolveResult");
}

SolveBridge::SolveBridge(QObject* parent) : QObject(parent), alive_(std::make_shared<std::atomic<bool>>(true)) {
    registerMetaTypes();
}

SolveBridge::~SolveBridge() {
    alive_->store(false);
    for (auto& j : jobs_) j.cancel->store(true);
    for (auto& j : jobs_)
        if (j.thread.joinable()) j.thread.join();
}

int SolveBridge::runningWorkers() const {
    int n = 0;
    for (const auto& j : jobs_) n += !j.done->load();
    return n;
}

void SolveBridge::reapFinishedJobs() {
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        if (it->done->load()) {
            if (it->thread.joinable()) it->thread.join();  // returns at once: the body has ended
            it = jobs_.erase(it);
        } else {
            ++it;
        }
    }
}

namespace {
constexpr std::size_t kRecentSchedules = 6;
constexpr std::size_t kRecentBounds = 32;
}

void SolveBridge::remember(const Problem& problem, const SolveResult& r) {
    if (r.status == SolveStatus::Optimal || r.status == SolveStatus::Feasible) {
        keepProvenBound(bounds_, problem, r.best_bound_j);
        if (bounds_.size() > kRecentBounds) bounds_.erase(bounds_.begin());
    }
    if (!r.schedule) return;
    recent_.push_back({problem.model, problem.platform, problem.batch_size, problem.options, *r.schedule});
    if (recent_.size() > kRecentSchedules) recent_.erase(recent_.begin());
}

quint64 SolveBridge::request(const Problem& problem, const SolverOptions& requested) {
    reapFinishedJobs();
    SolverOptions options = requested;
    for (auto it = recent_.rbegin(); it != recent_.rend(); ++it)
        if (it->model == problem.model && it->platform == problem.platform && it->batch_size == problem.batch_size &&
            it->options.paging == problem.options.paging && it->options.remat == problem.options.remat &&
            it->schedule.size() == problem.graph.size())
            options.hints.push_back(it->schedule);
    options.proven_bounds.insert(options.proven_bounds.end(), bounds_.begin(), bounds_.end());
    latest_problem_ = problem;
    for (auto& j : jobs_) j.cancel->store(true);
    const quint64 id = ++latest_;
    busy_ = true;

    Job job;
    job.id = id;
    job.cancel = std::make_shared<std::atomic<bool>>(false);
    job.done = std::make_shared<std::atomic<bool>>(false);
    // The worker only touches values it owns and posts results back to this
    // object's thread; QPointer + alive flag make a late post after the
    // bridge died a no-op (Qt also drops functors whose context object is gone).
    QPointer<SolveBridge> self(this);
    auto cancel = job.cancel;
    auto done = job.done;
    auto alive = alive_;
    auto cache = cache_;
    job.thread = std::thread([self, id, problem, options, cancel, done, alive, cache]() {
        auto post = [&](auto fn) {
            if (!alive->load()) return;
            QMetaObject::invokeMethod(self.data(), fn, Qt::QueuedConnection);
        };
        try {
            auto onIncumbent = [&](const SolveResult& r) {
                if (cancel->load()) return;
                post([self, id, r]() {
                    if (self) self->deliverIncumbent(id, r);
                });
            };
            SolveResult result = cache ? solveWithCache(problem, options, *cache, onIncumbent, cancel.get())
                                       : poet::solve(problem, options, onIncumbent, cancel.get());
            post([self, id, result]() {
                if (self) self->deliverFinished(id, result);
            });
        } catch (const std::exception& e) {
            const QString msg = QString::fromUtf8(e.what());
            post([self, id, msg]() {
                if (self) self->deliverFailed(id, msg);
            });
        } catch (...) {
            post([self, id]() {
                if (self) self->deliverFailed(id, QStringLiteral("unknown error in the solver"));
            });
        }
        done->store(true);
    });
    jobs_.push_back(std::move(job));
    emit started(id);
    return id;
}

void SolveBridge::cancel() {
    for (auto& j : jobs_)
        if (j.id == latest_) j.cancel->store(true);
}

void SolveBridge::discard() {
    for (auto& j : jobs_) j.cancel->store(true);
    ++latest_;  // nothing older is delivered any more
    busy_ = false;
}

void SolveBridge::deliverIncumbent(quint64 id, const SolveResult& r) {
    if (id != latest_ || !busy_) return;  // stale
    emit incumbent(id, r);
}

void SolveBridge::deliverFinished(quint64 id, const SolveResult& r) {
    reapFinishedJobs();
    if (id != latest_) return;  // stale
    busy_ = false;
    remember(latest_problem_, r);
    emit finished(id, r);
}

void SolveBridge::deliverFailed(quint64 id, const QString& message) {
    reapFinishedJobs();
    if (id != latest_) return;
    busy_ = false;
    emit failed(id, message);
}

}  // namespace poet::ui
