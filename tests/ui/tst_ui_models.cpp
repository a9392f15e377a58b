// Item models (through QAbstractItemModelTester) and the pure functions
// behind the views: cell classification and words, teaching captions,
// status words, units.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTextDocument>
#include <QtTest>

#include "cell_category.h"
#include "cell_palette.h"
#include "list_text.h"
#include "replay.h"
#include "schedule_cell_model.h"
#include "status_line.h"
#include "summary_model.h"
#include "teaching.h"
#include "ui_test_graphs.h"
#include "units.h"

using namespace poet;
using namespace poet::ui;

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void classification();
    void cellWords();
    void inputsInRunningText();
    void cellModelPassesTester();
    void summaryModelPassesTester();
    void summaryFiguresComeFromReplay();
    void summaryNamesTheLowerBound();
    void teachingStepsAndCaptions();
    void statusWords();
    void units();
};

void TestUiModels::classification() {
    const Schedule s = uitest::tinySchedule();
    const CategoryGrid g = classifySchedule(s);
    QCOMPARE(g.size(), 6);
    QCOMPARE(g.at(0, 0), CellCategory::ComputedFirst);
    QCOMPARE(g.at(0, 1), CellCategory::InRam);
    QCOMPARE(g.at(0, 2), CellCategory::Absent);
    QCOMPARE(g.at(0, 5), CellCategory::Recomputed);
    QCOMPARE(g.at(1, 1), CellCategory::ComputedFirst);
    QCOMPARE(g.at(1, 2), CellCategory::PagedOut);
    QCOMPARE(g.at(1, 3), CellCategory::OnFlash);
    QCOMPARE(g.at(1, 4), CellCategory::PagedIn);
    QCOMPARE(g.at(1, 5), CellCategory::InRamAndFlash);
    QCOMPARE(g.at(2, 3), CellCategory::InRam);
    QCOMPARE(g.at(5, 0), CellCategory::Absent);
    QCOMPARE(g.count(CellCategory::ComputedFirst), 6);
    QCOMPARE(g.count(CellCategory::Recomputed), 1);
    // Every count (kept as cells are set) agrees with the cells, and follows a cell set again.
    int total = 0;
    for (int c = 0; c < kCellCategoryCount; ++c) {
        const auto category = static_cast<CellCategory>(c);
        int cells = 0;
        for (int i = 0; i < 6; ++i)
            for (int t = 0; t < 6; ++t) cells += g.at(i, t) == category;
        QCOMPARE(g.count(category), cells);
        total += cells;
    }
    QCOMPARE(total, 36);
    CategoryGrid changed = g;
    changed.set(0, 2, CellCategory::PagedIn);  // was absent
    QCOMPARE(changed.count(CellCategory::Absent), g.count(CellCategory::Absent) - 1);
    QCOMPARE(changed.count(CellCategory::PagedIn), g.count(CellCategory::PagedIn) + 1);
    // The pure single-cell function agrees with the grid everywhere.
    for (int i = 0; i < 6; ++i)
        for (int t = 0; t < 6; ++t) QCOMPARE(classifyCell(s, t, i), g.at(i, t));
    // Every category has a distinct colour and a name.
    QSet<QRgb> colours;
    for (int c = 0; c < kCellCategoryCount; ++c) {
        colours.insert(categoryColor(static_cast<CellCategory>(c)).rgb());
        QVERIFY(std::string(categoryName(static_cast<CellCategory>(c))).size() > 0);
    }
    QCOMPARE(colours.size(), kCellCategoryCount);
}

