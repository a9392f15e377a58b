#pragma once
// A value's way back into RAM after a stage where it is away, as columns of
// a lower bound's MILP (checkpoint_bound.h, bucket_bound.h): a page-in,
// which needs the value's one page-out, or a recomputation, which takes
// spare runtime; at most one of them per return.
#include <algorithm>
#include <limits>
#include <vector>

#include "cbc_setup.h"
#include "formulation.h"
#include "problem.h"

namespace poet {

class ReturnColumns : public BinaryMilpBuilder {
protected:
    struct Return {
        int paged = -1, recomputed = -1;  // columns, or -1 where that way is closed
    };

    // The runtime row; no page-outs yet.
    explicit ReturnColumns(const Problem& problem) : paged_out_(problem.graph.size(), -1)
    {
        const double spare = problem.spareRuntimeSeconds();
        time_ = addRow(-std::numeric_limits<double>::max(), std::max(spare, 0.0));
    }

    // One more return of value i (costs in model units: `scale` per joule).
    Return addReturn(const Problem& problem, int i, double scale)
    {
        constexpr double kInf = std::numeric_limits<double>::max();
        const Node& node = problem.graph.node(i);
        Return back;
        if (problem.options.paging) {
            back.paged = addColumn(scale * node.pagein_energy_j);
            if (paged_out_[i] < 0) paged_out_[i] = addColumn(scale * node.pageout_energy_j);
            const int source = addRow(0, kInf);
            term(source, paged_out_[i], 1);
            term(source, back.paged, -1);
        }
        if (recomputableInTightForm(problem, i)) {
            back.recomputed = addColumn(scale * node.compute_energy_j);
            term(time_, back.recomputed, node.compute_time_s);
        }
        const int one = addRow(-kInf, 1);
        term(one, back.paged, 1);
        term(one, back.recomputed, 1);
        return back;
    }

    // Value i's page-out column, -1 before its first return with paging.
    int pagedOut(int i) const { return paged_out_[i]; }

private:
    std::vector<int> paged_out_;  // per value: its page-out column, or -1
    int time_ = -1;
};

}  // namespace poet
