// Status: the internal error type (abseil-style). Internal code returns a Status; only api/ converts it into an MPI
// error code and runs the error handler, so layers below api/ never touch handles or handlers.
#pragma once
#include <string>
#include <utility>

#include "runtime/error_classes.hpp"

namespace strata {

struct Status {
  int error_class = 0;  // an MPI error class; 0 is success
  std::string message;  // says what was wrong, with the bad value

  bool ok() const { return error_class == 0; }
  static Status success() { return {}; }
};

inline Status error(int error_class, std::string message) { return {error_class, std::move(message)}; }

}  // namespace strata
