// One run of a schedule: resets the dependency counts, issues every vertex whose count is zero, and as vertices
// complete, counts down their successors. Local vertices (reduce, copy, callback) run as soon as they are ready.
// A persistent collective keeps its Execution and calls start() again: nothing is rebuilt or reallocated.
#pragma once
#include <string>
#include <vector>

#include "coll/port.hpp"
#include "coll/schedule.hpp"

namespace strata::coll {

class Execution {
 public:
  Execution(const Schedule& schedule, Port& port);
  void start();
  // Advances what it can without blocking; true once every vertex has completed, or one has failed and the
  // transfers already in flight have drained (their buffers may be released then).
  bool progress();
  bool finished() const { return remaining_ == 0 || (error_ != 0 && in_flight_.empty()); }
  int error() const { return error_; }  // an MPI error class, 0 when fine
  const std::string& message() const { return message_; }

 private:
  void ready(int id);       // dependencies met: issue it
  void completed(int id);   // count down its successors
  void* address(const Buf& b);

  const Schedule& schedule_;
  Port& port_;
  std::vector<char> scratch_storage_;
  char* scratch_ = nullptr;       // 64-byte aligned inside scratch_storage_
  std::vector<int> initial_deps_;  // per vertex, as built: each start copies them into deps_
  std::vector<int> roots_;         // vertices without dependencies, issued at each start
  std::vector<int> deps_;          // remaining dependencies per vertex
  std::vector<int> in_flight_;    // issued sends and receives not yet seen complete
  std::vector<int> local_ready_;  // local vertices ready to run
  int remaining_ = 0;
  bool told_finished_ = true;  // the port heard that the last run finished
  int error_ = 0;
  std::string message_;
};

}  // namespace strata::coll
