#include "legend_placement.h"

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace poet::ui {

namespace {

// Lays the plot out as a draw at `size` would (QCustomPlot::draw runs these
// phases first), leaving the viewport as it was.
void layOut(QCustomPlot* plot, QSize size)
{
    const QRect old = plot->viewport();
    plot->setViewport(QRect(QPoint(0, 0), size));
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot->plotLayout()->update(phase);
    plot->setViewport(old);
}

// What the graphs draw, in the value axis's coordinates with each point's
// horizontal pixel: every point, and a point every two pixels along each
// line between two of them.
struct Sample {
    double x_px, value;
};

std::vector<Sample> drawnSamples(const QCustomPlot* plot)
{
    std::vector<Sample> samples;
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QCPGraph* graph = plot->graph(g);
        if (!graph->visible()) continue;
        const QCPAxis* key = graph->keyAxis();
        const QCPAxis* value = graph->valueAxis();
        const bool lines = graph->lineStyle() != QCPGraph::lsNone;
        std::optional<QPointF> last;  // (pixel x, value) of the point before, where a line joins it
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            if (std::isnan(it->value)) {
                last.reset();  // a gap breaks the line
                continue;
            }
            const QPointF here(key->coordToPixel(it->key), it->value);
            if (lines && last) {
                const double dx = here.x() - last->x();
                const double dy_px = value->coordToPixel(here.y()) - value->coordToPixel(last->y());
                const int steps = std::max(1, static_cast<int>(std::hypot(dx, dy_px) / 2));
                for (int s = 1; s < steps; ++s) {
                    const double f = static_cast<double>(s) / steps;
                    samples.push_back({last->x() + f * dx, last->y() + f * (here.y() - last->y())});
                }
            }
            samples.push_back({here.x(), here.y()});
            last = here;
        }
    }
    return samples;
}

// Half the largest marker, and three pixels: how near the legend's border
// a point may be (one pixel left a marker touching it).
double clearancePx(const QCustomPlot* plot)
{
    double marker = 0;
    for (int g = 0; g < plot->graphCount(); ++g) marker = std::max(marker, plot->graph(g)->scatterStyle().size());
    return marker / 2 + 3;
}

// The most the value range may grow to clear the legend inside the plot.
constexpr double kMostRaised = 1.35;

QRectF legendRectAt(const QRect& within, QSize legend, Qt::Alignment corner)
{
    const double x = corner & Qt::AlignLeft ? within.left() : within.right() + 1 - legend.width();
    const double y = corner & Qt::AlignTop ? within.top() : within.bottom() + 1 - legend.height();
    return QRectF(x, y, legend.width(), legend.height());
}

// The plot layout's row that holds the axis rect.
int axisRectRow(QCustomPlot* plot)
{
    for (int r = 0; r < plot->plotLayout()->rowCount(); ++r)
        if (plot->plotLayout()->element(r, 0) == plot->axisRect()) return r;
    return 0;
}

// The legend in a row of its own above the axis rect, in as many columns
// (up to three) as the plot's width holds, read across.
void putLegendAbove(QCustomPlot* plot, QSize size)
{
    QCPLegend* legend = plot->legend;
    plot->axisRect()->insetLayout()->take(legend);
    const int row = axisRectRow(plot);
    plot->plotLayout()->insertRow(row);
    plot->plotLayout()->addElement(row, 0, legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
    // Right under it: the top margin kept for a top axis (none is shown) and
    // the rows' spacing left a band as tall as a legend line.
    plot->plotLayout()->setRowSpacing(0);
    plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    plot->axisRect()->setMargins(QMargins(0, 4, 0, 0));
    // The row spans the plot: a frame around it would box the whole width.
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    // Read across, the entries of several lines last: a grid's row is as
    // tall as its tallest entry, and "no schedule fits: …" beside POET left
    // a gap of three lines under it.
    std::vector<QCPAbstractLegendItem*> items;
    for (int i = 0; i < legend->itemCount(); ++i) items.push_back(legend->item(i));
    std::stable_partition(items.begin(), items.end(), [](QCPAbstractLegendItem* item) {
        auto* p = qobject_cast<QCPPlottableLegendItem*>(item);
        return !p || !p->plottable()->name().contains(QLatin1Char('\n'));
    });
    for (QCPAbstractLegendItem* item : items) legend->take(item);
    legend->simplify();
    for (QCPAbstractLegendItem* item : items) legend->addElement(item);
    for (int columns = 3; columns >= 1; --columns) {
        legend->setWrap(columns);  // entries per row
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        layOut(plot, size);
        if (columns == 1 || legend->minimumOuterSizeHint().width() <= size.width()) break;
    }
}

}  // namespace

