#include "summary_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "status_line.h"
#include "units.h"

namespace poet::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
QString ratioText(double a, double b) { return b > 0 ? q(formatRatio(a / b)) : QString(); }
QString percentOf(double a, double b) {
    return b > 0 ? QString::number(100.0 * a / b, 'f', 1) + QStringLiteral(" %") : QString();
}
}  // namespace

SummaryModel::SummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void SummaryModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void SummaryModel::setResult(const Problem& problem, const SolveResult& result, const ReplayReport& plain) {
    beginResetModel();
    rows_.clear();
    const ReplayReport& r = result.replay;
    const bool has = result.schedule.has_value();
    auto add = [&](QString key, QString name, QString value, QString ref, QString ratio, QString tip, double raw,
                   bool warn = false) {
        rows_.push_back(Row{std::move(key), std::move(name), std::move(value), std::move(ref), std::move(ratio),
                            std::move(tip), raw, warn});
    };
    add("status", tr("Status"), statusPhrase(result), QString(), QString(),
        tr("optimal: proven best (within the gap shown, where there is one); feasible: a schedule, not proven best; "
           "infeasible: proven that no schedule meets the budgets."),
        static_cast<double>(result.status));
    // "Schedule from", not "Source": under "optimal within 0.21 %", "Source: a
    // quick schedule" read as a contradiction (a heuristic's schedule that a
    // bound proves is both).
    add("source", tr("Schedule from"), sourcePhrase(result.source), QString(), QString(),
        tr("Where the schedule came from: a quick schedule (a heuristic), the solve cache, the solver's search "
           "(its incumbent), or the solver with a proof within the gap shown. Whether it is proven is the status "
           "above: a bound may prove a quick schedule optimal. In the JSON file: \"%1\".")
            .arg(QString::fromUtf8(toString(result.source))),
        static_cast<double>(result.source));
    // A schedule shown while the solve runs has no bound yet (its gap is 0,
    // which is not "proven"). Without a schedule there is no gap: the row
    // stood empty.
    const bool bounded = result.best_bound_j > 0;
    if (has)
        add("gap", tr("Gap"), bounded ? q(formatGapPercent(result.gap)) : tr("not known yet"), QString(), QString(),
            tr("Relative distance between this schedule's energy and the best proven lower bound.") +
                (bounded ? QString() : tr(" The solve has proven no bound yet.")),
            result.gap);
    // Also where no schedule was found in time: what any schedule would cost
    // at least (remat-only at a tight budget, against paging on). The
    // message names the bound only where there is a schedule.
    if (result.best_bound_j > 0 && result.status != SolveStatus::Infeasible)
        add("best_bound_j", tr("Lower bound"),
            q(has ? formatEnergyLike(result.best_bound_j, r.total_energy_j) : formatEnergy(result.best_bound_j)),
            QString(), QString(),
            tr("No schedule for these budgets uses less energy than this.") +
                (!has || result.message.empty() ? QString() : QStringLiteral(" ") + asSentence(q(result.message))),
            result.best_bound_j);
    if (has) {
        // One reference for the whole column: the plain pass (the budgets
        // are in the title and the tooltips). A column that compared energy
        // with the plain pass and runtime with the budget read 0.69x for a
        // schedule that runs 1.04x a plain pass. The energies are in the
        // total's unit: "38.296 mJ" stood under "3.4407 J".
        const double total = r.total_energy_j;
        add("compute_energy_j", tr("Compute energy"), q(formatEnergyLike(r.compute_energy_j, total)),
            q(formatEnergyLike(plain.compute_energy_j, total)), ratioText(r.compute_energy_j, plain.compute_energy_j),
            tr("Energy spent computing layers, recomputations included, against one plain pass."),
            r.compute_energy_j);
        add("paging_energy_j", tr("Paging energy"), q(formatEnergyLike(r.paging_energy_j, total)),
            q(formatEnergyLike(plain.paging_energy_j, total)), QString(),
            tr("Energy spent writing outputs to flash and reading them back (a plain pass pages nothing)."),
            r.paging_energy_j);
        add("total_energy_j", tr("Total energy"), q(formatEnergy(total)),
            q(formatEnergyLike(plain.total_energy_j, total)),
            ratioText(total, plain.total_energy_j),
            tr("Compute plus paging energy of one training iteration, against one plain pass."), total);
        const double rtBudget = problem.runtimeBudgetSeconds();
        add("runtime_s", tr("Runtime (compute)"), q(formatSeconds(r.runtime_s)), q(formatSeconds(plain.runtime_s)),
            ratioText(r.runtime_s, plain.runtime_s),
            tr("Compute time of the schedule against one plain pass; the runtime budget is %1 (%2 one plain "
               "pass), of which the schedule uses %3.")
                .arg(q(formatSeconds(rtBudget)), q(formatFactor(problem.runtime_budget_factor)),
                     percentOf(r.runtime_s, rtBudget)),
            r.runtime_s, rtBudget > 0 && r.runtime_s > rtBudget * (1 + 1e-9));
        add("peak_ram_bytes", tr("Peak RAM"), q(formatBytes(r.peak_ram_bytes)), q(formatBytes(plain.peak_ram_bytes)),
            ratioText(static_cast<double>(r.peak_ram_bytes), static_cast<double>(plain.peak_ram_bytes)),
            (r.peak_stage >= 0 ? tr("Most RAM in use at any moment: %1 at stage %2.")
                                     .arg(q(formatBytesExact(r.peak_ram_bytes)))
                                     .arg(r.peak_stage)
                               : tr("Most RAM in use at any moment.")) +
                QStringLiteral(" ") +
                tr("The RAM budget is %1, of which the schedule uses %2.")
                    .arg(q(formatBytesExact(problem.ram_budget_bytes)),
                         percentOf(static_cast<double>(r.peak_ram_bytes),
                                   static_cast<double>(problem.ram_budget_bytes))),
            static_cast<double>(r.peak_ram_bytes), r.peak_ram_bytes > problem.ram_budget_bytes);
        add("recomputations", tr("Recomputations"),
            r.free_recomputations > 0 ? tr("%1 (%2 free)").arg(r.recomputations).arg(r.free_recomputations)
                                      : QString::number(r.recomputations),
            QString(), QString(),
            tr("Layers computed again because their output was freed to save RAM (rematerialization).") +
                (r.free_recomputations > 0
                     ? tr(" %n of them cost nothing: a node with no compute cost (the input) read again.", nullptr,
                          r.free_recomputations)
                     : QString()),
            r.recomputations);
        add("page_ins", tr("Page-ins"), QString::number(r.page_ins), QString(), QString(),
            tr("Outputs read back from flash."), r.page_ins);
        add("page_outs", tr("Page-outs"), QString::number(r.page_outs), QString(), QString(),
            tr("Outputs written to flash."), r.page_outs);
        if (!r.valid)
            add("replay", tr("Replay"), tr("INVALID"), QString(), QString(),
                QString::fromStdString(r.errors.empty() ? std::string() : r.errors.front()), 0, true);
    }
    if (!has) {
        // No schedule (infeasible, none in time, cancelled): the plain
        // pass still gives the scale, and the tooltips the budgets to hold
        // against it. Its column stood empty in the infeasible view.
        const QString none = tr("none");
        const double rtBudget = problem.runtimeBudgetSeconds();
        add("total_energy_j", tr("Total energy"), none, q(formatEnergy(plain.total_energy_j)), QString(),
            tr("No schedule, so no energy; one plain pass uses %1.").arg(q(formatEnergy(plain.total_energy_j))),
            0);
        add("runtime_s", tr("Runtime (compute)"), none, q(formatSeconds(plain.runtime_s)), QString(),
            tr("The runtime budget is %1 (%2 one plain pass).")
                .arg(q(formatSeconds(rtBudget)), q(formatFactor(problem.runtime_budget_factor))),
            0);
        add("peak_ram_bytes", tr("Peak RAM"), none, q(formatBytes(plain.peak_ram_bytes)), QString(),
            tr("The RAM budget is %1, %2 of the plain-pass peak.")
                .arg(q(formatBytesExact(problem.ram_budget_bytes)),
                     percentOf(static_cast<double>(problem.ram_budget_bytes),
                               static_cast<double>(plain.peak_ram_bytes))),
            0);
    }
    add("solve_time_s", tr("Solve time"), q(formatSeconds(result.solve_time_s)), QString(), QString(),
        tr("Wall-clock time of the solve."), result.solve_time_s);
    endResetModel();
}

int SummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}
int SummaryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

int SummaryModel::rowOf(const QString& key) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].key == key) return static_cast<int>(i);
    return -1;
}

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Quantity: return row.name;
        case Value: return row.value;
        case Reference: return row.reference;
        case Ratio: return row.ratio;
        default: return {};
        }
    case Qt::ToolTipRole: return row.tooltip;
    case Qt::ForegroundRole:
        if (row.warn && index.column() == Value) return QBrush(QColor(0xC0, 0x1B, 0x1B));
        return {};
    case Qt::FontRole:
        if (index.column() == Quantity) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        // Figures align right; the status (words, spanning the row: see
        // SummaryPanel::setResult) starts under "This schedule".
        return index.column() == Quantity || row.key == QLatin1String("status")
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case RawValueRole: return row.raw;
    case KeyRole: return row.key;
    default: return {};
    }
}

QVariant SummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    // Nothing said what "Ratio" divides.
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Value: return tr("The schedule shown, at the budgets in the title");
        case Reference: return tr("The plain pass: every layer computed once, every output kept until its last "
                                  "reader ran, nothing paged");
        case Ratio: return tr("This schedule's figure divided by the plain pass's");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Quantity: return tr("Quantity");
    case Value: return tr("This schedule");
    case Reference: return tr("Plain pass");
    case Ratio: return tr("Ratio");
    default: return {};
    }
}

}  // namespace poet::ui
