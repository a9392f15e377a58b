// The views rendered offscreen and checked for content: the heatmap shows the
// expected colours at known cells of a hand-built schedule, the timeline draws
// the curve and the budget, exports are vector PDF/SVG and PNG, and the main
// window solves, undoes and exports.
#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFontDatabase>
#include <QFontInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTimer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QStackedWidget>
#include <QTextLayout>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QXmlStreamReader>
#include <QClipboard>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <thread>
#include <tuple>

#include "budget_control.h"
#include "cell_palette.h"
#include "copyable_table_view.h"
#include "effective_budget.h"
#include "explorer_window.h"
#include "heatmap_view.h"
#include "heuristic_schedule.h"
#include "memory_timeline_view.h"
#include "pareto_plot.h"
#include "problem_loader.h"
#include "profile_catalog.h"
#include "replay.h"
#include "schedule_cell_model.h"
#include "schedule_io.h"
#include "solve_bridge.h"
#include "status_line.h"
#include "summary_panel.h"
#include "sweep.h"
#include "teaching_panel.h"
#include "ui_test_graphs.h"
#include "units.h"
#include "view_export.h"

using namespace poet;
using namespace poet::ui;

namespace {
int countColour(const QImage& img, QColor c, int tolerance = 6) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p = img.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) <= tolerance && std::abs(p.green() - c.green()) <= tolerance &&
                std::abs(p.blue() - c.blue()) <= tolerance)
                ++n;
        }
    return n;
}

// A profiles directory on POET_PROFILES holding models/mine.yaml, broken
// (a flow mapping never closed); the variable is put back when it goes.
class BrokenUserProfile {
public:
    BrokenUserProfile() : old_(qgetenv("POET_PROFILES")) {
        QDir().mkpath(dir_.filePath("models"));
        QFile broken(dir_.filePath("models/mine.yaml"));
        if (broken.open(QIODevice::WriteOnly))
            broken.write("description: mine\nlayers:\n  - {name: input, type: input, shape: [1, 4]\n");
        qputenv("POET_PROFILES", dir_.path().toUtf8());
    }
    ~BrokenUserProfile() {
        if (old_.isNull()) qunsetenv("POET_PROFILES");
        else qputenv("POET_PROFILES", old_);
    }
    QString filePath(const QString& name) const { return dir_.filePath(name); }

private:
    QTemporaryDir dir_;
    QByteArray old_;
};

// Holds the event loop (a slow repaint, a drag) while worker threads run:
// their answers queue up, as they do for a user.
void busyFor(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Opens `w` on `o` (the remembered settings neither read nor written) and
// waits for its first solve to settle, as a user opening the explorer would.
bool openAndSettle(ExplorerWindow& w, QSignalSpy& settled, ExplorerOptions o) {
    o.use_settings = false;
    QString err;
    if (!w.initialize(o, &err)) {
        qWarning("initialize: %s", qPrintable(err));
        return false;
    }
    w.show();
    return settled.wait(30000);
}

// `render` drawn on white at `size`, as an export draws it.
QImage renderedImage(const ViewRenderer& render, QSizeF size) {
    QImage img(size.toSize(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QCPPainter p(&img);
    render(p, QRectF(QPointF(0, 0), size));
    p.end();
    return img;
}

// A PDF's text as a viewer's search reads it (pdftotext, from poppler-utils,
// which scripts/setup installs).
QString pdfText(const QString& pdf) {
    QProcess text;
    text.start(QStandardPaths::findExecutable("pdftotext"), {pdf, "-"});
    return text.waitForFinished(30000) ? QString::fromUtf8(text.readAllStandardOutput()) : QString();
}

// The smallest bundled model on the platform where it solves at once.
ExplorerOptions linearOnA72() {
    ExplorerOptions o;
    o.model = "linear";
    o.platform = "a72";
    o.time_limit_s = 20;
    return o;
}
// Triggers the window's menu action `text`, types `typed` into the file
// dialog it opens and presses Enter, and answers the message box that
// follows with `answer`: that box's text and details ("|" between), empty
// where none came.
QString throughFileDialog(ExplorerWindow& w, const QString& text, const QString& typed,
                          QMessageBox::StandardButton answer) {
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == text) action = a;
    if (!action) return QStringLiteral("no action ") + text;
    QString asked;
    QTimer::singleShot(300, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        QTimer::singleShot(300, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = box->text() + (box->detailedText().isEmpty() ? QString() : "|" + box->detailedText());
                box->button(answer)->click();
            }
        });
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        name->setText(typed);
        QTest::keyClick(name, Qt::Key_Return);
    });
    action->trigger();
    return asked;
}

bool writeText(const QString& file, const QByteArray& text) {
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// Where the visible children of `parent` are not laid out apart within
// `area`: the first child outside it or over another, named; "" where they are.
QString childrenNotApart(const QWidget* parent, const QRect& area) {
    QList<const QWidget*> placed;
    for (const QWidget* item : parent->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!item->isVisible()) continue;
        if (!area.contains(item->geometry())) return item->objectName() + QStringLiteral(" is outside");
        for (const QWidget* other : placed)
            if (other->geometry().intersects(item->geometry()))
                return item->objectName() + QStringLiteral(" is over ") + other->objectName();
        placed.append(item);
    }
    return {};
}

}  // namespace

class TestViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void heatmapColoursAtKnownCells();
    void heatmapSelectionAndZoom();
    void timelineDrawsCurveAndBudget();
    void timelineHoverReadsTheCurves();
    void timelineReadsFromTheKeyboard();
    void summaryPanelRenders();
    void exportsAreVectorAndExact();
    void exportsFitTheirTexts();
    void teachingHighlightsOps();
    void windowSolvesUndoesAndExports();
    void windowStopsAtTheTargetGap();
    void stageAxesLineUp();
    void mnemonicsAreUnique();
    void ramLabelShowsTheUsableBudget();
    void budgetBoxesReadWhatIsTyped();
    void markLabelsKeepApart();
    void marksFollowTheSliderRightToLeft();
    void minimumBudgetFollowsTheSwitches();
    void brokenRememberedProfileOpensTheDefaults();
    void tabAndSweepPointsAreRemembered();
    void rememberedBudgetsOutOfRangeOpenTheDefaults();
    void unusableCacheIsSaid();
    void answerToEarlierBudgetsIsNotShown();
    void sweepEndedBeforeASwitchIsNotDrawn();
    void pickingABrokenProfileKeepsTheProblem();
    void modelFilesOpenFromAnyFolder();
    void cellsTabFitsItsWordsAndSaysWhyEmpty();
    void cellTableCopiesTheBlockWithHeaders();
    void findWorkingBudgetSetsOne();
    void tabLeavesTheTables();
    void switchesAndModelAreUndoSteps();
    void paretoTabSweepsTheRuntimeBudget();
    void aSweepClearedWhileItRunsStaysCleared();
    void windowFitsALaptopScreen();
    void exportAsksBeforeReplacingUnderItsSuffix();
    void exportAllAsksAndSaysWhatItWrote();
};

void TestViews::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    SolveBridge::registerMetaTypes();
}

void TestViews::heatmapColoursAtKnownCells() {
    HeatmapView view;
    view.resize(900, 640);
    view.setSchedule(uitest::tinyGraph(), uitest::tinySchedule(), "tiny");
    const QImage img = view.grab().toImage();
    const qreal dpr = img.devicePixelRatio();
    // The pixels inside a cell, off its white borders.
    auto cellPixels = [&](int node, int stage) {
        const QRect r = QRectF(view.cellRect(node, stage).topLeft() * dpr, view.cellRect(node, stage).size() * dpr)
                            .toAlignedRect()
                            .adjusted(2, 2, -2, -2);
        std::map<QRgb, int> count;
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x) ++count[img.pixel(x, y)];
        return count;
    };
    // Its fill: the colour most of its pixels have (the hatch's lines are thin).
    auto colourAt = [&](int node, int stage) {
        const auto count = cellPixels(node, stage);
        return QColor(std::max_element(count.begin(), count.end(), [](auto& a, auto& b) {
                          return a.second < b.second;
                      })->first);
    };
    // A grayscale print keeps the flash states apart by their hatch: a cell
    // with a copy on flash has lines across it darker than its fill, one
    // without is its fill alone.
    auto hatched = [&](int node, int stage, CellCategory c) {
        int pixels = 0, darker = 0;
        for (const auto& [rgb, n] : cellPixels(node, stage)) {
            pixels += n;
            darker += qGray(rgb) < qGray(categoryColor(c).rgb()) - 8 ? n : 0;
        }
        return darker > pixels / 20;
    };
    for (auto [node, stage, c] : {std::tuple{1, 2, CellCategory::PagedOut}, {1, 3, CellCategory::OnFlash},
                                  {1, 4, CellCategory::PagedIn}})
        QVERIFY2(hatched(node, stage, c), categoryName(c));
    for (auto [node, stage, c] : {std::tuple{0, 0, CellCategory::ComputedFirst}, {0, 1, CellCategory::InRam},
                                  {0, 5, CellCategory::Recomputed}})
        QVERIFY2(!hatched(node, stage, c) && cellPixels(node, stage).size() == 1, categoryName(c));
    QCOMPARE(colourAt(0, 0), categoryColor(CellCategory::ComputedFirst));
    QCOMPARE(colourAt(0, 1), categoryColor(CellCategory::InRam));
    QCOMPARE(colourAt(0, 3), categoryColor(CellCategory::Absent));
    QCOMPARE(colourAt(0, 5), categoryColor(CellCategory::Recomputed));
    QCOMPARE(colourAt(1, 2), categoryColor(CellCategory::PagedOut));
    QCOMPARE(colourAt(1, 3), categoryColor(CellCategory::OnFlash));
    QCOMPARE(colourAt(1, 4), categoryColor(CellCategory::PagedIn));
    QCOMPARE(colourAt(1, 5), categoryColor(CellCategory::InRamAndFlash));
    QCOMPARE(colourAt(5, 5), categoryColor(CellCategory::ComputedFirst));
    QCOMPARE(view.cellAt(view.cellRect(2, 3).center()), std::make_pair(2, 3));
    QCOMPARE(view.cellAt(QPointF(1, 1)), std::make_pair(-1, -1));
    const std::string recomputedWords =
        describeCell(uitest::tinyGraph(), uitest::tinySchedule(), 5, 0, CellView::Heatmap);
    QCOMPARE(view.toolTipAt(view.cellRect(0, 5).center()), QString::fromStdString(recomputedWords));
    // The dashed lines have a legend entry that says what they are
    // (students asked): found by hovering the legend under the grid.
    int entryPixels = 0, inked = 0;  // hovered pixels that explain them, and of those drawn on
    for (int y = static_cast<int>(view.cellRect(5, 0).bottom()); y < view.height(); ++y)
        for (int x = 0; x < view.width(); x += 2)
            if (view.toolTipAt(QPointF(x, y)).startsWith(QStringLiteral("The dashed lines bracket the loss's stage"))) {
                ++entryPixels;
                inked += img.pixelColor(QPointF(x * dpr, y * dpr).toPoint()) != QColor(Qt::white);
            }
    QVERIFY(entryPixels > 0);
    QVERIFY(inked > 10);  // its swatch and words, not blank legend room
}

void TestViews::heatmapSelectionAndZoom() {
    HeatmapView view;
    view.resize(900, 640);
    view.setSchedule(uitest::tinyGraph(), uitest::tinySchedule(), "tiny");
    QSignalSpy selected(&view, &HeatmapView::nodeSelected);
    const QImage before = view.grab().toImage();
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(5, 2).center().toPoint());
    QCOMPARE(view.selectedNode(), 5);
    QCOMPARE(selected.count(), 1);
    // The rows node 5 reads (0, 1, 4) are tinted: an absent cell of row 4 is no longer white.
    const QImage after = view.grab().toImage();
    const QPointF p = view.cellRect(4, 1).center() * after.devicePixelRatio();
    QCOMPARE(before.pixelColor(p.toPoint()), QColor(Qt::white));
    QVERIFY(after.pixelColor(p.toPoint()) != QColor(Qt::white));
    // Zoom with the wheel around a cell keeps that cell under the cursor.
    const QPointF at = view.cellRect(3, 3).center();
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QVERIFY(view.zoom() > 1.0);
    QCOMPARE(view.cellAt(at), std::make_pair(3, 3));
    view.resetZoom();
    QCOMPARE(view.zoom(), 1.0);

    // From the keyboard alone (only the mouse could read a cell, or reach
    // the right of a zoomed heatmap): the arrows move a cell cursor that
    // says what its cell holds, as hovering it does, and keep it in view.
    QCOMPARE(view.keyCell(), std::make_pair(-1, -1));
    QTest::keyClick(&view, Qt::Key_Down);  // lands on the top-left cell first
    QCOMPARE(view.keyCell(), std::make_pair(0, 0));
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);  // ten, to the last row
    const int last = uitest::tinyGraph().size() - 1;
    QCOMPARE(view.keyCell(), std::make_pair(last, 2));
    QCOMPARE(view.keyCellText(), view.toolTipAt(view.cellRect(last, 2).center()));
    QVERIFY(!view.keyCellText().isEmpty());
    for (int k = 0; k < 8; ++k) QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(view.zoom() > 1.0);
    QTest::keyClick(&view, Qt::Key_Right, Qt::ShiftModifier);  // to the last stage: the view follows
    QCOMPARE(view.keyCell(), std::make_pair(last, last));
    QVERIFY(view.rect().contains(view.cellRect(last, last).center().toPoint()));
    QCOMPARE(view.cellAt(view.cellRect(last, last).center()), std::make_pair(last, last));
    QCOMPARE(view.selectedNode(), last);  // clicked above: Enter toggles it, as a click does
    QTest::keyClick(&view, Qt::Key_Return);
    QCOMPARE(view.selectedNode(), -1);
    QTest::keyClick(&view, Qt::Key_Space);
    QCOMPARE(view.selectedNode(), last);
}

