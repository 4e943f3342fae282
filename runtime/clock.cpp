#include "runtime/clock.hpp"

#include <time.h>

namespace strata::runtime {

double wtime() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wtick() {
  timespec res;
  clock_getres(CLOCK_MONOTONIC, &res);
  return static_cast<double>(res.tv_sec) + 1e-9 * static_cast<double>(res.tv_nsec);
}

}  // namespace strata::runtime
