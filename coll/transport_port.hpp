// The Port of real collectives: one cached transport request per send/receive vertex, posted on the
// communicator's collective context with tags from the run's tag block (so user point-to-point never matches
// them and concurrent collectives on one communicator never match each other). It never drives the progress
// engine itself: the front-ends wait through it, and a poller of the engine runs the nonblocking ones.
#pragma once
#include <cstdint>
#include <vector>

#include "coll/port.hpp"
#include "transport/request.hpp"

namespace strata::coll {

// What the port needs of a communicator (comm/ stays below coll/'s front-ends).
struct Channel {
  uint32_t context = 0;            // the communicator's collective context
  int rank = 0;                    // mine in the communicator
  std::vector<int> world_ranks;    // communicator rank -> world rank
};

class TransportPort : public Port {
 public:
  explicit TransportPort(Channel channel, int tag_base = 0) : channel_(std::move(channel)), tag_base_(tag_base) {}
  void set_tag_base(int tag_base) { tag_base_ = tag_base; }  // before each run
  void prepare(int vertices, int tags) override;
  void send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& type) override;
  void recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) override;
  bool done(int id, int& error, std::string& message) override;

 private:
  Channel channel_;
  int tag_base_;
  std::vector<transport::Request> requests_;  // by vertex: reused by every run
};

}  // namespace strata::coll
