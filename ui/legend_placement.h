#pragma once
// Where a plot's legend goes so that it hides no data: a figure for a paper
// must not cover a curve (an energy-vs-budget sweep has flat baselines,
// e.g. Chen's √n, across the top right where the legend used to sit).
#include <QSize>

class QCustomPlot;

namespace poet::ui {

// Lays `plot` out at `size` (its size on screen, or the exported figure's)
// and puts its legend (inset 0 of its axis rect) in the first corner of
// top right, top left, bottom left and bottom right where it covers no
// point and no line of a graph (graphs on xAxis and yAxis). Where every
// corner covers some, it stays top right and yAxis's range grows upwards
// until the data under the legend is clear of it; where that would grow
// the range by more than a third, the legend goes in a row of its own above
// the axis rect instead (in up to three columns). Returns the corner's
// alignment flags, or 0 for the row above.
int placeLegendClearOfData(QCustomPlot* plot, QSize size);

// Puts a legend placed above the axis rect back into it (top right, one
// column), as a plot drawn afresh expects it.
void takeLegendBackIntoPlot(QCustomPlot* plot);

}  // namespace poet::ui