// Hovering the timeline reads the curves under the mouse: the RAM after
// that op (the replay's trace), the plain pass's, the budget, and the
// stage's flash traffic; off the curves, what the view shows.
void TestViews::timelineHoverReadsTheCurves() {
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    const ReplayReport r = replaySchedule(g, s);
    const ReplayReport plain = replaySchedule(g, plainSchedule(g));
    MemoryTimelineView view;
    view.resize(800, 400);
    view.setData(g, s, r, plain, 20000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    const auto pixelAt = [&](int stage, int op) {
        const double x = opPosition(stage, op) + 0.5 / (stage + 1);
        return QPointF(view.plot()->xAxis->coordToPixel(x), view.plot()->axisRect()->center().y());
    };
    const auto bytes = [](std::int64_t b) { return QString::fromStdString(formatBytes(b)); };
    // Stage 4 (grad b) pages node a (2,000 B) back in; its second op is a's.
    const QString at41 = view.toolTipAt(pixelAt(4, 1));
    // Op k is node k's slot: it says whether the node runs there (naming it
    // alone read as if it ran).
    QCOMPARE(at41, QStringLiteral("<b>Stage 4</b>, op 2 of 5: a's slot, not run in this stage<br>RAM in use after "
                                  "it: %1<br>the plain pass: %2<br>RAM budget: 20.0 kB<br>this stage pages in "
                                  "2.00 kB and out 0 B")
                       .arg(bytes(r.ram_trace[4][1]), bytes(plain.ram_trace[4][1])));
    QVERIFY(view.toolTipAt(pixelAt(0, 0))
                .startsWith(QStringLiteral("<b>Stage 0</b>, op 1 of 1: computes input for the first time<br>")));
    QVERIFY(view.toolTipAt(pixelAt(5, 0))
                .startsWith(QStringLiteral("<b>Stage 5</b>, op 1 of 6: recomputes input<br>")));
    QVERIFY(!view.toolTipAt(pixelAt(3, 3)).contains("pages"));  // stage 3 pages nothing
    QCOMPARE(view.toolTipAt(QPointF(1, 1)), view.plot()->toolTip());  // outside the plot area
    // Without a schedule, the plain pass alone.
    view.showPlainOnly(g, plain, 3000);
    view.plot()->replot();
    QCOMPARE(view.toolTipAt(pixelAt(5, 5)),
             QStringLiteral("<b>Stage 5</b>, op 6 of 6: computes grad a for the first time<br>the plain pass: %1<br>"
                            "RAM budget: 3.00 kB")
                 .arg(bytes(plain.ram_trace[5][5])));
}

// The timeline from the keyboard alone (only hovering read its curves): a
// click or Tab gives it the focus, Left and Right walk the ops in their
// order (stage t holds t + 1), Shift a stage; the cursor says what hovering
// its op says and pans a zoomed axis to it, as a user's move.
void TestViews::timelineReadsFromTheKeyboard() {
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    MemoryTimelineView view;
    view.resize(800, 400);
    view.setData(g, s, replaySchedule(g, s), replaySchedule(g, plainSchedule(g)), 20000);
    view.show();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    view.plot()->replot();
    QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.plot()->axisRect()->center());
    QVERIFY(view.hasFocus());
    const auto pixelAt = [&](int stage, int op) {
        const double x = opPosition(stage, op) + 0.5 / (stage + 1);
        return QPointF(view.plot()->xAxis->coordToPixel(x), view.plot()->axisRect()->center().y());
    };
    using Op = std::pair<int, int>;
    QCOMPARE(view.keyOp(), Op(-1, -1));
    QTest::keyClick(&view, Qt::Key_Right);  // lands on the first op in view
    QCOMPARE(view.keyOp(), Op(0, 0));
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(view.keyOp(), Op(1, 0));
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(view.keyOp(), Op(2, 0));
    QTest::keyClick(&view, Qt::Key_Right, Qt::ShiftModifier);
    QTest::keyClick(&view, Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(view.keyOp(), Op(4, 0));
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(view.keyOp(), Op(4, 1));
    QCOMPARE(view.keyOpText(), view.toolTipAt(pixelAt(4, 1)));
    QVERIFY(view.keyOpText().contains("a's slot, not run in this stage"));
    QVERIFY(view.accessibleDescription().startsWith("Stage 4, op 2 of 5: a's slot"));  // words, no markup
    QTest::keyClick(&view, Qt::Key_Left, Qt::ShiftModifier);  // op 2 of stage 3
    QCOMPARE(view.keyOp(), Op(3, 1));
    QTest::keyClick(&view, Qt::Key_Left);
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(view.keyOp(), Op(2, 2));
    QTest::keyClick(&view, Qt::Key_Home);
    QTest::keyClick(&view, Qt::Key_Left);  // nothing before the first op
    QCOMPARE(view.keyOp(), Op(0, 0));

    // Zoomed in from the keys, End moves the axis to the last op: a move the
    // heatmap follows (stagesMovedByUser).
    for (int k = 0; k < 8; ++k) QTest::keyClick(&view, Qt::Key_Plus);
    const QCPRange zoomed = view.plot()->xAxis->range();
    QCOMPARE(zoomed.size(), 4.0);  // no closer than four stages
    QVERIFY(zoomed.lower < 0.5 && zoomed.upper < 5);  // about the cursor, in the middle of stage 0
    QSignalSpy moved(&view, &MemoryTimelineView::stagesMovedByUser);
    QTest::keyClick(&view, Qt::Key_End);
    QCOMPARE(view.keyOp(), Op(5, 5));
    QCOMPARE(moved.count(), 1);
    QVERIFY(view.plot()->xAxis->range().contains(opPosition(5, 5)));
    QCOMPARE(view.plot()->xAxis->range().size(), 4.0);
    QCOMPARE(view.keyOpText(), view.toolTipAt(pixelAt(5, 5)));
    QTest::keyClick(&view, Qt::Key_0);
    QCOMPARE(view.plot()->xAxis->range().lower, 0.0);
    QCOMPARE(view.plot()->xAxis->range().upper, double(g.size()));

    // Its words follow what is drawn (they said the schedule before's op
    // after a new solve): the plain pass alone, then nothing.
    const ReplayReport plain = replaySchedule(g, plainSchedule(g));
    view.showPlainOnly(g, plain, 3000);
    QCOMPARE(view.keyOp(), Op(5, 5));
    QVERIFY(view.accessibleDescription().startsWith("Stage 5, op 6 of 6: computes grad a"));
    QVERIFY(view.accessibleDescription().contains("the plain pass"));
    QVERIFY(!view.accessibleDescription().contains("RAM in use after it"));
    view.clear();
    QCOMPARE(view.accessibleDescription(), QString());
    // A schedule of fewer stages has no such op: it is forgotten, and the
    // next key starts at the first op in view.
    std::vector<Node> three(3);
    for (int i = 0; i < 3; ++i) {
        three[i].name = "n" + std::to_string(i);
        three[i].kind = i == 0 ? NodeKind::Forward : i == 1 ? NodeKind::Loss : NodeKind::Backward;
        three[i].memory_bytes = 100;
        three[i].compute_time_s = 0.01;
    }
    const Graph small(three, {{0, 1}, {1, 2}, {0, 2}});
    view.setData(small, plainSchedule(small), replaySchedule(small, plainSchedule(small)),
                 replaySchedule(small, plainSchedule(small)), 1000);
    QCOMPARE(view.keyOp(), Op(-1, -1));
    QCOMPARE(view.accessibleDescription(), QString());
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(view.keyOp(), Op(0, 0));
    // Home and End with nothing drawn leave no cursor behind.
    view.clear();
    MemoryTimelineView empty;
    QTest::keyClick(&empty, Qt::Key_End);
    QCOMPARE(empty.keyOp(), Op(-1, -1));
}

void TestViews::timelineDrawsCurveAndBudget() {
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    const ReplayReport r = replaySchedule(g, s);
    QVERIFY2(r.valid, r.errors.empty() ? "" : r.errors.front().c_str());
    const ReplayReport plain = replaySchedule(g, plainSchedule(g));
    const TimelineSeries ts = timelineSeries(g, s, r);
    QCOMPARE(int(ts.x.size()), 6 * 7 / 2 + 1);  // one point per op, plus the closing point
    QCOMPARE(ts.pageOutBytes[2], 2000.0);
    QCOMPARE(ts.pageInBytes[4], 2000.0);

    MemoryTimelineView view;
    view.resize(800, 400);
    view.setData(g, s, r, plain, 20000);
    QVERIFY(view.hasData());
    view.plot()->replot();
    const QImage img = view.grab().toImage();
    QVERIFY(countColour(img, categoryColor(CellCategory::ComputedFirst), 20) > 50);  // the RAM curve
    QVERIFY(countColour(img, QColor(0xC0, 0x1B, 0x1B), 30) > 20);                      // the budget line
    QCOMPARE(view.plot()->graph(0)->dataCount() > 0, true);
    // Its export has every stage and no teaching cursor, whatever the
    // screen shows (a zoom cut the exported curve off its peak, unsaid);
    // the screen keeps its zoom.
    const auto exported = [&](const QString& title) {
        return renderedImage([&](QCPPainter& p, const QRectF& r) { view.renderTo(p, r, title); }, QSizeF(600, 300));
    };
    const QImage whole = exported(QString());
    // With a title (the heatmap's: an export alone could not be told
    // apart), laid out above it for the export only.
    const int rows = view.plot()->plotLayout()->rowCount();
    QVERIFY(exported(QStringLiteral("tiny on m4")) != whole);
    QCOMPARE(view.plot()->plotLayout()->rowCount(), rows);
    view.plot()->xAxis->setRange(1, 3);
    view.setCurrentOp(2, 0);
    QCOMPARE(exported(QString()), whole);
    QCOMPARE(view.plot()->xAxis->range().lower, 1.0);
    QCOMPARE(view.plot()->xAxis->range().upper, 3.0);
    view.setCurrentOp(-1, -1);
    view.plot()->xAxis->setRange(0, 6);
    view.plot()->replot();
    // Stage t's number at its middle, t + 0.5, as on the heatmap's axis (at
    // t it stood half a stage left of the heatmap's), whole stages only.
    QCOMPARE(view.plot()->xAxis->tickVector(), (QVector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
    QCOMPARE(view.plot()->xAxis->tickVectorLabels(), (QVector<QString>{"0", "1", "2", "3", "4", "5"}));
    view.plot()->xAxis->setRange(0, 173);
    view.plot()->replot();
    const QVector<double> ticks = view.plot()->xAxis->tickVector();
    QVERIFY(ticks.size() >= 3);
    for (int i = 0; i < ticks.size(); ++i) {
        QCOMPARE(view.plot()->xAxis->tickVectorLabels()[i], QString::number(ticks[i] - 0.5));
        QCOMPARE(std::fmod(ticks[i] - 0.5, ticks[1] - ticks[0]), 0.0);
    }
    // The budget's value is in its legend entry (no label over the curves),
    // and follows the budget.
    QCOMPARE(view.plot()->graph(2)->name(), QStringLiteral("RAM budget 20.0 kB"));
    for (int i = 0; i < view.plot()->itemCount(); ++i)  // the teaching and key cursors only
        QVERIFY(qobject_cast<QCPItemStraightLine*>(view.plot()->item(i)));
    view.setBudget(12500);
    QCOMPARE(view.plot()->graph(2)->name(), QStringLiteral("RAM budget 12.5 kB"));
    // A budget far above every curve leaves the axis to the curves, and its
    // legend entry says it is off the scale (linear on m4 under 3 GB: an axis
    // to 3000 MB, the 7.4 kB curves flat on it).
    // A model under a kilobyte is drawn in B, not in kB with ticks 0.2, 0.4.
    QCOMPARE(axisUnitBytes(999), 1.0);
    QCOMPARE(unitName(axisUnitBytes(999)), QStringLiteral("B"));
    QCOMPARE(unitName(axisUnitBytes(1000)), QStringLiteral("kB"));
    QCOMPARE(unitName(axisUnitBytes(2.45e6)), QStringLiteral("MB"));
    QCOMPARE(ramAxisTopBytes(1000, 1000, 2000), 2000.0);
    QCOMPARE(ramAxisTopBytes(1000, 1000, 2500), 2500.0);
    QCOMPARE(ramAxisTopBytes(1000, 1000, 2600), 1000.0);
    view.setData(g, s, r, plain, 3'000'000'000);
    QVERIFY2(view.plot()->yAxis->range().upper < 100, qPrintable(QString::number(view.plot()->yAxis->range().upper)));
    QCOMPARE(view.plot()->graph(2)->name(), QStringLiteral("RAM budget 3.00 GB (above the scale)"));
    // In an SVG a line above the scale is not drawn: Qt's SVG writer keeps
    // no clip, and the plain pass above the scale ran up through the legend
    // and off the page (y = -849).
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath("t.svg");
        QString err;
        QVERIFY2(exportView([&](QCPPainter& p, const QRectF& r) { view.renderTo(p, r); }, view.exportSize(), svg,
                            "t", &err),
                 qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        double lowest = INFINITY;
        const QRegularExpression points(QStringLiteral("points=\"([^\"]*)\""));
        for (auto m = points.globalMatch(text); m.hasNext();)
            for (const QString& xy : m.next().captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                lowest = std::min(lowest, xy.section(QLatin1Char(','), 1, 1).toDouble());
        QVERIFY2(lowest >= 0, qPrintable(QString::number(lowest)));
        QCOMPARE(view.plot()->graph(2)->dataCount(), 2);  // the view keeps its line
    }
    QCOMPARE(view.plot()->graph(0)->name(), QStringLiteral("plain pass"));
    // So is a plain pass far above the schedule and its budget: at tight
    // budgets it kept them in the panel's bottom sixth (resnet18_cifar on
    // m4 at 16%), the flash bars over them. Without a schedule the plain
    // pass is the curve the view is about, and sets the axis.
    QCOMPARE(ramAxisTopBytes(400, 2400, 450), 450.0);
    QCOMPARE(ramAxisTopBytes(400, 1000, 450), 1000.0);
    QCOMPARE(ramAxisTopBytes(0, 2400, 450), 2400.0);
    QCOMPARE(ramAxisTopBytes(0, 2400, 6100), 2400.0);
    ReplayReport towering = plain;  // the plain pass at 10x its bytes
    for (auto& stage : towering.ram_trace)
        for (auto& bytes : stage) bytes *= 10;
    view.setData(g, s, r, towering, 12500);
    const double top = view.plot()->yAxis->range().upper * 1000;  // kB; the schedule (14 kB) over the budget
    const double expected = std::max<double>(r.peak_ram_bytes, 12500);
    QVERIFY2(top >= expected && top < expected * 1.2, qPrintable(QString::number(top)));
    const QString plainName = view.plot()->graph(0)->name();
    QVERIFY2(plainName.startsWith(QStringLiteral("plain pass (peak ")) &&
                 plainName.endsWith(QStringLiteral(" kB, above the scale)")),
             qPrintable(plainName));
    QCOMPARE(view.plot()->graph(2)->name(), QStringLiteral("RAM budget 12.5 kB"));
    view.setData(g, s, r, plain, 12500);
    // This schedule pages: its flash traffic is in the legend, on the right axis.
    QCOMPARE(view.plot()->legend->itemCount(), 5);
    QVERIFY(view.plot()->yAxis2->visible());

    // With no schedule (an infeasible budget), the legend names no flash
    // traffic either: there is no right axis for it.
    view.clear();
    QVERIFY(!view.hasData());
    QCOMPARE(view.plot()->legend->itemCount(), 3);
    QVERIFY(!view.plot()->yAxis2->visible());
    view.setData(g, s, r, plain, 20000);
    QCOMPARE(view.plot()->legend->itemCount(), 5);

    // No schedule, but the plain pass known: its curve and the budget line
    // alone, and the legend names just those two. Still nothing to export.
    view.showPlainOnly(g, plain, 3000);
    QCustomPlot* plot = view.plot();
    QCPGraph* plainCurve = plot->graph(0);
    QCPGraph* scheduleCurve = plot->graph(1);
    QCPGraph* budgetLine = plot->graph(2);
    QVERIFY(!view.hasData());
    QCOMPARE(scheduleCurve->dataCount(), 0);
    QCOMPARE(plainCurve->dataCount(), int(timelineSeries(g, plainSchedule(g), plain).x.size()));
    QCOMPARE(budgetLine->dataCount(), 2);
    QCOMPARE(plot->legend->itemCount(), 2);
    QVERIFY(plot->legend->itemWithPlottable(plainCurve));
    QVERIFY(plot->legend->itemWithPlottable(budgetLine));
    plot->replot();
    const QImage plainOnly = view.grab().toImage();
    QVERIFY(countColour(plainOnly, QColor(0xC0, 0x1B, 0x1B), 30) > 20);  // the budget line
    // A slider move redraws the line there.
    view.setBudget(5000);
    QCOMPARE(budgetLine->data()->at(0)->value, 5000 / 1e3);
    // And a schedule afterwards brings its entries back, in reading order.
    view.setData(g, s, r, plain, 20000);
    QCOMPARE(plot->legend->itemCount(), 5);
    QCOMPARE(plot->legend->item(0), plot->legend->itemWithPlottable(scheduleCurve));
}

void TestViews::summaryPanelRenders() {
    SummaryPanel panel;
    const Problem p = uitest::tinyProblem();
    const SolveResult r = uitest::tinyResult(p, SolveStatus::Optimal);
    panel.setResult(p, r, replaySchedule(p.graph, plainSchedule(p.graph)));
    panel.resize(500, 400);
    const QImage img = panel.grab().toImage();
    QVERIFY(!img.isNull());
    QVERIFY(panel.model()->rowCount() > 5);

    // Narrow, with a long status ("optimal within 1.23 %"): the ratios keep
    // the width they need (they were elided to "1...x"), the status gives way.
    SolveResult within = r;
    within.gap = 0.0123;
    panel.setResult(p, within, replaySchedule(p.graph, plainSchedule(p.graph)));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QTableView* table = panel.table();
    const QAbstractItemView* view = table;  // sizeHintForColumn is public there
    const auto need = [&](int c) {
        return std::max(view->sizeHintForColumn(c), table->horizontalHeader()->sectionSizeHint(c));
    };
    // Room for all but half of this schedule's column.
    const int room = need(SummaryModel::Quantity) + need(SummaryModel::Reference) + need(SummaryModel::Ratio) +
                     need(SummaryModel::Value) / 2;
    panel.resize(panel.width() - table->viewport()->width() + room, 400);
    QTRY_COMPARE(table->viewport()->width(), room);
    QCOMPARE(table->columnWidth(SummaryModel::Ratio), need(SummaryModel::Ratio));
    QVERIFY(table->columnWidth(SummaryModel::Value) < need(SummaryModel::Value));
    // The status takes the empty cells beside it and stays whole (it was
    // elided, "optimal w...in 0.50 %", at the default window size).
    const int status_row = panel.model()->rowOf(QStringLiteral("status"));
    const QModelIndex status = panel.model()->index(status_row, SummaryModel::Value);
    QCOMPARE(table->columnSpan(status_row, SummaryModel::Value), SummaryModel::ColumnCount - SummaryModel::Value);
    QVERIFY(table->visualRect(status).width() >
            table->fontMetrics().horizontalAdvance(status.data().toString()) + table->fontMetrics().height() / 2);
    QVERIFY(table->visualRect(status).width() > table->columnWidth(SummaryModel::Value));
    // It starts under "This schedule", as words do (right-aligned, it sat
    // under "Ratio"); the figures stay right-aligned.
    QCOMPARE(status.data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignHorizontal_Mask, Qt::AlignLeft);
    const QModelIndex energy = panel.model()->index(panel.model()->rowOf(QStringLiteral("total_energy_j")),
                                                    SummaryModel::Value);
    QCOMPARE(energy.data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignHorizontal_Mask, Qt::AlignRight);
    // Cleared, no span is left over the empty table.
    panel.clear();
    QCOMPARE(table->columnSpan(status_row, SummaryModel::Value), 1);

    // The title, wrapped just short of its last unit, takes the figure
    // with it: "122.2540" stood at a line's end and "J" alone below.
    const QString title =
        QStringLiteral("bert on m4 \u2014 RAM budget 56.0 MB, runtime 1.007x \u2014 feasible, 122.2540 J");
    panel.setTitle(title);
    const auto* label = panel.findChild<QLabel*>();
    QVERIFY(label);
    QTextLayout layout(label->text(), label->font());
    QTextOption wrap;
    wrap.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(wrap);
    const qreal width = QFontMetricsF(label->font()).horizontalAdvance(title.chopped(2)) + 1;
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << label->text().mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    QVERIFY2(lines.size() == 2 && lines.last().startsWith(QStringLiteral("122.2540")), qPrintable(lines.join('|')));
    // Only a figure and its unit are kept together ("56.0 MB" and "122.2540 J"; not "m4 \u2014").
    QCOMPARE(label->text().count(QChar(0x00A0)), 2);
}

// An exported figure is wide enough for what it says: the summary for each
// column's widest text, the timeline for its legend's one row (narrower,
// both cut texts short: "lain pass / budget", "paged out (right ax").
void TestViews::exportsFitTheirTexts() {
    SummaryPanel panel;
    const Problem p = uitest::tinyProblem();
    SolveResult r = uitest::tinyResult(p, SolveStatus::Feasible);  // every row filled, as a solve leaves it
    r.source = SolutionSource::Incumbent;
    r.gap = 0.0123;
    r.best_bound_j = r.replay.total_energy_j * (1 - r.gap);
    r.solve_time_s = 12.345;
    panel.setResult(p, r, replaySchedule(p.graph, plainSchedule(p.graph)));
    QFont bold = panel.font();
    bold.setBold(true);
    const SummaryModel* m = panel.model();
    double texts = 0;
    for (int c = 0; c < m->columnCount(); ++c) {
        double widest = QFontMetricsF(bold).horizontalAdvance(m->headerData(c, Qt::Horizontal).toString());
        for (int row = 0; row < m->rowCount(); ++row)
            widest = std::max(widest, QFontMetricsF(c == 0 ? bold : panel.font())
                                          .horizontalAdvance(m->index(row, c).data().toString()));
        texts += widest;
    }
    // Each column's text, a gap of 0.6 lines after it, and the margins.
    const double line = QFontMetricsF(panel.font()).height();
    const double needed = texts + 0.6 * line * (m->columnCount() + 2);
    QVERIFY2(panel.exportSize().width() >= needed,
             qPrintable(QString("%1 < %2").arg(panel.exportSize().width()).arg(needed)));

    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    MemoryTimelineView view;
    view.setData(g, s, replaySchedule(g, s), replaySchedule(g, plainSchedule(g)), 20000);
    const QSize size = view.exportSize().toSize();
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    QCPPainter painter(&img);
    view.renderTo(painter, QRectF(QPointF(0, 0), size));  // lays the plot out at that size
    painter.end();
    QCPLegend* legend = view.plot()->legend;
    QCOMPARE(legend->itemCount(), 5);
    for (int k = 0; k < legend->itemCount(); ++k) {
        QCPAbstractLegendItem* item = legend->item(k);
        QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                 qPrintable(QString("legend item %1: %2 < %3")
                                .arg(k)
                                .arg(item->outerRect().width())
                                .arg(item->minimumOuterSizeHint().width())));
    }
}

void TestViews::exportsAreVectorAndExact() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    HeatmapView view;
    view.resize(700, 500);
    view.setSchedule(uitest::tinyGraph(), uitest::tinySchedule(), "tiny schedule");
    const ViewRenderer render = [&](QCPPainter& p, const QRectF& r) { view.renderTo(p, r); };
    QString err;
    const QString pdf = dir.filePath("h.pdf"), svg = dir.filePath("h.svg"), png = dir.filePath("h.png");
    QVERIFY2(exportView(render, view.exportSize(), pdf, "t", &err), qPrintable(err));
    QVERIFY2(exportView(render, view.exportSize(), svg, "t", &err), qPrintable(err));
    QVERIFY2(exportView(render, view.exportSize(), png, "t", &err), qPrintable(err));
    QVERIFY(!exportView(render, view.exportSize(), dir.filePath("h.bmp"), "t", &err));
    // A figure made read-only to keep it is kept (QSaveFile replaced it where root ran it).
    {
        const QString kept = dir.filePath("kept.pdf");
        QVERIFY2(exportView(render, view.exportSize(), kept, "t", &err), qPrintable(err));
        QVERIFY(QFile::setPermissions(kept, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
        const QDateTime before = QFileInfo(kept).lastModified();
        QVERIFY(!exportView(render, view.exportSize(), kept, "t", &err));
        QVERIFY2(err.contains("write-protected"), qPrintable(err));
        QCOMPARE(QFileInfo(kept).lastModified(), before);
    }

    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdfBytes = f.readAll();
    QVERIFY(pdfBytes.startsWith("%PDF"));
    QVERIFY2(!pdfBytes.contains("/DCTDecode"), "the heatmap must not be a JPEG inside the PDF");
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    const QByteArray svgBytes = s.readAll(), svgText = svgBytes.toLower();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(!svgText.contains("<image"));
    // Its texts name the font they were drawn in, then a generic family:
    // "Sans Serif", Qt's alias, is no font to an SVG viewer (a browser drew
    // the figure in its serif default).
    int named = 0;
    for (auto it = QRegularExpression("font-family=\"([^\"]*)\"").globalMatch(QString::fromUtf8(svgBytes));
         it.hasNext(); ++named) {
        const QString family = it.next().captured(1);
        QVERIFY2(family == QFontInfo(view.font()).family() + ", sans-serif", qPrintable(family));
        QVERIFY(QFontDatabase::families().contains(QFontInfo(view.font()).family()));
    }
    QVERIFY(named > 0);
    // A title with XML's own characters (a model named "a&b") is still well-formed XML.
    {
        const QString odd = dir.filePath("odd.svg");
        QVERIFY2(exportView(render, view.exportSize(), odd, "a&b <c> \"d\"", &err), qPrintable(err));
        QFile oddFile(odd);
        QVERIFY(oddFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&oddFile);
        QString titleText;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"title") titleText = xml.readElementText();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(titleText, QStringLiteral("a&b <c> \"d\""));
    }
    for (auto c : {CellCategory::ComputedFirst, CellCategory::Recomputed, CellCategory::PagedOut,
                   CellCategory::PagedIn, CellCategory::OnFlash, CellCategory::InRamAndFlash})
        QVERIFY2(svgText.contains(categoryColor(c).name().toLatin1()), categoryName(c));
    QImage pngImg(png);
    QVERIFY(!pngImg.isNull());
    QVERIFY(countColour(pngImg, categoryColor(CellCategory::Recomputed), 2) > 100);
    // Its density gives the figure's size in inches, as the PDF's page (at
    // 96 dpi a 3x image was placed three times too large).
    const double inches = pngImg.width() / (pngImg.dotsPerMeterX() * 0.0254);
    QVERIFY2(std::abs(inches - view.exportSize().width() / 96.0) < 0.02, qPrintable(QString::number(inches)));
    // And it is the figure drawn at 1x, finer: brought down to 1x, its
    // pixels are the 1x drawing's but at edges. With the density set
    // before drawing, every text was three times too large and ran over
    // the grid and out of the page.
    {
        const QImage one = renderedImage(render, view.exportSize());
        const QImage down = pngImg.scaled(one.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        qint64 apart = 0;
        for (int y = 0; y < one.height(); ++y)
            for (int x = 0; x < one.width(); ++x)
                apart += std::abs(qGray(one.pixel(x, y)) - qGray(down.pixel(x, y))) > 96;
        const double share = static_cast<double>(apart) / (static_cast<double>(one.width()) * one.height());
        QVERIFY2(share < 0.02, qPrintable(QString::number(share)));
    }

    // An export is the schedule alone: a selected row and the teaching
    // walk's ring stay on screen (they went into the paper's figure).
    const QImage plain = renderedImage(render, view.exportSize());
    view.setSelectedNode(4);
    view.setCurrentOp(5, 0);
    QCOMPARE(renderedImage(render, view.exportSize()), plain);

    // Its words are found by a search: "flash" was written with the "fl"
    // ligature, which pdftotext (as a viewer's search) read as "ﬂash".
    const QString words = pdfText(pdf);
    QVERIFY2(words.contains("on flash only") && words.contains("in RAM and on flash"), qPrintable(words));
    // Exported at `title` with `schedule`, the PDF's words (the view is put back after).
    const auto exportedWords = [&](const Schedule& schedule, const QString& title) {
        view.setSchedule(uitest::tinyGraph(), schedule, title);
        const QString other = dir.filePath("other.pdf");
        QString failed;
        const QString text = exportView(render, view.exportSize(), other, "t", &failed) ? pdfText(other) : failed;
        view.setSchedule(uitest::tinyGraph(), uitest::tinySchedule(), "tiny schedule");
        return text;
    };
    // A title longer than the page is wide wraps: on one line its end was
    // cut off ("... runtime 1.0005x, no paging — opti").
    const QString titled = exportedWords(
        uitest::tinySchedule(), QStringLiteral("tiny on m4, batch 4 \u2014 RAM budget 4.46 kB, runtime 1.0005x, no "
                                               "paging \u2014 optimal, 455.750 \u00b5J, the end"));
    QVERIFY2(titled.simplified().contains("the end"), qPrintable(titled));
    // An export's legend names what it shows: the plain pass pages and
    // recomputes nothing ("paged in (0)" and three more stood in every
    // figure made without paging).
    const QString plainWords = exportedWords(plainSchedule(uitest::tinyGraph()), QStringLiteral("plain"));
    QVERIFY2(plainWords.contains("computed (6)") && plainWords.contains("in RAM") &&
                 !plainWords.contains("paged in") && !plainWords.contains("recomputed") &&
                 !plainWords.contains("on flash"),
             qPrintable(plainWords));
    // Every layer is named where rows a line high fit the page (linear's
    // figure named every other one, "loss" not).
    {
        HeatmapView small;
        const Problem linear = loadProblemGraph(ProfileCatalog::standard(), "linear", "m4", 0);
        small.setSchedule(linear.graph, plainSchedule(linear.graph), "linear");
        const QString smallPdf = dir.filePath("linear.pdf");
        QVERIFY2(exportView([&](QCPPainter& p, const QRectF& r) { small.renderTo(p, r); }, small.exportSize(),
                            smallPdf, "t", &err),
                 qPrintable(err));
        const QStringList lines = pdfText(smallPdf).split(QLatin1Char('\n'));
        for (const Node& node : linear.graph.nodes())
            QVERIFY2(lines.contains(QString::fromStdString(node.name)), node.name.c_str());
        // Drawn smaller, rows are named every other one, and the loss always
        // (it was not, being the 14th), its neighbours left out for it.
        const QString halfPdf = dir.filePath("linear-half.pdf");
        QVERIFY2(exportView([&](QCPPainter& p, const QRectF& r) { small.renderTo(p, r); },
                            QSizeF(small.exportSize().width(), small.exportSize().height() * 0.6), halfPdf, "t", &err),
                 qPrintable(err));
        const QStringList half = pdfText(halfPdf).split(QLatin1Char('\n'));
        QVERIFY2(half.contains("loss") && !half.contains("fc6.relu") && !half.contains("grad fc6.relu") &&
                     half.contains("input") && !half.contains("fc1.linear"),
                 qPrintable(half.join(" | ")));
    }
    // A big network's figure fits a page, 7 in each way, its text at the
    // view's size: resnet18_cifar's was 13.9 x 13.1 in, its 9 pt text 4.5 pt
    // once scaled to a page.
    {
        HeatmapView big;
        const Problem r18 = loadProblemGraph(ProfileCatalog::standard(), "resnet18_cifar", "m4", 0);
        big.setSchedule(r18.graph, plainSchedule(r18.graph), "resnet18_cifar");
        QVERIFY(big.exportSize().width() <= 7 * 96 && big.exportSize().height() <= 7 * 96);
        QVERIFY(big.exportSize().width() >= 6 * 96);
    }
    // Render the PDF back to pixels (poppler) when available: the colours are exact.
    const QString pdftoppm = QStandardPaths::findExecutable("pdftoppm");
    if (pdftoppm.isEmpty()) QSKIP("pdftoppm not installed");
    QProcess proc;
    proc.start(pdftoppm, {"-png", "-r", "80", pdf, dir.filePath("page")});
    QVERIFY(proc.waitForFinished(30000));
    QCOMPARE(proc.exitCode(), 0);
    QImage page(dir.filePath("page-1.png"));
    if (page.isNull()) page = QImage(dir.filePath("page-01.png"));
    QVERIFY(!page.isNull());
    for (auto c : {CellCategory::ComputedFirst, CellCategory::Recomputed, CellCategory::PagedOut,
                   CellCategory::PagedIn})
        QVERIFY2(countColour(page, categoryColor(c), 2) > 20, categoryName(c));
}

void TestViews::teachingHighlightsOps() {
    TeachingPanel panel;
    const Graph g = uitest::tinyGraph();
    const Schedule s = uitest::tinySchedule();
    const ReplayReport r = replaySchedule(g, s);
    panel.setSchedule(g, s, r, 20000);
    QSignalSpy spy(&panel, &TeachingPanel::currentChanged);
    QCOMPARE(panel.stepCount(), 9);
    panel.stepForward();
    QCOMPARE(panel.position(), 0);
    QCOMPARE(spy.last().at(0).toInt(), 0);
    panel.stepBack();  // from the first step: stays there
    QCOMPARE(panel.position(), 0);
    panel.setPosition(panel.stepCount() - 1);
    QVERIFY(panel.caption().startsWith("Stage 5"));
    // The walk's end says so, with the iteration's figures.
    const QString end = QString(panel.caption()).replace(QChar(0x00A0), QLatin1Char(' '));
    QVERIFY2(end.endsWith(QStringLiteral(" The last step: the iteration spent %1, with a peak of %2 of RAM.")
                              .arg(QString::fromStdString(formatEnergy(r.total_energy_j)),
                                   QString::fromStdString(formatBytes(r.peak_ram_bytes)))),
             qPrintable(end));
    // It wraps at the panel's width, so its figures keep their units (figure_text.h).
    QVERIFY2(panel.caption().contains(QRegularExpression(QStringLiteral("\\d\u00A0[kMG]?B\\b"))) &&
                 !panel.caption().contains(QRegularExpression(QStringLiteral("\\d [kMG]?B\\b"))),
             qPrintable(panel.caption()));
    // Play's pace is chosen from a few (600 ms a step walked resnet18_cifar
    // in two minutes), the nearest to what is asked.
    QCOMPARE(panel.stepIntervalMs(), 600);
    panel.setStepIntervalMs(2500);
    QCOMPARE(panel.stepIntervalMs(), 3000);
    panel.setPosition(0);
    panel.togglePlay();
    QVERIFY(panel.isPlaying());
    QTest::qWait(1000);
    QCOMPARE(panel.position(), 0);  // not a step yet at 3 s a step
    panel.setStepIntervalMs(200);
    QTRY_VERIFY_WITH_TIMEOUT(panel.position() >= 2, 5000);
    panel.stop();
    QVERIFY(!panel.isPlaying());
    QCOMPARE(spy.last().at(0).toInt(), -1);
    // The same schedule again (a budget that keeps it) keeps the walk's
    // place; another schedule of the graph (the solve's next best, or a
    // budget a little larger) goes on at the same stage, playing on: a
    // teacher asking "what if we had a bit more RAM?" lost the place.
    panel.setPosition(4);
    panel.setSchedule(g, s, r, 25000);
    QCOMPARE(panel.position(), 4);
    // A paging step's caption fits, at the side panel's width (its last
    // line, "of 3.30 kB.", was cut off with room for two).
    panel.resize(panel.fontMetrics().averageCharWidth() * 55, panel.sizeHint().height());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    for (int k = 0; k < panel.stepCount(); ++k) {
        panel.setPosition(k);
        QApplication::processEvents();
        for (const QLabel* label : panel.findChildren<QLabel*>())
            if (label->wordWrap())
                QVERIFY2(label->heightForWidth(label->width()) <= label->height(), qPrintable(label->text()));
    }
    panel.setPosition(7);  // stage 5's first op, input's recomputation
    QCOMPARE(panel.caption().left(24), QStringLiteral("Stage 5: recompute input"));
    panel.togglePlay();
    Schedule other = s;
    other.R.set(5, 0, false);  // no recomputation of the input
    panel.setSchedule(g, other, replaySchedule(g, other), 25000);
    QCOMPARE(panel.stepCount(), 8);
    QVERIFY(panel.isPlaying());
    QVERIFY2(panel.caption().startsWith(QStringLiteral("Stage 5: compute grad a")), qPrintable(panel.caption()));
    panel.stop();
    // Another graph starts it over.
    const Graph bigger = uitest::tinyGraph();
    std::vector<std::pair<int, int>> edges = bigger.edges();
    edges.emplace_back(0, 4);
    const Graph rewired(bigger.nodes(), edges);
    panel.setPosition(3);
    panel.setSchedule(rewired, s, replaySchedule(rewired, s), 25000);
    QCOMPARE(panel.position(), -1);
}

void TestViews::windowSolvesUndoesAndExports() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    w.resize(1200, 800);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    QVERIFY(settled.last().at(0).toBool());
    QVERIFY(w.heatmap()->hasSchedule());
    QVERIFY(w.timeline()->hasData());
    QCOMPARE(w.cellModel()->rowCount(), w.problem().graph.size());
    QCOMPARE(w.budgets().ram_budget_bytes, w.plainPeakBytes());
    QVERIFY(w.statusLine()->text().contains("optimal", Qt::CaseInsensitive));

    // A drag (one session) is one undo step; undo restores the budgets.
    const Budgets start = w.budgets();
    QCOMPARE(w.undoStack()->count(), 0);
    w.setBudgets({start.ram_budget_bytes - 100, 1.5}, 4242);
    w.setBudgets({start.ram_budget_bytes - 200, 1.5}, 4242);
    w.setBudgets({start.ram_budget_bytes - 300, 1.5}, 4242);
    QCOMPARE(w.undoStack()->count(), 1);
    QCOMPARE(w.ramControl()->value(), double(start.ram_budget_bytes - 300));
    w.setBudgets({start.ram_budget_bytes - 400, 1.5});
    QCOMPARE(w.undoStack()->count(), 2);
    w.undoStack()->undo();
    w.undoStack()->undo();
    QCOMPARE(w.budgets(), start);
    QCOMPARE(w.ramControl()->value(), double(start.ram_budget_bytes));
    QCOMPARE(w.runtimeControl()->value(), 1.0);
    w.undoStack()->redo();
    QCOMPARE(w.budgets().ram_budget_bytes, start.ram_budget_bytes - 300);
    w.undoStack()->undo();
    QVERIFY(settled.wait(30000));  // answered (possibly from the cache)
    QTRY_VERIFY_WITH_TIMEOUT(!w.isSolving(), 30000);
    QVERIFY(w.heatmap()->hasSchedule());

    // An infeasible budget says why and how small a budget could work.
    w.setBudgets({w.minimumBudgetBytes() / 2, 1.0});
    QVERIFY(settled.wait(30000));
    QVERIFY(w.lastStatus());
    QCOMPARE(*w.lastStatus(), SolveStatus::Infeasible);
    QVERIFY2(w.statusLine()->text().contains("Infeasible"), qPrintable(w.statusLine()->text()));
    QVERIFY(!w.heatmap()->hasSchedule());
    // Its link sets a budget where a schedule exists (as a click would),
    // one undo step.
    const QRegularExpressionMatch offered =
        QRegularExpression(QStringLiteral("href=\"budget:(\\d+)\"")).match(w.statusLine()->text());
    QVERIFY2(offered.hasMatch(), qPrintable(w.statusLine()->text()));
    QLabel* link = nullptr;
    for (QLabel* l : w.statusLine()->findChildren<QLabel*>())
        if (l->text().contains(QLatin1String("href"))) link = l;
    QVERIFY(link);
    emit link->linkActivated(QStringLiteral("budget:") + offered.captured(1));
    QCOMPARE(w.budgets().ram_budget_bytes, offered.captured(1).toLongLong());
    QVERIFY(settled.wait(30000));
    QVERIFY2(w.lastStatus() && *w.lastStatus() != SolveStatus::Infeasible && w.heatmap()->hasSchedule(),
             qPrintable(w.statusLine()->text()));
    w.undoStack()->undo();
    QVERIFY(settled.wait(30000));
    w.undoStack()->undo();
    QVERIFY(settled.wait(30000) || w.heatmap()->hasSchedule());

    QTemporaryDir dir;
    QString err;
    QVERIFY2(w.exportAll(dir.path(), &err), qPrintable(err));
    // POET_UI_TEST_KEEP=<dir>: also leave the exports there, to look at them.
    if (const QString keep = qEnvironmentVariable("POET_UI_TEST_KEEP"); !keep.isEmpty()) {
        QDir().mkpath(keep);
        QVERIFY2(w.exportAll(keep, &err), qPrintable(err));
    }
    const QStringList files = QDir(dir.path()).entryList(QDir::Files);
    QCOMPARE(files.size(), 11);
    QVERIFY(!files.filter(".json").isEmpty());
    QFile json(QDir(dir.path()).filePath(files.filter(".json").first()));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QVERIFY(json.readAll().contains("\"status\""));
    // The document `poet validate` reads, with the batch the graph was built
    // for (the batch box's "default" was written as batch_size 0, which it
    // refuses).
    try {
        const LoadedSchedule saved = readScheduleDocument(json.fileName().toStdString());
        QCOMPARE(saved.batch_size, 1);  // linear's profile
        QCOMPARE(saved.model, std::string("linear"));
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }

    // The Pareto plot: nothing before a sweep, then the figure and its
    // points, in "Export all views" too.
    QVERIFY(!w.exportPareto(dir.filePath("p.pdf"), &err));
    QVERIFY2(err.contains("Pareto tab"), qPrintable(err));
    QVERIFY(!QFileInfo::exists(dir.filePath("p.pdf")));
    auto* pareto = w.findChild<ParetoPlot*>();
    QVERIFY(pareto);
    SweepConfig sweep;
    sweep.problem = w.problem();
    sweep.points = 4;
    sweep.strategies = {"chen-greedy", "dtr", "plain"};  // no solver: quick
    QSignalSpy swept(pareto->runner(), &SweepRunner::finished);
    QVERIFY(pareto->runSweep(sweep));
    QVERIFY(swept.wait(30000));
    QCOMPARE(static_cast<int>(pareto->result().rows.size()), 12);
    // The line under the plot counts budgets and strategies, not only solves
    // ("12 points" for 4 points asked for).
    QStringList lines;
    for (QLabel* l : pareto->findChildren<QLabel*>()) lines << l->text();
    QVERIFY2(lines.filter(QString::fromUtf8("4 budgets \u00d7 3 strategies: 12 points")).size() == 1,
             qPrintable(lines.join(" | ")));
    QTemporaryDir dir2;
    QVERIFY2(w.exportAll(dir2.path(), &err), qPrintable(err));
    const QStringList withSweep = QDir(dir2.path()).entryList(QDir::Files);
    QCOMPARE(withSweep.size(), 15);
    QCOMPARE(withSweep.filter("-pareto.").size(), 4);
    // Named for the sweep (the budget it holds, not the RAM budget it
    // spans), as the Pareto export names it.
    const QString network = QString::fromStdString(w.problem().model + "-" + w.problem().platform);
    const QString factor = QString::fromStdString(formatFactor(w.budgets().runtime_budget_factor));
    QVERIFY2(withSweep.contains(network + "-ram-sweep-" + factor + "-pareto.pdf"), qPrintable(withSweep.join(", ")));
    QVERIFY2(withSweep.contains(QStringLiteral("%1-%2B-%3-heatmap.pdf")
                                    .arg(network)
                                    .arg(w.budgets().ram_budget_bytes)
                                    .arg(factor)),
             qPrintable(withSweep.join(", ")));
    QFile pdf(QDir(dir2.path()).filePath(withSweep.filter("-pareto.pdf").first()));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5).startsWith("%PDF"));
    QFile csv(QDir(dir2.path()).filePath(withSweep.filter("-pareto.csv").first()));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 13);  // a header and the 12 points

    // Another runtime budget is another set of files, not the same names
    // written over.
    w.setBudgets(Budgets{w.budgets().ram_budget_bytes, w.budgets().runtime_budget_factor + 0.5});
    // Until its solve answers, the schedule on screen is the last budgets':
    // not exported under these (its JSON claimed budgets it was not solved for).
    QVERIFY(!w.exportHeatmap(dir2.filePath("early.pdf"), &err));
    QVERIFY2(err.contains("before the last change"), qPrintable(err));
    QVERIFY(!QFileInfo::exists(dir2.filePath("early.pdf")));
    QVERIFY(settled.wait(30000));
    QVERIFY2(w.exportAll(dir2.path(), &err), qPrintable(err));
    QCOMPARE(QDir(dir2.path()).entryList(QDir::Files).size(), 15 + 11);
    // No schedule at the budget shown: the sweep is exported all the same,
    // and what is not is said.
    w.setBudgets(Budgets{100, w.budgets().runtime_budget_factor});
    QVERIFY(settled.wait(30000));
    QVERIFY(!w.heatmap()->hasSchedule());
    QTemporaryDir dir3;
    QString leftOut;
    QVERIFY2(w.exportAll(dir3.path(), &err, &leftOut), qPrintable(err));
    QCOMPARE(QDir(dir3.path()).entryList(QDir::Files).size(), 4);
    QVERIFY2(leftOut.startsWith("no schedule at these budgets"), qPrintable(leftOut));
    // A switch changed: the sweep was of another problem, and goes.
    w.findChild<QCheckBox*>(QStringLiteral("pagingSwitch"))->toggle();
    QCOMPARE(w.findChild<ParetoPlot*>()->result().rows.size(), std::size_t(0));
    QVERIFY(!w.exportAll(dir3.path(), &err));
    QVERIFY2(err.startsWith("nothing to export"), qPrintable(err));
}

// Each Alt+letter goes to one place: Alt+R was both Rematerialization and
// the RAM budget (the first press only focused the checkbox).
void TestViews::mnemonicsAreUnique() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, ExplorerOptions{.model = "linear", .platform = "m4"}));
    QStringList texts;
    for (QAction* menu : w.menuBar()->actions()) texts << menu->text();
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>()) texts << b->text();
    for (QLabel* l : w.findChildren<QLabel*>())
        if (l->buddy()) texts << l->text();
    QHash<QKeySequence, QString> owner;
    int found = 0;
    for (const QString& t : texts) {
        const QKeySequence key = QKeySequence::mnemonic(t);
        if (key.isEmpty()) continue;
        ++found;
        QVERIFY2(!owner.contains(key), qPrintable(t + " and " + owner.value(key) + ": " + key.toString()));
        owner.insert(key, t);
    }
    QVERIFY2(found >= 12, qPrintable(texts.join(", ")));  // menus, switches, budgets, pickers
}

