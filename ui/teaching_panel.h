#pragma once
// Teaching mode: play, pause and step through the ops of a schedule; the
// current op is highlighted in the heatmap and the timeline (through
// currentChanged) and explained in a caption.
#include <QWidget>
#include <cstdint>
#include <vector>

#include "graph.h"
#include "replay.h"
#include "schedule.h"
#include "teaching.h"

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QTimer;

namespace poet::ui {

class TeachingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TeachingPanel(QWidget* parent = nullptr);

    void setSchedule(const Graph& g, const Schedule& s, const ReplayReport& report, std::int64_t ramBudgetBytes);
    void clear();

    int stepCount() const { return static_cast<int>(steps_.size()); }
    int position() const { return pos_; }  // -1: not started
    const std::vector<TeachingStep>& steps() const { return steps_; }
    QString caption() const;
    bool isPlaying() const;

    QAction* playAction() const { return play_; }
    QAction* stepForwardAction() const { return fwd_; }
    QAction* stepBackAction() const { return back_; }
    QAction* stopAction() const { return stop_; }

    // Time per step while playing, ms: one of kStepIntervalsMs (the nearest).
    // 600 ms walked resnet18_cifar's 203 steps in two minutes, too fast to
    // talk over and too slow to skim.
    static constexpr int kStepIntervalsMs[] = {200, 600, 1500, 3000};
    int stepIntervalMs() const;
    void setStepIntervalMs(int ms);

public slots:
    void setPosition(int index);  // -1 stops
    void stepForward();
    void stepBack();
    void togglePlay();
    void stop();

signals:
    // (stage, node, op into ram_trace[stage]); (-1, -1, -1) when stopped.
    void currentChanged(int stage, int node, int op);

private:
    void refresh();

    Graph graph_;
    Schedule schedule_;
    ReplayReport report_;
    std::int64_t budget_ = 0;
    std::vector<TeachingStep> steps_;
    int pos_ = -1;
    QAction *play_, *fwd_, *back_, *stop_;
    QComboBox* speed_;
    QSlider* slider_;
    QLabel* where_;
    QLabel* caption_;
    QTimer* timer_;
};

}  // namespace poet::ui
