#include "api/state.hpp"

namespace strata::api {

State& state() {
  static State s;
  return s;
}

}  // namespace strata::api
