#include "teaching_panel.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdlib>

#include "figure_text.h"
#include "units.h"

namespace poet::ui {

TeachingPanel::TeachingPanel(QWidget* parent) : QWidget(parent) {
    play_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Play"), this);
    play_->setCheckable(true);
    play_->setShortcut(QKeySequence(Qt::Key_P));
    play_->setToolTip(tr("Play through the schedule op by op (P)"));
    fwd_ = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Step &forward"), this);
    fwd_->setShortcut(QKeySequence(Qt::Key_N));
    fwd_->setToolTip(tr("Next op (N)"));
    back_ = new QAction(style()->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step &back"), this);
    back_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_N));
    back_->setToolTip(tr("Previous op (Shift+N)"));
    stop_ = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top teaching"), this);
    stop_->setToolTip(tr("Leave the walk-through and clear the highlight"));
    for (QAction* a : {play_, fwd_, back_, stop_}) a->setShortcutContext(Qt::WindowShortcut);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    for (QAction* a : {back_, play_, fwd_, stop_}) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setAutoRaise(true);
        row->addWidget(b);
    }
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setToolTip(tr("Position in the walk-through: every computation in stage order, then the stage's "
                           "page-outs and page-ins"));
    row->addWidget(slider_, 1);
    where_ = new QLabel(this);
    where_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("op 00000 / 00000")));
    where_->setToolTip(tr("The step of the walk-through, of all its steps: every computation in stage order, then "
                          "the stage's page-outs and page-ins"));
    row->addWidget(where_);
    speed_ = new QComboBox(this);
    speed_->setObjectName(QStringLiteral("teachingSpeed"));
    for (const int ms : kStepIntervalsMs) speed_->addItem(tr("%1 s / step").arg(ms / 1000.0), ms);
    speed_->setToolTip(tr("How long Play shows each step"));
    speed_->setAccessibleName(tr("Play speed"));
    row->addWidget(speed_);
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Four lines: a paging step's caption takes three at the panel's width,
    // and with two its last line ("of 3.30 kB.") was cut off.
    caption_->setMinimumHeight(fontMetrics().lineSpacing() * 4);
    caption_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addLayout(row);
    lay->addWidget(caption_);

    timer_ = new QTimer(this);
    setStepIntervalMs(600);
    connect(speed_, &QComboBox::currentIndexChanged, this, [this] { timer_->setInterval(stepIntervalMs()); });
    connect(timer_, &QTimer::timeout, this, [this] {
        if (pos_ + 1 >= stepCount()) {
            play_->setChecked(false);
            timer_->stop();
            return;
        }
        stepForward();
    });
    connect(play_, &QAction::toggled, this, [this](bool on) {
        if (on) {
            if (stepCount() == 0) {
                play_->setChecked(false);
                return;
            }
            if (pos_ + 1 >= stepCount()) setPosition(0);
            else if (pos_ < 0) setPosition(0);
            timer_->start();
        } else {
            timer_->stop();
        }
        play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        play_->setText(on ? tr("&Pause") : tr("&Play"));
    });
    connect(fwd_, &QAction::triggered, this, &TeachingPanel::stepForward);
    connect(back_, &QAction::triggered, this, &TeachingPanel::stepBack);
    connect(stop_, &QAction::triggered, this, &TeachingPanel::stop);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (v != pos_) setPosition(v);
    });
    clear();
}

