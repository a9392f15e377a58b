#pragma once
// The explorer's main window: problem pickers and budget sliders on top, the
// schedule views (heatmap, memory timeline, cell table, Pareto) in the middle,
// the summary at the side, teaching mode below, the status line at the bottom.
// It owns a SolveBridge; it never solves on the GUI thread.
#include <QHash>
#include <QMainWindow>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "budget_undo.h"
#include "problem_undo.h"
#include "graph.h"
#include "problem.h"
#include "replay.h"
#include "solve_result.h"
#include "solver.h"
#include "status_line.h"

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;
class QUndoStack;

namespace poet::ui {

class BudgetControl;
class HeatmapView;
class MemoryTimelineView;
class ParetoPlot;
class ScheduleCellModel;
class SolveBridge;
class StageAxisLink;
class StatusLine;
class SummaryPanel;
class TeachingPanel;
class WorkingBudgetSearch;

// What the command line asks for; unset fields come from QSettings (when
// use_settings) or the defaults (resnet18_cifar, a72, RAM budget at the plain
// pass's peak, runtime 1.0x).
struct ExplorerOptions {
    std::optional<QString> model, platform;
    std::optional<int> batch_size;
    std::optional<QString> ram_budget;  // bytes, or "3MB", "2.9MiB", "60%" (of the plain-pass peak)
    std::optional<double> runtime_budget;
    std::optional<bool> paging, remat;
    std::optional<double> time_limit_s;
    std::optional<double> gap;  // relative, 0.005 = 0.5 %
    std::optional<QString> tab;  // one of ExplorerWindow::tabNames(), checked by the caller
    bool use_settings = true;
};

// The ranges of the window's boxes. The command line's options are checked
// against them: a value outside, or with more decimals, was clamped or
// rounded without a word while the solve used it as given (1.0005 showed
// as "1.000 x").
struct ExplorerRanges {
    static constexpr double kRamBudgetMaxBytes = 1e13;  // 10 TB: past any device's RAM
    static constexpr int kBatchMax = 65536;
    static constexpr double kRuntimeFactorMax = 100;
    static constexpr int kRuntimeFactorDecimals = 4;
    static constexpr double kTimeLimitMinS = 0.5, kTimeLimitMaxS = 3600;
    static constexpr int kTimeLimitDecimals = 1;
    static constexpr double kGapPercentMax = 10;
    static constexpr int kGapPercentDecimals = 2;
};

class ExplorerWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit ExplorerWindow(QWidget* parent = nullptr);
    ~ExplorerWindow() override;

    // Applies the options and loads the problem; false with *error on bad input
    // (unknown model or platform, malformed profile, bad budget).
    bool initialize(const ExplorerOptions& options, QString* error);

    // The tabs' names for --tab, in their order: schedule, cells, pareto.
    static QStringList tabNames();

    const Problem& problem() const { return problem_; }
    const std::optional<SolveResult>& shownResult() const { return shown_; }
    std::int64_t plainPeakBytes() const { return plain_peak_; }
    std::int64_t minimumBudgetBytes() const { return min_budget_; }
    bool isSolving() const;
    // Status of the last settled solve (none before the first, or after a failure).
    std::optional<SolveStatus> lastStatus() const { return lastStatus_; }

    HeatmapView* heatmap() const { return heatmap_; }
    MemoryTimelineView* timeline() const { return timeline_; }
    SummaryPanel* summary() const { return summary_; }
    StatusLine* statusLine() const { return status_; }
    TeachingPanel* teaching() const { return teaching_; }
    SolveBridge* bridge() const { return bridge_; }
    QUndoStack* undoStack() const { return undo_; }
    BudgetControl* ramControl() const { return ram_; }
    BudgetControl* runtimeControl() const { return runtime_; }
    ScheduleCellModel* cellModel() const { return cellModel_; }

    // Budget changes go through the undo stack (session > 0 merges a drag).
    void setBudgets(const Budgets& b, int session = 0);
    Budgets budgets() const { return budgets_; }
    // The solver's settings, from the time limit and gap boxes, for a solve
    // and for each point of a sweep alike (the sweep ran on one thread where
    // the solve had two, and ended elsewhere: 0.872 J against 0.747 J for
    // resnet18_cifar on m4 at 262,144 B and 1.5x, 3 s).
    SolverOptions solverOptions() const;

    // Exports without dialogs (the menu actions ask for a file and call these).
    bool exportHeatmap(const QString& path, QString* error);
    bool exportTimeline(const QString& path, QString* error);
    bool exportSummary(const QString& path, QString* error);
    bool saveScheduleJson(const QString& path, QString* error);
    bool saveScheduleCsv(const QString& path, QString* error);
    // The Pareto tab's sweep: its plot (PDF, SVG, PNG, publication style)
    // or its points (CSV); false where no sweep has a point yet.
    bool exportPareto(const QString& path, QString* error);
    // heatmap, timeline and summary in PNG, PDF and SVG, plus JSON and CSV,
    // where a schedule is shown, and the Pareto plot (and its CSV) where a
    // sweep has points; false where neither is. *leftOut: what was not
    // written and why (empty where all was).
    bool exportAll(const QString& directory, QString* error, QString* leftOut = nullptr);
    // File > Open model profile without its dialog: the file joins the Model
    // box (as its absolute path) and is solved, an undo step; false where it
    // does not load (a warning says why, and the box keeps no item of it).
    bool openModelFile(const QString& path);

