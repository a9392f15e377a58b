#pragma once
// The heatmap's categorical colours (colour-blind safe, after Okabe & Ito),
// chosen so "computed" and "recomputed" stand out against the pale "resident"
// cells, and the flash states read as one warm family.
#include <QColor>

#include "cell_category.h"

namespace poet::ui {

QColor categoryColor(CellCategory c);
// Text colour that stays readable on categoryColor(c).
QColor categoryTextColor(CellCategory c);

}  // namespace poet::ui
