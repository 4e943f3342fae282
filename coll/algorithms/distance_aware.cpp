#include "coll/algorithms.hpp"

namespace strata::coll {

std::span<const Algorithm> distance_aware_algorithms() { return {}; }

}  // namespace strata::coll
