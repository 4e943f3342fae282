// The communicator sizes of the in-process sweeps: p = 1..17, powers of two and not (issue 7). The environment
// variable STRATA_SWEEP_SIZES (a comma-separated list) narrows them: scripts/test-sanitized runs the sweeps again under
// ASan and UBSan, to find memory errors rather than wrong results, where a case costs about seven times as much.
#pragma once
#include <vector>

namespace strata::coll::sim {

std::vector<int> sweep_sizes();

}  // namespace strata::coll::sim
