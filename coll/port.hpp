// What an Execution needs from a network: post a send, a receive, a publish or a read (schedule.hpp) for a vertex,
// and learn when it has completed.
// TransportPort (transport_port.*) is the real one; the unit tests use an in-memory network of simulated ranks.
#pragma once
#include <cstddef>
#include <span>
#include <string>

#include "datatype/datatype.hpp"
#include "datatype/op.hpp"

namespace strata::coll {

class Port {
 public:
  virtual ~Port() = default;
  // Prepares for a schedule of `vertices` vertices using `tags` tags (called once per Execution).
  virtual void prepare(int vertices, int tags) = 0;
  // Starts moving `count` elements of `type` at `buf` to / from `peer` with schedule tag `tag`, for vertex `id`.
  virtual void send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& type) = 0;
  virtual void recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) = 0;
  // Copies `count` elements of `type` at `buf` into this rank's area of the node's shared memory for `readers`, or
  // out of `writer`'s (schedule.hpp); with `op`, a read combines the block into `buf` instead (buf = block op buf,
  // `type_handle` the handle a user function receives).
  virtual void publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
                       const datatype::TypeRef& type) = 0;
  virtual void read(int id, int writer, std::span<const int> readers, int tag, void* buf, std::size_t count,
                    const datatype::TypeRef& type, const datatype::Op* op, int type_handle) = 0;
  // Whether vertex `id`'s transfer has completed; a failed one (a truncated receive: counts that do not match
  // across ranks) fills `error` (an MPI error class) and `message`.
  virtual bool done(int id, int& error, std::string& message) = 0;
  // Lets the network move (the real port runs the progress engine; the simulated one does nothing).
  virtual void poll() {}
  // The run has finished here: every vertex completed, or a failure drained (once per run).
  virtual void run_finished() {}
};

}  // namespace strata::coll
