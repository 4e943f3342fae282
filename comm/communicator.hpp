// A communicator as the layers below api/ see it.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/bootstrap.hpp"
#include "runtime/info.hpp"

namespace strata::coll {
class CommCache;
}

namespace strata::comm {

struct ProcessTopology;  // process_topology.hpp

// Each communicator owns a block of context ids: point-to-point uses the first, collectives the next, partitioned
// communication the third (api/partitioned.cpp), so their messages never match each other.
constexpr uint32_t kContextsPerComm = 3;

// What a hardware split records on the communicators it makes (MPIX_Comm_get_hlevel_info): the level's name as
// mpi_hw_resource_type values spell it, how many communicators the split made from the same parent, and this
// one's index among them in hardware order.
struct HwLevel {
  std::string type;
  int num_comms = 0;
  int index = -1;
};

struct Communicator {
  uint32_t context = 0;
  int rank = 0;
  int size = 0;
  std::vector<int> world_ranks;  // communicator rank -> world rank (an intercommunicator's: the local group)
  std::vector<int> remote_world_ranks;  // an intercommunicator's remote group; empty for an intracommunicator
  std::string name;
  int errhandler = 0;  // owned by api/: opaque here
  runtime::Info hints;                                     // given at creation or by MPI_Comm_set_info
  std::vector<std::pair<int, void*>> attributes;           // (keyval, value), owned by api/
  std::optional<HwLevel> hw_level;  // set by hardware splits only
  std::shared_ptr<const ProcessTopology> topology;  // a Cartesian or graph one, if made so (dups share it)
  uint32_t idups_started = 0;  // MPI_Comm_idup calls on this communicator, the same sequence on every member
  uint32_t collectives_started = 0;  // collectives started on it (their tag blocks), the same on every member
  uint32_t persistent_collectives = 0;  // persistent collectives made on it (their tag blocks), the same everywhere
  uint32_t partitioned_tags = 0;  // data tags handed to this process's partitioned sends on it (api/partitioned.cpp)
  // What coll/ keeps for this communicator (built collectives), made at its first collective. Never shared: a
  // communicator is not copied.
  std::shared_ptr<coll::CommCache> collectives;

  int world_rank(int r) const { return world_ranks[r]; }
  bool inter() const { return !remote_world_ranks.empty(); }
  // The ranks point-to-point names: the remote group's in an intercommunicator (MPI-4.0 7.6.1).
  int peer_count() const { return inter() ? static_cast<int>(remote_world_ranks.size()) : size; }
  int peer_world_rank(int r) const { return inter() ? remote_world_ranks[r] : world_ranks[r]; }
  int slot() const { return static_cast<int>(context / kContextsPerComm); }
  uint32_t collective_context() const { return context + 1; }
  uint32_t partitioned_context() const { return context + 2; }
};

Communicator make_world(const runtime::World& world);
Communicator make_self(const runtime::World& world);

}  // namespace strata::comm
