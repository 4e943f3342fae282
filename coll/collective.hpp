// A collective ready to run on a communicator: the algorithm chosen, its schedule built, a port on the
// communicator's collective context, and an execution. Each start takes the tag block of its place in the
// communicator's sequence of collectives, so one built collective can run many times: blocking and nonblocking
// calls reuse it through the communicator's cache (comm_cache.hpp), persistent ones keep it.
#pragma once
#include <memory>
#include <string>

#include "coll/algorithms.hpp"
#include "coll/call_check.hpp"
#include "coll/execution.hpp"
#include "coll/selection.hpp"
#include "coll/transport_port.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// Tag blocks on a communicator's collective context. Blocking and nonblocking collectives start in the same order
// on every member, so they take the blocks of the lower half in turn (the `sequence`-th collective started). A
// persistent collective may be started in different orders on different members, so it keeps one block of the upper
// half from its init on (the `index`-th persistent init on the communicator): its successive starts reuse its tags,
// which is safe because every member finishes a start before the next, and messages do not overtake.
constexpr uint32_t kTagBlocksPerHalf = 0x7fffffffu / kTagsPerCollective / 2;
inline int tag_base(uint32_t sequence) { return static_cast<int>(sequence % kTagBlocksPerHalf) * kTagsPerCollective; }
inline int persistent_tag_base(uint32_t index) {
  return static_cast<int>(kTagBlocksPerHalf + index % kTagBlocksPerHalf) * kTagsPerCollective;
}

class Collective {
 public:
  // Chooses (see selection.hpp) and builds; `forced` is the communicator's info value for the operation, or "".
  static Status create(Operation op, Args args, const Channel& channel, const std::string& forced,
                       std::unique_ptr<Collective>& out);
  // Starts a run with the tags of the block at `tag_base` (see above); the previous run must have finished. `run`
  // numbers it, the same on every member: the communicator's sequence number for a blocking or nonblocking
  // collective, the count of earlier starts for a persistent one.
  void start(int tag_base, uint64_t run);
  bool progress() { return execution_->progress(); }
  bool finished() const { return execution_->finished(); }
  bool running() const { return started_ && !finished(); }
  int error() const { return execution_->error(); }
  const std::string& message() const { return execution_->message(); }
  const Algorithm& algorithm() const { return *choice_.algorithm; }
  const Choice& choice() const { return choice_; }  // and why (selection.hpp)
  const Args& args() const { return args_; }
  const std::string& forced() const { return forced_; }
  std::size_t scratch_bytes() const { return schedule_.scratch_bytes(); }

 private:
  Collective() = default;
  Choice choice_;
  Args args_;  // kept: the schedule may refer to its vectors
  std::string forced_;
  std::unique_ptr<CallCheck> check_;  // STRATA_CHECK_COLL: runs first in the schedule
  Schedule schedule_;
  std::unique_ptr<TransportPort> port_;
  std::unique_ptr<Execution> execution_;
  bool started_ = false;
};

}  // namespace strata::coll
