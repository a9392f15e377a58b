#pragma once
// Text for labels that wrap at their width (the summary's title, the
// teaching caption): a figure stays on one line with its unit.
#include <QString>

namespace poet::ui {

// `text` with the space between a number and a unit of units.h (B, KB, MB,
// GB, J, mJ, µJ, s, ms, µs, %) made a no-break space: the summary's title
// wrapped as "… feasible, 122.2540" with "J" alone on the next line (bert
// at 14.6% and 1.007x, the default window). Other spaces stay as they are.
QString keepFiguresWhole(const QString& text);

}  // namespace poet::ui
