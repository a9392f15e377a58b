#include "status_line.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>

#include "units.h"

namespace poet::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

// A link that sets the RAM budget to `bytes` ("Use 262,144 B"): exact, as
// the budget box shows it; a rounded "262.1 kB" typed in did not fit.
QString budgetLink(const QString& verb, std::int64_t bytes) {
    return QStringLiteral("<a href=\"budget:%1\">%2 %3</a>").arg(bytes).arg(verb, q(formatBytesExact(bytes)));
}

// Where the solve names no budget that works (its own search ran out of
// time), a link that searches for one without a limit (WorkingBudgetSearch).
QString findBudgetLink() {
    return QStringLiteral("<a href=\"%1\">%2</a>")
        .arg(QLatin1String(kFindBudgetLink), QObject::tr("Find a RAM budget that works"));
}

// The solver's messages give budgets in bytes ("below 1048576 B"), beside
// the links' and the budget box's "1,048,576 B": written the same way.
QString withExactBytes(QString message) {
    static const QRegularExpression bytes(QStringLiteral("\\b(\\d+) B\\b"));
    QString out;
    qsizetype from = 0;
    for (auto it = bytes.globalMatch(message); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += message.mid(from, m.capturedStart() - from) + q(formatBytesExact(m.captured(1).toLongLong()));
        from = m.capturedEnd();
    }
    return out + message.mid(from);
}

QColor toneColor(StatusTone t) {
    switch (t) {
    case StatusTone::Busy: return QColor(0x00, 0x72, 0xB2);
    case StatusTone::Good: return QColor(0x00, 0x9E, 0x73);
    case StatusTone::Warning: return QColor(0xE6, 0x9F, 0x00);
    case StatusTone::Bad: return QColor(0xC0, 0x1B, 0x1B);
    case StatusTone::Neutral: break;
    }
    return QColor(0x88, 0x88, 0x88);
}

// The dot's colour in words, for its tooltip (and for whom colours say little).
QString toneWords(StatusTone t) {
    switch (t) {
    case StatusTone::Busy: return QObject::tr("Blue: at work");
    case StatusTone::Good: return QObject::tr("Green: done, proven");
    case StatusTone::Warning: return QObject::tr("Amber: a schedule, not proven optimal");
    case StatusTone::Bad: return QObject::tr("Red: no schedule, or an error");
    case StatusTone::Neutral: break;
    }
    return QObject::tr("Grey: nothing to report");
}
}  // namespace

StatusMessage statusForSolving(double elapsed_s, const std::optional<SolveResult>& best) {
    StatusMessage m;
    m.tone = StatusTone::Busy;
    m.text = QObject::tr("Solving\u2026 %1 s").arg(elapsed_s, 0, 'f', 1);
    // A schedule shown mid-solve carries no bound yet: its gap 0 read as
    // proven optimal.
    if (best && best->schedule)
        m.text += QObject::tr(" \u2014 best so far %1, %2")
                      .arg(q(formatEnergy(best->replay.total_energy_j)),
                           best->best_bound_j > 0 ? QObject::tr("gap %1").arg(q(formatGapPercent(best->gap)))
                                                  : QObject::tr("no bound yet"));
    m.text += QObject::tr(" (Esc cancels)");
    return m;
}

QString asSentence(QString message) {
    if (!message.isEmpty()) message[0] = message[0].toUpper();
    if (!message.endsWith(QLatin1Char('.'))) message += QLatin1Char('.');
    return message;
}

QString provenWithin(double gap) {
    return gap >= 5e-5 ? QObject::tr("within %1").arg(q(formatGapPercent(gap))) : QString();
}

QString statusPhrase(const SolveResult& r) {
    const QString status = QString::fromUtf8(toString(r.status));
    const QString within = r.status == SolveStatus::Optimal ? provenWithin(r.gap) : QString();
    return within.isEmpty() ? status : status + QLatin1Char(' ') + within;
}

QString sourcePhrase(SolutionSource s) {
    switch (s) {
    case SolutionSource::None: return QObject::tr("none");
    case SolutionSource::Heuristic: return QObject::tr("a quick schedule");
    case SolutionSource::Cached: return QObject::tr("the solve cache");
    case SolutionSource::Incumbent: return QObject::tr("the solver's search");
    case SolutionSource::Proven: return QObject::tr("the solver, proven");
    }
    return {};
}

