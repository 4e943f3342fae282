#include "runtime/state.hpp"

namespace strata::runtime {

State& state() {
  static State s;
  return s;
}

}  // namespace strata::runtime
