// MPI_Comm_split_type by hardware (MPI-4.0 7.4.2, MPI-4.1 RESOURCE_GUIDED) and the roots ("conduits") communicators
// of the papers' proposals (MPIX_Comm_hsplit_with_roots, MPIX_Comm_hierarchy_create).
//
// One split is one allgather of a fixed-size record per member (split type, key, the value asked for, and the
// member's placement: node and instance of every level); every member then decides the whole split from the same
// records, so the outcome, errors included, is identical everywhere. Then one context slot is agreed on for the
// level communicators (they are disjoint) and, if asked, one for the roots communicator.
//
// Semantics (DESIGN.md, "Hardware levels and splits"):
// - A process belongs to an instance of a level only if its binding lies entirely inside it (topo/placement.hpp).
// - Guided (HW_GUIDED, RESOURCE_GUIDED with mpi_hw_resource_type, SHARED = the Node): the members confined to the
//   same instance as me, on my node; MPI_COMM_NULL when I am confined to none, or when the value is missing, unknown
//   or a level my machine lacks. A level equal to the node or to the parent is still valid.
// - Unguided: the highest level at which some member's group is a strict subset of the parent's group, then guided
//   at that level. With nested levels (caches inside packages inside the node) this is, for every process, the
//   highest level at which its own group is a strict subset; choosing it once for the whole split keeps the result
//   a partition even on machines whose levels do not nest (e.g. NUMA nodes smaller than the L3).
// - Ranks follow the key, ties in parent rank order. The parts are numbered in hardware order (node, then the
//   level's logical index; for the network levels Rack and Switch, whose indexes are job-wide, the index alone):
//   MPIX_Comm_get_hlevel_info's index.
// - The network levels lie above Node (topo/levels.hpp), so from a communicator spanning racks the unguided walk
//   goes Rack -> Switch -> Node -> Package -> ...; a level the job's network lacks is absent, like any other.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "runtime/status.hpp"
#include "topo/levels.hpp"
#include "topo/placement.hpp"

namespace strata::comm {

enum class SplitKind : int32_t { Undefined, Shared, HwGuided, HwUnguided, ResourceGuided };

// What a guided split was asked for: a level, mpi_shared_memory, or why there is none.
enum class Target : int32_t { Level, SharedMemory, NoValue, UnknownValue, PsetName, BothKeys };

struct SplitRequest {
  SplitKind kind = SplitKind::Undefined;
  int key = 0;
  Target target = Target::NoValue;
  topo::Level level = topo::Level::Node;  // for Target::Level
  std::string value;                      // as the caller wrote it, for error messages
};

// What one member sends: fixed size, no pointers.
struct SplitRecord {
  SplitKind kind;
  int32_t key;
  Target target;
  int32_t level;
  uint64_t value_hash;  // tells unknown values apart
  uint32_t node;
  int32_t instance[topo::kLevelCount];
};

SplitRecord make_record(const SplitRequest& request, const topo::Placement& placement);

// The decision, the same on every member. `members`: parent ranks of my part in new-rank order, empty for
// MPI_COMM_NULL. `roots`: parent ranks of the first member of every part, in parent rank order, or of `conduit`
// (a world rank) for the part holding it.
struct SplitPlan {
  Status status;                  // a mismatch between members: every member gets it
  int differing[2] = {-1, -1};    // for a value mismatch: two parent ranks that passed different values
  std::optional<topo::Level> level;
  bool shared_memory = false;     // asked as mpi_shared_memory or MPI_COMM_TYPE_SHARED
  std::vector<int> members;
  int num_parts = 0, part = -1;   // how many parts, and mine in hardware order
  std::vector<int> roots;
  std::vector<std::vector<int>> parts;  // every part's members (parent ranks, new-rank order), in hardware order
};

SplitPlan plan_split(const std::vector<SplitRecord>& records, int me, int conduit_world_rank,
                     const std::vector<int>& world_ranks);

// Everything a hardware split makes for the caller; null pointers where it gets MPI_COMM_NULL.
struct SplitResult {
  std::unique_ptr<Communicator> part;
  std::unique_ptr<Communicator> roots;
  std::optional<topo::Level> level;
  bool shared_memory = false;
};

// Collective over `parent`. `with_roots`: also make the roots communicator, with `conduit_world_rank` (or -1) as
// the root of the part holding it.
Status create_hw_split(const Communicator& parent, const SplitRequest& request, const topo::Placement& placement,
                       bool with_roots, int conduit_world_rank, SplitResult& out);

// The name a hardware communicator reports (MPI_Comm_get_info's mpi_hw_resource_type).
std::string level_value(const SplitResult& r);

}  // namespace strata::comm
