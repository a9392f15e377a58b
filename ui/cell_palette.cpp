#include "cell_palette.h"

namespace poet::ui {

QColor categoryColor(CellCategory c) {
    switch (c) {
    case CellCategory::ComputedFirst: return QColor(0x00, 0x72, 0xB2);   // blue
    case CellCategory::Recomputed: return QColor(0xD5, 0x5E, 0x00);      // vermillion
    case CellCategory::InRam: return QColor(0xA9, 0xD3, 0xF0);           // pale sky blue
    case CellCategory::OnFlash: return QColor(0xF0, 0xE4, 0x42);         // yellow
    case CellCategory::InRamAndFlash: return QColor(0x00, 0x9E, 0x73);   // bluish green
    case CellCategory::PagedOut: return QColor(0xCC, 0x79, 0xA7);        // reddish purple
    case CellCategory::PagedIn: return QColor(0xE6, 0x9F, 0x00);         // orange
    case CellCategory::Absent: return QColor(0xFF, 0xFF, 0xFF);          // white
    }
    return Qt::white;
}

QColor categoryTextColor(CellCategory c) {
    switch (c) {
    case CellCategory::ComputedFirst:
    case CellCategory::Recomputed:
    case CellCategory::InRamAndFlash: return Qt::white;
    default: return Qt::black;
    }
}

}  // namespace poet::ui