// The reference's API example is not proven within 0.01 % in 20 s, but its
// schedule is within 0.5 % of the LP bound after about a second: a 5 % target
// gap must end the solve as optimal long before the time limit.
// The timeline's stage axis stands under the heatmap's columns: the same
// edges in the window, and a zoom or pan on either view moves the other.
void TestViews::stageAxesLineUp() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    w.resize(1200, 800);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    QVERIFY(settled.last().at(0).toBool());
    HeatmapView* heat = w.heatmap();
    MemoryTimelineView* time = w.timeline();
    const int n = heat->grid().size();
    QVERIFY2(n >= 16, "the zoom checks need room for four stages of n/4");
    // Window x of stage boundary `stage` in each view.
    const auto heatX = [&](double stage) {
        const QRectF c = heat->cellRect(0, 0);
        return heat->mapTo(&w, QPointF(c.left() + stage * c.width(), 0)).x();
    };
    const auto timeX = [&](double stage) {
        return time->plot()->mapTo(&w, QPointF(time->plot()->xAxis->coordToPixel(stage), 0)).x();
    };
    const auto edgesMeet = [&] {
        const auto [first, last] = heat->stageWindow();
        return std::abs(heatX(first) - timeX(first)) <= 1.0 && std::abs(heatX(last) - timeX(last)) <= 1.0;
    };
    const auto sameWindow = [&] {
        const auto [first, last] = heat->stageWindow();
        const QCPRange r = time->plot()->xAxis->range();
        return std::abs(r.lower - first) < 1e-9 && std::abs(r.upper - last) < 1e-9;
    };
    QCoreApplication::processEvents();
    QVERIFY(sameWindow());
    QCOMPARE(heat->stageWindow().first, 0.0);
    QCOMPARE(heat->stageWindow().second, double(n));
    // Once laid out: the link aligns after the layout's resizes, queued
    // (one processEvents left the timeline unaligned in 2 runs of 6).
    QTRY_VERIFY2(edgesMeet(), qPrintable(QStringLiteral("heatmap %1..%2, timeline %3..%4")
                                         .arg(heatX(0)).arg(heatX(n)).arg(timeX(0)).arg(timeX(n))));

    // The heatmap zoomed from the keyboard: the timeline shows its stages.
    heat->setFocus();
    for (int i = 0; i < 3; ++i) QTest::keyClick(heat, Qt::Key_Plus);
    QVERIFY(heat->stageWindow().second - heat->stageWindow().first < n * 0.6);
    QVERIFY(sameWindow());
    QVERIFY(edgesMeet());

    // The timeline panned or zoomed (QCustomPlot's drag and wheel set the
    // range): the heatmap follows, within its limit of four stages.
    time->plot()->xAxis->setRange(2, 10);
    QCOMPARE(heat->stageWindow().first, 2.0);
    QCOMPARE(heat->stageWindow().second, 10.0);
    QVERIFY(edgesMeet());
    time->plot()->xAxis->setRange(5, 6);
    QCOMPARE(heat->stageWindow().second - heat->stageWindow().first, 4.0);
    QVERIFY(sameWindow());
    time->plot()->xAxis->setRange(n - 3, n + 5);  // past the last stage
    QCOMPARE(heat->stageWindow().second, double(n));
    QVERIFY(sameWindow());

    // Tab leads from the heatmap to the timeline, whose keys move both.
    heat->setFocus();
    QTest::keyClick(heat, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), time);
    QTest::keyClick(time, Qt::Key_Home);  // the first op, left of the stages in view
    QCOMPARE(heat->stageWindow().first, 0.0);
    QVERIFY(sameWindow());

    // A double-click on the heatmap shows every stage in both.
    QTest::mouseDClick(heat, Qt::LeftButton, {}, heat->cellRect(0, n - 1).center().toPoint());
    QCOMPARE(heat->stageWindow().first, 0.0);
    QCOMPARE(heat->stageWindow().second, double(n));
    QVERIFY(sameWindow());

    // A narrower window moves both edges; they meet again once laid out.
    w.resize(900, 700);
    QTRY_VERIFY(edgesMeet());
}

