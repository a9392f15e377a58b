#include "explorer_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStyle>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>
#include <cstdio>
#include <qcustomplot.h>

#include "atomic_write.h"
#include "budget_control.h"
#include "copyable_table_view.h"
#include "effective_budget.h"
#include "figure_text.h"
#include "flow_row.h"
#include "heatmap_view.h"
#include "memory_timeline_view.h"
#include "pareto_plot.h"
#include "problem_loader.h"
#include "profile_catalog.h"
#include "ram_budget_text.h"
#include "relative_gap.h"
#include "schedule_cell_model.h"
#include "schedule_io.h"
#include "solve_bridge.h"
#include "stage_axis_link.h"
#include "status_line.h"
#include "summary_panel.h"
#include "teaching_panel.h"
#include "units.h"
#include "view_export.h"
#include "working_budget_search.h"

namespace poet::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
constexpr const char* kSettingsGroup = "explorer";
// The explorer's default target gap. CBC closes the last fraction of a percent
// slowly: at 0.01 % the reference's API example runs to the time limit, at
// 0.5 % it stops after about 1 s (bench_solve --gap). The CLI keeps 0.01 %.
constexpr double kDefaultGapPercent = 0.5;
constexpr int kDefaultSweepPoints = 12;
// The explorer's sweep points are quick looks: a cap keeps 12 points of
// several strategies within minutes whatever the time limit box says.
constexpr double kSweepPointLimitS = 10;
// A runtime sweep's range, as `poet sweep --vary runtime`'s default: past 2x
// few schedules change.
constexpr double kSweepRuntimeMax = 2.0;

}  // namespace

ExplorerWindow::ExplorerWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("POET Explorer"));
    setWindowIcon(QIcon(QStringLiteral(":/poet/poet-explorer.svg")));
    bridge_ = new SolveBridge(this);
    budgetSearch_ = new WorkingBudgetSearch(this);
    connect(budgetSearch_, &WorkingBudgetSearch::finished, this, [this](qint64 found) {
        cancelAct_->setEnabled(bridge_->isBusy());
        if (cacheKey() != budgetSearchKey_) return;  // of a problem left since
        if (found > 0) return setBudgets(Budgets{found, budgets_.runtime_budget_factor});
        status_->showMessage(tr("The quick heuristics find no schedule at %1 with any RAM budget up to the plain "
                                "pass's peak, %2: a larger runtime budget may help.")
                                 .arg(q(formatFactor(problem_.runtime_budget_factor)),
                                      q(formatBytesExact(plain_peak_))),
                             StatusTone::Bad);
    });
    if (const auto dir = defaultSolveCacheDirectory()) {
        if (const std::string why = unusableCacheDirectory(*dir); why.empty())
            bridge_->setCache(std::make_shared<SolveCache>(*dir));
        else
            cacheProblem_ = tr("Solves are not kept: the solve cache %1 (set POET_CACHE_DIR to another directory, "
                               "or empty for none).")
                                .arg(QString::fromStdString(why));
    }
    undo_ = new QUndoStack(this);
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(25);
    connect(debounce_, &QTimer::timeout, this, &ExplorerWindow::solveNow);
    buildUi();
    buildActions();

    connect(bridge_, &SolveBridge::incumbent, this, [this](quint64 id, const SolveResult& r) {
        if (!isPending(id)) return;
        status_->showIncumbent(r);
        if (r.schedule) showResult(r);
    });
    connect(bridge_, &SolveBridge::finished, this, [this](quint64 id, const SolveResult& r) {
        if (!isPending(id)) return;
        solveAct_->setEnabled(true);
        cancelAct_->setEnabled(false);
        lastStatus_ = r.status;
        status_->showResult(r, statusContext());
        if (r.schedule) {
            showResult(r);
            if (r.status == SolveStatus::Optimal) cache_.insert(cacheKey(), r);
        } else if (r.status == SolveStatus::Cancelled && shown_) {
            // keep what is on screen; the status says it was cancelled
        } else {
            clearViews(status_->text());
            timeline_->showPlainOnly(problem_.graph, plain_, problem_.ram_budget_bytes);
            summary_->setResult(problem_, r, plain_);
        }
        emit solveSettled(r.schedule.has_value());
    });
    connect(bridge_, &SolveBridge::failed, this, [this](quint64 id, const QString& msg) {
        if (!isPending(id)) return;
        solveAct_->setEnabled(true);
        cancelAct_->setEnabled(false);
        lastStatus_.reset();
        status_->showFailure(msg);
        emit solveSettled(false);
    });
}

ExplorerWindow::~ExplorerWindow() = default;

