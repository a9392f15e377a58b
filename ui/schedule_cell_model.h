#pragma once
// The schedule as a table: one row per node, one column per stage, each cell
// one CellCategory. The heatmap draws from the same classification; this model
// makes it inspectable (tests, accessibility, a table view if wanted).
#include <QAbstractTableModel>
#include <memory>

#include "cell_category.h"
#include "graph.h"
#include "schedule.h"

namespace poet::ui {

class ScheduleCellModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        CategoryRole = Qt::UserRole + 1,  // int(CellCategory)
        CategoryKeyRole,                  // QString categoryKey()
        NodeKindRole,                     // int(NodeKind), on rows (headerData, Vertical) and cells
    };

    explicit ScheduleCellModel(QObject* parent = nullptr);

    void setSchedule(const Graph& graph, const Schedule& schedule);
    void clear();
    const CategoryGrid& grid() const { return grid_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Graph graph_;
    Schedule schedule_;
    CategoryGrid grid_;
};

}  // namespace poet::ui
