#pragma once
// A schedule built from a bucket bound's solution (bucket_bound.h).
//
// Where the spare time is scarce, the bucket bound's optimum on the
// stage-peak stage and the last stages already chooses nearly every
// recomputation a good schedule makes: the cheap batch-norm, add and ReLU
// values it brings back by recomputing rather than paging, across the
// whole backward pass (its buckets run from the peak stage to their
// reads). Recomputing each of them in the stage that ends its bucket, and
// paging the rest exactly (pagedExactly, plan_search.h), gives a schedule
// the solve's other searches do not find. resnet18_cifar on m4 at 1.001x,
// from the last nine stages' optimum: at 20% 0.685731 J in 0.01 s, 0.34%
// over that bound (the solve's best had been 0.688323 J, 0.71%); at 22%
// 0.671381 J, that bound itself (so optimal; the solve's 0.678694 J was
// 1.08% short); bert at 14.2% and 1.001x proven in 34 s (0.86% short at
// 120 s before). At 1.002x and up the tails spend the spare time on values
// whose inputs the schedule must hold through stages no tail sees, and
// such schedules are 2 to 4% over the solve's: so only where scarce.
#include <atomic>
#include <optional>
#include <vector>

#include "bucket_bound.h"
#include "deadline.h"
#include "problem.h"
#include "schedule.h"

namespace poet {

// The plain pass with `recomputations` added, each value recomputed in the
// stage that ends its bucket; one whose bucket no read ends (an input
// recomputed for another recomputation) in the first stage after its
// bucket starts that recomputes a reader of it. Where an input of a
// recomputed value is itself recomputed in a later stage, it is recomputed
// with it instead and held from there (the bound lets an input come back
// anywhere in a bucket that meets the reader's). Cost-free values (the
// network's input) are left as the plain pass has them.
BoolMatrix computePlanFromBound(const Graph& g, const std::vector<BoundRecomputation>& recomputations);

// That compute plan paged exactly; empty where no paging fits it in the RAM
// budget, or `deadline` passes or `cancel` is set first. Not replayed here:
// the caller judges it as any other schedule.
std::optional<Schedule> scheduleFromBound(const Problem& problem, const std::vector<BoundRecomputation>& recomputations,
                                          Clock::time_point deadline, const std::atomic<bool>* cancel = nullptr);

}  // namespace poet
