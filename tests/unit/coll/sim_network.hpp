// N simulated ranks in one process, for testing collective algorithms without processes: every rank's schedule runs
// on a SimPort into one shared network. Sends are eager (packed when posted); a receive matches the oldest message
// from its peer with its tag, as MPI's non-overtaking rule requires. A publish is a block every one of its readers
// takes once, as from the node segment: it waits while the writer's previous block in its area (by tag, as
// NodeSegment::area) is not taken by all its readers, and a read takes only the block of its writer, tag and readers.
// A larger block also waits for the one 4 tags away, whose area shares its payload in a rotating slot: the pool's
// sharing (tags 16 apart in one run) is part of that, so an algorithm that finishes here finishes with either.
#pragma once
#include <deque>
#include <span>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "coll/execution.hpp"
#include "coll/port.hpp"
#include "coll/schedule.hpp"

namespace strata::coll::sim {

class SimNetwork;

class SimPort : public Port {
 public:
  SimPort(SimNetwork& net, int rank) : net_(net), rank_(rank) {}
  void prepare(int vertices, int tags) override;
  void send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& type) override;
  void recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) override;
  void publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
               const datatype::TypeRef& type) override;
  void read(int id, int writer, std::span<const int> readers, int tag, void* buf, std::size_t count,
            const datatype::TypeRef& type, const datatype::Op* op, int type_handle) override;
  bool done(int id, int& error, std::string& message) override;

 private:
  struct Pending {
    enum class Kind { kMessage, kPublish, kRead } kind = Kind::kMessage;
    std::vector<int> readers;  // publish, read
    const void* from = nullptr;  // publish
    const datatype::Op* op = nullptr;  // read: combine instead of copy
    int type_handle = 0;
    bool receiving = false;
    bool complete = false;
    int peer = 0, tag = 0;
    void* buf = nullptr;
    std::size_t count = 0;
    datatype::TypeRef type;
  };
  // A fresh record for vertex `id`.
  Pending& post(int id, Pending::Kind kind, int peer, int tag, std::size_t count, const datatype::TypeRef& type);
  bool publish_done(int id);
  bool read_done(int id, int& error, std::string& message);
  SimNetwork& net_;
  int rank_;
  std::vector<Pending> pending_;
};

class SimNetwork {
 public:
  explicit SimNetwork(int ranks);
  Port& port(int rank) { return *ports_[rank]; }
  int size() const { return static_cast<int>(ports_.size()); }
  // Messages posted and not yet received, per (source, destination, tag).
  std::map<std::tuple<int, int, int>, std::deque<std::vector<char>>> mailbox;
  // The node areas: per (writer, tag % NodeSegment::kAreasPerWriter), the block there, its tag and readers, and who
  // has not taken it yet.
  struct Area {
    std::vector<char> bytes;
    int tag = -1;
    std::vector<int> readers, waiting;
  };
  std::map<std::pair<int, int>, Area> areas;
  std::size_t messages_sent = 0;
  std::size_t messages_received = 0;

 private:
  std::vector<std::unique_ptr<SimPort>> ports_;
};

// Builds every rank's schedule with `build(rank, schedule)`, runs them all round-robin until each has finished,
// and returns "" or what went wrong ("deadlock: ranks 1, 3 still waiting", a failed transfer's message).
std::string run_all(int ranks, const std::function<void(int, Schedule&)>& build);

}  // namespace strata::coll::sim
