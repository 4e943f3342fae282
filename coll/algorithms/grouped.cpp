#include "coll/algorithms.hpp"

namespace strata::coll {

std::span<const Algorithm> grouped_algorithms() { return {}; }

}  // namespace strata::coll