void ExplorerWindow::buildUi() {
    auto* central = new QWidget(this);
    auto* outer = new QVBoxLayout(central);

    // --- Problem row -------------------------------------------------------
    auto* problemBox = new QGroupBox(tr("Problem"), central);
    auto* prow = new FlowRow(problemBox);
    model_ = new QComboBox(problemBox);
    model_->setObjectName(QStringLiteral("modelBox"));
    model_->setToolTip(tr("The network to train: a model profile (YAML). Open one from any folder with "
                          "File > Open model profile, or add your own to the list in "
                          "~/.local/share/poet/profiles/models or a directory in $POET_PROFILES."));
    platform_ = new QComboBox(problemBox);
    platform_->setObjectName(QStringLiteral("platformBox"));
    platform_->setToolTip(tr("The device that trains: compute speed and efficiency, flash latency and "
                             "throughput (a platform profile)."));
    batch_ = new QSpinBox(problemBox);
    batch_->setRange(0, ExplorerRanges::kBatchMax);
    batch_->setSpecialValueText(tr("default"));
    batch_->setToolTip(tr("Batch size: samples per training iteration. \"default\" uses the model profile's."));
    paging_ = new QCheckBox(tr("&Paging"), problemBox);
    paging_->setObjectName(QStringLiteral("pagingSwitch"));
    paging_->setToolTip(tr("Paging: write a layer's output to flash (secondary storage) and read it back just "
                           "before it is needed again. Saves RAM, costs energy for the flash traffic."));
    remat_ = new QCheckBox(tr("Rematerial&ization"), problemBox);  // Alt+R is the RAM budget
    remat_->setObjectName(QStringLiteral("rematSwitch"));
    remat_->setToolTip(tr("Rematerialization (recomputation): free a layer's output early and compute it again "
                          "when a later layer needs it. Saves RAM, costs compute energy and time."));
    timeLimit_ = new QDoubleSpinBox(problemBox);
    timeLimit_->setRange(ExplorerRanges::kTimeLimitMinS, ExplorerRanges::kTimeLimitMaxS);
    timeLimit_->setDecimals(ExplorerRanges::kTimeLimitDecimals);
    timeLimit_->setValue(30);
    timeLimit_->setSuffix(tr(" s"));
    timeLimit_->setToolTip(tr("Time limit of one solve (wall clock). When it passes, the best schedule found so "
                              "far is shown, marked \"feasible\" with its gap to the proven bound."));
    gap_ = new QDoubleSpinBox(problemBox);
    gap_->setRange(0.0, ExplorerRanges::kGapPercentMax);
    gap_->setDecimals(ExplorerRanges::kGapPercentDecimals);
    gap_->setSingleStep(0.1);
    gap_->setValue(kDefaultGapPercent);
    gap_->setSuffix(tr(" %"));
    gap_->setToolTip(tr("Target gap: the solve stops, and calls its schedule optimal, once no schedule can be more "
                        "than this much cheaper (the gap between the schedule and the solver's proven bound). "
                        "0 % proves the exact optimum, which can take the whole time limit."));
    solveButton_ = new QPushButton(tr("Solve"), problemBox);
    solveButton_->setToolTip(tr("Solve again with the current settings (F5). Changes solve automatically."));
    // A label and its box: one item of the row, never split over two lines.
    auto addLabeled = [&](const QString& text, QWidget* w) {
        auto* pair = new QWidget(problemBox);
        auto* lay = new QHBoxLayout(pair);
        lay->setContentsMargins(0, 0, 0, 0);
        auto* l = new QLabel(text, pair);
        l->setBuddy(w);
        lay->addWidget(l);
        lay->addWidget(w);
        prow->addWidget(pair);
    };
    addLabeled(tr("&Model"), model_);
    addLabeled(tr("Pla&tform"), platform_);
    addLabeled(tr("&Batch"), batch_);
    prow->addWidget(paging_);
    prow->addWidget(remat_);
    addLabeled(tr("Time &limit"), timeLimit_);
    addLabeled(tr("&Gap"), gap_);
    prow->addWidget(solveButton_);
    prow->setAlignment(solveButton_, Qt::AlignRight);
    outer->addWidget(problemBox);

    // --- Budgets -------------------------------------------------------------
    auto* budgetBox = new QGroupBox(tr("Budgets"), central);
    auto* bgrid = new QGridLayout(budgetBox);
    ram_ = new BudgetControl(budgetBox);
    // Beside the budget, the RAM a schedule can use within it (effective_budget.h)
    // where that is 0.5% less: bert's outputs come in 1.5 MB blocks, so a drag
    // within one block changes nothing, and this says why.
    ram_->setFormatter([this](double v) {
        const auto bytes = static_cast<std::int64_t>(v);
        const std::int64_t usable = effectiveRamBudget(problem_.graph, bytes);
        QString text = q(formatBytes(bytes));
        if (usable > 0 && static_cast<double>(usable) < 0.995 * v)
            text += tr(" (usable %1)").arg(q(formatBytes(usable)));
        return text;
    });
    // The slider was 75 px shorter while "(usable …)" showed.
    ram_->setUnitWidthFor(tr("000.00 MB (usable 000.00 MB)"));
    ram_->setEntryRange(0, ExplorerRanges::kRamBudgetMaxBytes, 0, 1000, tr(" B"));
    // The box reads what --ram-budget reads: "3MB", "2.5MiB", "30%" of the plain-pass peak.
    ram_->setEntryReader([this](const QString& text) -> std::optional<double> {
        const auto bytes = parseRamBudget(text.toStdString(), plain_peak_);
        if (!bytes) return std::nullopt;
        return static_cast<double>(*bytes);
    });
    ram_->setControlToolTips(tr("RAM budget: the most memory the schedule may use for layer outputs at any "
                                "moment. Drag to explore; type an exact number of bytes in the box, or e.g. "
                                "3MB, 2.5MiB or 30% (of the plain pass's peak). Marks: the smallest budget "
                                "that could work (a lower bound) and the plain pass's peak. \"Usable\": the most "
                                "RAM any schedule can hold within the budget, a sum of layer output sizes; the "
                                "budgets with the same usable RAM admit the same schedules."));
    runtime_ = new BudgetControl(budgetBox);
    // Four decimals, three shown at least: 1.001 to 1.005 are budgets of
    // their own (a few recomputations fit), which two decimals showed and
    // read as 1.00; the benchmarks' 1.0005 showed as 1.000.
    runtime_->setEntryRange(1.0, ExplorerRanges::kRuntimeFactorMax, ExplorerRanges::kRuntimeFactorDecimals, 0.05,
                            tr(" x"), 3);
    runtime_->setSliderRange(1.0, 3.0);
    // What the factor is in time: "= 41.50 ms" was cut to "= 41.50 m" in
    // the smallest window (the width kept was for "000.00 MB").
    runtime_->setUnitWidthFor(tr("= 000.000 ms"));
    runtime_->setControlToolTips(tr("Runtime budget as a multiple of one plain pass's compute time (paging is not "
                                    "timed, as in POET): 1.0 allows no recomputation that takes time, 2.0 allows "
                                    "twice the compute time."));
    auto* ramLabel = new QLabel(tr("&RAM budget"), budgetBox);
    ramLabel->setBuddy(ram_->entry());
    auto* rtLabel = new QLabel(tr("R&untime budget"), budgetBox);
    rtLabel->setBuddy(runtime_->entry());
    bgrid->addWidget(ramLabel, 0, 0, Qt::AlignTop);
    bgrid->addWidget(ram_, 0, 1);
    bgrid->addWidget(rtLabel, 0, 2, Qt::AlignTop);
    bgrid->addWidget(runtime_, 0, 3);
    bgrid->setColumnStretch(1, 3);
    bgrid->setColumnStretch(3, 2);
    problemInfo_ = new QLabel(budgetBox);
    problemInfo_->setObjectName(QStringLiteral("problemInfo"));
    problemInfo_->setToolTip(tr("The network's size; its plain pass (every layer computed once, every output kept "
                                "until its last reader ran): peak RAM, energy and runtime per iteration; and the "
                                "least RAM any schedule needs (the largest layer output with all its inputs)."));
    problemInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problemInfo_->setWordWrap(true);  // a narrow window wraps it, as the Pareto tab's hint
    bgrid->addWidget(problemInfo_, 1, 0, 1, 4);
    outer->addWidget(budgetBox);

    // --- Views -----------------------------------------------------------------
    mainSplit_ = new QSplitter(Qt::Horizontal, central);
    tabs_ = new QTabWidget(mainSplit_);
    viewSplit_ = new QSplitter(Qt::Vertical, tabs_);
    heatmap_ = new HeatmapView(viewSplit_);
    timeline_ = new MemoryTimelineView(viewSplit_);
    viewSplit_->addWidget(heatmap_);
    viewSplit_->addWidget(timeline_);
    stageLink_ = new StageAxisLink(heatmap_, timeline_, this);
    viewSplit_->setStretchFactor(0, 3);
    viewSplit_->setStretchFactor(1, 2);
    tabs_->addTab(viewSplit_, tr("Schedule"));
    tabs_->setTabToolTip(0, tr("Heatmap of what happens to each layer at each stage, and RAM over time"));
    cellModel_ = new ScheduleCellModel(this);
    cellPages_ = new QStackedWidget(tabs_);
    cellPages_->setObjectName(QStringLiteral("cellPages"));
    cellTable_ = new CopyableTableView(cellPages_);
    cellTable_->setObjectName(QStringLiteral("cellTable"));
    cellTable_->setModel(cellModel_);
    // The longest one-word category, with the item view's text margins (the
    // focus frame's and a pixel each side), the grid line and two pixels for
    // rounding: "recomputed_" left them out, and every recomputed cell read
    // "recomput…".
    const int textMargin = cellTable_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, cellTable_) + 1;
    cellTable_->horizontalHeader()->setDefaultSectionSize(
        cellTable_->fontMetrics().horizontalAdvance(QString::fromUtf8(categoryName(CellCategory::Recomputed))) +
        2 * textMargin + 4);
    cellTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    cellTable_->setTabKeyNavigation(false);  // as the summary's: Tab goes on, the arrows walk the cells
    // Without a schedule an empty table stood white, like a failure: say why.
    cellsWhyEmpty_ = new QLabel(cellPages_);
    cellsWhyEmpty_->setAlignment(Qt::AlignCenter);
    cellsWhyEmpty_->setWordWrap(true);
    // With the status line's link ("Use 262,144 B"), working: its words
    // alone read as an instruction nothing carried out.
    cellsWhyEmpty_->setTextFormat(Qt::RichText);
    cellsWhyEmpty_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    cellPages_->addWidget(cellTable_);
    cellPages_->addWidget(cellsWhyEmpty_);
    tabs_->addTab(cellPages_, tr("Cells"));
    tabs_->setTabToolTip(1, tr("The heatmap as a table: one row per layer, one column per stage; Ctrl+C copies "
                               "the selected cells with their headers, tab-separated"));
    {
        auto* page = new QWidget(tabs_);
        auto* lay = new QVBoxLayout(page);
        // A row that wraps: in a narrow window the hint goes to a line of
        // its own (wrapped beside the controls it took five lines, and the
        // plot was drawn under the point count and lost its x axis).
        auto* bar = new FlowRow;
        auto* run = new QPushButton(tr("Run s&weep"), page);
        run->setObjectName(QStringLiteral("runSweep"));
        run->setToolTip(tr("Solve the current problem at evenly spaced budgets, for POET and the baselines, and "
                           "draw energy against the budget. Runs in the background; each point uses at most the "
                           "time limit, and %1 s at most.")
                            .arg(kSweepPointLimitS));
        sweepAxis_ = new QComboBox(page);
        sweepAxis_->setObjectName(QStringLiteral("sweepAxis"));
        sweepAxis_->addItems({tr("RAM budget"), tr("runtime budget")});
        sweepAxis_->setToolTip(tr("What the sweep varies: the RAM budget, from the smallest that could work to the "
                                  "plain pass's peak, at the runtime budget above; or the runtime budget, from 1.0x "
                                  "to %1x, at the RAM budget above (where recomputation pays off)")
                                   .arg(kSweepRuntimeMax, 0, 'f', 1));
        sweepPoints_ = new QSpinBox(page);
        sweepPoints_->setObjectName(QStringLiteral("sweepPoints"));
        sweepPoints_->setRange(3, 100);
        sweepPoints_->setValue(kDefaultSweepPoints);
        sweepPoints_->setSuffix(tr(" points"));
        sweepPoints_->setToolTip(tr("How many budgets the sweep solves, each for every strategy"));
        // A baseline's point opens POET's schedule at its budgets (the
        // explorer solves POET only): the hint says so, short enough for one
        // line of the narrowest window; the keys are in its tooltip.
        auto* hint = new QLabel(tr("Hover a point for its figures; click it to solve POET there."), page);
        hint->setObjectName(QStringLiteral("sweepHint"));
        hint->setToolTip(tr("Hover a point for its figures; click it, or reach it with the arrow keys and press "
                            "Enter, to solve POET at its budgets (a baseline's point too)."));
        bar->addWidget(run);
        bar->addWidget(sweepAxis_);
        bar->addWidget(sweepPoints_);
        bar->addWidget(hint);
        lay->addLayout(bar);
        auto* pareto = new ParetoPlot(page);
        lay->addWidget(pareto, 1);
        pareto_ = pareto;
        tabs_->addTab(page, tr("Pareto"));
        tabs_->setTabToolTip(2, tr("Energy against the RAM or runtime budget for POET and baselines: click a point "
                                   "to solve POET there"));
        connect(pareto, &ParetoPlot::pointActivated, this, [this](std::int64_t ram, double rt, const QString&) {
            setBudgets(Budgets{ram, rt});
            tabs_->setCurrentIndex(0);
        });
        connect(run, &QPushButton::clicked, this, &ExplorerWindow::runParetoSweep);
        // One sweep at a time: a second Run sweep was dropped without a word
        // (the plot cleared, the old sweep drawn again when it ended).
        const auto enableSweepControls = [this, run](bool on) {
            for (QWidget* w : {static_cast<QWidget*>(run), static_cast<QWidget*>(sweepAxis_),
                               static_cast<QWidget*>(sweepPoints_)})
                w->setEnabled(on);
        };
        connect(pareto->runner(), &SweepRunner::started, this, [enableSweepControls] { enableSweepControls(false); });
        connect(pareto, &ParetoPlot::sweepEnded, this, [this, enableSweepControls](bool drawn) {
            enableSweepControls(true);
            if (drawn) Q_EMIT sweepSettled();
        });
    }
    mainSplit_->addWidget(tabs_);

    auto* side = new QWidget(mainSplit_);
    auto* sideLay = new QVBoxLayout(side);
    sideLay->setContentsMargins(0, 0, 0, 0);
    summary_ = new SummaryPanel(side);
    sideLay->addWidget(summary_, 1);
    auto* teachBox = new QGroupBox(tr("Teaching mode"), side);
    auto* teachLay = new QVBoxLayout(teachBox);
    teaching_ = new TeachingPanel(teachBox);
    teachLay->addWidget(teaching_);
    sideLay->addWidget(teachBox);
    mainSplit_->addWidget(side);
    mainSplit_->setStretchFactor(0, 3);
    mainSplit_->setStretchFactor(1, 1);
    side->setMinimumWidth(fontMetrics().height() * 32);
    mainSplit_->setCollapsible(0, false);
    outer->addWidget(mainSplit_, 1);
    setCentralWidget(central);

    status_ = new StatusLine(this);
    statusBar()->addWidget(status_, 1);
    statusBar()->setSizeGripEnabled(true);
    if (!cacheProblem_.isEmpty()) {
        auto* noCache = new QLabel(tr("No solve cache"), this);
        noCache->setObjectName(QStringLiteral("noSolveCache"));
        noCache->setToolTip(cacheProblem_);
        statusBar()->addPermanentWidget(noCache);
        std::fprintf(stderr, "poet-explorer: %s\n", qPrintable(cacheProblem_));
    }

    // Teaching highlights the current op in both views.
    connect(teaching_, &TeachingPanel::currentChanged, this, [this](int stage, int node, int op) {
        heatmap_->setCurrentOp(stage, node);
        timeline_->setCurrentOp(stage, op);
    });
    connect(status_, &StatusLine::cancelRequested, this, &ExplorerWindow::cancelSolve);
    connect(status_, &StatusLine::budgetSuggested, this, [this](std::int64_t b) {
        setBudgets(Budgets{b, budgets_.runtime_budget_factor});
    });
    connect(status_, &StatusLine::budgetSearchRequested, this, &ExplorerWindow::findWorkingBudget);
    // The views without a schedule show the status line's words: their links do what its own do.
    connect(cellsWhyEmpty_, &QLabel::linkActivated, status_, &StatusLine::followLink);
    connect(heatmap_, &HeatmapView::placeholderLinkActivated, status_, &StatusLine::followLink);

    // Problem switches reload the graph and solve; budgets go through undo.
    for (QComboBox* c : {model_, platform_})
        connect(c, &QComboBox::currentIndexChanged, this, &ExplorerWindow::onProblemSwitchChanged);
    connect(batch_, &QSpinBox::valueChanged, this, &ExplorerWindow::onProblemSwitchChanged);
    connect(paging_, &QCheckBox::toggled, this, &ExplorerWindow::onProblemSwitchChanged);
    connect(remat_, &QCheckBox::toggled, this, &ExplorerWindow::onProblemSwitchChanged);
    for (QDoubleSpinBox* limit : {timeLimit_, gap_})
        connect(limit, &QDoubleSpinBox::valueChanged, this, [this] {
            if (!loading_) scheduleSolve();
        });
    connect(ram_, &BudgetControl::valueEdited, this, [this](double v, int session) {
        setBudgets(Budgets{static_cast<std::int64_t>(std::llround(v)), budgets_.runtime_budget_factor}, session);
    });
    connect(runtime_, &BudgetControl::valueEdited, this, [this](double v, int session) {
        setBudgets(Budgets{budgets_.ram_budget_bytes, v}, session);
    });
    connect(solveButton_, &QPushButton::clicked, this, &ExplorerWindow::solveNow);
}

void ExplorerWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    auto addAct = [this](QMenu* m, const QString& text, const QKeySequence& key, const QString& tip, auto slot) {
        QAction* a = m->addAction(text);
        if (!key.isEmpty()) a->setShortcut(key);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    const QString imageFilters = tr("PDF document (*.pdf);;SVG drawing (*.svg);;PNG image (*.png)");
    addAct(file, tr("&Open model profile\u2026"), QKeySequence::Open,
           tr("Train a network from a model profile (YAML) in any folder; it joins the Model list"), [this] {
               // From the folder of the profile on screen: the bundled ones are examples of the format.
               const QString shown = model_->currentData(Qt::ToolTipRole).toString();
               const QString path = QFileDialog::getOpenFileName(
                   this, tr("Open a model profile"), shown.isEmpty() ? QDir::homePath() : QFileInfo(shown).path(),
                   tr("Model profiles (*.yaml *.yml)"));
               if (!path.isEmpty()) openModelFile(path);
           });
    file->addSeparator();
    addAct(file, tr("&Save schedule as JSON\u2026"), QKeySequence::Save,
           tr("The same document as `poet solve --out`: problem, status, replay figures and matrices"),
           [this] { exportWithDialog(tr("schedule"), &ExplorerWindow::saveScheduleJson, tr("JSON (*.json)")); });
    addAct(file, tr("Save schedule as &CSV\u2026"), QKeySequence(),
           tr("The five matrices in one spreadsheet file"),
           [this] { exportWithDialog(tr("schedule"), &ExplorerWindow::saveScheduleCsv, tr("CSV (*.csv)")); });
    file->addSeparator();
    addAct(file, tr("Export &heatmap\u2026"), QKeySequence(Qt::CTRL | Qt::Key_E),
           tr("The heatmap as PDF or SVG (vector) or PNG"),
           [this, imageFilters] { exportWithDialog(tr("heatmap"), &ExplorerWindow::exportHeatmap, imageFilters); });
    addAct(file, tr("Export memory &timeline\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
           tr("The memory timeline as PDF or SVG (vector) or PNG"),
           [this, imageFilters] { exportWithDialog(tr("timeline"), &ExplorerWindow::exportTimeline, imageFilters); });
    addAct(file, tr("Export s&ummary\u2026"), QKeySequence(),
           tr("The summary table as PDF or SVG (vector) or PNG"),
           [this, imageFilters] { exportWithDialog(tr("summary"), &ExplorerWindow::exportSummary, imageFilters); });
    addAct(file, tr("Export &Pareto plot\u2026"), QKeySequence(),
           tr("The Pareto tab's sweep as a figure (PDF or SVG, vector, or PNG) or its points as CSV"),
           [this, imageFilters] {
               exportWithDialog(tr("pareto"), &ExplorerWindow::exportPareto, imageFilters + tr(";;CSV (*.csv)"),
                                ExportSource::Sweep);
           });
    addAct(file, tr("Export &all views\u2026"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E),
           tr("Every view as PDF, SVG and PNG plus the schedule as JSON and CSV (and the Pareto plot and its "
              "points where a sweep ran), into one folder"), [this] {
               const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all views into"),
                                                                     lastExportDir_.isEmpty() ? QDir::homePath()
                                                                                              : lastExportDir_);
               if (dir.isEmpty()) return;
               lastExportDir_ = dir;
               // The folder dialog asks of no file: the files the set would
               // replace are named first (they were replaced without a word).
               QStringList replaced;
               for (const ExportFile& f : exportAllFiles(dir, nullptr))
                   if (QFileInfo::exists(f.path)) replaced << QFileInfo(f.path).fileName();
               if (!replaced.isEmpty()) {
                   QMessageBox ask(QMessageBox::Question, tr("Replace files?"),
                                   replaced.size() == 1
                                       ? tr("1 file in %1 will be replaced.").arg(QDir::toNativeSeparators(dir))
                                       : tr("%1 files in %2 will be replaced.")
                                             .arg(replaced.size())
                                             .arg(QDir::toNativeSeparators(dir)),
                                   QMessageBox::Yes | QMessageBox::No, this);
                   ask.setObjectName(QStringLiteral("replaceExportsQuestion"));
                   ask.setInformativeText(tr("Do you want to replace them?"));
                   ask.setDetailedText(replaced.join(QLatin1Char('\n')));
                   ask.setDefaultButton(QMessageBox::No);
                   if (ask.exec() != QMessageBox::Yes) return;
               }
               QString err, leftOut;
               if (!exportAll(dir, &err, &leftOut)) QMessageBox::warning(this, tr("Export failed"), asSentence(err));
               else if (leftOut.isEmpty())
                   status_->showMessage(tr("Exported all views to %1.").arg(dir.toHtmlEscaped()), StatusTone::Good);
               else
                   status_->showMessage(tr("Exported to %1 what there is: %2.").arg(dir.toHtmlEscaped(), leftOut),
                                        StatusTone::Neutral);
           });
    file->addSeparator();
    addAct(file, tr("&Quit"), QKeySequence::Quit, tr("Close the explorer"), [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undo_->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    edit->addAction(undo);
    edit->addAction(redo);
    for (QAbstractSpinBox* box : findChildren<QAbstractSpinBox*>()) box->installEventFilter(this);

    QMenu* solve = menuBar()->addMenu(tr("&Solve"));
    solveAct_ = addAct(solve, tr("&Solve now"), QKeySequence(Qt::Key_F5),
                       tr("Solve again with the current settings"), [this] { solveNow(); });
    cancelAct_ = addAct(solve, tr("&Cancel"), QKeySequence(Qt::Key_Escape),
                        tr("Stop the solve and keep the best schedule found so far"), [this] { cancelSolve(); });
    cancelAct_->setEnabled(false);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    addAct(view, tr("&Reset heatmap zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), tr("Show the whole heatmap"),
           [this] { heatmap_->resetZoom(); });
    view->addSeparator();
    for (QAction* a : {teaching_->playAction(), teaching_->stepBackAction(), teaching_->stepForwardAction(),
                       teaching_->stopAction()}) {
        view->addAction(a);
        addAction(a);  // shortcuts work wherever the focus is in the window
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addAct(help, tr("&About POET Explorer"), QKeySequence(), QString(), [this] {
        QMessageBox::about(this, tr("About POET Explorer"),
                           tr("<p><b>POET Explorer</b> plans how a neural network trains on a device with too little "
                              "RAM: it mixes <i>rematerialization</i> (free an output, compute it again later) and "
                              "<i>paging</i> (write it to flash, read it back) at the least energy, under a RAM "
                              "budget and a runtime budget (POET, ICML 2022), solved with COIN-OR CBC.</p>"
                              "<p>Every figure shown comes from an independent replay of the schedule.</p>"));
    });
}

bool ExplorerWindow::initialize(const ExplorerOptions& o, QString* error) {
    loading_ = true;
    use_settings_ = o.use_settings;
    const ProfileCatalog catalog = ProfileCatalog::standard();
    model_->clear();
    platform_->clear();
    for (const auto& e : catalog.models()) {
        model_->addItem(q(e.name));
        model_->setItemData(model_->count() - 1, QString::fromStdString(e.file.string()), Qt::ToolTipRole);
    }
    for (const auto& e : catalog.platforms()) {
        platform_->addItem(q(e.name));
        platform_->setItemData(platform_->count() - 1, QString::fromStdString(e.file.string()), Qt::ToolTipRole);
    }

    QSettings s;
    s.beginGroup(QLatin1String(kSettingsGroup));
    auto pick = [&](const std::optional<QString>& given, const char* key, const QString& def) {
        if (given) return *given;
        if (use_settings_ && s.contains(QLatin1String(key))) return s.value(QLatin1String(key)).toString();
        return def;
    };
    const QString defaultModel = QStringLiteral("resnet18_cifar"), defaultPlatform = QStringLiteral("a72");
    // A profile given or remembered by its file joins its box first.
    const QString model = addProfileFile(model_, pick(o.model, "model", defaultModel));
    const QString platform = addProfileFile(platform_, pick(o.platform, "platform", defaultPlatform));
    QString unknown;  // why a name has no profile
    auto selectIn = [&](QComboBox* c, const QString& name, const char* what) {
        const int i = c->findText(name);
        if (i >= 0) {
            c->setCurrentIndex(i);
            return true;
        }
        QStringList known;
        for (int k = 0; k < c->count(); ++k) known << c->itemText(k);
        unknown = namesProfileFile(name.toStdString())
                      ? tr("no %1 profile file '%2'").arg(QLatin1String(what), name)
                      : tr("unknown %1 '%2' (known: %3)").arg(QLatin1String(what), name, known.join(", "));
        if (error) *error = unknown;
        return false;
    };
    const bool fromCommandLine = o.model || o.platform;
    // A remembered name whose profile is gone (deleted or renamed since)
    // opens the defaults, and says so: it did without a word.
    QString rememberedButGone;
    if (!selectIn(model_, model, "model")) {
        if (fromCommandLine || !selectIn(model_, defaultModel, "model")) {
            loading_ = false;
            return false;
        }
        rememberedButGone = unknown;
    }
    if (!selectIn(platform_, platform, "platform")) {
        if (fromCommandLine || !selectIn(platform_, defaultPlatform, "platform")) {
            loading_ = false;
            return false;
        }
        rememberedButGone = rememberedButGone.isEmpty() ? unknown : rememberedButGone + "; " + unknown;
    }
    // A remembered value that is not one of its box's is said and dropped
    // for the default: "abc" read as a 0% gap (every solve exhaustive), a
    // damaged switch as off, 1e9 s as the box's 3600 s, a batch of 12.7 as 12.
    auto rememberedNumber = [&](const char* key, double def, double lo, double hi, const QString& what,
                                bool whole = false) {
        if (!use_settings_ || !s.contains(QLatin1String(key))) return def;
        bool ok = false;
        const double v = s.value(QLatin1String(key)).toDouble(&ok);
        if (ok && v >= lo && v <= hi && (!whole || v == std::floor(v))) return v;
        const QString wanted = whole ? tr("a whole number from %1 to %2") : tr("a number from %1 to %2");
        ignoreRememberedValue(what, s.value(QLatin1String(key)).toString(), wanted.arg(lo).arg(hi));
        return def;
    };
    auto rememberedSwitch = [&](const char* key, const QString& what) {
        if (!use_settings_ || !s.contains(QLatin1String(key))) return true;
        const QString v = s.value(QLatin1String(key)).toString();
        if (v == QLatin1String("true") || v == QLatin1String("false")) return v == QLatin1String("true");
        ignoreRememberedValue(what, v, tr("true or false"));
        return true;
    };
    if (o.batch_size) batch_->setValue(*o.batch_size);
    else
        batch_->setValue(
            static_cast<int>(rememberedNumber("batchSize", 0, 0, ExplorerRanges::kBatchMax, tr("batch"), true)));
    paging_->setChecked(o.paging ? *o.paging : rememberedSwitch("paging", tr("paging switch")));
    remat_->setChecked(o.remat ? *o.remat : rememberedSwitch("remat", tr("rematerialization switch")));
    timeLimit_->setValue(o.time_limit_s ? *o.time_limit_s
                                        : rememberedNumber("timeLimit", 30.0, ExplorerRanges::kTimeLimitMinS,
                                                           ExplorerRanges::kTimeLimitMaxS, tr("time limit")));
    gap_->setValue(o.gap ? *o.gap * 100
                         : rememberedNumber("gapPercent", kDefaultGapPercent, 0, ExplorerRanges::kGapPercentMax,
                                            tr("gap (percent)")));
    if (use_settings_) lastExportDir_ = s.value("lastExportDir").toString();
    const double points = rememberedNumber("sweepPoints", kDefaultSweepPoints, sweepPoints_->minimum(),
                                           sweepPoints_->maximum(), tr("sweep point count"), true);
    sweepPoints_->setValue(static_cast<int>(points));
    // A pace that is none of the box's steps opens the default, said (the
    // nearest step was taken without a word).
    if (use_settings_ && s.contains("teachingStepMs")) {
        const int defaultPace = teaching_->stepIntervalMs();
        bool ok = false;
        const int pace = s.value("teachingStepMs").toInt(&ok);
        if (ok) teaching_->setStepIntervalMs(pace);
        if (!ok || teaching_->stepIntervalMs() != pace) {
            teaching_->setStepIntervalMs(defaultPace);
            ignoreRememberedValue(tr("teaching pace (ms)"), s.value("teachingStepMs").toString(),
                                  tr("one of the pace box's steps"));
        }
    }
    sweepAxis_->setCurrentIndex(use_settings_ && s.value("sweepVaries").toString() == QLatin1String("runtime") ? 1 : 0);
    // An unknown name (a settings file from another version) opens the first tab.
    tabs_->setCurrentIndex(std::max<qsizetype>(0, tabNames().indexOf(pick(o.tab, "tab", tabNames().front()))));

    // The first model and platform that load: the defaults first, then the
    // lists' order. A remembered profile that no longer loads (edited
    // since), or a broken user profile of a default's name, kept the window
    // from opening at all, and from a desktop menu said nothing.
    auto selectFirstThatLoads = [&] {
        QStringList models{defaultModel}, platforms{defaultPlatform};
        for (int k = 0; k < model_->count(); ++k)
            if (!models.contains(model_->itemText(k))) models << model_->itemText(k);
        for (int k = 0; k < platform_->count(); ++k)
            if (!platforms.contains(platform_->itemText(k))) platforms << platform_->itemText(k);
        for (const QString& m : models)
            for (const QString& p : platforms) {
                if (model_->findText(m) < 0 || platform_->findText(p) < 0) continue;
                model_->setCurrentIndex(model_->findText(m));
                platform_->setCurrentIndex(platform_->findText(p));
                if (loadGraph(nullptr)) return true;
            }
        return false;
    };
    QString loadError;
    if (!loadGraph(&loadError)) {
        const QString broken = tr("%1 on %2").arg(model_->currentText(), platform_->currentText());
        if (fromCommandLine || !selectFirstThatLoads()) {
            if (error) *error = loadError;
            loading_ = false;
            return false;
        }
        warnOfUnloadedProfile(broken, loadError);
    } else if (!rememberedButGone.isEmpty()) {
        warnOfUnloadedProfile(tr("%1 on %2").arg(model, platform), rememberedButGone);
    }
    const bool sameProblemAsSaved = use_settings_ && s.value("model").toString() == model_->currentText() &&
                                    s.value("platform").toString() == platform_->currentText();
    Budgets b{plain_peak_, 1.0};
    constexpr double kMaxRam = ExplorerRanges::kRamBudgetMaxBytes;
    if (o.ram_budget) {
        const auto v = parseRamBudget(o.ram_budget->toStdString(), plain_peak_);
        if (!v) {
            if (error)
                *error = tr("bad --ram-budget '%1' (1 to 1e13 bytes, or e.g. 3MB, 2.9MiB, 60%)").arg(*o.ram_budget);
            loading_ = false;
            return false;
        }
        if (*v > kMaxRam) {
            // The box holds no more: it showed 1e13 B beside a label of 9e18.
            if (error) *error = tr("bad --ram-budget '%1': at most 1e13 bytes").arg(*o.ram_budget);
            loading_ = false;
            return false;
        }
        b.ram_budget_bytes = *v;
    } else if (sameProblemAsSaved && s.contains("ramBudget")) {
        const qlonglong v = s.value("ramBudget").toLongLong();
        if (v >= 1 && v <= kMaxRam) b.ram_budget_bytes = v;
        else
            ignoreRememberedValue(tr("RAM budget"), s.value("ramBudget").toString(),
                                  tr("a byte count from 1 to %1").arg(kMaxRam, 0, 'g'));
    }
    if (o.runtime_budget) {
        b.runtime_budget_factor = *o.runtime_budget;
    } else if (sameProblemAsSaved && s.contains("runtimeBudget")) {
        // As the command line's are checked (explorer_main): 0.5 remembered
        // kept the window from opening, blaming a --runtime-budget never given.
        // Rounded as the box rounds: 1.00001 showed as 1.000 and was solved as given.
        const double scale = std::pow(10.0, ExplorerRanges::kRuntimeFactorDecimals);
        const double v = std::round(s.value("runtimeBudget").toDouble() * scale) / scale;
        if (v >= 1.0 && v <= ExplorerRanges::kRuntimeFactorMax) b.runtime_budget_factor = v;
        else
            ignoreRememberedValue(tr("runtime budget"), s.value("runtimeBudget").toString(),
                                  tr("a factor from 1 to %1").arg(ExplorerRanges::kRuntimeFactorMax));
    }
    if (!(b.runtime_budget_factor >= 1.0)) {
        if (error) *error = tr("bad --runtime-budget %1: it must be at least 1.0 (a multiple of one plain pass)")
                                .arg(b.runtime_budget_factor);
        loading_ = false;
        return false;
    }
    {
        const int h = fontMetrics().height();
        viewSplit_->setSizes({h * 30, h * 17});
        mainSplit_->setSizes({h * 80, mainSplit_->widget(1)->minimumWidth()});
    }
    // A damaged remembered geometry left the window at Qt's 640 x 480.
    const bool placed = use_settings_ && restoreGeometry(s.value("geometry").toByteArray());
    if (!placed && size() == QSize(640, 480)) {
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            resize(screen->availableSize() * 0.85);
    }
    if (use_settings_) {
        restoreState(s.value("windowState").toByteArray());
        mainSplit_->restoreState(s.value("mainSplit").toByteArray());
        viewSplit_->restoreState(s.value("viewSplit").toByteArray());
    }
    s.endGroup();
    applyBudgets(b);
    setup_ = widgetSetup();
    undo_->clear();
    loading_ = false;
    solveNow();
    return true;
}

namespace {
// Whether the box's text was typed in and not yet entered (entering it
// sets the text anew, which clears the modified flag).
bool editInProgress(const QAbstractSpinBox* box) {
    const auto* edit = box->findChild<QLineEdit*>();
    return edit && edit->isModified();
}
}  // namespace

bool ExplorerWindow::eventFilter(QObject* watched, QEvent* event) {
    // Ctrl+Z in a number box went to its text's own undo, which has nothing
    // to undo once a value is entered, and the window's undo of that value
    // never came. With no edit in progress the keys are the window's.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool undoKey = key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
                             key->keyCombination() == QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_Z);
        if (const auto* box = qobject_cast<QAbstractSpinBox*>(watched); box && undoKey && !editInProgress(box)) {
            event->ignore();  // not the box's: the window's shortcut takes it
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

QString ExplorerWindow::addProfileFile(QComboBox* box, const QString& name) {
    if (!namesProfileFile(name.toStdString())) return name;
    const QFileInfo file(name);
    if (!file.isFile()) return name;  // said missing where it is selected
    // Absolute: the settings and undo steps hold it, and load it from any folder.
    const QString path = QDir::cleanPath(file.absoluteFilePath());
    if (box->findText(path) < 0) {
        box->addItem(path);
        box->setItemData(box->count() - 1, path, Qt::ToolTipRole);
    }
    return path;
}

bool ExplorerWindow::openModelFile(const QString& path) {
    const int itemsBefore = model_->count();
    const QString item = addProfileFile(model_, path);
    const int i = model_->findText(item);
    if (i < 0) {
        warnOfProfile(tr("%1 could not be opened.").arg(QDir::toNativeSeparators(path)),
                      tr("There is no such file."));
        return false;
    }
    model_->setCurrentIndex(i);  // loads and solves, or goes back with a warning that says why
    if (model_->currentIndex() == i) return true;
    if (model_->count() > itemsBefore) model_->removeItem(i);  // a broken file leaves no item
    return false;
}

// Said on stderr and in the status bar: started from a desktop menu, the
// explorer has no terminal, and a setting that quietly came back as its
// default (a 0.5% gap where 0.1% was remembered) looked like a lost one.
void ExplorerWindow::ignoreRememberedValue(const QString& what, const QString& value, const QString& wanted) {
    const QString line = tr("The remembered %1 '%2' is not %3; the default is used.").arg(what, value, wanted);
    std::fprintf(stderr, "poet-explorer: %s\n", qPrintable(line));
    if (!settingsReset_) {
        settingsReset_ = new QLabel(tr("Settings reset"), this);
        settingsReset_->setObjectName(QStringLiteral("rememberedSettingsReset"));
        statusBar()->addPermanentWidget(settingsReset_);
    }
    const QString before = settingsReset_->toolTip();
    settingsReset_->setToolTip(before.isEmpty() ? line : before + QLatin1Char('\n') + line);
}

void ExplorerWindow::warnOfUnloadedProfile(const QString& problem, const QString& why) {
    warnOfProfile(tr("%1 could not be loaded; the explorer opened on %2 on %3 instead.")
                      .arg(problem, model_->currentText(), platform_->currentText()),
                  why);
}

// Not modal: the window goes on (opens behind it, or stays on its problem).
void ExplorerWindow::warnOfProfile(const QString& text, const QString& why) {
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Profile not loaded"), text, QMessageBox::Ok, this);
    box->setInformativeText(why);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("unloadedProfileWarning"));
    QTimer::singleShot(0, box, &QWidget::show);
    std::fprintf(stderr, "poet-explorer: %s\n%s\n", qPrintable(box->text()), qPrintable(why));
}

bool ExplorerWindow::loadGraph(QString* error) {
    const std::string shownModel = problem_.model;
    try {
        Problem loaded = loadProblemGraph(ProfileCatalog::standard(), model_->currentText().toStdString(),
                                          platform_->currentText().toStdString(), batch_->value());
        problem_.graph = std::move(loaded.graph);
        problem_.model = std::move(loaded.model);
        problem_.platform = std::move(loaded.platform);
        problem_.batch_size = loaded.batch_size;  // the profile's where the box says "default"
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        status_->showFailure(QString::fromUtf8(e.what()));
        clearViews(tr("Could not load the problem."));
        return false;
    }
    problem_.options.paging = paging_->isChecked();
    problem_.options.remat = remat_->isChecked();
    // Another network's schedule is no schedule of this one: teaching mode
    // walked on over the old network until the new solve's first answer.
    if (shown_ && problem_.model != shownModel)
        clearViews(tr("Solving %1\u2026").arg(q(profileShownName(problem_.model))));
    plain_ = replaySchedule(problem_.graph, plainSchedule(problem_.graph));
    plain_peak_ = plainPassPeakBytes(problem_.graph);
    min_budget_ = minimumFeasibleBudgetLowerBound(problem_);  // the plain pass's peak with both switches off
    const double lo = std::floor(std::min<double>(min_budget_, plain_peak_) * 0.5);
    const double hi = std::ceil(std::max<double>(min_budget_, plain_peak_) * 1.15);
    ram_->setSliderRange(lo, hi);
    // An arrow key steps a hundredth of the plain pass's peak: a fixed 1000 B
    // was 13% of linear's peak a step, and nothing on bert's 38 MB.
    ram_->entry()->setSingleStep(std::max<double>(1, std::round(plain_peak_ / 100.0)));
    ram_->refreshUnit();  // the usable part of the budget is the new graph's
    updateBudgetMarks();
    const auto& g = problem_.graph;
    // The smallest budget in bytes, exactly: it is what one types in next,
    // and "31.4 MB" typed in (31,400,000 B) is below a bound of 31,457,280 B.
    const bool only_plain = !problem_.options.paging && !problem_.options.remat;
    problemInfo_->setText(tr("%1 nodes (%2 forward incl. loss, %3 backward) \u2022 plain pass: %4 peak RAM, %5, %6 "
                             "\u2022 %7 %8")
                              .arg(g.size())
                              .arg(g.forwardCount())
                              .arg(g.size() - g.forwardCount())
                              .arg(q(formatBytes(plain_peak_)), q(formatEnergy(plain_.total_energy_j)),
                                   q(formatSecondsAndHours(g.totalComputeTime())),
                                   only_plain ? tr("smallest budget that works:")
                                              : tr("smallest budget that could work \u2265"),
                                   q(formatBytesExact(min_budget_))));
    cache_.clear();
    return true;
}

void ExplorerWindow::updateBudgetMarks() {
    ram_->setMarks({
        BudgetMark{static_cast<double>(min_budget_), tr("min \u2265 %1").arg(q(formatBytesDown(min_budget_))),
                   (problem_.options.paging || problem_.options.remat
                        ? tr("A lower bound on the smallest RAM budget under which any schedule exists: the largest "
                             "output-plus-inputs of any layer, %1.")
                        : tr("With paging and recomputation off, the plain pass is the only schedule: its peak, %1, "
                             "is the smallest RAM budget that works."))
                       .arg(q(formatBytesExact(min_budget_))),
                   QColor(0xC0, 0x1B, 0x1B), tr("min")},
        BudgetMark{static_cast<double>(plain_peak_), tr("plain %1").arg(q(formatBytes(plain_peak_))),
                   tr("Peak RAM of the plain pass (every layer computed once, every output kept until its last "
                      "reader ran). At or above it, no recomputation or paging is needed: %1.")
                       .arg(q(formatBytesExact(plain_peak_))),
                   QColor(0x55, 0x55, 0x55), tr("plain")},
    });
    runtime_->setFormatter([this](double f) {
        return QStringLiteral("= %1").arg(q(formatSecondsAndHours(f * problem_.graph.totalComputeTime())));
    });
    runtime_->setMarks({BudgetMark{1.0, tr("plain pass"), tr("1.0x: the compute time of one plain pass"), QColor()}});
}

ProblemSetup ExplorerWindow::widgetSetup() const {
    return {model_->currentText(), platform_->currentText(), batch_->value(), paging_->isChecked(), remat_->isChecked(),
            budgets_};
}

void ExplorerWindow::onProblemSwitchChanged() {
    if (loading_ || applyingSetup_) return;
    QString err;
    const std::int64_t oldPeak = plain_peak_;
    ProblemSetup before = setup_;
    before.budgets = budgets_;  // as budget steps since left them
    if (!loadGraph(&err)) {
        // The pick is undone, and said: the box read "broken" over the
        // schedule of the network before, whose solve then filled the views
        // and whose budgets later steps solved.
        const QString picked = tr("%1 on %2").arg(model_->currentText(), platform_->currentText());
        showSetupWidgets(setup_);
        warnOfProfile(tr("%1 could not be loaded; the window stays on %2 on %3.")
                          .arg(picked, model_->currentText(), platform_->currentText()),
                      err);
        // The views were cleared: the problem still shown comes back, from
        // the solve running for it or the window's cache, else solved again.
        if (!bridge_->isBusy()) solveNow();
        return;
    }
    ProblemSetup after = widgetSetup();
    // A new network: its own budgets. The same network with other switches keeps them.
    if (oldPeak != plain_peak_) after.budgets.ram_budget_bytes = plain_peak_;
    setup_ = after;  // loaded: the command's first redo has only the budgets to apply
    undo_->push(new ProblemCommand(before, after, [this](const ProblemSetup& s) { applySetup(s); }));
}

void ExplorerWindow::applySetup(const ProblemSetup& s) {
    if (!s.sameProblem(setup_)) {
        showSetupWidgets(s);
        QString err;
        if (!loadGraph(&err)) return;  // a profile gone since: the status says so
    }
    setup_ = s;
    // A sweep is of the problem it was run on: one swept with paging, kept
    // after paging was switched off, opened a point the solve then answered
    // without paging, at another energy.
    pareto_->cancelSweep();
    pareto_->clear();
    applyBudgets(s.budgets);
}

void ExplorerWindow::showSetupWidgets(const ProblemSetup& s) {
    applyingSetup_ = true;
    const QSignalBlocker blocks[] = {QSignalBlocker(model_), QSignalBlocker(platform_), QSignalBlocker(batch_),
                                     QSignalBlocker(paging_), QSignalBlocker(remat_)};
    model_->setCurrentText(s.model);
    platform_->setCurrentText(s.platform);
    batch_->setValue(s.batch);
    paging_->setChecked(s.paging);
    remat_->setChecked(s.remat);
    applyingSetup_ = false;
}

void ExplorerWindow::setBudgets(const Budgets& b, int session) {
    if (b == budgets_ && session == 0) return;
    undo_->push(new BudgetCommand(budgets_, b, session, [this](const Budgets& v) { applyBudgets(v); }));
}

void ExplorerWindow::applyBudgets(const Budgets& b) {
    budgets_ = b;
    problem_.ram_budget_bytes = b.ram_budget_bytes;
    problem_.runtime_budget_factor = b.runtime_budget_factor;
    if (ram_->value() != static_cast<double>(b.ram_budget_bytes)) ram_->setValue(static_cast<double>(b.ram_budget_bytes));
    if (runtime_->value() != b.runtime_budget_factor) runtime_->setValue(b.runtime_budget_factor);
    timeline_->setBudget(b.ram_budget_bytes);
    pareto_->setCurrentBudgets(b.ram_budget_bytes, b.runtime_budget_factor);
    if (!loading_) scheduleSolve();
}

void ExplorerWindow::scheduleSolve() {
    budgetSearch_->cancel();  // it searched for the problem before this change
    // Coalesce a burst of changes (a drag) into one request per event-loop turn;
    // the bridge cancels whatever ran before.
    debounce_->start();
}

// The RAM budget as its usable part (effective_budget.h), as the disk cache
// keys it: a drag back within one of bert's 1.5 MB blocks finds its answer.
QString ExplorerWindow::cacheKey() const {
    return QStringLiteral("%1|%2|%3|%4|%5|%6|%7")
        .arg(q(problem_.model), q(problem_.platform))
        .arg(problem_.batch_size)
        .arg(effectiveRamBudget(problem_.graph, problem_.ram_budget_bytes))
        .arg(problem_.runtime_budget_factor, 0, 'g', 12)
        .arg(problem_.options.paging)
        .arg(problem_.options.remat);
}

double ExplorerWindow::relativeGap() const { return gap_->value() / 100.0; }

StatusContext ExplorerWindow::statusContext() const {
    return {problem_.ram_budget_bytes, min_budget_,            timeLimit_->value(),
            problem_.options.paging,   problem_.options.remat, relativeGap(),
            problem_.runtime_budget_factor};
}

bool ExplorerWindow::isSolving() const { return bridge_->isBusy(); }

// The answer to the last request, while the problem is still the one it
// asked: a change waits 25 ms for its own request (a drag coalesces), and
// an answer that came in that gap was shown, and cached, as the answer to
// the new budgets or platform (an "optimal" schedule over the budget shown,
// which F5 then took from the cache).
bool ExplorerWindow::isPending(quint64 id) const { return id == pendingId_ && pendingKey_ == cacheKey(); }

void ExplorerWindow::solveNow() {
    debounce_->stop();
    budgetSearch_->cancel();  // F5: the budgets shown, not the ones it would find next
    if (problem_.graph.size() == 0) return;
    problem_.options.paging = paging_->isChecked();
    problem_.options.remat = remat_->isChecked();
    const auto hit = cache_.constFind(cacheKey());
    // A proof within a larger gap than now asked for is not an answer.
    if (hit != cache_.constEnd() && withinGap(hit->objective_j, hit->best_bound_j, relativeGap())) {
        bridge_->discard();
        pendingId_ = 0;
        solveAct_->setEnabled(true);
        cancelAct_->setEnabled(false);
        SolveResult r = *hit;
        lastStatus_ = r.status;
        status_->showResult(r, statusContext());
        showResult(r);
        emit solveSettled(true);
        return;
    }
    pendingId_ = bridge_->request(problem_, solverOptions());
    pendingKey_ = cacheKey();
    solveAct_->setEnabled(true);
    cancelAct_->setEnabled(true);
    status_->showSolving();
}

SolverOptions ExplorerWindow::solverOptions() const {
    SolverOptions opts;
    opts.time_limit_s = timeLimit_->value();
    opts.relative_gap = relativeGap();
    opts.threads = defaultSolverThreads();
    return opts;
}

void ExplorerWindow::runParetoSweep() {
    if (pareto_->runner()->isRunning()) return;  // its button is disabled meanwhile
    const bool runtimeAxis = sweepAxis_->currentIndex() == 1;
    // Below the RAM lower bound no runtime budget helps: the sweep solved
    // every point to draw an empty plot.
    if (runtimeAxis && problem_.ram_budget_bytes < min_budget_) {
        status_->showMessage(tr("No runtime sweep at a RAM budget of %1: no schedule fits under %2 at any runtime "
                                "budget. Raise the RAM budget first.")
                                 .arg(q(formatBytes(problem_.ram_budget_bytes)), q(formatBytes(min_budget_))),
                             StatusTone::Warning);
        return;
    }
    // Paging is not timed: without recomputation every schedule runs one
    // plain pass's time, and a runtime sweep drew 12 copies of one point.
    if (runtimeAxis && !problem_.options.remat) {
        status_->showMessage(tr("No runtime sweep without recomputation: every schedule then runs in one plain "
                                "pass's time (paging is not timed), so the runtime budget changes nothing."),
                             StatusTone::Warning);
        return;
    }
    SweepConfig cfg;
    cfg.problem = problem_;  // at the window's budgets: the one not varied stays
    cfg.axis = runtimeAxis ? SweepAxis::RuntimeFactor : SweepAxis::RamBudget;
    cfg.points = sweepPoints_->value();
    cfg.runtime_min = 1.0;
    cfg.runtime_max = kSweepRuntimeMax;
    cfg.runtime_decimals = ExplorerRanges::kRuntimeFactorDecimals;
    cfg.solver = solverOptions();
    cfg.solver.time_limit_s = std::min(cfg.solver.time_limit_s, kSweepPointLimitS);
    pareto_->clear();
    pareto_->runSweep(cfg);
}

QStringList ExplorerWindow::tabNames() {
    return {QStringLiteral("schedule"), QStringLiteral("cells"), QStringLiteral("pareto")};
}

void ExplorerWindow::cancelSolve() {
    if (budgetSearch_->isRunning()) {
        budgetSearch_->cancel();
        cancelAct_->setEnabled(bridge_->isBusy());
        status_->showMessage(tr("Stopped searching for a RAM budget that works."));
    }
    if (!bridge_->isBusy()) return;
    bridge_->cancel();
}

void ExplorerWindow::findWorkingBudget() {
    if (!budgetSearch_->start(problem_)) return;  // one runs
    budgetSearchKey_ = cacheKey();
    cancelAct_->setEnabled(true);  // Esc stops it
    status_->showMessage(tr("Searching for a RAM budget above %1 that works at %2 (Esc stops)\u2026")
                             .arg(q(formatBytesExact(problem_.ram_budget_bytes)),
                                  q(formatFactor(problem_.runtime_budget_factor))),
                         StatusTone::Busy);
}

QString ExplorerWindow::viewTitle(const SolveResult& r) const {
    QString batch = batch_->value() > 0 ? tr(", batch %1").arg(problem_.batch_size) : QString();
    // An exported figure made with a switch off says so, as a sweep's plot does.
    const QString off = switchesOffText(problem_.options);
    return tr("%1 on %2%3 \u2014 RAM budget %4, runtime %5%6 \u2014 %7, %8")
        .arg(q(profileShownName(problem_.model)), q(profileShownName(problem_.platform)), batch,
             q(formatBytes(problem_.ram_budget_bytes)),
             q(formatFactor(problem_.runtime_budget_factor)), off.isEmpty() ? off : QStringLiteral(", ") + off,
             statusPhrase(r), q(formatEnergy(r.replay.total_energy_j)));
}

void ExplorerWindow::showResult(const SolveResult& r) {
    if (!r.schedule || r.schedule->size() != problem_.graph.size()) return;
    shown_ = r;
    shownKey_ = cacheKey();
    const QString title = viewTitle(r);
    heatmap_->setSchedule(problem_.graph, *r.schedule, title);
    timeline_->setData(problem_.graph, *r.schedule, r.replay, plain_, problem_.ram_budget_bytes);
    stageLink_->sync();
    summary_->setResult(problem_, r, plain_);
    summary_->setTitle(title);
    // Every view shows the same schedule, the solve's best so far too: the
    // cells and teaching mode waited for the final one and disagreed with
    // the heatmap until then (up to the time limit).
    teaching_->setSchedule(problem_.graph, *r.schedule, r.replay, problem_.ram_budget_bytes);
    cellModel_->setSchedule(problem_.graph, *r.schedule);
    cellPages_->setCurrentWidget(cellTable_);
}

void ExplorerWindow::clearViews(const QString& why) {
    shown_.reset();
    heatmap_->clear();
    heatmap_->setPlaceholderText(why);
    timeline_->clear();
    stageLink_->sync();
    summary_->clear();
    summary_->setTitle(QString());
    teaching_->clear();
    cellModel_->clear();
    cellsWhyEmpty_->setText(why);
    cellPages_->setCurrentWidget(cellsWhyEmpty_);
}

QString ExplorerWindow::baseFileName(ExportSource source) const {
    // Every figure the budgets, batch and switches tell apart has a name of
    // its own: model-platform-RAM alone gave 1.5x and 2x, or paging on and
    // off, one file, and "Export all" wrote one over the other.
    QString base =
        QStringLiteral("%1-%2").arg(q(profileShownName(problem_.model)), q(profileShownName(problem_.platform)));
    if (batch_->value() > 0) base += QStringLiteral("-batch%1").arg(problem_.batch_size);
    const SweepResult& sweep = pareto_->result();
    if (source == ExportSource::Schedule)
        base += QStringLiteral("-%1B-%2")
                    .arg(problem_.ram_budget_bytes)
                    .arg(q(formatFactor(problem_.runtime_budget_factor)));
    else if (sweep.axis == SweepAxis::RamBudget)
        base += QStringLiteral("-ram-sweep-%1").arg(q(formatFactor(sweep.fixed_runtime_factor)));
    else
        base += QStringLiteral("-runtime-sweep-%1B").arg(sweep.fixed_ram_budget_bytes);
    if (!problem_.options.paging) base += QStringLiteral("-nopaging");
    if (!problem_.options.remat) base += QStringLiteral("-noremat");
    return base;
}

void ExplorerWindow::exportWithDialog(const QString& what, bool (ExplorerWindow::*fn)(const QString&, QString*),
                                      const QString& filters, ExportSource source) {
    const bool sweep = source == ExportSource::Sweep;
    QString why;
    if (sweep ? sweepRows() == 0 : !scheduleToExport(&why)) {
        QMessageBox::information(this, tr("Nothing to export"),
                                 sweep ? tr("No sweep has a point yet: run one on the Pareto tab.") : asSentence(why));
        return;
    }
    const QString dir = lastExportDir_.isEmpty()
                            ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                            : lastExportDir_;
    QString selected;
    const QString firstSuffix = filters.section(QLatin1String("(*."), 1, 1).section(QLatin1Char(')'), 0, 0);
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(what), QDir(dir).filePath(baseFileName(source) + "-" + what + "." + firstSuffix),
        filters, &selected);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) {
        const QString suf = selected.section(QLatin1String("(*."), 1, 1).section(QLatin1Char(')'), 0, 0);
        if (!suf.isEmpty()) path += "." + suf;
        // The dialog asked of the name as typed ("fig"), not of the file
        // written (fig.pdf): a figure there was replaced without a word.
        if (!suf.isEmpty() && QFileInfo::exists(path) &&
            QMessageBox::question(this, tr("Replace file?"),
                                  tr("%1 already exists. Do you want to replace it?").arg(QFileInfo(path).fileName()),
                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
            return;
    }
    lastExportDir_ = QFileInfo(path).absolutePath();
    QString err;
    if (!(this->*fn)(path, &err)) QMessageBox::warning(this, tr("Export failed"), asSentence(err));
    else status_->showMessage(tr("Wrote %1.").arg(path.toHtmlEscaped()), StatusTone::Good);
}

bool ExplorerWindow::scheduleToExport(QString* error) const {
    if (!shown_ || !shown_->schedule) {
        if (error) *error = tr("no schedule at these budgets");
        return false;
    }
    // After a budget or switch change the last schedule stays on screen
    // until the new solve has one: exported then, it went out under budgets
    // it was not solved for (its JSON failed `poet validate`).
    if (shownKey_ != cacheKey()) {
        if (error) *error = tr("the schedule on screen is of the budgets before the last change, and the solve at "
                               "these has no schedule yet");
        return false;
    }
    return true;
}

bool ExplorerWindow::exportHeatmap(const QString& path, QString* error) {
    if (!scheduleToExport(error)) return false;
    return exportView([this](QCPPainter& p, const QRectF& r) { heatmap_->renderTo(p, r); }, heatmap_->exportSize(),
                      path, viewTitle(*shown_), error);
}

bool ExplorerWindow::exportTimeline(const QString& path, QString* error) {
    if (!scheduleToExport(error)) return false;
    const QString title = viewTitle(*shown_);
    return exportView([&](QCPPainter& p, const QRectF& r) { timeline_->renderTo(p, r, title); },
                      timeline_->exportSize(), path, title, error);
}

bool ExplorerWindow::exportSummary(const QString& path, QString* error) {
    if (!scheduleToExport(error)) return false;
    return exportView([this](QCPPainter& p, const QRectF& r) { summary_->renderTo(p, r); }, summary_->exportSize(),
                      path, viewTitle(*shown_), error);
}

bool ExplorerWindow::saveScheduleJson(const QString& path, QString* error) {
    if (!scheduleToExport(error)) return false;
    try {
        writeFileAtomically(path.toStdString(), scheduleDocument(problem_, *shown_).dump(2) + "\n");
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

bool ExplorerWindow::saveScheduleCsv(const QString& path, QString* error) {
    if (!scheduleToExport(error)) return false;
    try {
        writeFileAtomically(path.toStdString(), scheduleCsv(problem_.graph, *shown_->schedule));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

int ExplorerWindow::sweepRows() const { return static_cast<int>(pareto_->result().rows.size()); }

bool ExplorerWindow::exportPareto(const QString& path, QString* error) {
    if (sweepRows() == 0) {
        if (error) *error = tr("no sweep to export: run one on the Pareto tab");
        return false;
    }
    // As `poet sweep --plot`: a figure of no point drew empty axes with
    // made-up units; its points (CSV) are written whatever they hold.
    if (!sweepHasSchedule() && QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) != 0) {
        if (error) *error = tr("no point of the sweep has a schedule, so there is no figure (its CSV has the rows)");
        return false;
    }
    return pareto_->exportTo(path, error);
}

bool ExplorerWindow::sweepHasSchedule() const {
    const auto& rows = pareto_->result().rows;
    return std::any_of(rows.begin(), rows.end(), [](const SweepRow& r) { return r.hasSchedule(); });
}

std::vector<ExplorerWindow::ExportFile> ExplorerWindow::exportAllFiles(const QString& directory,
                                                                       QString* leftOut) {
    QString noSchedule;
    const bool schedule = scheduleToExport(&noSchedule), sweep = sweepRows() > 0, drawable = sweepHasSchedule();
    const QDir d(directory);
    std::vector<ExportFile> files;
    const QString base = baseFileName();
    if (schedule) {
        for (const char* suffix : {"pdf", "svg", "png"}) {
            files.push_back({d.filePath(base + "-heatmap." + suffix), &ExplorerWindow::exportHeatmap});
            files.push_back({d.filePath(base + "-timeline." + suffix), &ExplorerWindow::exportTimeline});
            files.push_back({d.filePath(base + "-summary." + suffix), &ExplorerWindow::exportSummary});
        }
        files.push_back({d.filePath(base + "-schedule.json"), &ExplorerWindow::saveScheduleJson});
        files.push_back({d.filePath(base + "-schedule.csv"), &ExplorerWindow::saveScheduleCsv});
    }
    // A sweep of minutes is exported with or without a schedule on screen
    // (it was lost where the budget shown had none). Named as the Pareto
    // export names it: it spans many budgets.
    const QString sweepBase = baseFileName(ExportSource::Sweep);
    if (sweep)
        for (const char* suffix : {"pdf", "svg", "png", "csv"})
            if (drawable || QLatin1String(suffix) == QLatin1String("csv"))
                files.push_back({d.filePath(sweepBase + "-pareto." + suffix), &ExplorerWindow::exportPareto});
    if (leftOut) {
        QStringList missing;
        if (!schedule) missing << tr("%1, so no heatmap, timeline, summary or schedule").arg(noSchedule);
        if (!sweep) missing << tr("no sweep on the Pareto tab, so no Pareto plot");
        else if (!drawable) missing << tr("no point of the sweep has a schedule, so only its CSV");
        *leftOut = missing.join(QStringLiteral("; "));
    }
    return files;
}

bool ExplorerWindow::exportAll(const QString& directory, QString* error, QString* leftOut) {
    const std::vector<ExportFile> files = exportAllFiles(directory, leftOut);
    if (files.empty()) {
        QString noSchedule;
        scheduleToExport(&noSchedule);
        if (error) *error = tr("nothing to export: %1, and no sweep on the Pareto tab").arg(noSchedule);
        return false;
    }
    for (std::size_t i = 0; i < files.size(); ++i)
        if (!(this->*files[i].write)(files[i].path, error)) {
            // A set cut short says so: "Export failed" over 9 of 15 files
            // written read as nothing written.
            if (error && i > 0)
                *error += i == 1 ? tr("; 1 file was written before it, the rest not")
                                 : tr("; %1 files were written before it, the rest not").arg(i);
            return false;
        }
    return true;
}

void ExplorerWindow::writeSettings() {
    if (!use_settings_) return;
    QSettings s;
    s.beginGroup(QLatin1String(kSettingsGroup));
    s.setValue("model", model_->currentText());
    s.setValue("platform", platform_->currentText());
    s.setValue("batchSize", batch_->value());
    s.setValue("paging", paging_->isChecked());
    s.setValue("remat", remat_->isChecked());
    s.setValue("timeLimit", timeLimit_->value());
    s.setValue("gapPercent", gap_->value());
    s.setValue("ramBudget", static_cast<qlonglong>(budgets_.ram_budget_bytes));
    s.setValue("runtimeBudget", budgets_.runtime_budget_factor);
    s.setValue("lastExportDir", lastExportDir_);
    s.setValue("tab", tabNames().value(tabs_->currentIndex()));
    s.setValue("sweepPoints", sweepPoints_->value());
    s.setValue("teachingStepMs", teaching_->stepIntervalMs());
    s.setValue("sweepVaries", sweepAxis_->currentIndex() == 0 ? "ram" : "runtime");
    s.setValue("geometry", saveGeometry());
    s.setValue("windowState", saveState());
    s.setValue("mainSplit", mainSplit_->saveState());
    s.setValue("viewSplit", viewSplit_->saveState());
    s.endGroup();
}

void ExplorerWindow::closeEvent(QCloseEvent* e) {
    writeSettings();
    bridge_->discard();
    QMainWindow::closeEvent(e);
}

}  // namespace poet::ui