StatusMessage statusForResult(const SolveResult& r, const StatusContext& ctx) {
    StatusMessage m;
    const QString energy = q(formatEnergy(r.replay.total_energy_j));
    const bool cached = r.source == SolutionSource::Cached;
    const QString took = q(formatSeconds(r.solve_time_s));
    switch (r.status) {
    case SolveStatus::Optimal:
    {
        m.tone = StatusTone::Good;
        // Stopped at the target gap: say how close, not "proven optimal"
        // (a longer solve may find a cheaper schedule within that gap).
        const QString within = provenWithin(r.gap);
        QString proven = QObject::tr("Proven optimal");
        if (!within.isEmpty()) {
            proven = QObject::tr("Within %1 of the optimum").arg(q(formatGapPercent(r.gap)));
            if (ctx.target_gap > 0) proven += QObject::tr(" (target %1)").arg(q(formatGapPercent(ctx.target_gap)));
        }
        m.text = cached ? QObject::tr("%1: %2 per iteration, peak RAM %3 (from the solve cache).")
                              .arg(proven, energy, q(formatBytes(r.replay.peak_ram_bytes)))
                        : QObject::tr("%1: %2 per iteration, peak RAM %3 (solved in %4).")
                              .arg(proven, energy, q(formatBytes(r.replay.peak_ram_bytes)), took);
        break;
    }
    case SolveStatus::Feasible:
        m.tone = StatusTone::Warning;
        // The same figures as an optimal answer's, and its gap.
        m.text = QObject::tr("Feasible, not proven optimal: %1 per iteration, peak RAM %2, gap %3 (%4).")
                     .arg(energy, q(formatBytes(r.replay.peak_ram_bytes)), q(formatGapPercent(r.gap)))
                     .arg(cached ? QObject::tr("from the solve cache") : QObject::tr("stopped after %1").arg(took));
        break;
    case SolveStatus::Infeasible: {
        m.tone = StatusTone::Bad;
        QString reason = r.message.empty() ? QObject::tr("no schedule meets these budgets")
                                           : withExactBytes(q(r.message).toHtmlEscaped());
        if (reason.endsWith('.')) reason.chop(1);
        // The solver's message says why, with the budgets in bytes; the link
        // sets the one that works (or, where none is known, the least that
        // could). It goes first: the line is cut at its right end, and the
        // reason can be longer than the window is wide (resnet18_cifar
        // without paging at 300,000 B: the link was cut off).
        QString link;
        if (r.ram_budget_that_works_bytes > ctx.ram_budget_bytes)
            link = budgetLink(QObject::tr("Use"), r.ram_budget_that_works_bytes);
        else if (ctx.min_budget_lower_bound_bytes > ctx.ram_budget_bytes)
            link = budgetLink(QObject::tr("Try"), ctx.min_budget_lower_bound_bytes);
        // Else, a search for one: the solve's own ran out of time (resnet50
        // at 10% without paging, 1 s), and its message's advice ("switching
        // paging on, or a larger runtime budget, may help") named no budget.
        // Below one plain pass no RAM helps, and the message says so.
        if (link.isEmpty() && ctx.runtime_budget_factor >= 1) link = findBudgetLink();
        m.text = link.isEmpty() ? QObject::tr("Infeasible: %1.").arg(reason)
                                : QObject::tr("Infeasible. %1 \u2014 %2.").arg(link, reason);
        break;
    }
    case SolveStatus::NoSolution: {
        m.tone = StatusTone::Bad;
        // The solver's message may add ways out, each after "; ": a budget
        // where a schedule exists (linked, first, as for Infeasible: it is
        // not repeated in bytes), and that paging on has one.
        QStringList ways = withExactBytes(q(r.message).toHtmlEscaped()).split(QStringLiteral("; "));
        ways.removeFirst();  // "no schedule found ...": said below
        const QString limit = QObject::tr("No schedule found within the time limit (%1 s)").arg(ctx.time_limit_s, 0, 'g', 3);
        if (r.ram_budget_that_works_bytes > ctx.ram_budget_bytes) {
            ways.removeIf([](const QString& way) { return way.startsWith(QLatin1String("a schedule exists at")); });
            ways.prepend(QObject::tr("a schedule exists there"));
            m.text = limit + QObject::tr(". %1 \u2014 %2. Or raise the time limit.")
                                 .arg(budgetLink(QObject::tr("Use"), r.ram_budget_that_works_bytes), ways.join(QStringLiteral("; ")));
        } else {
            m.text = limit + QStringLiteral(". ") + findBudgetLink() +
                     (ways.isEmpty() ? QString() : QStringLiteral(" \u2014 ") + ways.join(QStringLiteral("; "))) +
                     QObject::tr(". Or raise the time limit.");
        }
        break;
    }
    case SolveStatus::Cancelled:
        m.tone = StatusTone::Neutral;
        m.text = QObject::tr("Cancelled before a schedule was found.");
        break;
    }
    return m;
}

