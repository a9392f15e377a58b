#include "summary_panel.h"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "figure_text.h"

namespace poet::ui {

SummaryPanel::SummaryPanel(QWidget* parent) : QWidget(parent) {
    model_ = new SummaryModel(this);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(title_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("summaryTable"));
    table_->setModel(model_);
    // Tab leaves it (the arrow keys walk its rows): it kept Tab for its
    // cells, and the teaching panel after it was out of the keyboard's reach.
    table_->setTabKeyNavigation(false);
    table_->verticalHeader()->hide();
    // Fit the panel's width: the names, the plain pass's figures and the
    // ratios take what they need, and this schedule's column the rest. Where
    // that is short, its texts are elided, not the ratios ("1...x" when they
    // took the rest, at the default window size); the longest, the status
    // ("optimal within 0.21 %"), spans the empty cells beside it
    // (setResult).
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SummaryModel::Value, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("0.00x")));
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setShowGrid(false);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    table_->setToolTip(tr("Figures of the replayed schedule. Hover a row for what it means."));
    lay->addWidget(table_);
    setAccessibleName(tr("Summary"));
}

void SummaryPanel::setResult(const Problem& problem, const SolveResult& result, const ReplayReport& plain) {
    model_->setResult(problem, result, plain);
    // The status has no plain-pass figure or ratio: it takes their cells
    // too, so "optimal within 0.50 %" is whole at the default window size
    // (it read "optimal w...in 0.50 %").
    table_->clearSpans();
    if (const int row = model_->rowOf(QStringLiteral("status")); row >= 0)
        table_->setSpan(row, SummaryModel::Value, 1, SummaryModel::ColumnCount - SummaryModel::Value);
}

void SummaryPanel::clear() {
    model_->clear();
    table_->clearSpans();  // the status row's, which the next setResult places again
}

// The title wraps at the panel's width (and the export's).
void SummaryPanel::setTitle(const QString& title) { title_->setText(keepFiguresWhole(title)); }

std::vector<double> SummaryPanel::columnWidths() const {
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    const int cols = model_->columnCount();
    std::vector<double> widths(static_cast<std::size_t>(cols), 0);
    for (int c = 0; c < cols; ++c) {
        widths[c] = QFontMetricsF(bold).horizontalAdvance(model_->headerData(c, Qt::Horizontal).toString());
        for (int row = 0; row < model_->rowCount(); ++row)
            widths[c] = std::max(widths[c], QFontMetricsF(c == 0 ? bold : base)
                                                .horizontalAdvance(model_->index(row, c).data().toString()));
        widths[c] += QFontMetricsF(base).height() * 1.2;
    }
    return widths;
}

QSizeF SummaryPanel::exportSize() const { return exportSizeFor(columnWidths()); }

QSizeF SummaryPanel::exportSizeFor(const std::vector<double>& widths) const {
    const QFontMetricsF fm(font());
    double table = 0;
    for (double w : widths) table += w;
    const double pad = fm.height() * 0.6;
    return QSizeF(std::max(fm.height() * 30, table + 2 * pad), fm.height() * (model_->rowCount() + 4) * 1.5);
}

void SummaryPanel::renderTo(QPainter& p, const QRectF& target) const {
    p.save();
    p.fillRect(target, Qt::white);
    // Squeezing the columns instead cut their texts short ("lain pass / budget").
    const std::vector<double> widths = columnWidths();
    const QSizeF natural = exportSizeFor(widths);
    const double s = std::min({1.0, target.width() / natural.width(), target.height() / natural.height()});
    p.translate(target.topLeft());
    p.scale(s, s);
    const QFont base = withoutLigatures(font());
    const QFontMetricsF fm(base);
    const double pad = fm.height() * 0.6, rowH = fm.height() * 1.5;
    QRectF r = QRectF(QPointF(0, 0), target.size() / s).adjusted(pad, pad, -pad, -pad);
    QFont bold = base;
    bold.setBold(true);
    p.setPen(Qt::black);
    if (!title_->text().isEmpty()) {
        p.setFont(bold);
        const QRectF tr(r.left(), r.top(), r.width(), rowH * 1.6);
        p.drawText(tr, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title_->text());
        r.setTop(tr.bottom());
    }
    const int cols = model_->columnCount();
    auto drawRow = [&](double y, int row, bool header) {
        double x = r.left();
        for (int c = 0; c < cols; ++c) {
            const double w = widths[c];
            const QString text = header ? model_->headerData(c, Qt::Horizontal).toString()
                                        : model_->index(row, c).data().toString();
            p.setFont(header || c == 0 ? bold : base);
            QColor ink = Qt::black;
            if (!header) {
                const QVariant fg = model_->index(row, c).data(Qt::ForegroundRole);
                if (fg.canConvert<QBrush>()) ink = fg.value<QBrush>().color();
            }
            p.setPen(ink);
            const Qt::Alignment a = c == 0 ? Qt::AlignLeft : Qt::AlignRight;
            p.drawText(QRectF(x, y, w - fm.height() * 0.6, rowH), a | Qt::AlignVCenter, text);
            x += w;
        }
    };
    drawRow(r.top(), -1, true);
    p.setPen(QPen(Qt::black, 0));
    p.drawLine(QPointF(r.left(), r.top() + rowH), QPointF(r.right(), r.top() + rowH));
    for (int row = 0; row < model_->rowCount(); ++row) {
        const double y = r.top() + rowH * (row + 1);
        if (row % 2) p.fillRect(QRectF(r.left(), y, r.width(), rowH), QColor(0xF3, 0xF3, 0xF3));
        drawRow(y, row, false);
    }
    p.restore();
}

}  // namespace poet::ui
