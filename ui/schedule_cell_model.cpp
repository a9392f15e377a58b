#include "schedule_cell_model.h"

#include <QBrush>

#include "cell_palette.h"

namespace poet::ui {

ScheduleCellModel::ScheduleCellModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScheduleCellModel::setSchedule(const Graph& graph, const Schedule& schedule) {
    beginResetModel();
    if (graph.size() == schedule.size()) {
        graph_ = graph;
        schedule_ = schedule;
        grid_ = classifySchedule(schedule);
    } else {
        graph_ = Graph();
        schedule_ = Schedule();
        grid_ = CategoryGrid();
    }
    endResetModel();
}

void ScheduleCellModel::clear() {
    beginResetModel();
    graph_ = Graph();
    schedule_ = Schedule();
    grid_ = CategoryGrid();
    endResetModel();
}

int ScheduleCellModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : grid_.size(); }
int ScheduleCellModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : grid_.size(); }

QVariant ScheduleCellModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const int node = index.row(), stage = index.column();
    const CellCategory c = grid_.at(node, stage);
    switch (role) {
    // "absent" filled nine cells in ten (resnet18_cifar on m4): left blank,
    // the few cells that say something stand out. Screen readers still hear it.
    case Qt::DisplayRole: return c == CellCategory::Absent ? QString() : QString::fromUtf8(categoryName(c));
    case Qt::AccessibleTextRole: return QString::fromUtf8(categoryName(c));
    case Qt::ToolTipRole: return QString::fromStdString(describeCell(graph_, schedule_, stage, node, CellView::Table));
    case Qt::BackgroundRole: return QBrush(categoryColor(c));
    case Qt::ForegroundRole: return QBrush(categoryTextColor(c));
    case CategoryRole: return static_cast<int>(c);
    case CategoryKeyRole: return QString::fromUtf8(categoryKey(c));
    case NodeKindRole: return static_cast<int>(graph_.node(node).kind);
    default: return {};
    }
}

QVariant ScheduleCellModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (section < 0 || section >= grid_.size()) return {};
    if (orientation == Qt::Horizontal) {
        // "stage 4", as the heatmap and timeline say it ("t=4" was a third word).
        if (role == Qt::DisplayRole) return tr("stage %1").arg(section);
        if (role == Qt::ToolTipRole)
            return tr("Stage %1: computes %2 (node %1) for the first time; each cell says where another node's "
                      "output is in that stage")
                .arg(section)
                .arg(QString::fromStdString(graph_.label(section)));
        return {};
    }
    const auto& n = graph_.node(section);
    switch (role) {
    case Qt::DisplayRole: return QString::fromStdString(n.name);
    case Qt::ToolTipRole:
        return tr("%1 (%2, %3)").arg(QString::fromStdString(n.name), QString::fromStdString(kindName(n.kind)),
                                     QString::fromStdString(n.type));
    case NodeKindRole: return static_cast<int>(n.kind);
    default: return {};
    }
}

}  // namespace poet::ui
