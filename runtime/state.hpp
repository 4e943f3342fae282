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
  int thread_level = 0;            // provided (MPI_THREAD_SINGLE = 0 ... MPI_THREAD_MULTIPLE = 3)
  int thread_level_requested = 0;  // what MPI_Init_thread asked for (MPI_INFO_ENV's thread_level)
  std::thread::id main_thread;
};

State& state();

}  // namespace strata::runtime
