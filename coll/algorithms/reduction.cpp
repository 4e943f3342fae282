#include "coll/algorithms.hpp"

namespace strata::coll {

std::span<const Algorithm> reduction_algorithms() { return {}; }

}  // namespace strata::coll
