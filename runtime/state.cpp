#include "runtime/state.hpp"

#include "runtime/lasting.hpp"

namespace strata::runtime {

State& state() {
  static auto& s = runtime::lasting<State>();
  return s;
}

}  // namespace strata::runtime
