#include "flow_row.h"

#include <QStyle>
#include <QWidget>
#include <algorithm>

namespace poet::ui {

FlowRow::FlowRow(QWidget* parent) : QLayout(parent) {}

FlowRow::~FlowRow() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowRow::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowRow::takeAt(int index) {
    return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

int FlowRow::gap() const {
    if (spacing() >= 0) return spacing();
    const QWidget* owner = parentWidget();
    return owner ? owner->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, owner) : 6;
}

int FlowRow::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowRow::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowRow::sizeHint() const {
    int width = 0, height = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        width += (width > 0 ? gap() : 0) + item->sizeHint().width();
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return QSize(width + m.left() + m.right(), height + m.top() + m.bottom());
}

void FlowRow::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowRow::arrange(const QRect& rect, bool place) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const QMargins m = contentsMargins();
    int y = area.y();
    QList<QLayoutItem*> line;
    int lineWidth = 0;
    // One line: each item at its size hint, centred on the line's height.
    const auto finishLine = [&] {
        int lineHeight = 0;
        for (const QLayoutItem* item : line) lineHeight = std::max(lineHeight, item->sizeHint().height());
        if (place) {
            int x = area.x();
            for (QLayoutItem* item : line) {
                const QSize size = item->sizeHint().boundedTo(QSize(area.width(), lineHeight));
                const int left = item->alignment() & Qt::AlignRight ? area.right() + 1 - size.width() : x;
                item->setGeometry(QRect(QPoint(std::max(left, x), y + (lineHeight - size.height()) / 2), size));
                x += size.width() + gap();
            }
        }
        y += lineHeight + gap();
        line.clear();
        lineWidth = 0;
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        const int width = item->sizeHint().width();
        if (!line.isEmpty() && lineWidth + gap() + width > area.width()) finishLine();
        lineWidth += (line.isEmpty() ? 0 : gap()) + width;
        line.append(item);
    }
    if (!line.isEmpty()) finishLine();
    return std::max(0, y - gap() - area.y()) + m.top() + m.bottom();
}

}  // namespace poet::ui
