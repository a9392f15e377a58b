#pragma once
// The status line under the views: solving (elapsed time, cancel), proven
// optimal, feasible with gap, infeasible with the reason and the smallest
// budget that could work, no solution in time, cancelled, failed.
#include <QElapsedTimer>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <optional>

#include "solve_result.h"

class QLabel;
class QToolButton;
class QTimer;

namespace poet::ui {

// The href of the status line's "Find a RAM budget that works" link (its
// placeholder copies in the views carry it too).
inline constexpr const char* kFindBudgetLink = "find-budget";

struct StatusContext {
    std::int64_t ram_budget_bytes = 0;
    std::int64_t min_budget_lower_bound_bytes = 0;  // minimumFeasibleBudgetLowerBound
    double time_limit_s = 0;
    bool paging = true, remat = true;
    double target_gap = 0;  // the gap the solve was asked to stop at (relative)
    double runtime_budget_factor = 1;
};

enum class StatusTone { Neutral, Busy, Good, Warning, Bad };

struct StatusMessage {
    QString text;       // may hold one <a href="budget:BYTES"> link
    StatusTone tone = StatusTone::Neutral;
};

// "within 0.50 %" for an optimum proven only to within a gap (a solve
// stops at its --gap), empty where it is proven exactly.
QString provenWithin(double gap);
// The status as one phrase for tables and titles: "optimal", "optimal
// within 0.50 %", "feasible", "infeasible", ...
QString statusPhrase(const SolveResult& r);
// Where the schedule came from, in words for tables: "the solver, proven",
// not the JSON token "proven_optimal" (which read as exact beside a gap).
QString sourcePhrase(SolutionSource s);
// A message made to follow "poet: " ("no schedule to export") as a
// sentence of its own, for a dialog or a tooltip: capital, full stop.
QString asSentence(QString message);

// Pure: the words for a finished solve.
StatusMessage statusForResult(const SolveResult& r, const StatusContext& ctx);
StatusMessage statusForSolving(double elapsed_s, const std::optional<SolveResult>& best);

// `html` cut at its end to fit `width` px on one line in `font`, with "…"
// where it was cut; its links kept. Unchanged where it fits.
QString elideRichText(const QString& html, const QFont& font, int width);

class StatusLine : public QWidget {
    Q_OBJECT
public:
    explicit StatusLine(QWidget* parent = nullptr);

    void showSolving();                       // starts the elapsed clock
    void showIncumbent(const SolveResult& r);  // still solving
    void showResult(const SolveResult& r, const StatusContext& ctx);
    void showFailure(const QString& message);
    void showMessage(const QString& text, StatusTone tone = StatusTone::Neutral);
    QString text() const;  // whole, where the line shows it cut ("…")
    bool isSolving() const { return solving_; }

public slots:
    // A link of its words, clicked here or where a view shows a copy of
    // them (the Cells tab, the heatmap): emits what the link asks for.
    void followLink(const QString& link);

signals:
    void cancelRequested();
    void budgetSuggested(std::int64_t ramBudgetBytes);  // the user clicked "use N"
    void budgetSearchRequested();                       // ... "Find a RAM budget that works"

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void apply(const StatusMessage& m);
    void tick();
    void fitText();  // the text, cut to the label's width

    QLabel* dot_;
    QLabel* label_;
    QToolButton* cancel_;
    QTimer* timer_;
    QString text_;  // the whole message; the label may hold it cut
    QElapsedTimer clock_;
    std::optional<SolveResult> best_;
    bool solving_ = false;
};

}  // namespace poet::ui
