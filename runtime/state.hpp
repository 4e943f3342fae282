// Process-wide state of the MPI library: the initialisation phase (MPI_Init / MPI_Finalize), the world, the
// thread level.
#pragma once
#include <thread>

#include "runtime/bootstrap.hpp"

namespace strata::runtime {

enum class Phase { Before, Running, After };

struct State {
  Phase phase = Phase::Before;
  runtime::World world;
  int thread_level = 0;
  std::thread::id main_thread;
};

State& state();

}  // namespace strata::runtime
