#pragma once
// Text for figures' labels and titles: a figure stays on one line with its
// unit where a label wraps (the summary's title, the teaching caption), and
// what the switches leave out is named the same way everywhere.
#include <QFont>
#include <QString>

#include "problem.h"

namespace poet::ui {

// `text` with the space between a number and a unit of units.h (B, kB, MB,
// GB, J, mJ, µJ, s, ms, µs, %) made a no-break space: the summary's title
// wrapped as "… feasible, 122.2540" with "J" alone on the next line (bert
// at 14.6% and 1.007x, the default window). Other spaces stay as they are.
QString keepFiguresWhole(const QString& text);

// `font` without ligatures, for figures: a PDF's "flash" written with the
// "fl" ligature was not found by a search for "flash" (nor "fits", "traffic").
QFont withoutLigatures(QFont font);

// "no paging", "no recomputation", "no paging, no recomputation", or empty
// where both are on: a figure made with a switch off must say so.
QString switchesOffText(const ProblemOptions& options);

}  // namespace poet::ui