void TeachingPanel::setSchedule(const Graph& g, const Schedule& s, const ReplayReport& report, std::int64_t budget) {
    // The walk goes on where the schedule is the same (a new budget that
    // keeps it); in another schedule of the same graph it goes on at the
    // stage it was at (op 182 of the last one is some other op of this one,
    // and starting over lost a teacher's place at "what if we had a little
    // more RAM?"); another graph starts it over.
    const bool same = graph_.size() == g.size() && schedule_ == s;
    const bool sameGraph = graph_.size() == g.size() && graph_.edges() == g.edges();
    const int stage = pos_ >= 0 && pos_ < stepCount() ? steps_[static_cast<std::size_t>(pos_)].stage : -1;
    if (!sameGraph) play_->setChecked(false);
    graph_ = g;
    schedule_ = s;
    report_ = report;
    budget_ = budget;
    steps_ = teachingSteps(g, s);
    slider_->blockSignals(true);
    slider_->setRange(0, std::max(0, stepCount() - 1));
    slider_->blockSignals(false);
    if (!same && sameGraph && stage >= 0) {
        const auto at =
            std::find_if(steps_.begin(), steps_.end(), [&](const TeachingStep& st) { return st.stage >= stage; });
        pos_ = at == steps_.end() ? stepCount() - 1 : static_cast<int>(at - steps_.begin());
    } else if (!same || pos_ >= stepCount()) {
        pos_ = -1;
    }
    if (stepCount() == 0) play_->setChecked(false);
    refresh();
}

void TeachingPanel::clear() {
    steps_.clear();
    graph_ = Graph();
    schedule_ = Schedule();
    report_ = ReplayReport();
    pos_ = -1;
    play_->setChecked(false);
    slider_->setRange(0, 0);
    refresh();
}

bool TeachingPanel::isPlaying() const { return play_->isChecked(); }

int TeachingPanel::stepIntervalMs() const { return speed_->currentData().toInt(); }

void TeachingPanel::setStepIntervalMs(int ms) {
    int nearest = 0;
    for (int i = 0; i < speed_->count(); ++i)
        if (std::abs(speed_->itemData(i).toInt() - ms) < std::abs(speed_->itemData(nearest).toInt() - ms)) nearest = i;
    speed_->setCurrentIndex(nearest);
    timer_->setInterval(stepIntervalMs());
}

QString TeachingPanel::caption() const { return caption_->text(); }

void TeachingPanel::setPosition(int index) {
    if (index >= stepCount()) index = stepCount() - 1;
    if (index < -1) index = -1;
    pos_ = index;
    refresh();
}

void TeachingPanel::stepForward() { setPosition(std::min(pos_ + 1, stepCount() - 1)); }
void TeachingPanel::stepBack() {
    if (pos_ > 0) setPosition(pos_ - 1);  // before the first step there is nothing to go back to
}
void TeachingPanel::togglePlay() { play_->toggle(); }

void TeachingPanel::stop() {
    play_->setChecked(false);
    setPosition(-1);
}

void TeachingPanel::refresh() {
    const bool has = stepCount() > 0;
    for (QAction* a : {play_, fwd_, back_, stop_}) a->setEnabled(has);
    slider_->setEnabled(has);
    if (pos_ < 0 || !has) {
        where_->setText(has ? tr("%1 ops").arg(stepCount()) : QString());
        caption_->setText(has ? tr("Teaching mode: press Play (P) or Step (N) to walk through the schedule op by op.")
                              : tr("Teaching mode needs a schedule: the status line says why there is none, "
                                   "and offers a RAM budget where one exists."));
        emit currentChanged(-1, -1, -1);
        return;
    }
    const TeachingStep& st = steps_[static_cast<std::size_t>(pos_)];
    slider_->blockSignals(true);
    slider_->setValue(pos_);
    slider_->blockSignals(false);
    where_->setText(tr("op %1 / %2").arg(pos_ + 1).arg(stepCount()));
    // The caption wraps at the panel's width: "RAM in use: 312.5 kB" keeps its figure whole.
    QString text = QString::fromStdString(teachingCaption(graph_, schedule_, st, budget_, report_));
    if (pos_ + 1 == stepCount())  // the walk's end said nothing of it
        text += tr(" The last step: the iteration spent %1, with a peak of %2 of RAM.")
                    .arg(QString::fromStdString(formatEnergy(report_.total_energy_j)),
                         QString::fromStdString(formatBytes(report_.peak_ram_bytes)));
    caption_->setText(keepFiguresWhole(text));
    emit currentChanged(st.stage, st.node, st.op);
}

}  // namespace poet::ui
