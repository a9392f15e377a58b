#include "cell_palette.h"

#include <algorithm>
#include <cmath>

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

Hatch categoryHatch(CellCategory c) {
    switch (c) {
    case CellCategory::OnFlash:
    case CellCategory::InRamAndFlash:
    case CellCategory::PagedIn: return Hatch::Rising;
    case CellCategory::PagedOut: return Hatch::Falling;
    default: return Hatch::None;
    }
}

void appendHatch(std::vector<QLineF>& lines, const QRectF& r, Hatch h, double spacing, QPointF origin) {
    if (h == Hatch::None || !(spacing > 0) || r.isEmpty()) return;
    // Rising lines are x + y = d, falling ones x - y = d (y grows down); d
    // steps by spacing * sqrt(2), so lines stand `spacing` apart.
    const double step = spacing * std::sqrt(2.0);
    const bool rising = h == Hatch::Rising;
    const double o = rising ? origin.x() + origin.y() : origin.x() - origin.y();
    const double dLo = rising ? r.left() + r.top() : r.left() - r.bottom();
    const double dHi = rising ? r.right() + r.bottom() : r.right() - r.top();
    for (double k = std::ceil((dLo - o) / step); o + k * step < dHi; ++k) {
        const double d = o + k * step;
        // Where the line crosses the rectangle: x within the sides, y too.
        const double xa = std::max(r.left(), rising ? d - r.bottom() : d + r.top());
        const double xb = std::min(r.right(), rising ? d - r.top() : d + r.bottom());
        if (xb <= xa) continue;
        const auto y = [&](double x) { return rising ? d - x : x - d; };
        lines.emplace_back(xa, y(xa), xb, y(xb));
    }
}

QPen hatchPen(CellCategory c, double spacing) {
    QColor ink = categoryTextColor(c);
    ink.setAlpha(110);
    return QPen(ink, spacing / 5, Qt::SolidLine, Qt::FlatCap);
}

}  // namespace poet::ui
