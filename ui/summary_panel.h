#pragma once
// The summary panel: a read-only table over SummaryModel (energies against the
// plain pass, runtime and peak RAM against their budgets, counts, source and
// gap) that renders itself as vector text for exports.
#include <QWidget>

#include <vector>

#include "summary_model.h"

class QTableView;
class QLabel;

namespace poet::ui {

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);

    SummaryModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    void setResult(const Problem& problem, const SolveResult& result, const ReplayReport& plain);
    void clear();
    void setTitle(const QString& title);

    // Draws the title and the table into `target`, scaled down as a whole
    // where it is smaller than exportSize() (never a column cut short).
    void renderTo(QPainter& painter, const QRectF& target) const;
    // Wide enough for every column's widest text.
    QSizeF exportSize() const;

private:
    // Each column's width in the export: its widest text (the header and the
    // first column bold) and a gap.
    std::vector<double> columnWidths() const;
    // exportSize() for those widths.
    QSizeF exportSizeFor(const std::vector<double>& widths) const;

    SummaryModel* model_;
    QTableView* table_;
    QLabel* title_;
};

}  // namespace poet::ui
