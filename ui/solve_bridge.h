#pragma once
// The GUI's one way to the solver: runs poet::solve on a worker thread and
// answers with values through queued signals. No widgets here, so tests link
// it without a window.
//
// With a SolveCache, answers come from (and go to) the disk cache, so
// reopening a point is instant. The schedules of recent answers for the same
// model, platform and options are handed to each new solve as warm starts: a
// slider step away, they are usually valid and close to the new optimum.
//
// Every request gets an id. A new request cancels the one before it (through
// the std::atomic<bool> poet::solve polls). Only answers for the newest
// request are emitted: an older solve that finishes late is dropped, so a
// newer answer is never overwritten by an older one.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "problem.h"
#include "solve_cache.h"
#include "solve_result.h"
#include "solver.h"

Q_DECLARE_METATYPE(poet::SolveResult)

namespace poet::ui {

class SolveBridge : public QObject {
    Q_OBJECT
public:
    explicit SolveBridge(QObject* parent = nullptr);
    ~SolveBridge() override;  // cancels whatever runs and joins the workers

    // Starts solving `problem`; cancels the previous request. Returns its id (> 0).
    quint64 request(const Problem& problem, const SolverOptions& options);
    // Cancels the newest request. Its `finished` still arrives (Cancelled, or
    // Feasible with the best schedule found so far).
    void cancel();
    // Forgets the newest request: nothing more is emitted for it.
    void discard();

    // Answers from and to this cache (null: none).
    void setCache(std::shared_ptr<const SolveCache> cache) { cache_ = std::move(cache); }

    quint64 latestRequestId() const { return latest_; }
    bool isBusy() const { return busy_; }  // the newest request has not finished
    int runningWorkers() const;            // including cancelled ones still winding down

    static void registerMetaTypes();

signals:
    void started(quint64 requestId);
    void incumbent(quint64 requestId, const poet::SolveResult& result);
    void finished(quint64 requestId, const poet::SolveResult& result);
    void failed(quint64 requestId, const QString& message);

private:
    struct Job {
        quint64 id = 0;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<bool>> done;
        std::thread thread;
    };
    void deliverIncumbent(quint64 id, const SolveResult& r);
    void deliverFinished(quint64 id, const SolveResult& r);
    void deliverFailed(quint64 id, const QString& message);
    void reapFinishedJobs();

    struct Recent {
        std::string model, platform;
        int batch_size = 0;
        ProblemOptions options;
        Schedule schedule;
    };
    void remember(const Problem& problem, const SolveResult& r);

    std::shared_ptr<const SolveCache> cache_;
    std::vector<Recent> recent_;  // newest last
    // The recent solves' lower bounds (newest last): one proven at a looser
    // budget starts a solve at a tighter one (proven_bound.h).
    std::vector<ProvenBound> bounds_;
    Problem latest_problem_;
    quint64 latest_ = 0;
    bool busy_ = false;
    std::vector<Job> jobs_;
    std::shared_ptr<std::atomic<bool>> alive_;
};

}  // namespace poet::ui