void TestUiModels::cellWords() {
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    const QString rec = QString::fromStdString(describeCell(g, s, 5, 0, CellView::Heatmap));
    QVERIFY2(rec.contains("recomputed") && rec.contains("freed at stage 1"), qPrintable(rec));
    const QString out = QString::fromStdString(describeCell(g, s, 2, 1, CellView::Heatmap));
    QVERIFY2(out.contains("written out to flash"), qPrintable(out));
    const QString in = QString::fromStdString(describeCell(g, s, 4, 1, CellView::Heatmap));
    QVERIFY2(in.contains("read back from flash") && in.contains("stage 5"), qPrintable(in));
    const QString first = QString::fromStdString(describeCell(g, s, 1, 1, CellView::Heatmap));
    QVERIFY2(first.contains("first time") && first.contains("input"), qPrintable(first));
    QVERIFY(QString::fromStdString(describeCell(g, s, 0, 5, CellView::Heatmap)).contains("not computed yet"));
    // The loss's stage (3) says what the dashed lines around it mark; others do not.
    QVERIFY2(QString::fromStdString(describeCell(g, s, 3, 2, CellView::Heatmap))
                 .contains("computes the loss (between the dashed lines)"),
             describeCell(g, s, 3, 2, CellView::Heatmap).c_str());
    QVERIFY(!QString::fromStdString(describeCell(g, s, 4, 2, CellView::Heatmap)).contains("dashed"));
    // The Cells table has no dashed lines to point at.
    const QString table = QString::fromStdString(describeCell(g, s, 3, 2, CellView::Table));
    QVERIFY2(table.contains("computes the loss: the forward pass") && !table.contains("dashed"), qPrintable(table));
    // A node that costs nothing (an input) is remade at will: no "to save RAM".
    std::vector<Node> nodes;
    for (int i = 0; i < g.size(); ++i) nodes.push_back(g.node(i));
    nodes[0].compute_energy_j = 0;
    nodes[0].compute_time_s = 0;
    const Graph freeInput(nodes, g.edges());
    const QString remade = QString::fromStdString(describeCell(freeInput, s, 5, 0, CellView::Heatmap));
    QVERIFY2(remade.contains("recomputed at no cost") && !remade.contains("save RAM"), qPrintable(remade));
    QCOMPARE(lastFreedBefore(s, 0, 5), 1);
    QCOMPARE(nextUseFrom(g, s, 1, 3), 5);
}

// A node's inputs as the cell and teaching texts name them: a list in
// running text, an unnamed node as "node i".
void TestUiModels::inputsInRunningText() {
    QCOMPARE(joinAsList({}), std::string());
    QCOMPARE(joinAsList({"x"}), std::string("x"));
    QCOMPARE(joinAsList({"x", "y"}), std::string("x and y"));
    QCOMPARE(joinAsList({"x", "y", "z"}), std::string("x, y and z"));
    std::vector<Node> nodes(4);
    nodes[0].name = "a";
    nodes[2].name = "c";
    nodes[3].name = "sum";
    const Graph g(nodes, {{0, 3}, {1, 3}, {2, 3}});
    QCOMPARE(g.label(1), std::string("node 1"));
    QCOMPARE(g.label(3), std::string("sum"));
    QCOMPARE(g.inputLabels(3), std::string("a, node 1 and c"));
    QCOMPARE(g.inputLabels(0), std::string());
}