void takeLegendBackIntoPlot(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    if (!legend || legend->layout() == plot->axisRect()->insetLayout()) return;
    plot->plotLayout()->take(legend);
    plot->plotLayout()->simplify();
    plot->plotLayout()->setRowSpacing(5);  // QCustomPlot's own
    plot->axisRect()->setAutoMargins(QCP::msAll);
    legend->setWrap(0);  // one column
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
    plot->axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
}

int placeLegendClearOfData(QCustomPlot* plot, QSize size)
{
    const Qt::Alignment top_right = Qt::AlignTop | Qt::AlignRight;
    QCPLayoutInset* inset = plot->axisRect()->insetLayout();
    if (!plot->legend || !plot->legend->visible() || size.isEmpty()) return top_right;
    takeLegendBackIntoPlot(plot);
    layOut(plot, size);
    const QRect corners_rect = inset->rect();  // the axis rect less the inset's margins (12 px)
    const QSize legend = plot->legend->outerRect().size();
    const double clearance = clearancePx(plot);
    const QCPAxis* value_axis = plot->yAxis;

    const std::array<Qt::Alignment, 4> corners = {top_right, Qt::AlignTop | Qt::AlignLeft,
                                                  Qt::AlignBottom | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignRight};
    std::vector<Sample> samples = drawnSamples(plot);
    for (const Qt::Alignment corner : corners) {
        const QRectF keep_clear =
            legendRectAt(corners_rect, legend, corner).adjusted(-clearance, -clearance, clearance, clearance);
        const bool covers = std::any_of(samples.begin(), samples.end(), [&](const Sample& s) {
            return keep_clear.contains(s.x_px, value_axis->coordToPixel(s.value));
        });
        if (!covers) {
            inset->setInsetAlignment(0, corner);
            return corner;
        }
    }

    // Every corner covers data: top right, with the range's top raised until
    // the highest value under the legend is `clearance` below it. With the
    // legend's bottom at fraction f of the axis rect's height from its top,
    // a value v is clear where v <= upper - f (upper - lower), so
    // upper >= (v - f lower) / (1 - f). The new tick labels may shift the
    // axis rect sideways, so it is laid out and checked again (twice more
    // at most). Where that would take more than kMostRaised of the range,
    // the legend goes above the plot instead: a paper figure's data sat in
    // its bottom half under an empty band of ticks no energy reached.
    inset->setInsetAlignment(0, top_right);
    const QCPRange before = value_axis->range();
    for (int pass = 0; pass < 3; ++pass) {
        if (pass > 0) {
            layOut(plot, size);
            samples = drawnSamples(plot);
        }
        const QRect axis_rect = plot->axisRect()->rect();
        const QRectF at = legendRectAt(inset->rect(), legend, top_right);
        const double f = (at.bottom() + clearance - axis_rect.top()) / std::max(1, axis_rect.height());
        const QCPRange range = value_axis->range();
        double upper = range.upper;
        if (f < 0.9)  // else a legend near the plot's height: squeezing the data under it helps no one
            for (const Sample& s : samples)
                if (s.x_px >= at.left() - clearance && s.x_px <= at.right() + clearance)
                    upper = std::max(upper, (s.value - f * range.lower) / (1 - f));
        if (f >= 0.9 || upper - range.lower > kMostRaised * before.size()) {
            plot->yAxis->setRange(before);
            putLegendAbove(plot, size);
            return 0;
        }
        if (upper <= range.upper) break;
        plot->yAxis->setRangeUpper(upper);
    }
    return top_right;
}

}  // namespace poet::ui