    // One file of exportAll's set: its path and what writes it.
    struct ExportFile {
        QString path;
        bool (ExplorerWindow::*write)(const QString&, QString*);
    };
    // The files exportAll would write into `directory`, in order.
    std::vector<ExportFile> exportAllFiles(const QString& directory, QString* leftOut);

public slots:
    void solveNow();
    void cancelSolve();  // and a search for a working budget
    // The status line's "Find a RAM budget that works": searches from the
    // budget on screen up (WorkingBudgetSearch) and, where one is found,
    // sets it (an undo step), which solves there.
    void findWorkingBudget();
    // The Pareto tab's "Run sweep": the problem on screen at its points.
    void runParetoSweep();

signals:
    // A solve ended (finished or failed) and its answer is on screen.
    void solveSettled(bool hasSchedule);
    // The Pareto tab's sweep ended (finished or cancelled) and is drawn.
    void sweepSettled();

protected:
    void closeEvent(QCloseEvent* e) override;
    // Ctrl+Z and Ctrl+Shift+Z in a number box undo the window's steps,
    // unless an edit is in progress there.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    void buildActions();
    // A profile named by its file (--model ./mine.yaml, remembered, opened)
    // joins `box` as its absolute path, returned: the name to select. Any
    // other name is returned as is.
    QString addProfileFile(QComboBox* box, const QString& name);
    void warnOfUnloadedProfile(const QString& problem, const QString& why);
    void warnOfProfile(const QString& text, const QString& why);  // a profile that does not load, not modal
    // A remembered budget out of the boxes' range (a settings file edited or
    // from another version): the default instead, said on stderr.
    void ignoreRememberedValue(const QString& what, const QString& value, const QString& wanted);
    bool loadGraph(QString* error);
    void onProblemSwitchChanged();  // a model, platform, batch or switch changed: an undo step
    ProblemSetup widgetSetup() const;  // what the problem's widgets show, with the budgets
    void applySetup(const ProblemSetup& s);  // sets the widgets, loads what changed, solves
    void showSetupWidgets(const ProblemSetup& s);  // the widgets only, without their signals
    void applyBudgets(const Budgets& b);
    void scheduleSolve();
    void showResult(const SolveResult& r);
    void clearViews(const QString& why);
    QString viewTitle(const SolveResult& r) const;
    // What an export draws from: the schedule on screen, or the Pareto tab's sweep.
    enum class ExportSource { Schedule, Sweep };
    // model-platform-RAM budget; a sweep's leaves the budget out (it spans many).
    QString baseFileName(ExportSource source = ExportSource::Schedule) const;
    void exportWithDialog(const QString& what, bool (ExplorerWindow::*fn)(const QString&, QString*),
                          const QString& filters, ExportSource source = ExportSource::Schedule);
    int sweepRows() const;  // the Pareto tab's points so far
    bool sweepHasSchedule() const;  // some point of the Pareto tab's sweep has one
    // Whether the schedule on screen can be exported: there is one, and it
    // was solved for the problem and budgets the window shows; else why not.
    bool scheduleToExport(QString* error) const;
    void writeSettings();
    QString cacheKey() const;
    double relativeGap() const;  // the gap box, as a fraction
    StatusContext statusContext() const;  // what the status line words a result against
    void updateBudgetMarks();

    SolveBridge* bridge_;
    WorkingBudgetSearch* budgetSearch_;
    QString budgetSearchKey_;  // cacheKey() of the problem it searches for
    ProblemSetup setup_;         // the problem loaded, as its widgets say it
    bool applyingSetup_ = false;  // applySetup sets the widgets
    QUndoStack* undo_;
    QTimer* debounce_;

    QComboBox* model_;
    QComboBox* platform_;
    QSpinBox* batch_;
    QCheckBox* paging_;
    QCheckBox* remat_;
    QDoubleSpinBox* timeLimit_;
    QDoubleSpinBox* gap_;  // percent
    QPushButton* solveButton_;
    BudgetControl* ram_;
    BudgetControl* runtime_;
    QLabel* problemInfo_;

    QTabWidget* tabs_;
    QSplitter* viewSplit_;
    QSplitter* mainSplit_;
    HeatmapView* heatmap_;
    MemoryTimelineView* timeline_;
    StageAxisLink* stageLink_;
    QStackedWidget* cellPages_;  // the table, or why there is none
    QTableView* cellTable_;
    QLabel* cellsWhyEmpty_;
    QLabel* settingsReset_ = nullptr;  // says which remembered settings were not usable
    QComboBox* sweepAxis_;  // RAM budget, runtime budget
    QSpinBox* sweepPoints_;
    ScheduleCellModel* cellModel_;
    SummaryPanel* summary_;
    TeachingPanel* teaching_;
    StatusLine* status_;
    ParetoPlot* pareto_ = nullptr;

    QAction* solveAct_;
    QAction* cancelAct_;

    Problem problem_;
    ReplayReport plain_;
    std::int64_t plain_peak_ = 0;
    std::int64_t min_budget_ = 0;
    Budgets budgets_;
    std::optional<SolveResult> shown_;
    QString shownKey_;  // cacheKey() of the problem shown_ was solved for
    std::optional<SolveStatus> lastStatus_;
    quint64 pendingId_ = 0;
    QString pendingKey_;  // cacheKey() of the problem pendingId_ asked
    bool isPending(quint64 id) const;
    bool loading_ = false;
    bool use_settings_ = true;
    QHash<QString, SolveResult> cache_;
    QString lastExportDir_;
    QString cacheProblem_;  // why the solve cache cannot be used, "" where it is
};

}  // namespace poet::ui