void TestUiModels::cellModelPassesTester() {
    ScheduleCellModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setSchedule(uitest::tinyGraph(), uitest::tinySchedule());
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.columnCount(), 6);
    const QModelIndex rec = model.index(0, 5);
    QCOMPARE(rec.data(ScheduleCellModel::CategoryRole).toInt(), int(CellCategory::Recomputed));
    QCOMPARE(rec.data(ScheduleCellModel::CategoryKeyRole).toString(), QStringLiteral("recomputed"));
    QCOMPARE(rec.data(Qt::DisplayRole).toString(), QStringLiteral("recomputed"));
    QVERIFY(rec.data(Qt::ToolTipRole).toString().contains("recomputed"));
    QCOMPARE(rec.data(Qt::BackgroundRole).value<QBrush>().color(), categoryColor(CellCategory::Recomputed));
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("a"));
    QCOMPARE(model.headerData(3, Qt::Vertical, ScheduleCellModel::NodeKindRole).toInt(), int(NodeKind::Loss));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("stage 2"));
    QVERIFY2(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString().startsWith("Stage 2: computes b (node 2)"),
             qPrintable(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString()));
    // Absent cells are blank, but say so to a screen reader.
    const QModelIndex absent = model.index(5, 0);  // grad a, not computed yet
    QCOMPARE(absent.data(ScheduleCellModel::CategoryRole).toInt(), int(CellCategory::Absent));
    QCOMPARE(absent.data(Qt::DisplayRole).toString(), QString());
    QCOMPARE(absent.data(Qt::AccessibleTextRole).toString(), QStringLiteral("absent"));
    // Mismatched sizes give an empty model, not a crash.
    model.setSchedule(uitest::tinyGraph(), Schedule(3));
    QCOMPARE(model.rowCount(), 0);
    model.setSchedule(uitest::tinyGraph(), uitest::tinySchedule());
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::summaryModelPassesTester() {
    SummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Problem p = uitest::tinyProblem();
    p.runtime_budget_factor = 2.0;
    SolveResult r = uitest::tinyResult(p, SolveStatus::Optimal);
    r.source = SolutionSource::Proven;
    const ReplayReport plain = replaySchedule(p.graph, plainSchedule(p.graph));
    r.gap = 0;
    model.setResult(p, r, plain);
    QVERIFY(model.rowCount() >= 10);
    QCOMPARE(model.columnCount(), int(SummaryModel::ColumnCount));
    QCOMPARE(model.index(model.rowOf("status"), SummaryModel::Value).data().toString(), QStringLiteral("optimal"));
    // Words, not the JSON token "proven_optimal", which read as exact beside
    // a gap of 0.31 %; the token is in the tooltip, for a script's author.
    const QModelIndex source = model.index(model.rowOf("source"), SummaryModel::Value);
    QCOMPARE(source.data().toString(), QStringLiteral("the solver, proven"));
    QVERIFY(source.data(Qt::ToolTipRole).toString().contains(QStringLiteral("\"proven_optimal\"")));
    // Stopped at the requested gap: the status says how close, as the status line does.
    r.gap = 0.005;
    model.setResult(p, r, plain);
    QCOMPARE(model.index(model.rowOf("status"), SummaryModel::Value).data().toString(),
             QStringLiteral("optimal within 0.5 %"));
    SolveResult none;
    none.status = SolveStatus::Infeasible;
    model.setResult(p, none, plain);
    QVERIFY(model.rowCount() >= 3);
    QCOMPARE(model.index(model.rowOf("status"), SummaryModel::Value).data().toString(), QStringLiteral("infeasible"));
    QCOMPARE(model.rowOf("gap"), -1);  // no schedule, no gap (the row stood empty)
    // The plain pass still gives the scale, and the tooltips the budgets
    // (the reference column stood empty).
    const auto cell = [&](const char* key, int column, int role = Qt::DisplayRole) {
        return model.index(model.rowOf(key), column).data(role).toString();
    };
    QCOMPARE(cell("total_energy_j", SummaryModel::Value), QStringLiteral("none"));
    QCOMPARE(cell("total_energy_j", SummaryModel::Reference), QString::fromStdString(formatEnergy(plain.total_energy_j)));
    QCOMPARE(cell("runtime_s", SummaryModel::Reference), QString::fromStdString(formatSeconds(plain.runtime_s)));
    QVERIFY(cell("runtime_s", SummaryModel::Value, Qt::ToolTipRole)
                .contains(QString::fromStdString(formatFactor(p.runtime_budget_factor))));
    QCOMPARE(cell("peak_ram_bytes", SummaryModel::Reference), QString::fromStdString(formatBytes(plain.peak_ram_bytes)));
    QVERIFY(cell("peak_ram_bytes", SummaryModel::Value, Qt::ToolTipRole)
                .contains(QString::fromStdString(formatBytesExact(p.ram_budget_bytes))));
    QCOMPARE(cell("peak_ram_bytes", SummaryModel::Ratio), QString());
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

// The bound behind the gap, and what proved it (the solver's message), for
// a reader who wants to quote it.
void TestUiModels::summaryNamesTheLowerBound() {
    SummaryModel model;
    const Problem p = uitest::tinyProblem();
    SolveResult r = uitest::tinyResult(p, SolveStatus::Optimal);
    const ReplayReport plain = replaySchedule(p.graph, plainSchedule(p.graph));
    r.best_bound_j = 0;
    model.setResult(p, r, plain);
    QCOMPARE(model.rowOf("best_bound_j"), -1);  // nothing proven: no row
    r.best_bound_j = 3.25;
    r.message = "the stage-peak bound (at W) proves it within the gap";
    model.setResult(p, r, plain);
    const int row = model.rowOf("best_bound_j");
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, SummaryModel::Value).data(SummaryModel::RawValueRole).toDouble(), 3.25);
    // Its own sentence, capital and all ("…than this. the stage-peak bound…").
    QVERIFY(model.index(row, SummaryModel::Value)
                .data(Qt::ToolTipRole)
                .toString()
                .endsWith("than this. The stage-peak bound (at W) proves it within the gap."));
    // The columns say what they hold, and what the ratio divides.
    QVERIFY(model.headerData(SummaryModel::Ratio, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains("divided by the plain pass's"));
    // No schedule in time, but a bound: the row stays, without the message (it is about the search).
    r.status = SolveStatus::NoSolution;
    r.schedule.reset();
    r.message = "no schedule found within the time limit, and none proven impossible";
    model.setResult(p, r, plain);
    const int open_row = model.rowOf("best_bound_j");
    QVERIFY(open_row >= 0);
    QVERIFY(!model.index(open_row, SummaryModel::Value).data(Qt::ToolTipRole).toString().contains("no schedule found"));
    r.status = SolveStatus::Infeasible;  // nothing to bound
    model.setResult(p, r, plain);
    QCOMPARE(model.rowOf("best_bound_j"), -1);
}