void TestViews::windowStopsAtTheTargetGap() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o;
    o.model = "resnet18_cifar";
    o.platform = "m4";
    o.ram_budget = "737719";
    o.runtime_budget = 1.5;
    o.time_limit_s = 20;
    o.gap = 0.05;
    QVERIFY(openAndSettle(w, settled, o));
    QVERIFY(w.lastStatus());
    QCOMPARE(*w.lastStatus(), SolveStatus::Optimal);
    QVERIFY2(w.statusLine()->text().contains("of the optimum (target 5 %)"), qPrintable(w.statusLine()->text()));
}

void TestViews::ramLabelShowsTheUsableBudget() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o;
    o.model = "bert";  // outputs in 1.5 MB blocks: at 10% of its peak, 37.8 of 38.4 MB usable
    o.platform = "a72";  // at 1.0x, proven at once
    o.ram_budget = "10%";
    o.time_limit_s = 5;
    QVERIFY(openAndSettle(w, settled, o));
    const std::int64_t budget = w.budgets().ram_budget_bytes;
    const std::int64_t usable = effectiveRamBudget(w.problem().graph, budget);
    QVERIFY(usable < budget * 0.99);
    QCOMPARE(w.ramControl()->unitLabel()->text(),
             QString("%1 (usable %2)").arg(QString::fromStdString(formatBytes(budget)),
                                          QString::fromStdString(formatBytes(usable))));
    const int sliderWithUsable = w.ramControl()->slider()->width();
    // 1,000 B more is the same problem: answered from the window's own
    // cache, with no solve started.
    auto* bridge = w.findChild<SolveBridge*>();
    QVERIFY(bridge);
    QSignalSpy started(bridge, &SolveBridge::started);
    QCOMPARE(effectiveRamBudget(w.problem().graph, budget + 1000), usable);
    w.setBudgets({budget + 1000, w.budgets().runtime_budget_factor});
    QVERIFY(settled.wait(10000));
    QCOMPARE(started.count(), 0);
    QVERIFY(w.lastStatus());
    QCOMPARE(*w.lastStatus(), SolveStatus::Optimal);
    // At its peak every byte is usable: the budget alone.
    w.setBudgets({w.plainPeakBytes(), 1.5});
    QCOMPARE(w.ramControl()->unitLabel()->text(), QString::fromStdString(formatBytes(w.plainPeakBytes())));
    // The slider keeps its length as the text shortens (it grew by 75 px
    // under the pointer).
    QApplication::processEvents();
    QCOMPARE(w.ramControl()->slider()->width(), sliderWithUsable);
}

