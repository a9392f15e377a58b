#pragma once
// A table whose Ctrl+C copies the selected block as tab-separated text with
// its row and column headers, for a spreadsheet or a paper's table; Qt's own
// copies the current cell's word alone.
#include <QTableView>

namespace poet::ui {

class CopyableTableView : public QTableView {
    Q_OBJECT
public:
    using QTableView::QTableView;

    // The selection's bounding block: a first row of column headers, then
    // each row's header and its cells' shown text, tab-separated. Empty
    // without a selection.
    QString selectionAsTsv() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace poet::ui