void TestUiModels::summaryFiguresComeFromReplay() {
    SummaryModel model;
    const Problem p = uitest::tinyProblem();
    SolveResult r = uitest::tinyResult(p, SolveStatus::Feasible);
    r.objective_j = 12345;  // a solver figure the view must not show
    const ReplayReport plain = replaySchedule(p.graph, plainSchedule(p.graph));
    model.setResult(p, r, plain);
    const int row = model.rowOf("total_energy_j");
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, SummaryModel::Value).data(SummaryModel::RawValueRole).toDouble(),
             r.replay.total_energy_j);
    QCOMPARE(model.index(model.rowOf("recomputations"), SummaryModel::Value).data().toString(),
             QString::number(r.replay.recomputations));
    QCOMPARE(model.index(model.rowOf("page_ins"), SummaryModel::Value).data().toString(),
             QString::number(r.replay.page_ins));
    QCOMPARE(r.replay.recomputations, 1);
    QCOMPARE(r.replay.page_ins, 1);
    // The reference column is one plain pass on every row, and the ratio is
    // to it: the runtime's was to the budget (0.69x beside 1.04x in `poet
    // solve`), the peak RAM's too. The budgets are in the tooltips.
    const auto cell = [&](const char* key, int column, int role = Qt::DisplayRole) {
        return model.index(model.rowOf(key), column).data(role).toString();
    };
    QCOMPARE(model.headerData(SummaryModel::Reference, Qt::Horizontal).toString(), QStringLiteral("Plain pass"));
    QCOMPARE(cell("runtime_s", SummaryModel::Reference), QString::fromStdString(formatSeconds(plain.runtime_s)));
    QCOMPARE(cell("runtime_s", SummaryModel::Ratio),
             QString::fromStdString(formatRatio(r.replay.runtime_s / plain.runtime_s)));
    QVERIFY(r.replay.runtime_s > plain.runtime_s);  // a recomputation: the ratio says something
    QCOMPARE(cell("peak_ram_bytes", SummaryModel::Reference), QString::fromStdString(formatBytes(plain.peak_ram_bytes)));
    QCOMPARE(cell("peak_ram_bytes", SummaryModel::Ratio),
             QString::fromStdString(formatRatio(double(r.replay.peak_ram_bytes) / double(plain.peak_ram_bytes))));
    const QString runtimeTip = cell("runtime_s", SummaryModel::Value, Qt::ToolTipRole);
    QVERIFY2(runtimeTip.contains(QString("the runtime budget is %1 (%2 one plain pass)")
                                     .arg(QString::fromStdString(formatSeconds(p.runtimeBudgetSeconds())),
                                          QString::fromStdString(formatFactor(p.runtime_budget_factor)))),
             qPrintable(runtimeTip));
    const QString ramTip = cell("peak_ram_bytes", SummaryModel::Value, Qt::ToolTipRole);
    QVERIFY2(ramTip.contains(
                 QString("The RAM budget is %1").arg(QString::fromStdString(formatBytesExact(p.ram_budget_bytes)))),
             qPrintable(ramTip));
    // One unit down the energy column, the total's: the 0.12 J of paging
    // read "120.000 mJ" under "3.6… J".
    QVERIFY(r.replay.paging_energy_j < 1 && r.replay.total_energy_j >= 1);
    QCOMPARE(cell("paging_energy_j", SummaryModel::Value), QStringLiteral("0.1200 J"));
    // A plain pass pages nothing: its zero is in the unit of the figures
    // beside it ("0 J" stood among mJ). The same graph in millijoules:
    std::vector<Node> milli = p.graph.nodes();
    for (Node& n : milli) {
        n.compute_energy_j /= 1000;
        n.pagein_energy_j /= 1000;
        n.pageout_energy_j /= 1000;
    }
    Problem pm = p;
    pm.graph = Graph(milli, p.graph.edges());
    model.setResult(pm, uitest::tinyResult(pm, SolveStatus::Feasible),
                    replaySchedule(pm.graph, plainSchedule(pm.graph)));
    QCOMPARE(cell("paging_energy_j", SummaryModel::Reference), QStringLiteral("0 mJ"));
    QVERIFY(cell("total_energy_j", SummaryModel::Reference).endsWith(QStringLiteral(" mJ")));
    QCOMPARE(r.replay.page_outs, 1);
}