void TestViews::budgetBoxesReadWhatIsTyped() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o;
    o.model = "linear";
    o.platform = "a72";
    QVERIFY(openAndSettle(w, settled, o));
    const std::int64_t peak = w.plainPeakBytes();
    // Typed as a user does: over the whole text, or over the number only
    // (the spin box's own selectAll, which keeps its " B" after the typing).
    auto type = [&](QDoubleSpinBox* box, const QString& text, bool whole) {
        auto* edit = box->findChild<QLineEdit*>();
        QVERIFY(edit);
        box->setFocus();
        if (whole) edit->selectAll();
        else box->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    };
    QDoubleSpinBox* ram = w.ramControl()->entry();
    type(ram, QStringLiteral("50%"), true);
    QCOMPARE(w.budgets().ram_budget_bytes, peak / 2);  // linear's peak is even: no fraction to round
    QCOMPARE(ram->text(), QString::number(peak / 2) + QStringLiteral(" B"));
    const QString kb = QString::number(peak / 4000.0, 'f', 3);  // a quarter of the peak, in kB
    type(ram, kb + QStringLiteral("kb"), false);
    QCOMPARE(w.budgets().ram_budget_bytes, static_cast<std::int64_t>(std::floor(kb.toDouble() * 1e3)));
    // Text that is no budget leaves the budget as it was.
    const std::int64_t before = w.budgets().ram_budget_bytes;
    type(ram, QStringLiteral("lots"), true);
    QCOMPARE(w.budgets().ram_budget_bytes, before);
    QCOMPARE(ram->text(), QString::number(before) + QStringLiteral(" B"));

    // The runtime budget to three decimals: 1.001 to 1.005x are budgets of
    // their own, not 1.00.
    QDoubleSpinBox* runtime = w.runtimeControl()->entry();
    type(runtime, QStringLiteral("1.002"), false);
    QVERIFY(std::abs(w.budgets().runtime_budget_factor - 1.002) < 1e-12);
    QCOMPARE(runtime->text(), QLocale().toString(1.002, 'f', 3) + QStringLiteral(" x"));
    // And to four where the fourth is there (the benchmarks' 1.0005 showed
    // as 1.000 while the solve used 1.0005); no trailing zeros past three.
    type(runtime, QStringLiteral("1.0005"), false);
    QVERIFY(std::abs(w.budgets().runtime_budget_factor - 1.0005) < 1e-12);
    QCOMPARE(runtime->text(), QLocale().toString(1.0005, 'f', 4) + QStringLiteral(" x"));
    type(runtime, QStringLiteral("1.5"), false);
    QCOMPARE(runtime->text(), QLocale().toString(1.5, 'f', 3) + QStringLiteral(" x"));

    // A typed value is an undo step of its own, named from and to exactly;
    // arrows right after it are one more (they merged into it, and the
    // typed value was lost), a hundredth of the plain pass's peak each.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const std::int64_t start = w.budgets().ram_budget_bytes;
    const int steps = w.undoStack()->count();
    type(ram, QStringLiteral("4000"), true);
    QCOMPARE(w.undoStack()->undoText(),
             QStringLiteral("RAM budget %1 \u2192 4,000 B").arg(QString::fromStdString(formatBytesExact(start))));
    QCOMPARE(ram->singleStep(), std::round(peak / 100.0));
    for (int k = 0; k < 3; ++k) QTest::keyClick(ram, Qt::Key_Up);
    QCOMPARE(w.budgets().ram_budget_bytes, 4000 + 3 * static_cast<std::int64_t>(std::round(peak / 100.0)));
    QCOMPARE(w.undoStack()->count(), steps + 2);
    w.undoStack()->undo();
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(4000));
    w.undoStack()->undo();
    QCOMPARE(w.budgets().ram_budget_bytes, start);
    // An arrow key held on the slider: one step, not one per repeat, though
    // the first repeat comes half a second after the press.
    QSlider* slider = w.ramControl()->slider();
    slider->setFocus();
    const auto press = [&](bool repeat) {
        QKeyEvent down(QEvent::KeyPress, Qt::Key_Right, Qt::NoModifier, QString(), repeat);
        QApplication::sendEvent(slider, &down);
        QApplication::processEvents();
    };
    press(false);
    QTest::qWait(500);
    for (int k = 0; k < 4; ++k) press(true);
    QCOMPARE(w.undoStack()->count(), steps + 1);
    // Presses 0.4 s apart are one step each (eight 0.6 s apart were one,
    // and one Ctrl+Z undid them all).
    for (int k = 2; k <= 3; ++k) {
        QTest::qWait(400);
        press(false);
        QCOMPARE(w.undoStack()->count(), steps + k);
    }
    // The mouse held on the groove: its repeats, the first half a second
    // after the press, are one step with it (they were two).
    QTest::mousePress(slider, Qt::LeftButton, {}, QPoint(slider->width() - 4, slider->height() / 2));
    QTest::qWait(900);
    QTest::mouseRelease(slider, Qt::LeftButton, {}, QPoint(slider->width() - 4, slider->height() / 2));
    QVERIFY(w.budgets().ram_budget_bytes > start);
    QCOMPARE(w.undoStack()->count(), steps + 4);
    for (int k = 0; k < 4; ++k) w.undoStack()->undo();
    QCOMPARE(w.budgets().ram_budget_bytes, start);

    // Ctrl+Z in the box just typed in undoes the value entered, and
    // Ctrl+Shift+Z redoes it (its text's own undo took the keys, and the
    // budget stayed); with an edit in progress the keys stay the text's.
    type(ram, QStringLiteral("4000"), true);
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(4000));
    QTest::keyClick(ram, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(w.budgets().ram_budget_bytes, before);
    QCOMPARE(ram->text(), QString::number(before) + QStringLiteral(" B"));
    QTest::keyClick(ram, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(4000));
    ram->selectAll();
    QTest::keyClicks(ram->findChild<QLineEdit*>(), QStringLiteral("12"));
    QTest::keyClick(ram, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(4000));  // the typing is undone, not the budget
}

// The slider's mark labels: each centred on its tick where there is room,
// inside the strip, and never closer than the gap to another. Transformer
// on a72 at its peak drew "min ≥ 31.5 MB" and "plain 37.7 MB" 1 px apart,
// read as one label.
// Right to left (-reverse, Arabic, Hebrew) the slider runs from the right,
// and so do its marks: they stood where their values would be left to right.
void TestViews::marksFollowTheSliderRightToLeft() {
    BudgetControl c;
    c.setSliderRange(0, 100);
    c.resize(500, 60);
    c.show();
    QVERIFY(c.xForValue(0) < c.xForValue(100));
    c.setLayoutDirection(Qt::RightToLeft);
    QVERIFY(c.xForValue(0) > c.xForValue(100));
}

void TestViews::markLabelsKeepApart() {
    // Alone: centred, and at the strip's ends held inside it.
    QCOMPARE(placeMarkLabels({100}, {40}, 400, 8), std::vector<double>{80});
    QCOMPARE(placeMarkLabels({395}, {40}, 400, 8), std::vector<double>{360});
    QCOMPARE(placeMarkLabels({3}, {40}, 400, 8), std::vector<double>{0});
    // Apart already: left where they are.
    QCOMPARE(placeMarkLabels({100, 200}, {40, 40}, 400, 8), (std::vector<double>{80, 180}));
    // 1 px apart (80..120 and 121..161): the second moves to the gap's distance.
    QCOMPARE(placeMarkLabels({100, 141}, {40, 40}, 400, 8), (std::vector<double>{80, 128}));
    // No room on the right: it goes to the left of the first.
    QCOMPARE(placeMarkLabels({380, 390}, {40, 40}, 400, 8), (std::vector<double>{360, 312}));
}

