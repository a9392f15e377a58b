#pragma once
// The Pareto view: energy [J] against the RAM budget (or the runtime factor),
// one curve per strategy. Proven-optimal points (and the heuristics' exact
// values) are filled, time-limited MILP points with a gap are hollow,
// infeasible points are not drawn, and MILP points with no schedule found in
// time are question marks under the data. A vertical line marks the current budget;
// clicking a point emits pointActivated. A background runner fills the curves
// as points finish, with progress, time left and cancel.
#include <QString>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "sweep.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QMouseEvent;
class QProgressBar;
class QLabel;
class QPushButton;
class QThread;

namespace poet::ui {

// Runs a sweep on a worker thread; everything it emits arrives on the thread
// that owns it (queued). Keeps one cache across runs (and on disk when a
// directory is set).
class SweepRunner : public QObject {
    Q_OBJECT
public:
    explicit SweepRunner(QObject* parent = nullptr);
    ~SweepRunner() override;  // cancels and waits

    void setCacheDirectory(const QString& dir);  // before start()
    bool isRunning() const;
    // Starts unless running; returns whether it started.
    bool start(const poet::SweepConfig& config);
    // What the last sweep started was asked: its problem, points and solver settings.
    const poet::SweepConfig& config() const { return config_; }
    // Blocks until the worker is done (for tests and shutdown).
    void wait();

public Q_SLOTS:
    void cancel();

Q_SIGNALS:
    void started(int total);
    void progress(int done, int total, double eta_s, bool eta_is_limit);
    void rowFinished(const poet::SweepRow& row);
    void finished(const poet::SweepResult& result);

private:
    std::unique_ptr<poet::SweepCache> cache_;
    poet::SweepConfig config_;
    std::atomic<bool> cancel_{false};
    QThread* thread_ = nullptr;
};

class ParetoPlot : public QWidget {
    Q_OBJECT
public:
    explicit ParetoPlot(QWidget* parent = nullptr);
    ~ParetoPlot() override;

    // Replaces everything shown.
    void setResult(const poet::SweepResult& result);
    const poet::SweepResult& result() const { return result_; }
    // Adds (or replaces) one row and redraws.
    void addRow(const poet::SweepRow& row);
    // Empties the plot; a sweep running is cancelled and what it still
    // sends is dropped (it is of the problem cleared away).
    void clear();

    // The window's budgets: a dashed line marks the one the sweep varies.
    void setCurrentBudgets(std::int64_t ram_budget_bytes, double runtime_budget_factor);

    SweepRunner* runner() const { return runner_; }
    // Starts a background sweep; rows appear as they finish.
    bool runSweep(const poet::SweepConfig& config);

    // PNG, PDF, SVG (by extension) with the publication style, or CSV.
    bool exportTo(const QString& path, QString* error) const;

    QCustomPlot* plot() const { return plot_; }
    // Pixel position of a drawn point (for tests and tooltips); (-1,-1) if not drawn.
    QPointF pointPosition(const QString& strategy, int row_index_in_curve) const;
    // The tooltip at a pixel of the plot: the figures of every point drawn
    // there (curves that coincide list each); empty off the points.
    QString toolTipAt(const QPointF& pixel) const;
    // The point the arrow keys have reached (strategy, row index in its
    // curve); an empty strategy before any key.
    std::pair<QString, int> keyPoint() const { return {keyStrategy_, keyIndex_}; }

public Q_SLOTS:
    // Emits pointActivated for the index-th row of the strategy's curve (axis
    // order), if it is drawn. Returns through the signal only.
    void activatePoint(const QString& strategy, int row_index_in_curve);
    void cancelSweep();

Q_SIGNALS:
    void pointActivated(std::int64_t ram_budget_bytes, double runtime_budget_factor, QString strategy);
    // The runner is idle again: the sweep ended and is drawn (true), or it
    // was cleared while it ran and is dropped (false).
    void sweepEnded(bool drawn);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    // Arrow keys walk the points (left and right along a curve, up and down
    // to the next curve), Enter or Space opens one, as a click does.
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    void onClick(QMouseEvent* event);  // opens the drawn point nearest, within reach
    void onProgress(int done, int total, double eta_s, bool etaIsLimit);
    // A drawn point's plot coordinates, if it is drawn.
    std::optional<QPointF> pointCoords(const QString& strategy, int row_index_in_curve) const;
    std::vector<int> drawnIndices(const QString& strategy) const;  // axis order
    // The drawn points within reach of a pixel, each once, in the sweep's
    // strategy order: what hovering there lists and a click there opens.
    struct NearPoint { QString strategy; int index; double distance; };
    std::vector<NearPoint> pointsNear(const QPointF& pixel) const;
    void moveKeyPoint(int along, int across);
    QString currentBudgetText() const;  // the window's budget on the swept axis

    poet::SweepResult result_;
    QCustomPlot* plot_ = nullptr;
    QCPItemStraightLine* marker_ = nullptr;
    bool discardRunning_ = false;  // clear() came while a sweep ran: drop what it sends
    bool sweepUnanswered_ = false;  // started, its finished() not yet here (its thread may have ended)
    QString keyStrategy_;
    int keyIndex_ = -1;
    QCPGraph* keyRing_ = nullptr;  // drawn around that point
    std::int64_t current_ram_ = -1;  // none before setCurrentBudgets
    double current_factor_ = -1;
    QProgressBar* progress_ = nullptr;
    QLabel* eta_ = nullptr;
    QLabel* offRange_ = nullptr;  // where the window's budget is, when off the swept range
    QPushButton* cancel_ = nullptr;
    SweepRunner* runner_ = nullptr;
    // For each drawn graph: its strategy and the curve rows behind its data points.
    struct Drawn { QCPGraph* graph; QString strategy; std::vector<int> rows; };
    std::vector<Drawn> drawn_;
};

// Publication-style plot of a sweep (about 3.5 in wide, 8 pt fonts) to PNG,
// PDF or SVG (vectors), or its rows to CSV, chosen by the file's extension.
// Needs no window; makes a QApplication (offscreen when there is no display)
// if there is none.
bool exportParetoPlot(const poet::SweepResult& result, const QString& path, QString* error);

// Whether exportParetoPlot writes `path`'s format (by its extension), else
// false with *error saying which it writes: for `poet sweep --plot`, which
// asks before the sweep, not after it.
bool paretoPlotFormatKnown(const QString& path, QString* error);

}  // namespace poet::ui

// exportParetoPlot is also reachable as poet::exportParetoPlot (the name the CLI uses).
namespace poet {
using ui::exportParetoPlot;
using ui::paretoPlotFormatKnown;
}