void TestUiModels::teachingStepsAndCaptions() {
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    const ReplayReport rep = replaySchedule(g, s);
    const auto steps = teachingSteps(g, s);
    // 7 computations (6 + 1 recomputation), 1 page-out, 1 page-in.
    QCOMPARE(int(steps.size()), 9);
    QCOMPARE(steps.front().stage, 0);
    int recompute = -1, pageOut = -1, pageIn = -1;
    for (int k = 0; k < int(steps.size()); ++k) {
        if (steps[k].kind == StepKind::Recompute) recompute = k;
        if (steps[k].kind == StepKind::PageOut) pageOut = k;
        if (steps[k].kind == StepKind::PageIn) pageIn = k;
        if (k) QVERIFY(steps[k].stage >= steps[k - 1].stage);  // in stage order
    }
    QVERIFY(recompute >= 0 && pageOut >= 0 && pageIn >= 0);
    const QString cap = QString::fromStdString(teachingCaption(g, s, steps[recompute], 3000000, rep));
    QVERIFY2(cap.startsWith("Stage 5: recompute input") && cap.contains("freed at stage 1") &&
                 cap.contains("3.00 MB"),
             qPrintable(cap));
    // A page says what it does to RAM, and when: not the stage's "RAM in
    // use", the same figure as the step before, as if nothing happened.
    const QString out = QString::fromStdString(teachingCaption(g, s, steps[pageOut], 3000000, rep));
    QCOMPARE(out, QStringLiteral("Stage 2: page out a (2.00 kB) to flash; it is needed again at stage 5, so its "
                                 "2.00 kB of RAM can be freed to stay under 3.00 MB: free from stage 3 on."));
    const QString in = QString::fromStdString(teachingCaption(g, s, steps[pageIn], 3000000, rep));
    QCOMPARE(in, QStringLiteral("Stage 4: page in a (2.00 kB) from flash: it takes that RAM again, usable from "
                                "stage 5."));
    // The input batch costs nothing to make again: no RAM "saved" is
    // claimed (stage 0 read "freed ... to stay under 3.30 kB" where it was
    // under), as the Cells tab says it.
    std::vector<Node> nodes = g.nodes();
    nodes[0].compute_energy_j = nodes[0].compute_time_s = 0;
    const Graph freeInput(nodes, g.edges());
    const QString again =
        QString::fromStdString(teachingCaption(freeInput, s, steps[recompute], 3000000, replaySchedule(freeInput, s)));
    QVERIFY2(again.startsWith("Stage 5: recompute input at no cost: producing it takes no time and no energy. RAM "
                              "in use: "),
             qPrintable(again));
}

