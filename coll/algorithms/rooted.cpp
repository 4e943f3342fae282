#include "coll/algorithms.hpp"

namespace strata::coll {

std::span<const Algorithm> rooted_algorithms() { return {}; }

}  // namespace strata::coll
