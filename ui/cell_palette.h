#pragma once
// The heatmap's categorical colours (colour-blind safe, after Okabe & Ito),
// chosen so "computed" and "recomputed" stand out against the pale "resident"
// cells, and the flash states read as one warm family; and the hatch that
// marks the flash states where colour is lost.
#include <QColor>
#include <QLineF>
#include <QPen>
#include <QRectF>
#include <vector>

#include "cell_category.h"

namespace poet::ui {

QColor categoryColor(CellCategory c);
// Text colour that stays readable on categoryColor(c).
QColor categoryTextColor(CellCategory c);

// A grayscale print loses the colours' hue: "in RAM" and "on flash only" are
// near in lightness (grays 202 and 213), as are "paged out" and "paged in"
// (151, 162) and "recomputed" and "in RAM + flash" (119, 106). Every state
// with a copy on flash is hatched, paged out falling and the rest rising.
enum class Hatch { None, Rising, Falling };
Hatch categoryHatch(CellCategory c);
// The hatch's lines on the cells `r`, `spacing` apart: a lattice anchored at
// `origin`, so the lines of neighbouring runs meet.
void appendHatch(std::vector<QLineF>& lines, const QRectF& r, Hatch h, double spacing, QPointF origin);
// Its pen for lines `spacing` apart: the cell's text colour, faint, a fifth
// of the spacing wide, its ends flat (square ones ran a line's width past
// the cell, onto the white border).
QPen hatchPen(CellCategory c, double spacing);

}  // namespace poet::ui
