// The Port of real collectives: one cached transport request per send/receive vertex, posted on the
// communicator's collective context with tags from the run's tag block (so user point-to-point never matches
// them and concurrent collectives on one communicator never match each other). It never drives the progress
// engine itself: the front-ends wait through it, and a poller of the engine runs the nonblocking ones. Publishes and
// reads go through the communicator's node segment (node_segment.hpp), in the run's slot.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "coll/node_segment.hpp"
#include "coll/port.hpp"
#include "transport/request.hpp"

namespace strata::coll {

// What the port needs of a communicator (comm/ stays below coll/'s front-ends).
struct Channel {
  uint32_t context = 0;            // the communicator's collective context
  int rank = 0;                    // mine in the communicator
  std::vector<int> world_ranks;    // communicator rank -> world rank
  std::shared_ptr<NodeSegment> node;                // the node's shared memory, or null
  std::shared_ptr<const std::vector<int>> node_index;  // communicator rank -> index in `node`, -1 elsewhere
};

class TransportPort : public Port {
 public:
  explicit TransportPort(Channel channel, int tag_base = 0) : channel_(std::move(channel)), tag_base_(tag_base) {}
  ~TransportPort() override { run_finished(); }
  // Before each run: its tag block and its number, the same on every member (it tells the runs' blocks apart in
  // the node segment).
  void set_run(int tag_base, uint64_t run);
  void prepare(int vertices, int tags) override;
  void send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& type) override;
  void recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) override;
  void publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
               const datatype::TypeRef& type) override;
  void read(int id, int writer, std::span<const int> readers, int tag, void* buf, std::size_t count,
            const datatype::TypeRef& type, const datatype::Op* op, int type_handle) override;
  bool done(int id, int& error, std::string& message) override;
  void run_finished() override;

 private:
  // A publish or read waiting for its area.
  struct Shared {
    enum class Kind : uint8_t { kNone, kPublish, kRead } kind = Kind::kNone;  // kNone: a message vertex
    NodeSegment::Place place;  // area null: this run has no slot (an internal error, reported by done())
    uint64_t use = 0;
    uint64_t mask = 0;  // the readers
    const void* from = nullptr;  // publish
    void* to = nullptr;          // read
    const datatype::Op* op = nullptr;  // read: combine instead of copy
    int type_handle = 0;
    std::size_t count = 0;
    datatype::TypeRef type;
    bool complete = false;
  };
  void post(Shared::Kind kind, int id, int writer, std::span<const int> readers, int tag, std::size_t count,
            const datatype::TypeRef& type);
  bool publish_done(Shared& s, int& error, std::string& message);
  bool read_done(Shared& s, int& error, std::string& message);

  Channel channel_;
  int tag_base_;
  int slot_ = -1;
  uint64_t run_ = 0;
  int tags_ = 0;  // the schedule's
  bool under_way_ = false;  // counted in the node segment's runs under way
  bool pooled_ = false;     // this run's larger blocks go in the writer's pool (node_segment.hpp, Payloads)
  std::vector<transport::Request> requests_;  // by vertex: reused by every run
  std::vector<Shared> shared_;                // by vertex
};

}  // namespace strata::coll
