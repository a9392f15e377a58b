#include "copyable_table_view.h"

#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <algorithm>

namespace poet::ui {

QString CopyableTableView::selectionAsTsv() const {
    const QModelIndexList picked = selectionModel() ? selectionModel()->selectedIndexes() : QModelIndexList{};
    if (picked.isEmpty() || !model()) return {};
    int top = picked.front().row(), bottom = top, left = picked.front().column(), right = left;
    for (const QModelIndex& i : picked) {
        top = std::min(top, i.row());
        bottom = std::max(bottom, i.row());
        left = std::min(left, i.column());
        right = std::max(right, i.column());
    }
    // A tab or line break inside a text would shift the spreadsheet's cells.
    const auto field = [](const QVariant& v) {
        return v.toString().replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    QStringList lines;
    QStringList head{QString()};
    for (int c = left; c <= right; ++c) head << field(model()->headerData(c, Qt::Horizontal));
    lines << head.join(QLatin1Char('\t'));
    for (int r = top; r <= bottom; ++r) {
        QStringList cells{field(model()->headerData(r, Qt::Vertical))};
        for (int c = left; c <= right; ++c) cells << field(model()->index(r, c).data());
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void CopyableTableView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        if (const QString tsv = selectionAsTsv(); !tsv.isEmpty()) QApplication::clipboard()->setText(tsv);
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

}  // namespace poet::ui
