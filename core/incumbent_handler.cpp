#include "incumbent_handler.h"

namespace poet {

double searchBound(const CbcModel& model, const IncumbentHandler::Shared& shared, double floor)
{
    if (shared.lp_stopped) return std::max(floor, shared.tree_bound);
    return provenLowerBound(model, floor, shared.stopped_by_clock);
}

}  // namespace poet