QString elideRichText(const QString& html, const QFont& font, int width) {
    // The document with its text from `chars` on replaced by "…" (all of it: -1).
    const auto cutAt = [&](int chars, QTextDocument& doc) {
        doc.setDefaultFont(font);
        doc.setDocumentMargin(0);
        doc.setHtml(html);
        if (chars < 0) return;
        QTextCursor c(&doc);
        c.setPosition(chars);
        c.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        c.insertText(QStringLiteral("\u2026"));
    };
    QTextDocument whole;
    cutAt(-1, whole);
    if (whole.idealWidth() <= width) return html;
    int lo = 0, hi = whole.characterCount() - 1;  // the most characters kept that fit
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        QTextDocument doc;
        cutAt(mid, doc);
        if (doc.idealWidth() <= width) lo = mid;
        else hi = mid - 1;
    }
    QTextDocument doc;
    cutAt(lo, doc);
    return doc.toHtml();
}

StatusLine::StatusLine(QWidget* parent) : QWidget(parent) {
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    dot_ = new QLabel(this);
    dot_->setText(QStringLiteral("\u25CF"));
    label_ = new QLabel(this);
    label_->setTextFormat(Qt::RichText);
    label_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label_->setWordWrap(false);
    label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the solve now and keep the best schedule found so far (Esc)."));
    cancel_->setVisible(false);
    lay->addWidget(dot_);
    lay->addWidget(label_, 1);
    lay->addWidget(cancel_);
    timer_ = new QTimer(this);
    timer_->setInterval(100);
    connect(timer_, &QTimer::timeout, this, &StatusLine::tick);
    connect(cancel_, &QToolButton::clicked, this, &StatusLine::cancelRequested);
    connect(label_, &QLabel::linkActivated, this, &StatusLine::followLink);
    showMessage(tr("Ready."));
}

void StatusLine::followLink(const QString& link) {
    if (link.startsWith(QLatin1String("budget:"))) emit budgetSuggested(link.mid(7).toLongLong());
    if (link == QLatin1String(kFindBudgetLink)) emit budgetSearchRequested();
}

void StatusLine::apply(const StatusMessage& m) {
    text_ = m.text;
    fitText();
    label_->setToolTip(m.text);
    dot_->setStyleSheet(QStringLiteral("color: %1;").arg(toneColor(m.tone).name()));
    dot_->setToolTip(toneWords(m.tone));
    dot_->setAccessibleName(toneWords(m.tone));
}

// A line cut mid-word with nothing to show it ("... the smallest RAM budget
// that would wo") read as the whole message; its tooltip has all of it.
void StatusLine::fitText() { label_->setText(elideRichText(text_, label_->font(), label_->contentsRect().width())); }

void StatusLine::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitText();
}

QString StatusLine::text() const { return text_; }

void StatusLine::showSolving() {
    solving_ = true;
    best_.reset();
    clock_.start();
    cancel_->setVisible(true);
    timer_->start();
    tick();
}

void StatusLine::showIncumbent(const SolveResult& r) {
    best_ = r;
    tick();
}

void StatusLine::tick() {
    if (!solving_) return;
    apply(statusForSolving(clock_.elapsed() / 1000.0, best_));
}

void StatusLine::showResult(const SolveResult& r, const StatusContext& ctx) {
    solving_ = false;
    timer_->stop();
    cancel_->setVisible(false);
    apply(statusForResult(r, ctx));
}

void StatusLine::showFailure(const QString& message) {
    solving_ = false;
    timer_->stop();
    cancel_->setVisible(false);
    apply(StatusMessage{tr("Error: %1").arg(message.toHtmlEscaped()), StatusTone::Bad});
}

void StatusLine::showMessage(const QString& text, StatusTone tone) {
    solving_ = false;
    timer_->stop();
    cancel_->setVisible(false);
    apply(StatusMessage{text, tone});
}

}  // namespace poet::ui
