// A communicator's hardware hierarchy as one rank sees it, for the topology-aware algorithms: the groups holding
// this rank, from the whole communicator down, each cut into parts at the next level. The cuts are the decision
// MPIX_Comm_hierarchy_create makes (comm::plan_split with HW_UNGUIDED, level after level), but no communicator is
// made: the algorithms address the parts' ranks on the communicator itself (Schedule::embed), so nothing has to be
// agreed on, and a nonblocking or persistent collective can use it at once.
//
// A rank knows only the groups holding it in detail. The first cuts of a communicator spanning nodes are by the
// network levels (Rack, then Switch, where the job has them: topo/network.hpp) and then by node, and every rank
// knows every rank's node and that node's racks and switches (job-level launcher data); all later cuts lie inside
// this rank's node, where it knows every process's binding (topo/peers.hpp). So the ranks of one group always agree
// on its parts, which is all the algorithms need: a group's parts only ever talk among themselves. Members confined
// to no instance of a cut's level (unbound processes) are parts of their own.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "runtime/status.hpp"
#include "topo/network.hpp"
#include "topo/placement.hpp"

namespace strata::coll {

struct Hierarchy {
  struct Level {
    std::vector<int> members;             // the group holding me: communicator ranks, ascending
    std::vector<std::vector<int>> parts;  // its parts at the next level, each ascending, in hardware order
    int mine = 0;                         // the part holding me
    std::string name;                     // the level of the cut ("Node", "L3Cache", ...); "" for single processes
  };
  std::vector<Level> levels;  // from the whole communicator down; the last one's part holding me is me alone
  // Where each communicator rank lies as this rank knows it: exactly on my node, by its node and network levels
  // only elsewhere (elsewhere()); so topo::distance is exact between two ranks of my node and, across nodes, says
  // whether they share a switch or a rack (7, 8) or nothing (9).
  std::vector<topo::Placement> placements;

  // The first cut is by a network level or by node.
  bool spans_nodes() const;
};

// How a rank on another node is seen: on `node`, in its racks and switches (`network`'s), confined to no instance
// below the node. The second form keeps what `seen` says of the node and the network levels.
topo::Placement elsewhere(uint32_t node, const topo::Network& network = {});
topo::Placement elsewhere(const topo::Placement& seen);

// `placements[r]`: where communicator rank r lies; for ranks on other nodes than `me`'s only the node matters.
Hierarchy make_hierarchy(const std::vector<topo::Placement>& placements, int me);

// Whether `c`'s members are on more than one node (the job's node map: no topology needed).
bool spans_nodes(const comm::Communicator& c);

// The hierarchy of `c` for this rank, from the job's node map and network levels and the bindings of this node's
// processes; null (reason in `status`) when this node's machine or a binding cannot be read.
std::shared_ptr<const Hierarchy> hierarchy_of(const comm::Communicator& c, Status& status);

// Where a rooted collective enters a part: the root if the part holds it, else the part's lowest rank. The leader
// of a group is then also the leader of its part holding it, so data never has to come back up.
int leader(const std::vector<int>& part, int root);

}  // namespace strata::coll
