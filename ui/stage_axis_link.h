#pragma once
// Keeps the memory timeline's stage axis under the heatmap's stage columns:
// the same left and right edges in the window, and the same stages in view.
// A zoom or pan on either view moves the other; the heatmap's limits (no
// zoom out past all stages, none in past four) hold for both.
#include <QObject>

namespace poet::ui {

class HeatmapView;
class MemoryTimelineView;

class StageAxisLink : public QObject {
    Q_OBJECT
public:
    StageAxisLink(HeatmapView* heatmap, MemoryTimelineView* timeline, QObject* parent = nullptr);

    // After either view got new data: align the edges, then the timeline
    // shows the heatmap's stages. Where one view has nothing to align with
    // (no schedule), each keeps its own layout.
    void sync();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool bothDrawn() const;
    void alignEdges();
    void followHeatmap();
    void followTimeline(double first, double last);

    HeatmapView* heatmap_;
    MemoryTimelineView* timeline_;
    bool following_ = false;     // one view is being moved to the other: its signals are echoes
    bool alignQueued_ = false;   // a resize asked for alignEdges after the views' own layouts
};

}  // namespace poet::ui