// With paging and recomputation off, the plain pass is the only schedule:
// the smallest budget is its peak, not the graph's bound ("min ≥ 262.1 kB"
// stood over resnet18_cifar, which then needs 2.45 MB). Switched back on,
// the bound returns.
void TestViews::minimumBudgetFollowsTheSwitches() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o = linearOnA72();
    o.paging = false;
    o.remat = false;
    QVERIFY(openAndSettle(w, settled, o));
    const std::int64_t peak = plainPassPeakBytes(w.problem().graph);
    QCOMPARE(w.minimumBudgetBytes(), peak);
    QVERIFY(w.ramControl()->marks().front().label.endsWith(QString::fromStdString(formatBytesDown(peak))));
    // In bytes, exactly, where one reads it to type it in: "31.4 MB" typed
    // in was below transformer's 31,457,280 B.
    const QString exact = QString::fromStdString(formatBytesExact(peak));
    auto* info = w.findChild<QLabel*>(QStringLiteral("problemInfo"));
    QVERIFY(info);
    QVERIFY2(info->text().endsWith(QStringLiteral("smallest budget that works: ") + exact), qPrintable(info->text()));
    const QString minTip = w.ramControl()->marks().front().tooltip;
    QVERIFY2(minTip.contains(exact), qPrintable(minTip));
    QCheckBox* paging = nullptr;
    for (auto* box : w.findChildren<QCheckBox*>())
        if (box->text().remove(QLatin1Char('&')) == QLatin1String("Paging")) paging = box;
    QVERIFY(paging && !paging->isChecked());
    paging->setChecked(true);
    QCOMPARE(w.minimumBudgetBytes(), minimumFeasibleBudgetLowerBound(w.problem().graph));
    QVERIFY(w.minimumBudgetBytes() < peak);
    QVERIFY2(info->text().endsWith(QString::fromUtf8("smallest budget that could work \u2265 ") +
                                   QString::fromStdString(formatBytesExact(w.minimumBudgetBytes()))),
             qPrintable(info->text()));
}

// A profile open when the explorer last closed, broken since (a typo in a
// user's model), kept the window from opening at all: it opens on the
// defaults, with a warning that names the file and line. The command line's
// own model still fails as bad input.
void TestViews::brokenRememberedProfileOpensTheDefaults() {
    const BrokenUserProfile dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    {
        QSettings s;
        s.beginGroup(QStringLiteral("explorer"));
        s.setValue("model", "mine");
        s.setValue("platform", "m4");
        s.setValue("ramBudget", 1234);
    }
    // Opens with `o` where `opensRight` says, and shows the note of a
    // profile it could not load: its text starting with `text`, its details
    // holding `details`.
    auto opensWithNote = [](ExplorerOptions o, const std::function<bool(const ExplorerWindow&)>& opensRight,
                            const QString& text, const QString& details) {
        o.time_limit_s = 20;
        ExplorerWindow w;
        QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
        QString err;
        QVERIFY2(w.initialize(o, &err), qPrintable(err));
        QVERIFY(opensRight(w));
        QTRY_VERIFY(w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning")));
        const auto* box = w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning"));
        QVERIFY2(box->text().startsWith(text), qPrintable(box->text()));
        QVERIFY2(box->informativeText().contains(details), qPrintable(box->informativeText()));
        QTRY_VERIFY_WITH_TIMEOUT(settled.count() > 0, 30000);  // it may have settled in the QTRY above
    };
    const auto on = [](const char* model, const char* platform) {
        return [=](const ExplorerWindow& w) { return w.problem().model == model && w.problem().platform == platform; };
    };
    opensWithNote(
        ExplorerOptions{.use_settings = true},
        [&](const ExplorerWindow& w) {
            // mine's budget is not resnet18_cifar's
            return on("resnet18_cifar", "a72")(w) && w.budgets().ram_budget_bytes != 1234;
        },
        QStringLiteral("mine on m4 could not be loaded; the explorer opened on resnet18_cifar on a72 instead."),
        QStringLiteral("mine.yaml:"));
    ExplorerOptions asked;
    asked.use_settings = false;
    asked.model = QStringLiteral("mine");
    asked.platform = QStringLiteral("m4");
    ExplorerWindow again;
    QString err;
    QVERIFY(!again.initialize(asked, &err));
    QVERIFY2(err.contains(QStringLiteral("mine.yaml:")), qPrintable(err));
    // A broken user profile that hides the default model: the window
    // opened on nothing (exit 4, a word on stderr); it opens on the first
    // model that loads, on the default platform, and says why.
    QVERIFY(QFile::copy(dir.filePath("models/mine.yaml"), dir.filePath("models/resnet18_cifar.yaml")));
    opensWithNote(
        ExplorerOptions{.use_settings = false},
        [](const ExplorerWindow& w) {
            return w.problem().model != "resnet18_cifar" && !w.problem().model.empty() &&
                   w.problem().platform == "a72";
        },
        QStringLiteral("resnet18_cifar on a72 could not be loaded"), QStringLiteral("resnet18_cifar.yaml:"));
    // A remembered model whose profile is gone opens the default, and says
    // so: it did without a word.
    QVERIFY(QFile::remove(dir.filePath("models/resnet18_cifar.yaml")));
    {
        QSettings s;
        s.beginGroup(QStringLiteral("explorer"));
        s.setValue("model", "gone");
    }
    opensWithNote(ExplorerOptions{.use_settings = true}, on("resnet18_cifar", "m4"),
                  QStringLiteral("gone on m4 could not be loaded"), QStringLiteral("unknown model 'gone'"));
}

// A remembered budget out of range (a settings file edited, or another
// version's): the window opens at the default instead. A runtime budget of
// 0.5 kept it from opening ("bad --runtime-budget 0.5", never given); 500
// solved at 500x behind a box that showed 100x; -5 B showed 0 B.
void TestViews::rememberedBudgetsOutOfRangeOpenTheDefaults() {
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    // Opens `w` on what the settings remember, as the explorer starts.
    const auto openRemembered = [](ExplorerWindow& w) {
        QString err;
        const bool opened = w.initialize(ExplorerOptions{.use_settings = true}, &err);
        if (!opened) qWarning("initialize: %s", qPrintable(err));
        return opened;
    };
    // int64's largest showed as -9223372036.85 GB; 1e13 B is the box's most.
    for (const auto& [ram, runtime] : {std::pair<QVariant, QVariant>{-5, 0.5},
                                       {"abc", 500},
                                       {0, "x"},
                                       {QVariant::fromValue(std::numeric_limits<qlonglong>::max()), 0.99}}) {
        {
            QSettings s;
            s.beginGroup(QStringLiteral("explorer"));
            s.setValue("model", "linear");
            s.setValue("platform", "m4");
            s.setValue("ramBudget", ram);
            s.setValue("runtimeBudget", runtime);
        }
        ExplorerWindow w;
        QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
        QVERIFY(openRemembered(w));
        QCOMPARE(w.budgets().ram_budget_bytes, w.plainPeakBytes());
        QCOMPARE(w.budgets().runtime_budget_factor, 1.0);
        QVERIFY(settled.wait(30000));
    }
    // The other remembered settings: what is not one of their boxes' values
    // opens the default. "abc" read as a 0% gap (every solve exhaustive), a
    // damaged switch as off, 1e9 s as the box's 3600 s.
    {
        QSettings s;
        s.beginGroup(QStringLiteral("explorer"));
        s.setValue("gapPercent", "abc");
        s.setValue("timeLimit", 1e9);
        s.setValue("paging", "garbage");
        s.setValue("remat", 7);
        s.setValue("batchSize", 12.7);  // read as 12: another problem
        s.setValue("sweepPoints", -5);   // read as the box's 3
        s.setValue("teachingStepMs", 777);  // read as the nearest step
    }
    {
        ExplorerWindow w;
        QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
        QVERIFY(openRemembered(w));
        QCOMPARE(w.solverOptions().relative_gap, 0.005);
        QCOMPARE(w.solverOptions().time_limit_s, 30.0);
        QVERIFY(w.problem().options.paging && w.problem().options.remat);
        QCOMPARE(w.problem().batch_size, loadProblemGraph(ProfileCatalog::standard(), "linear", "m4", 0).batch_size);
        QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->value(), 12);
        // Said where a desktop launch sees it, each value with what it wanted.
        const auto* reset = w.findChild<QLabel*>(QStringLiteral("rememberedSettingsReset"));
        QVERIFY(reset && reset->isVisibleTo(&w));
        for (const char* said : {"gap (percent) 'abc' is not a number from 0", "time limit '1e+09'",
                                 "paging switch 'garbage' is not true or false", "batch '12.7' is not a whole number",
                                 "sweep point count '-5'", "teaching pace (ms) '777' is not one of the pace box's"})
            QVERIFY2(reset->toolTip().contains(QLatin1String(said)), qPrintable(reset->toolTip()));
        QVERIFY(settled.wait(30000));
    }
    // In range, they come back; a runtime factor as the box rounds it (1.00001 showed as 1.000 x).
    {
        QSettings s;
        s.beginGroup(QStringLiteral("explorer"));
        s.setValue("ramBudget", 5000);
        s.setValue("runtimeBudget", 1.25001);
        s.setValue("gapPercent", 1.5);
        s.setValue("timeLimit", 12);
        s.setValue("paging", false);
        s.setValue("remat", true);
        s.setValue("batchSize", 0);
        s.setValue("sweepPoints", 9);
        s.setValue("teachingStepMs", 1500);
    }
    ExplorerWindow w;
    QVERIFY(openRemembered(w));
    QCOMPARE(w.budgets(), (Budgets{5000, 1.25}));
    QCOMPARE(w.solverOptions().relative_gap, 0.015);
    QCOMPARE(w.solverOptions().time_limit_s, 12.0);
    QVERIFY(!w.problem().options.paging);
    QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->value(), 9);
    QCOMPARE(w.findChild<TeachingPanel*>()->stepIntervalMs(), 1500);
    QVERIFY(!w.findChild<QLabel*>(QStringLiteral("rememberedSettingsReset")));
}

// A solve cache that cannot be used (a file where its directory would be,
// one this user may not write) is said, in the status bar: the explorer
// stored nothing without a word, where `poet --cache-dir` refuses it.
void TestViews::unusableCacheIsSaid() {
    QTemporaryDir dir;
    const QString file = dir.filePath("not-a-dir");
    QVERIFY(QFile(file).open(QIODevice::WriteOnly));
    qputenv("POET_CACHE_DIR", file.toLocal8Bit());
    {
        ExplorerWindow w;
        const auto* label = w.findChild<QLabel*>(QStringLiteral("noSolveCache"));
        QVERIFY(label);
        QVERIFY2(label->toolTip().contains(file + ": is not a directory"), qPrintable(label->toolTip()));
    }
    qputenv("POET_CACHE_DIR", dir.filePath("cache").toLocal8Bit());  // created, and used
    {
        ExplorerWindow w;
        QVERIFY(!w.findChild<QLabel*>(QStringLiteral("noSolveCache")));
        QVERIFY(QFileInfo(dir.filePath("cache")).isDir());
    }
    qputenv("POET_CACHE_DIR", "");
}

// An answer that came in the 25 ms a change waits for its own request was
// shown, and cached, as the answer to the new budgets (or platform): an
// "optimal" schedule 2.2 MB over a 1.1 MB budget, which F5 then took from
// the cache (found by an audit, with a slider drag).
void TestViews::answerToEarlierBudgetsIsNotShown() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o;
    o.model = QStringLiteral("resnet18_cifar");
    o.platform = QStringLiteral("a72");
    o.ram_budget = QStringLiteral("80%");
    o.runtime_budget = 1.0;
    o.time_limit_s = 2;
    QVERIFY(openAndSettle(w, settled, o));
    const std::int64_t peak = w.plainPeakBytes();
    const auto fits = [&] {
        const auto& shown = w.shownResult();
        return shown && shown->replay.peak_ram_bytes <= w.budgets().ram_budget_bytes;
    };
    w.setBudgets(Budgets{peak * 90 / 100, 1.0});
    w.solveNow();
    busyFor(800);  // 90%'s answer is queued (it takes ~40 ms)
    w.setBudgets(Budgets{peak * 45 / 100, 1.0});
    QVERIFY(settled.wait(30000));
    QVERIFY(fits());
    w.solveNow();  // F5: not the earlier budgets' answer from the cache either
    QTRY_VERIFY_WITH_TIMEOUT(!w.isSolving(), 30000);
    QVERIFY(fits());
    // The same with the platform: a72's answer was shown as m4's (7.9 J for 0.65 J).
    w.setBudgets(Budgets{peak * 70 / 100, 1.0});
    QVERIFY(settled.wait(30000));
    w.solveNow();
    busyFor(800);
    settled.clear();
    w.findChild<QComboBox*>(QStringLiteral("platformBox"))->setCurrentText(QStringLiteral("m4"));
    QTRY_VERIFY_WITH_TIMEOUT(settled.count() > 0, 30000);
    QCOMPARE(w.problem().platform, std::string("m4"));
    QVERIFY2(w.shownResult()->replay.total_energy_j < 1.0,
             qPrintable(QString::number(w.shownResult()->replay.total_energy_j)));
}

// A sweep whose thread ended with its rows still queued was drawn under
// the model switched to (linear's points on transformer; a click opened an
// infeasible budget).
void TestViews::sweepEndedBeforeASwitchIsNotDrawn() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    auto* pareto = w.findChild<ParetoPlot*>();
    w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->setValue(3);
    w.findChild<QPushButton*>(QStringLiteral("runSweep"))->click();
    for (int i = 0; i < 600 && pareto->runner()->isRunning(); ++i) busyFor(50);
    QVERIFY(!pareto->runner()->isRunning());  // ended, its rows not yet delivered
    w.findChild<QComboBox*>(QStringLiteral("modelBox"))->setCurrentText(QStringLiteral("transformer"));
    QTest::qWait(300);
    QCOMPARE(pareto->result().rows.size(), std::size_t(0));
    QVERIFY(w.findChild<QPushButton*>(QStringLiteral("runSweep"))->isEnabled());
}