void TestUiModels::statusWords() {
    StatusContext ctx;
    ctx.ram_budget_bytes = 100000;
    ctx.min_budget_lower_bound_bytes = 262100;
    ctx.time_limit_s = 5;
    SolveResult r;
    r.status = SolveStatus::Infeasible;
    r.message = "RAM budget below the largest working set";
    StatusMessage m = statusForResult(r, ctx);
    QVERIFY2(m.text.contains("Infeasible") && m.text.contains("largest working set") && m.text.contains("Try 262,100 B") &&
                 m.text.contains("budget:262100"),
             qPrintable(m.text));
    QCOMPARE(m.tone, StatusTone::Bad);
    // Where the solve knows a budget that works, the link offers that one,
    // not the lower bound.
    r.ram_budget_that_works_bytes = 300000;
    m = statusForResult(r, ctx);
    QVERIFY2(m.text.contains("Use 300,000 B") && m.text.contains("budget:300000") && !m.text.contains("budget:262100"),
             qPrintable(m.text));
    // The link comes before the reason, which a narrow window cuts off.
    QVERIFY2(m.text.indexOf("budget:300000") < m.text.indexOf("largest working set"), qPrintable(m.text));
    // The solver's bytes are written as the link's ("Use 1.05 MB — ...
    // below 1048576 B" mixed them), exactly: "262.1 kB" typed in is 262,100
    // B, which did not fit where 262,144 B was the smallest that works.
    r.message = "no schedule fits these budgets: the RAM budget is below 1048576 B, the smallest that holds one node "
                "with all its inputs; a schedule exists at 1048576 B";
    r.ram_budget_that_works_bytes = 1048576;
    m = statusForResult(r, ctx);
    QVERIFY2(m.text.contains("Use 1,048,576 B") && m.text.contains("below 1,048,576 B, the smallest") &&
                 m.text.contains("exists at 1,048,576 B") && !m.text.contains("1048576 B") &&
                 m.text.contains("budget:1048576"),
             qPrintable(m.text));
    // With no budget to link, the solver's own ways out, once; with none,
    // only the switches that are off (resnet50 at 10% without paging read
    // "... switching paging on, or a larger runtime budget, may help. Raise
    // the RAM or runtime budget, or switch paging and rematerialization on").
    ctx.min_budget_lower_bound_bytes = 0;
    r.ram_budget_that_works_bytes = 0;
    r.message = "no schedule fits these budgets: the stages cannot all get their values back; switching paging on, "
                "or a larger runtime budget, may help";
    // It offers a search for one instead (WorkingBudgetSearch); the advice
    // is said once.
    ctx.paging = false;
    QCOMPARE(statusForResult(r, ctx).text,
             QString("Infeasible. <a href=\"find-budget\">Find a RAM budget that works</a> \u2014 no schedule fits "
                     "these budgets: the stages cannot all get their values back; switching paging on, or a larger "
                     "runtime budget, may help."));
    // Below one plain pass no RAM helps: no search.
    ctx.runtime_budget_factor = 0.9;
    r.message = "the runtime budget is below one plain pass (factor 1.0): every node must run at least once";
    QCOMPARE(statusForResult(r, ctx).text,
             QString("Infeasible: the runtime budget is below one plain pass (factor 1.0): every node must run at "
                     "least once."));
    ctx.runtime_budget_factor = 1.5;
    ctx.paging = true;
    ctx.min_budget_lower_bound_bytes = 262100;

    r.message = "RAM budget below the largest working set";
    r.ram_budget_that_works_bytes = 0;
    r.status = SolveStatus::Feasible;
    r.gap = 0.0123;
    r.replay.peak_ram_bytes = 4280;
    r.replay.total_energy_j = 0.5916;
    m = statusForResult(r, ctx);
    QVERIFY2(m.text.contains("gap 1.23 %"), qPrintable(m.text));
    // The figures an optimal answer gives, with its gap.
    QVERIFY2(m.text.startsWith("Feasible, not proven optimal: 591.600 mJ per iteration, peak RAM 4.28 kB, gap 1.23 %"),
             qPrintable(m.text));
    r.status = SolveStatus::Optimal;
    QVERIFY2(statusForResult(r, ctx).text.contains("Within 1.23 % of the optimum:"),
             qPrintable(statusForResult(r, ctx).text));
    // Against the target it stopped at, with two significant digits below
    // 1 % (0.014 % read "0.01 %", as if the 0.01 % target were met).
    ctx.target_gap = 0.005;
    r.gap = 0.0007;
    QVERIFY2(statusForResult(r, ctx).text.contains("Within 0.07 % of the optimum (target 0.5 %):"),
             qPrintable(statusForResult(r, ctx).text));
    r.status = SolveStatus::Feasible;
    r.gap = 0.00014;
    QVERIFY2(statusForResult(r, ctx).text.contains("gap 0.014 %"), qPrintable(statusForResult(r, ctx).text));
    r.status = SolveStatus::Optimal;
    r.gap = 0.0123;
    r.gap = 0;
    QVERIFY(statusForResult(r, ctx).text.contains("Proven optimal"));
    r.status = SolveStatus::NoSolution;
    r.message = "no schedule found within the time limit, and none proven impossible";
    QCOMPARE(statusForResult(r, ctx).text, QString("No schedule found within the time limit (5 s). <a "
                                                   "href=\"find-budget\">Find a RAM budget that works</a>. Or raise "
                                                   "the time limit."));
    r.message += "; with paging on, a schedule exists at these budgets";
    QVERIFY2(statusForResult(r, ctx).text.contains("works</a> \u2014 with paging on, a schedule exists"),
             qPrintable(statusForResult(r, ctx).text));
    // A budget where a schedule exists: linked first, not repeated in bytes.
    r.message = "no schedule found within the time limit, and none proven impossible; a schedule exists at 300000 B; "
                "with paging on, a schedule exists at these budgets";
    r.ram_budget_that_works_bytes = 300000;
    m = statusForResult(r, ctx);
    QVERIFY2(m.text.contains("time limit (5 s). <a href=\"budget:300000\">Use 300,000 B</a> \u2014 a schedule exists "
                             "there; with paging on, a schedule exists at these budgets. Or raise the time limit."),
             qPrintable(m.text));
    QVERIFY2(!m.text.contains("300000 B"), qPrintable(m.text));
    QVERIFY(statusForSolving(1.25, std::nullopt).text.contains("Solving"));

    // A message wider than the line is cut with "…", its link kept (it
    // was cut mid-word: "... the smallest RAM budget that would wo").
    const QString longHtml = QStringLiteral("<a href=\"budget:300000\">Use 300,000 B</a> \u2014 ") +
                             QStringLiteral("reason ").repeated(80);
    const QFont font;
    const QString cut = elideRichText(longHtml, font, 300);
    QTextDocument fitted;
    fitted.setDefaultFont(font);
    fitted.setDocumentMargin(0);
    fitted.setHtml(cut);
    QVERIFY2(fitted.idealWidth() <= 300 && fitted.idealWidth() > 250, qPrintable(QString::number(fitted.idealWidth())));
    QVERIFY2(fitted.toPlainText().startsWith(QStringLiteral("Use 300,000 B \u2014 reason reason")) &&
                 fitted.toPlainText().endsWith(QStringLiteral("\u2026")),
             qPrintable(fitted.toPlainText()));
    QVERIFY(cut.contains(QStringLiteral("href=\"budget:300000\"")));
    QCOMPARE(elideRichText(QStringLiteral("Ready."), font, 300), QStringLiteral("Ready."));
    StatusLine line;
    line.resize(400, 30);
    line.showMessage(longHtml);
    QCOMPARE(line.text(), longHtml);  // whole; the label holds it cut
    const QList<QLabel*> labels = line.findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* l) { return l->text().contains(QChar(0x2026)); }));
    // Its search link asks for the search.
    QSignalSpy search(&line, &StatusLine::budgetSearchRequested);
    r.status = SolveStatus::Infeasible;
    r.ram_budget_that_works_bytes = 0;
    ctx.min_budget_lower_bound_bytes = 0;
    line.showResult(r, ctx);
    QVERIFY2(line.text().contains("href=\"find-budget\""), qPrintable(line.text()));
    for (QLabel* l : labels) emit l->linkActivated(QString::fromLatin1(kFindBudgetLink));
    QCOMPARE(search.count(), 1);
    // A schedule shown mid-solve has no bound yet: not "gap 0 %", which
    // reads as proven.
    const Problem p = uitest::tinyProblem();
    SolveResult shown = uitest::tinyResult(p, SolveStatus::Feasible);
    const QString unbounded = statusForSolving(1.25, shown).text;
    QVERIFY2(unbounded.contains("no bound yet") && !unbounded.contains("gap"), qPrintable(unbounded));
    SummaryModel model;
    model.setResult(p, shown, replaySchedule(p.graph, plainSchedule(p.graph)));
    QCOMPARE(model.index(model.rowOf("gap"), SummaryModel::Value).data().toString(), QStringLiteral("not known yet"));
    shown.best_bound_j = shown.replay.total_energy_j * 0.99;
    shown.gap = 0.01;
    QVERIFY2(statusForSolving(1.25, shown).text.contains("gap 1 %"), qPrintable(statusForSolving(1.25, shown).text));
    model.setResult(p, shown, replaySchedule(p.graph, plainSchedule(p.graph)));
    QCOMPARE(model.index(model.rowOf("gap"), SummaryModel::Value).data().toString(), QStringLiteral("1 %"));
}

