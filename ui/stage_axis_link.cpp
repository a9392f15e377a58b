#include "stage_axis_link.h"

#include <QEvent>
#include <QTimer>
#include <algorithm>

#include "heatmap_view.h"
#include "memory_timeline_view.h"

namespace poet::ui {

StageAxisLink::StageAxisLink(HeatmapView* heatmap, MemoryTimelineView* timeline, QObject* parent)
    : QObject(parent), heatmap_(heatmap), timeline_(timeline) {
    connect(heatmap_, &HeatmapView::stageWindowChanged, this, &StageAxisLink::followHeatmap);
    connect(timeline_, &MemoryTimelineView::stagesMovedByUser, this, &StageAxisLink::followTimeline);
    heatmap_->installEventFilter(this);
    timeline_->installEventFilter(this);
}

bool StageAxisLink::bothDrawn() const { return heatmap_->hasSchedule() && timeline_->hasData(); }

void StageAxisLink::sync() {
    alignEdges();
    followHeatmap();
}

bool StageAxisLink::eventFilter(QObject* watched, QEvent* event) {
    // The filter sees a resize before the view lays itself out for it, so
    // the edges are aligned once the event loop has run the views' own.
    if (event->type() == QEvent::Resize && !alignQueued_) {
        alignQueued_ = true;
        QTimer::singleShot(0, this, [this] {
            alignQueued_ = false;
            alignEdges();
        });
    }
    return QObject::eventFilter(watched, event);
}

void StageAxisLink::alignEdges() {
    if (!bothDrawn()) {
        heatmap_->setStageMargins({});
        timeline_->setStageMargins({});
        return;
    }
    const QMargins h = heatmap_->naturalStageMargins();
    const QMargins t = timeline_->naturalStageMargins();
    // In the window's coordinates: the views need not start at the same x.
    QWidget* window = heatmap_->window();
    const int hx = heatmap_->mapTo(window, QPoint(0, 0)).x();
    const int tx = timeline_->mapTo(window, QPoint(0, 0)).x();
    const int left = std::max(hx + h.left(), tx + t.left());
    const int right = std::min(hx + heatmap_->width() - h.right(), tx + timeline_->width() - t.right());
    heatmap_->setStageMargins(QMargins(left - hx, 0, hx + heatmap_->width() - right, 0));
    timeline_->setStageMargins(QMargins(left - tx, 0, tx + timeline_->width() - right, 0));
}

void StageAxisLink::followHeatmap() {
    if (following_ || !bothDrawn()) return;
    following_ = true;
    const auto [first, last] = heatmap_->stageWindow();
    timeline_->showStages(first, last);
    following_ = false;
}

void StageAxisLink::followTimeline(double first, double last) {
    if (following_ || !bothDrawn()) return;
    following_ = true;
    heatmap_->showStages(first, last);
    following_ = false;
    // The heatmap may have clamped the window (past the last stage, or
    // closer than four stages): the timeline takes the clamped one.
    followHeatmap();
}

}  // namespace poet::ui
