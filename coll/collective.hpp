// A collective ready to run on a communicator: the algorithm chosen, its schedule built, a port with its own tag
// block on the communicator's collective context, and an execution. Blocking calls start and wait; nonblocking
// ones start and leave it to the progress engine; persistent ones (later) keep it and start it again.
#pragma once
#include <memory>
#include <string>

#include "coll/algorithms.hpp"
#include "coll/execution.hpp"
#include "coll/transport_port.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// The tag block of the `sequence`-th collective started on a communicator (every member counts the same).
inline int tag_base(uint32_t sequence) {
  return static_cast<int>(sequence % (0x7fffffffu / kTagsPerCollective)) * kTagsPerCollective;
}

class Collective {
 public:
  // Chooses (see selection.hpp) and builds; `forced` is the communicator's info value for the operation, or "".
  static Status create(Operation op, Args args, Channel channel, uint32_t sequence, const std::string& forced,
                       std::unique_ptr<Collective>& out);
  void start() { execution_->start(); }
  bool progress() { return execution_->progress(); }
  bool finished() const { return execution_->finished(); }
  int error() const { return execution_->error(); }
  const std::string& message() const { return execution_->message(); }
  const Algorithm& algorithm() const { return *algorithm_; }

 private:
  Collective() = default;
  const Algorithm* algorithm_ = nullptr;
  Args args_;  // kept: the schedule may refer to its vectors
  Schedule schedule_;
  std::unique_ptr<TransportPort> port_;
  std::unique_ptr<Execution> execution_;
};

}  // namespace strata::coll