void TestUiModels::units() {
    QCOMPARE(QString::fromStdString(formatBytes(512)), QStringLiteral("512 B"));
    QCOMPARE(QString::fromStdString(formatBytes(262100)), QStringLiteral("262.1 kB"));
    QCOMPARE(QString::fromStdString(formatBytes(3000000)), QStringLiteral("3.00 MB"));
    QCOMPARE(QString::fromStdString(formatBytesExact(2451072)), QStringLiteral("2,451,072 B"));
    // "≥" figures round down: "min ≥ 1.05 MB" stood for 1,048,576 B, "≥ 51.4 MB" for 51,380,224 B.
    QCOMPARE(QString::fromStdString(formatBytes(1048576)), QStringLiteral("1.05 MB"));
    QCOMPARE(QString::fromStdString(formatBytesDown(1048576)), QStringLiteral("1.04 MB"));
    QCOMPARE(QString::fromStdString(formatBytesDown(51380224)), QStringLiteral("51.3 MB"));
    QCOMPARE(QString::fromStdString(formatBytesDown(1050000)), QStringLiteral("1.05 MB"));  // exact stays
    QCOMPARE(QString::fromStdString(formatBytesDown(262144)), QStringLiteral("262.1 kB"));
    QCOMPARE(QString::fromStdString(formatBytesDown(999)), QStringLiteral("999 B"));
    QCOMPARE(QString::fromStdString(formatGapPercent(0.00014)), QStringLiteral("0.014 %"));
    QCOMPARE(QString::fromStdString(formatGapPercent(0.005)), QStringLiteral("0.5 %"));
    QCOMPARE(QString::fromStdString(formatGapPercent(0.0123)), QStringLiteral("1.23 %"));
    QCOMPARE(QString::fromStdString(formatGapPercent(9.7e-10)), QStringLiteral("< 0.001 %"));
    QCOMPARE(QString::fromStdString(formatGapPercent(0)), QStringLiteral("0 %"));
    QCOMPARE(QString::fromStdString(formatGapPercent(0.05)), QStringLiteral("5 %"));
    // An hour or more says so (m0's plain pass: "23942.451 s").
    QCOMPARE(QString::fromStdString(formatSecondsAndHours(49.686)), QStringLiteral("49.686 s"));
    QCOMPARE(QString::fromStdString(formatSecondsAndHours(23942.451)), QStringLiteral("23942.451 s (6.65 h)"));
    QCOMPARE(QString::fromStdString(formatSeconds(23942.451)), QStringLiteral("23942.451 s"));  // a table's cell
}

QTEST_MAIN(TestUiModels)
#include "tst_ui_models.moc"
