#include "coll/algorithms.hpp"

namespace strata::coll {

std::span<const Algorithm> exchange_algorithms() { return {}; }

}  // namespace strata::coll
