#pragma once
// The summary of one result as a table: quantity, this schedule, one plain
// pass, and the ratio of the two (the budgets are in the tooltips). Every figure comes
// from the replay of the schedule (and of the plain pass), never from the
// solver's variables.
#include <QAbstractTableModel>
#include <QString>
#include <cstdint>
#include <vector>

#include "problem.h"
#include "replay.h"
#include "solve_result.h"

namespace poet::ui {

class SummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Quantity, Value, Reference, Ratio, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole + 1, KeyRole };

    explicit SummaryModel(QObject* parent = nullptr);

    // `plain` is the replay of the plain pass on the same graph.
    void setResult(const Problem& problem, const SolveResult& result, const ReplayReport& plain);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Row by key, e.g. "total_energy_j" (the exported field names); -1 if absent.
    int rowOf(const QString& key) const;

private:
    struct Row {
        QString key, name, value, reference, ratio, tooltip;
        double raw = 0;
        bool warn = false;  // e.g. over budget
    };
    std::vector<Row> rows_;
};

}  // namespace poet::ui
