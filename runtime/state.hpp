// Process-wide state of the MPI library: whether it runs (started by MPI_Init or the first MPI_Session_init,
// stopped by MPI_Finalize when no session is open, or at exit once the last session has ended), the world, the
// thread level.
#pragma once
#include <thread>

#include "runtime/bootstrap.hpp"

namespace strata::runtime {

// Idle: the last session ended without the world model in use. MPI is not initialized then, but the bootstrap and
// the transport stay up, so that a new session (or MPI_Init) can start again, as MPI-4.0 11.3 allows; the library
// stops at exit (api/library.hpp).
enum class Phase { Before, Running, Idle, After };

struct State {
  Phase phase = Phase::Before;  // the library's: Running while the world model or a session is in use
  // Whether the bootstrap and transport are up (running, or idle between sessions).
  bool up() const { return phase == Phase::Running || phase == Phase::Idle; }
  bool world_model = false;     // MPI_Init was called (MPI_Initialized), and
  bool world_finalized = false; // MPI_Finalize too (MPI_Finalized)
  int sessions = 0;             // MPI_Session_init calls not yet finalized
  runtime::World world;
  int thread_level = 0;            // provided (MPI_THREAD_SINGLE = 0 ... MPI_THREAD_MULTIPLE = 3)
  int thread_level_requested = 0;  // what MPI_Init_thread asked for (MPI_INFO_ENV's thread_level)
  std::thread::id main_thread;
};

State& state();

}  // namespace strata::runtime