// A model picked whose profile does not load: the pick is undone and said.
// The box read "mine" over resnet18_cifar's schedule, and later budget
// steps solved resnet18_cifar.
void TestViews::pickingABrokenProfileKeepsTheProblem() {
    const BrokenUserProfile profiles;
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    auto* models = w.findChild<QComboBox*>(QStringLiteral("modelBox"));
    models->setCurrentText(QStringLiteral("mine"));
    QCOMPARE(models->currentText(), QStringLiteral("linear"));
    QCOMPARE(w.problem().model, std::string("linear"));
    QTRY_VERIFY(w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning")));
    const auto* box = w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning"));
    QCOMPARE(box->text(), QStringLiteral("mine on a72 could not be loaded; the window stays on linear on a72."));
    QVERIFY2(box->informativeText().contains("mine.yaml:"), qPrintable(box->informativeText()));
    QTRY_VERIFY_WITH_TIMEOUT(!w.isSolving() && w.shownResult(), 30000);  // linear's schedule again
    QCOMPARE(w.undoStack()->count(), 0);  // nothing to undo: nothing changed
}

// A model profile outside the profile folders opens by its file (File >
// Open model profile, --model ./net.yaml, remembered): it joins the Model box
// as its absolute path, its figures are named by its stem, and it is an undo
// step. The explorer refused it (exit 4, "unknown model") where `poet solve`
// took the file.
void TestViews::modelFilesOpenFromAnyFolder() {
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    const ProfileCatalog catalog = ProfileCatalog::standard();
    QVERIFY(QDir(dir.path()).mkpath("elsewhere"));
    const QString net = QDir::cleanPath(dir.filePath("elsewhere/net.yaml"));
    QVERIFY(QFile::copy(QString::fromStdString(catalog.modelFile("transformer").string()), net));
    QFile broken(dir.filePath("elsewhere/broken.yaml"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("description: broken\nlayers:\n  - {name: input, type: input, shape: [1, 4]\n");
    broken.close();
    const int transformerNodes = loadProblemGraph(catalog, "transformer", "a72", 0).graph.size();

    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    const int linearNodes = w.problem().graph.size();
    QVERIFY(linearNodes != transformerNodes);
    auto* models = w.findChild<QComboBox*>(QStringLiteral("modelBox"));
    const int listed = models->count();
    // A path relative to the working folder, as a file dialog never gives but a user types.
    const QString cwd = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const bool opened = w.openModelFile(QStringLiteral("elsewhere/net.yaml"));
    QVERIFY(QDir::setCurrent(cwd));
    QVERIFY(opened);
    QCOMPARE(models->currentText(), net);
    QCOMPARE(models->count(), listed + 1);
    QCOMPARE(w.problem().model, net.toStdString());
    QCOMPARE(w.problem().graph.size(), transformerNodes);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("model ") + net);
    QVERIFY(settled.wait(30000));
    QVERIFY(w.shownResult().has_value());
    // Its figures are named net-a72-..., not by a path (which made the file name a folder).
    for (const auto& f : w.exportAllFiles(dir.path(), nullptr))
        QVERIFY2(QFileInfo(f.path).fileName().startsWith(QStringLiteral("net-a72-")) &&
                     QFileInfo(f.path).path() == dir.path(),
                 qPrintable(f.path));
    // Opened again: the same item, nothing to do.
    QVERIFY(w.openModelFile(net));
    QCOMPARE(models->count(), listed + 1);
    w.undoStack()->undo();
    QCOMPARE(models->currentText(), QStringLiteral("linear"));
    QCOMPARE(w.problem().graph.size(), linearNodes);
    QVERIFY(settled.wait(30000));
    w.undoStack()->redo();
    QCOMPARE(w.problem().model, net.toStdString());
    QVERIFY(settled.wait(30000));

    // A broken file or none: the window stays on its problem, says why, and
    // the box keeps no item of it.
    QVERIFY(!w.openModelFile(broken.fileName()));
    QTRY_VERIFY(w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning")));
    const auto* box = w.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning"));
    QVERIFY2(box->informativeText().contains("broken.yaml:4:"), qPrintable(box->informativeText()));
    QVERIFY(!w.openModelFile(dir.filePath("elsewhere/none.yaml")));
    QCOMPARE(models->count(), listed + 1);
    QCOMPARE(w.problem().model, net.toStdString());
    QTRY_VERIFY_WITH_TIMEOUT(!w.isSolving(), 30000);

    // Given on the command line, or remembered: opened as the box holds it.
    ExplorerWindow given;
    QSignalSpy givenSettled(&given, &ExplorerWindow::solveSettled);
    ExplorerOptions o = linearOnA72();
    o.model = net;
    QVERIFY(openAndSettle(given, givenSettled, o));
    QCOMPARE(given.problem().graph.size(), transformerNodes);
    {
        QSettings s;
        s.beginGroup(QStringLiteral("explorer"));
        s.setValue("model", net);
        s.setValue("platform", "m4");
    }
    ExplorerWindow remembered;
    QString err;
    QVERIFY2(remembered.initialize(ExplorerOptions{.use_settings = true}, &err), qPrintable(err));
    QCOMPARE(remembered.problem().model, net.toStdString());
    QCOMPARE(remembered.problem().platform, std::string("m4"));
    QTRY_VERIFY_WITH_TIMEOUT(!remembered.isSolving(), 30000);
    // A remembered file gone since: the defaults, and a word naming the file.
    QVERIFY(QFile::remove(net));
    ExplorerWindow gone;
    QVERIFY2(gone.initialize(ExplorerOptions{.use_settings = true}, &err), qPrintable(err));
    QCOMPARE(gone.problem().model, std::string("resnet18_cifar"));
    QTRY_VERIFY(gone.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning")));
    const auto* note = gone.findChild<QMessageBox*>(QStringLiteral("unloadedProfileWarning"));
    QVERIFY2(note->informativeText() == QStringLiteral("no model profile file '%1'").arg(net),
             qPrintable(note->informativeText()));
    QTRY_VERIFY_WITH_TIMEOUT(!gone.isSolving(), 30000);
}

// The tab open and the sweep's point count come back with the window; a
// --tab given overrides the remembered one.
void TestViews::tabAndSweepPointsAreRemembered() {
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    ExplorerOptions o;
    o.use_settings = true;
    o.model = QStringLiteral("linear");
    o.platform = QStringLiteral("m4");
    QString err;
    {
        ExplorerWindow w;
        QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
        QVERIFY2(w.initialize(o, &err), qPrintable(err));
        QCOMPARE(w.findChild<QTabWidget*>()->currentIndex(), 0);
        w.findChild<QTabWidget*>()->setCurrentIndex(2);
        w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->setValue(5);
        w.findChild<QComboBox*>(QStringLiteral("sweepAxis"))->setCurrentIndex(1);
        w.findChild<QComboBox*>(QStringLiteral("teachingSpeed"))->setCurrentIndex(3);
        QTRY_VERIFY_WITH_TIMEOUT(settled.count() > 0, 30000);
        w.close();
    }
    {
        ExplorerWindow w;
        QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
        QVERIFY2(w.initialize(o, &err), qPrintable(err));
        QCOMPARE(w.findChild<QTabWidget*>()->currentIndex(), 2);
        QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->value(), 5);
        QCOMPARE(w.findChild<QComboBox*>(QStringLiteral("sweepAxis"))->currentIndex(), 1);
        QCOMPARE(w.findChild<QComboBox*>(QStringLiteral("teachingSpeed"))->currentData().toInt(), 3000);
        QTRY_VERIFY_WITH_TIMEOUT(settled.count() > 0, 30000);
    }
    o.tab = QStringLiteral("cells");
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY2(w.initialize(o, &err), qPrintable(err));
    QCOMPARE(w.findChild<QTabWidget*>()->currentIndex(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(settled.count() > 0, 30000);
}

// The Pareto tab varies the runtime budget too, at the window's RAM budget,
// from 1.0x to 2.0x; a click on a point sets both budgets.
void TestViews::paretoTabSweepsTheRuntimeBudget() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, {.model = "linear", .platform = "m4", .ram_budget = "60%", .time_limit_s = 2}));
    QString err;
    w.findChild<QComboBox*>(QStringLiteral("sweepAxis"))->setCurrentIndex(1);
    w.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->setValue(12);
    QSignalSpy swept(&w, &ExplorerWindow::sweepSettled);
    w.runParetoSweep();
    QTRY_VERIFY_WITH_TIMEOUT(swept.count() > 0, 120000);
    const auto* pareto = w.findChild<ParetoPlot*>();
    // Each point is solved as the window solves (it ran on one thread where
    // the window's solve had two, and its points ended elsewhere than
    // `poet sweep`'s), within the time limit and 10 s.
    const SolverOptions& solver = pareto->runner()->config().solver;
    QCOMPARE(solver.threads, defaultSolverThreads());
    QCOMPARE(solver.threads, w.solverOptions().threads);
    QCOMPARE(solver.relative_gap, w.solverOptions().relative_gap);
    QCOMPARE(solver.time_limit_s, 2.0);
    const SweepResult& r = pareto->result();
    QCOMPARE(r.axis, SweepAxis::RuntimeFactor);
    QCOMPARE(r.fixed_ram_budget_bytes, w.budgets().ram_budget_bytes);
    // 1.0 to 2.0x in the runtime box's four decimals: a clicked point is the
    // budget the box shows (1.090909091x showed as 1.0909).
    QCOMPARE(r.runtime_factors.size(), std::size_t(12));
    QCOMPARE(r.runtime_factors.front(), 1.0);
    QCOMPARE(r.runtime_factors[1], 1.0909);
    QCOMPARE(r.runtime_factors.back(), 2.0);
    for (const SweepRow& row : r.rows) QCOMPARE(row.ram_budget_bytes, w.budgets().ram_budget_bytes);
    const std::vector<SweepRow> poet = sweepCurve(r, "poet");
    QCOMPARE(poet.size(), std::size_t(12));
    QVERIFY(poet[1].hasSchedule());
    QSignalSpy activated(pareto, &ParetoPlot::pointActivated);
    const_cast<ParetoPlot*>(pareto)->activatePoint(QStringLiteral("poet"), 1);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(w.budgets().runtime_budget_factor, 1.0909);
    QCOMPARE(w.runtimeControl()->value(), 1.0909);

    // At the smallest window (the Problem row on two lines) the page holds
    // the plot, its axes and its notes apart: the plot was drawn under the
    // point count, its x axis hidden, and the hint took five lines.
    w.show();
    w.resize(w.minimumSizeHint());
    w.findChild<QTabWidget*>()->setCurrentWidget(pareto->parentWidget());
    QCoreApplication::processEvents();
    const auto apart = [](const QWidget* parent) { return childrenNotApart(parent, parent->rect()).isEmpty(); };
    QVERIFY(apart(pareto->parentWidget()));
    QVERIFY(apart(pareto));
    QVERIFY(pareto->height() >= pareto->minimumSizeHint().height());
    const auto* hint = w.findChild<QLabel*>(QStringLiteral("sweepHint"));
    QCOMPARE(hint->width(), hint->sizeHint().width());  // whole, on one line
    // Its energy ticks apart (five ran into each other on a plot this short).
    const auto ticksApart = [&] {
        pareto->plot()->replot();
        const QCPAxis* energy = pareto->plot()->yAxis;
        const QVector<double> ticks = energy->tickVector();
        for (int i = 1; i < ticks.size(); ++i)
            if (std::abs(energy->coordToPixel(ticks[i]) - energy->coordToPixel(ticks[i - 1])) <
                QFontMetrics(energy->tickLabelFont()).height())
                return false;
        return ticks.size() >= 2;
    };
    QVERIFY(ticksApart());
    // And with the note that the budget on screen is off the sweep.
    w.setBudgets(Budgets{w.budgets().ram_budget_bytes, 3.0});
    QCoreApplication::processEvents();
    QVERIFY(!w.findChild<QLabel*>(QStringLiteral("budgetOffRange"))->text().isEmpty());
    QVERIFY(apart(pareto));
    QVERIFY(ticksApart());

    // Below the RAM lower bound no runtime budget helps: no sweep of 12
    // empty points, but a word of why.
    w.setBudgets(Budgets{w.minimumBudgetBytes() - 1, 1.5});
    w.runParetoSweep();
    QVERIFY(!pareto->runner()->isRunning());
    QVERIFY2(w.statusLine()->text().startsWith("No runtime sweep at a RAM budget of"),
             qPrintable(w.statusLine()->text()));
    // A sweep whose points have no schedule exports its rows, not an empty figure.
    SweepResult none = pareto->result();
    for (SweepRow& row : none.rows) row.status = SolveStatus::Infeasible;
    const_cast<ParetoPlot*>(pareto)->setResult(none);
    QTemporaryDir dir;
    QVERIFY(!w.exportPareto(dir.filePath("p.pdf"), &err));
    QVERIFY2(err.startsWith("no point of the sweep has a schedule"), qPrintable(err));
    QVERIFY(w.exportPareto(dir.filePath("p.csv"), &err));
    // Without recomputation the runtime budget changes nothing: no sweep of
    // copies of one point.
    w.setBudgets(Budgets{w.plainPeakBytes(), 1.5});
    w.findChild<QCheckBox*>(QStringLiteral("rematSwitch"))->setChecked(false);
    w.runParetoSweep();
    QVERIFY(!pareto->runner()->isRunning());
    QVERIFY2(w.statusLine()->text().startsWith("No runtime sweep without recomputation"),
             qPrintable(w.statusLine()->text()));
}

// Every recomputed cell read "recomput…" (the column left out the view's
// text margins); without a schedule the tab stood white.
void TestViews::cellsTabFitsItsWordsAndSaysWhyEmpty() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o = linearOnA72();
    o.ram_budget = QStringLiteral("100");  // below any node's needs: infeasible
    QVERIFY(openAndSettle(w, settled, o));
    auto* pages = w.findChild<QStackedWidget*>(QStringLiteral("cellPages"));
    auto* table = w.findChild<QTableView*>(QStringLiteral("cellTable"));
    QVERIFY(pages && table);
    auto* why = qobject_cast<QLabel*>(pages->currentWidget());
    QVERIFY2(why && why->text().startsWith(QStringLiteral("Infeasible")), why ? qPrintable(why->text()) : "no label");
    // Its link sets the budget that works, as the status line's does.
    const QRegularExpressionMatch offered =
        QRegularExpression(QStringLiteral("href=\"(budget:(\\d+))\"")).match(why->text());
    QVERIFY2(offered.hasMatch(), qPrintable(why->text()));
    emit why->linkActivated(offered.captured(1));
    QCOMPARE(w.budgets().ram_budget_bytes, offered.captured(2).toLongLong());
    w.undoStack()->undo();
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(100));
    // So does the heatmap's (painted, it read as a link and did nothing).
    QVERIFY(settled.wait(30000));
    QLabel* heatmapWhy = nullptr;
    for (QLabel* l : w.heatmap()->findChildren<QLabel*>())
        if (l->isVisible() && l->text().contains(offered.captured(1))) heatmapWhy = l;
    QVERIFY2(heatmapWhy, qPrintable(w.heatmap()->placeholderText()));
    emit heatmapWhy->linkActivated(offered.captured(1));
    QCOMPARE(w.budgets().ram_budget_bytes, offered.captured(2).toLongLong());
    w.undoStack()->undo();
    w.setBudgets(Budgets{w.plainPeakBytes(), 1.0});
    QTRY_VERIFY_WITH_TIMEOUT(pages->currentWidget() == table, 30000);
    w.cellModel()->setSchedule(uitest::tinyGraph(), uitest::tinySchedule());
    const QModelIndex recomputed = w.cellModel()->index(0, 5);
    QCOMPARE(recomputed.data().toString(), QStringLiteral("recomputed"));
    // The text's room as the style draws it, against the word's unrounded width.
    QStyleOptionViewItem option;
    option.initFrom(table);
    option.rect = table->visualRect(recomputed).adjusted(0, 0, table->showGrid() ? -1 : 0, 0);
    option.text = recomputed.data().toString();
    option.features = QStyleOptionViewItem::HasDisplay;
    // QCommonStyle draws the text inside that rect less its text margin each side.
    const int margin = table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
    const int room = table->style()->subElementRect(QStyle::SE_ItemViewItemText, &option, table).width() - 2 * margin;
    const double needs = QFontMetricsF(table->font()).horizontalAdvance(option.text);
    QVERIFY2(needs <= room, qPrintable(QStringLiteral("needs %1 px, has %2").arg(needs).arg(room)));
}

// Ctrl+C in the Cells table copies the selected block with its stage and
// layer headers, tab-separated, for a spreadsheet or a paper's table
// (Qt's own copied the current cell's word alone).
void TestViews::cellTableCopiesTheBlockWithHeaders() {
    ScheduleCellModel model;
    model.setSchedule(uitest::tinyGraph(), uitest::tinySchedule());
    CopyableTableView table;
    table.setModel(&model);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    table.selectionModel()->select(QItemSelection(model.index(0, 4), model.index(1, 5)), QItemSelectionModel::Select);
    table.setFocus();
    QApplication::clipboard()->setText(QStringLiteral("before"));
    QTest::keyClick(&table, Qt::Key_C, Qt::ControlModifier);
    const auto shown = [&](int r, int c) { return model.index(r, c).data().toString(); };
    const QString input = model.headerData(0, Qt::Vertical).toString();
    QCOMPARE(input, QStringLiteral("input"));
    QCOMPARE(shown(0, 5), QStringLiteral("recomputed"));
    QCOMPARE(QApplication::clipboard()->text(),
             QStringLiteral("\tstage 4\tstage 5\ninput\t%1\trecomputed\n%2\t%3\t%4\n")
                 .arg(shown(0, 4), model.headerData(1, Qt::Vertical).toString(), shown(1, 4), shown(1, 5)));
    // Nothing selected: the clipboard is left alone.
    table.clearSelection();
    QTest::keyClick(&table, Qt::Key_C, Qt::ControlModifier);
    QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("\tstage 4")));
}

// "Find a RAM budget that works" (the status line's link where a solve
// names none): the search's budget is set, as an undo step, and solved
// there; a budget change meanwhile drops it.
void TestViews::findWorkingBudgetSetsOne() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    ExplorerOptions o = linearOnA72();
    o.paging = false;
    o.ram_budget = QStringLiteral("4000");
    o.runtime_budget = 1.0;  // nothing to recompute: 4,000 B has no schedule
    QVERIFY(openAndSettle(w, settled, o));
    QCOMPARE(settled.takeFirst().at(0).toBool(), false);
    Problem p = w.problem();
    const std::optional<std::int64_t> works = smallestQuickBudget(p, p.ram_budget_bytes);
    QVERIFY(works && *works > 4000);
    w.findWorkingBudget();
    QVERIFY(w.isSolving() || settled.wait(30000));  // the search sets the budget, which solves
    QTRY_COMPARE_WITH_TIMEOUT(w.budgets().ram_budget_bytes, *works, 30000);
    if (settled.isEmpty()) QVERIFY(settled.wait(30000));
    QCOMPARE(settled.takeFirst().at(0).toBool(), true);  // a schedule there, replayed
    w.undoStack()->undo();
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(4000));
    QVERIFY(settled.wait(30000));
    settled.clear();

    // Left for another budget while it searches: its answer is dropped.
    w.findWorkingBudget();
    w.setBudgets(Budgets{5000, 1.0});
    QVERIFY(settled.wait(30000));
    QTest::qWait(300);
    QCOMPARE(w.budgets().ram_budget_bytes, std::int64_t(5000));
}

// Tab goes on from the summary and the Cells table to the controls after
// them (the teaching panel was out of its reach: 385 Tabs stayed in the
// summary's cells); the arrow keys walk a table's cells.
void TestViews::tabLeavesTheTables() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    auto* summary = w.findChild<QTableView*>(QStringLiteral("summaryTable"));
    QVERIFY(summary);
    summary->setFocus();
    summary->setCurrentIndex(summary->model()->index(0, 0));
    QTest::keyClick(summary, Qt::Key_Down);
    QCOMPARE(summary->currentIndex().row(), 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QVERIFY(QApplication::focusWidget() != summary);
    auto* cells = w.findChild<QTableView*>(QStringLiteral("cellTable"));
    QVERIFY(cells && !cells->tabKeyNavigation());
}

// A switch, the batch, the model or the platform changed is an undo step,
// named for what changed, with the budgets it came with: paging switched off
// by mistake could not be undone (Ctrl+Z undid an older budget step), and a
// model change wiped the whole history.
void TestViews::switchesAndModelAreUndoSteps() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, linearOnA72()));
    const std::int64_t linearPeak = w.plainPeakBytes();
    w.setBudgets(Budgets{linearPeak * 3 / 4, 1.25});
    QVERIFY(settled.wait(30000));
    const Budgets mine = w.budgets();
    QCheckBox* paging = nullptr;
    for (auto* box : w.findChildren<QCheckBox*>())
        if (box->text().remove(QLatin1Char('&')) == QLatin1String("Paging")) paging = box;
    QVERIFY(paging && paging->isChecked());
    paging->setChecked(false);
    QVERIFY(settled.wait(30000));
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("paging off"));
    QVERIFY(!w.problem().options.paging);
    QCOMPARE(w.budgets(), mine);  // the same network keeps its budgets
    w.undoStack()->undo();
    QVERIFY(paging->isChecked());
    QVERIFY(w.problem().options.paging);
    QVERIFY(settled.wait(30000));
    w.undoStack()->redo();
    QVERIFY(!paging->isChecked() && !w.problem().options.paging);
    QVERIFY(settled.wait(30000));

    // Another model: its own budgets; undone, the old model at the budgets left.
    auto* model = w.findChildren<QComboBox*>().front();
    for (auto* c : w.findChildren<QComboBox*>())
        if (c->findText(QStringLiteral("transformer")) >= 0) model = c;
    model->setCurrentText(QStringLiteral("transformer"));
    QVERIFY(settled.wait(60000));
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("model transformer"));
    QCOMPARE(w.problem().model, std::string("transformer"));
    QCOMPARE(w.budgets().ram_budget_bytes, w.plainPeakBytes());
    w.undoStack()->undo();
    QCOMPARE(w.problem().model, std::string("linear"));
    QCOMPARE(model->currentText(), QStringLiteral("linear"));
    QCOMPARE(w.plainPeakBytes(), linearPeak);
    QCOMPARE(w.budgets(), mine);
    QVERIFY(!w.problem().options.paging);
    QVERIFY(settled.wait(30000));
    // And on back through the steps before it.
    w.undoStack()->undo();  // paging off
    QVERIFY(w.problem().options.paging);
    QVERIFY(settled.wait(30000));
    w.undoStack()->undo();  // the budgets
    QCOMPARE(w.budgets().ram_budget_bytes, linearPeak);
    QVERIFY(settled.wait(30000));
}

// A switch changed while a sweep ran: the sweep (of the old problem) came
// back when it ended, its points opening the new problem. And a second Run
// sweep meanwhile cleared the plot and was dropped without a word.
void TestViews::aSweepClearedWhileItRunsStaysCleared() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled,
                          {.model = "resnet18_cifar", .platform = "m4", .ram_budget = "40%", .runtime_budget = 1.5,
                           .time_limit_s = 1}));
    auto* pareto = w.findChild<ParetoPlot*>();
    auto* run = w.findChild<QPushButton*>(QStringLiteral("runSweep"));
    QVERIFY(pareto && run);
    QSignalSpy swept(&w, &ExplorerWindow::sweepSettled);
    w.runParetoSweep();
    QTRY_VERIFY_WITH_TIMEOUT(pareto->result().rows.size() >= 3, 60000);
    QVERIFY(pareto->runner()->isRunning());
    QVERIFY(!run->isEnabled());
    const std::size_t before = pareto->result().rows.size();
    w.runParetoSweep();  // as the (disabled) button would: nothing happens
    QVERIFY(pareto->result().rows.size() >= before);
    w.findChild<QCheckBox*>(QStringLiteral("pagingSwitch"))->toggle();
    QCOMPARE(pareto->result().rows.size(), std::size_t(0));
    QTRY_VERIFY_WITH_TIMEOUT(!pareto->runner()->isRunning() && run->isEnabled(), 60000);
    QTest::qWait(50);  // anything queued behind the end
    QCOMPARE(pareto->result().rows.size(), std::size_t(0));
    QCOMPARE(swept.count(), 0);
}

// The window fits a 1280 px wide screen: the Pareto tab's one-line hint
// held it 1485 px wide at least, past a 1366 px laptop's screen. At its
// narrowest the timeline's legend wraps rather than cut its entries short
// ("pagedou" over the right axis's title); an export keeps it on one line.
void TestViews::windowFitsALaptopScreen() {
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled,
                          ExplorerOptions{.model = "linear", .platform = "m4", .ram_budget = "45%",
                                          .runtime_budget = 1.0, .time_limit_s = 20}));
    // A 1024 x 600 screen, or a 1280 x 720 projector at 125% (1024 x 576):
    // the Problem row wraps (the window was 1039 pixels wide at least).
    QVERIFY2(w.minimumSizeHint().width() <= 1024 && w.minimumSizeHint().height() <= 576,
             qPrintable(QStringLiteral("%1 x %2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
    w.resize(1024, 576);
    QCoreApplication::processEvents();
    QCOMPARE(w.size(), QSize(1024, 576));
    auto* solveButton = w.findChild<QPushButton*>();
    QVERIFY(solveButton && solveButton->text() == QStringLiteral("Solve"));
    QWidget* problemRow = solveButton->parentWidget();
    const QString notApart = childrenNotApart(problemRow, problemRow->contentsRect());
    QVERIFY2(notApart.isEmpty(), qPrintable(notApart));
    const auto* paging = w.findChild<QCheckBox*>(QStringLiteral("pagingSwitch"));
    QVERIFY(solveButton->y() > paging->mapTo(problemRow, QPoint()).y());  // on a line of its own
    w.resize(w.minimumSizeHint());
    QCoreApplication::processEvents();
    QCPLegend* legend = w.timeline()->plot()->legend;
    QVERIFY(legend->rowCount() > 1);
    int entries = 0;  // a wrapped legend's itemCount counts its grid's empty cells too
    for (int i = 0; i < legend->itemCount(); ++i) entries += legend->item(i) != nullptr;
    QCOMPARE(entries, 5);  // the schedule pages: flash traffic is in it
    QVERIFY(legend->minimumOuterSizeHint().width() <= w.timeline()->plot()->width());
    // The axes' titles stay along their axes (they ran up into the legend
    // and out of the widget): shorter, with the unit, where the plot is short.
    QCustomPlot* plot = w.timeline()->plot();
    const auto titlesFit = [&] {
        plot->replot();
        for (QCPAxis* axis : {plot->yAxis, plot->yAxis2})
            if (QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label()) > plot->axisRect()->height())
                return false;
        return true;
    };
    QVERIFY(titlesFit());  // at the smallest, none
    // The runtime budget in time, whole ("= 41.50 m" at the smallest).
    const QLabel* seconds = w.runtimeControl()->unitLabel();
    QVERIFY2(seconds->width() >= seconds->sizeHint().width(), qPrintable(seconds->text()));
    const int rows = legend->rowCount();
    renderedImage([&](QCPPainter& p, const QRectF& r) { w.timeline()->renderTo(p, r); }, w.timeline()->exportSize());
    QCOMPARE(legend->rowCount(), rows);  // the export's one line is not left on screen
    w.resize(1280, 720);
    QCoreApplication::processEvents();
    QVERIFY(titlesFit());
    w.resize(1500, 950);
    QCoreApplication::processEvents();
    QCOMPARE(legend->rowCount(), 1);
    QVERIFY(titlesFit());
    QCOMPARE(plot->yAxis->label(), QStringLiteral("RAM in use [kB]"));
    QCOMPARE(plot->yAxis2->label(), QStringLiteral("flash traffic per stage [B]"));
}

// A name typed without its suffix ("fig") is written as fig.pdf: the save
// dialog asked about "fig", so a fig.pdf there was replaced without a word.
// Now the window asks, and No keeps the file.
void TestViews::exportAsksBeforeReplacingUnderItsSuffix() {
    QTemporaryDir dir;
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, ExplorerOptions{.model = "linear", .platform = "m4", .time_limit_s = 5}));
    const QString old = dir.filePath("fig.pdf");
    QVERIFY(writeText(old, "an older figure"));
    const auto exportAs = [&](QMessageBox::StandardButton answer) {
        return throughFileDialog(w, QStringLiteral("Export &heatmap\u2026"), dir.filePath("fig"), answer);
    };
    QCOMPARE(exportAs(QMessageBox::No), QStringLiteral("fig.pdf already exists. Do you want to replace it?"));
    QFile kept(old);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("an older figure"));
    kept.close();
    QVERIFY(!exportAs(QMessageBox::Yes).isEmpty());
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QVERIFY(kept.readAll().startsWith("%PDF"));
}

// Export all asks before replacing files in the folder picked (the folder
// dialog asks of no file, and a set was replaced without a word), and a set
// cut short says how much of it was written ("Export failed" over 9 of 15).
void TestViews::exportAllAsksAndSaysWhatItWrote() {
    QTemporaryDir dir;
    ExplorerWindow w;
    QSignalSpy settled(&w, &ExplorerWindow::solveSettled);
    QVERIFY(openAndSettle(w, settled, ExplorerOptions{.model = "linear", .platform = "m4", .time_limit_s = 5}));
    const std::vector<ExplorerWindow::ExportFile> files = w.exportAllFiles(dir.path(), nullptr);
    QCOMPARE(files.size(), std::size_t(11));
    const QString kept = files.back().path;
    QVERIFY(writeText(kept, "older"));
    const QString asked =
        throughFileDialog(w, QStringLiteral("Export &all views\u2026"), dir.path(), QMessageBox::No);
    QVERIFY2(asked.startsWith(QStringLiteral("1 file in %1 will be replaced.").arg(dir.path())) &&
                 asked.endsWith(QFileInfo(kept).fileName()),
             qPrintable(asked));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // No: nothing written
    // A write-protected file stops the set; what was written before it is said.
    QVERIFY(QFile::setPermissions(kept, QFileDevice::ReadOwner));
    QString err;
    QVERIFY(!w.exportAll(dir.path(), &err));
    QVERIFY2(err.contains(QStringLiteral("is write-protected")) &&
                 err.endsWith(QStringLiteral("; 10 files were written before it, the rest not")),
             qPrintable(err));
    QFile::setPermissions(kept, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

QTEST_MAIN(TestViews)
#include "tst_views.moc"
